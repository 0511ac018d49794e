import { strict as assert } from 'assert';
import { HoverHold } from '../../../src/views/hoverHold';
import type { MessageNode, TreeNode } from '../../../src/views/treeNodes';

function row(id: string): MessageNode {
  return { kind: 'message', id, severity: 'info', text: id };
}

describe('views/HoverHold', () => {
  const cluster = row('c');
  const group = row('c/g');
  const member = row('c/g/m');
  const other = row('c/h');
  const parents = new Map<TreeNode, TreeNode>([
    [group, cluster],
    [member, group],
    [other, cluster],
  ]);
  const lineage = (node: TreeNode): TreeNode[] => {
    const nodes: TreeNode[] = [];
    for (let n: TreeNode | undefined = node; n; n = parents.get(n)) {
      nodes.push(n);
    }
    return nodes;
  };
  let fired: Array<TreeNode | undefined>;
  let timers: Array<{ callback: () => void; ms: number; cleared: boolean }>;
  let hold: HoverHold;

  beforeEach(() => {
    fired = [];
    timers = [];
    hold = new HoverHold((node) => fired.push(node), lineage, {
      holdMs: 4000,
      setTimer: (callback, ms) => {
        const timer = { callback, ms, cleared: false };
        timers.push(timer);
        return timer;
      },
      clearTimer: (handle) => {
        (handle as { cleared: boolean }).cleared = true;
      },
    });
  });

  it('passes every refresh through while nothing is hovered', () => {
    hold.changed(group);
    hold.changed(undefined);
    assert.deepEqual(fired, [group, undefined]);
  });

  it('holds refreshes of the hovered row, its ancestors and the whole tree, and fires each once when the hold ends', () => {
    hold.hovered(member);
    hold.changed(group);
    hold.changed(member);
    hold.changed(group);
    hold.changed(other);
    assert.deepEqual(fired, [other], 'a row outside the hovered one\'s lineage refreshes at once');
    assert.equal(timers[0].ms, 4000);
    timers[0].callback();
    assert.deepEqual(fired, [other, group, member]);
  });

  it('fires the whole tree alone when it was held among rows', () => {
    hold.hovered(group);
    hold.changed(group);
    hold.changed(undefined);
    hold.release();
    assert.deepEqual(fired, [undefined]);
  });

  it('ends the previous hold when another row is hovered', () => {
    hold.hovered(member);
    hold.changed(member);
    hold.hovered(other);
    assert.deepEqual(fired, [member]);
    assert.ok(timers[0].cleared);
    hold.changed(member);
    assert.deepEqual(fired, [member, member], 'member is outside the new hold');
  });

  it('drops what it held when disposed', () => {
    hold.hovered(member);
    hold.changed(group);
    hold.dispose();
    assert.deepEqual(fired, []);
    assert.ok(timers[0].cleared);
  });
});
