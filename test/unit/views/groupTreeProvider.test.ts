/**
 * The provider over the vscode stub: a row whose tooltip the editor opened (resolveTreeItem) is not
 * replaced by a background refresh until the hold ends; other rows refresh at once.
 */
import { strict as assert } from 'assert';
import { SourceRegistry } from '../../../src/sources/sourceRegistry';
import type { GroupNode, MemberNode, TreeNode } from '../../../src/views/treeNodes';
import { FakeControl, FakeSource, groupDetail, member, offsets } from './fakeSource';
import { installFreshVscodeStub, StubHost } from './vscodeStub';

type ProviderModule = typeof import('../../../src/views/groupTreeProvider');
type ModelModule = typeof import('../../../src/views/groupTreeModel');

describe('views/GroupTreeProvider (vscode stub)', () => {
  let uninstall: () => void;
  let providerModule: ProviderModule;
  let modelModule: ModelModule;

  before(() => {
    uninstall = installFreshVscodeStub(new StubHost());
    /* eslint-disable @typescript-eslint/no-require-imports -- loaded after the stub is installed */
    providerModule = require('../../../src/views/groupTreeProvider') as ProviderModule;
    modelModule = require('../../../src/views/groupTreeModel') as ModelModule;
    /* eslint-enable @typescript-eslint/no-require-imports */
  });

  after(() => uninstall());

  it('holds the refresh of a hovered member\'s group until the hold ends, and lets other groups refresh', async () => {
    const source = new FakeSource('sim', 'Demo');
    const payments = (end: number) =>
      groupDetail('payments', { members: [member('m-1', { assignment: [{ topic: 'orders', partition: 0 }] })], offsets: [offsets('orders', 0, 5, end, 'm-1')] });
    source.put(payments(10)).put(groupDetail('audit', { offsets: [offsets('logs', 0, 1, 1)] }));
    const registry = new SourceRegistry();
    registry.add({ source, control: new FakeControl() });
    const model = new modelModule.GroupTreeModel(registry);
    const timers: Array<() => void> = [];
    const provider = new providerModule.GroupTreeProvider(model, { holdMs: 4000, setTimer: (callback) => timers.push(callback), clearTimer: () => undefined });
    const fired: Array<TreeNode | undefined> = [];
    provider.onDidChangeTreeData((node) => fired.push(node));
    try {
      const [cluster] = await provider.getChildren();
      await model.refresh();
      const [audit, group] = (await provider.getChildren(cluster)) as GroupNode[];
      const [memberRow] = (await provider.getChildren(group)) as MemberNode[];
      provider.resolveTreeItem(provider.getTreeItem(memberRow), memberRow);
      fired.length = 0;

      source.put(payments(20)).put(groupDetail('audit', { offsets: [offsets('logs', 0, 1, 3)] }));
      await model.refresh();
      assert.deepEqual(fired, [audit], 'payments waits: its member\'s tooltip is open');
      timers[0]();
      assert.deepEqual(fired, [audit, group]);
    } finally {
      provider.dispose();
      model.dispose();
      await registry.disposeAll();
    }
  });
  it('refreshes a cluster row the editor last read as "loading…" when a background reload reports only its groups', async () => {
    const source = new FakeSource('sim', 'Demo');
    source.put(groupDetail('audit', { offsets: [offsets('logs', 0, 1, 1)] }));
    const registry = new SourceRegistry();
    registry.add({ source, control: new FakeControl() });
    const model = new modelModule.GroupTreeModel(registry);
    const provider = new providerModule.GroupTreeProvider(model);
    const fired: Array<TreeNode | undefined> = [];
    provider.onDidChangeTreeData((node) => fired.push(node));
    try {
      const [cluster] = await provider.getChildren();
      assert.match(String(provider.getTreeItem(cluster).description), /loading…/);
      // The first load reports the cluster row; here the editor drops that change and never reads the row again.
      await model.refresh();
      const [audit] = (await provider.getChildren(cluster)) as GroupNode[];
      fired.length = 0;

      source.put(groupDetail('audit', { offsets: [offsets('logs', 0, 1, 4)] }));
      await model.refresh();
      assert.deepEqual(fired, [cluster], 'the stale cluster row is refreshed, and with it the group under it');
      assert.doesNotMatch(String(provider.getTreeItem(cluster).description), /loading…/);

      fired.length = 0;
      source.put(groupDetail('audit', { offsets: [offsets('logs', 0, 1, 9)] }));
      await model.refresh();
      assert.deepEqual(fired, [audit], 'once the editor has read the cluster row, only the changed group is reported');
    } finally {
      provider.dispose();
      model.dispose();
      await registry.disposeAll();
    }
  });
});
