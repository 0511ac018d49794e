import { strict as assert } from 'assert';
import type { GroupDetail, GroupSummary } from '../../../src/model/types';
import { detailBatches, mergeListing, runBatches } from '../../../src/views/groupDetailRounds';
import { GroupTreeModel } from '../../../src/views/groupTreeModel';
import { SourceRegistry } from '../../../src/sources/sourceRegistry';
import type { ClusterNode, GroupNode, TreeNode } from '../../../src/views/treeNodes';
import { groupDescription } from '../../../src/views/groupTreeRows';
import { FakeSource, groupDetail, offsets, summaryOf } from './fakeSource';

function listed(groupId: string, overrides: Partial<GroupSummary> = {}): GroupSummary {
  return { groupId, state: 'Empty', protocolType: 'consumer', groupType: 'classic', assignor: '', coordinator: null, memberCount: 0, totalLag: null, detailsPending: true, ...overrides };
}

const ids = (n: number, prefix = 'g'): string[] => Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(3, '0')}`);

/** A source that lists first and loads details on request, one call in flight or more, as the test lets it. */
class TwoPhaseSource extends FakeSource {
  readonly detailCalls: string[][] = [];
  inFlight = 0;
  mostInFlight = 0;
  /** When set, each loadGroupDetails waits for it. */
  detailGate: Promise<void> | undefined;

  constructor() {
    super('kafka-1', 'Production', 'kafka');
  }

  async listGroupsOnly(): Promise<GroupSummary[]> {
    this.calls.push('listGroupsOnly');
    return [...this.groups.values()].map((d) => listed(d.groupId, { state: d.state, groupType: d.groupType }));
  }

  async loadGroupDetails(groupIds: readonly string[]): Promise<GroupDetail[]> {
    this.detailCalls.push([...groupIds]);
    this.inFlight++;
    this.mostInFlight = Math.max(this.mostInFlight, this.inFlight);
    try {
      await (this.detailGate ?? Promise.resolve());
      return groupIds.map((id) => this.groups.get(id)).filter((d): d is GroupDetail => d !== undefined);
    } finally {
      this.inFlight--;
    }
  }
}

async function waitUntil(what: string, check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) {
    await new Promise((resolve) => setImmediate(resolve));
  }
  assert.ok(check(), `timed out waiting until ${what}`);
}

describe('views/groupDetailRounds', () => {
  describe('detailBatches', () => {
    it('fetches the opened groups and the visible rows first, then the rest of the shown rows, then every other group', () => {
      const groups = ids(10).map((id) => listed(id));
      // The filter shows g009..g004 (sorted descending); g001 is opened though filtered out.
      const shown = groups.slice(4).reverse();
      const batches = detailBatches({ groups, shown, opened: new Set(['g001', 'gone']) }, { visibleRows: 2, batchSize: 3, inFlight: 1 });
      assert.deepEqual(batches, [['g001', 'g009', 'g008'], ['g007', 'g006', 'g005'], ['g004', 'g000', 'g002'], ['g003']]);
      assert.equal(new Set(batches.flat()).size, 10, 'each group once');
    });

    it('cuts 20,000 groups into batches of the batch size after a first batch of about a screen', () => {
      const groups = ids(20000).map((id) => listed(id));
      const batches = detailBatches({ groups, shown: groups, opened: new Set() });
      assert.equal(batches[0].length, 100);
      assert.ok(batches.slice(1, -1).every((b) => b.length === 5000));
      assert.equal(batches.flat().length, 20000);
    });
  });

  describe('runBatches', () => {
    it('runs the batches in order, at most `inFlight` at once, and starts none after one says stop', async () => {
      const started: string[] = [];
      let running = 0;
      let most = 0;
      await runBatches([['a'], ['b'], ['c'], ['d'], ['e']], 2, async ([id]) => {
        started.push(id);
        running++;
        most = Math.max(most, running);
        await new Promise((resolve) => setImmediate(resolve));
        running--;
        return id !== 'b';
      });
      assert.equal(most, 2);
      assert.deepEqual(started, ['a', 'b', 'c'], 'c had started beside b; d and e never start');
    });
  });

  describe('mergeListing', () => {
    it('keeps a loaded group\'s figures with the newer state, shows a new group as listed, and starts over on a type change', () => {
      const loaded = { ...summaryOf(groupDetail('a', { offsets: [offsets('t', 0, 1, 5)] })), state: 'Stable' as const };
      const retyped = summaryOf(groupDetail('b'));
      const merged = mergeListing([loaded, retyped], [listed('a', { state: 'Empty' }), listed('b', { groupType: 'consumer' }), listed('c')]);
      assert.deepEqual(merged, [{ ...loaded, state: 'Empty' }, listed('b', { groupType: 'consumer' }), listed('c')]);
      assert.equal(mergeListing([loaded], [listed('a', { state: 'Stable' })])[0], loaded, 'an unchanged row keeps its object');
    });
  });

  describe('GroupTreeModel with a source that lists first', () => {
    let registry: SourceRegistry;
    let source: TwoPhaseSource;
    let data: GroupTreeModel;
    let changes: Array<TreeNode | undefined>;

    beforeEach(() => {
      registry = new SourceRegistry();
      source = new TwoPhaseSource();
      for (const id of ids(25)) {
        source.put(groupDetail(id, { offsets: [offsets('t', 0, 1, 4)] }));
      }
      registry.add({ source });
      data = new GroupTreeModel(registry, { detailBatchLimits: { visibleRows: 5, batchSize: 10, inFlight: 2 } });
      changes = [];
      data.onDidChange((node) => changes.push(node));
    });

    afterEach(() => data.dispose());

    const rows = async (cluster: ClusterNode): Promise<GroupNode[]> => (await data.children(cluster)).filter((n): n is GroupNode => n.kind === 'group');

    it('shows every row as listed before any detail arrives, then fills them in batches, two at a time', async () => {
      let open!: () => void;
      source.detailGate = new Promise((resolve) => (open = resolve));
      const [cluster] = data.roots();
      await data.children(cluster);
      await waitUntil('the first details batches are asked', () => source.detailCalls.length === 2);
      const listedRows = await rows(cluster);
      assert.equal(listedRows.length, 25, 'every row is there before the details');
      assert.ok(listedRows.every((r) => r.summary.detailsPending));
      assert.equal(groupDescription(listedRows[0].summary), 'Empty · details pending');
      open();
      await waitUntil('every batch is loaded', () => source.detailCalls.length === 3 && source.inFlight === 0);
      await waitUntil('the last batch is applied', () => cluster.state.status === 'loaded' && cluster.state.groups.every((g) => !g.detailsPending));
      assert.deepEqual(source.detailCalls.map((c) => c.length), [5, 10, 10]);
      assert.equal(source.mostInFlight, 2, 'at most two details batches of a cluster in flight');
      assert.ok((await rows(cluster)).every((r) => r.summary.totalLag === 3));
    });

    it('drops an automatic refresh that comes while a details round runs, and queues a manual one', async () => {
      const [cluster] = data.roots();
      await data.children(cluster);
      await waitUntil('the first load ends', () => cluster.state.status === 'loaded' && cluster.state.groups.every((g) => !g.detailsPending));
      let open!: () => void;
      source.detailGate = new Promise((resolve) => (open = resolve));
      source.calls.length = 0;
      const first = data.refresh();
      await waitUntil('the round asks its first batches', () => source.inFlight === 2);
      const automatic = data.refresh();
      open();
      await Promise.all([first, automatic]);
      assert.deepEqual(source.calls.filter((c) => c === 'listGroupsOnly'), ['listGroupsOnly'], 'one round: the interval tick inside it is dropped');
      source.calls.length = 0;
      source.detailGate = new Promise((resolve) => (open = resolve));
      const second = data.refresh();
      await waitUntil('the round asks its first batches', () => source.inFlight === 2);
      const manual = data.refresh(undefined, true);
      open();
      await Promise.all([second, manual]);
      assert.deepEqual(source.calls.filter((c) => c === 'listGroupsOnly'), ['listGroupsOnly', 'listGroupsOnly'], 'the user\'s Refresh runs once more');
    });

    it('fetches an opened group first on the next refresh, and never shows a loaded row as pending again', async () => {
      const [cluster] = data.roots();
      await data.children(cluster);
      await waitUntil('the first load ends', () => cluster.state.status === 'loaded' && cluster.state.groups.every((g) => !g.detailsPending));
      const opened = (await rows(cluster)).find((r) => r.summary.groupId === 'g020') as GroupNode;
      await data.children(opened);
      source.detailCalls.length = 0;
      let open!: () => void;
      source.detailGate = new Promise((resolve) => (open = resolve));
      changes.length = 0;
      const refreshed = data.refresh();
      await waitUntil('the first details batches are asked', () => source.detailCalls.length === 2);
      assert.deepEqual(source.detailCalls[0], ['g020', 'g000', 'g001', 'g002', 'g003', 'g004']);
      assert.ok((await rows(cluster)).every((r) => !r.summary.detailsPending && r.summary.totalLag === 3), 'rows keep their figures while the details reload');
      open();
      await refreshed;
      assert.ok(!changes.includes(cluster), 'nothing changed: the cluster row is not reported');
    });
  });
});
