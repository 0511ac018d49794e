import { strict as assert } from 'assert';
import { GroupTreeModel, OPENED_GROUP_REFRESH_MS } from '../../../src/views/groupTreeModel';
import { SourceRegistry } from '../../../src/sources/sourceRegistry';
import type { ClusterNode, GroupNode, MemberNode, MessageNode, PartitionNode, TreeNode } from '../../../src/views/treeNodes';
import type { GroupDetail } from '../../../src/model/types';
import { FakeControl, FakeSource, groupDetail, member, offsets } from './fakeSource';

function nextChange(data: GroupTreeModel): Promise<TreeNode | undefined> {
  return new Promise((resolve) => {
    const unsubscribe = data.onDidChange((node) => {
      unsubscribe();
      resolve(node);
    });
  });
}

function labels(nodes: TreeNode[]): string[] {
  return nodes.map((n) => (n.kind === 'group' ? n.summary.groupId : n.kind === 'message' ? `${n.severity}:${n.text}` : n.kind));
}

describe('views/GroupTreeModel', () => {
  let registry: SourceRegistry;
  let source: FakeSource;
  let errors: string[];
  let changedSources: string[];
  let data: GroupTreeModel;

  beforeEach(() => {
    registry = new SourceRegistry();
    source = new FakeSource('sim', 'Demo');
    source.put(groupDetail('payments', { members: [member('m-1')] })).put(groupDetail('audit'));
    registry.add({ source, control: new FakeControl() });
    errors = [];
    changedSources = [];
    data = new GroupTreeModel(registry, { logError: (m) => errors.push(m), onSourceChanged: (id) => changedSources.push(id) });
  });

  afterEach(() => data.dispose());

  async function loadedCluster(): Promise<ClusterNode> {
    const [cluster] = data.roots();
    const changed = nextChange(data);
    await data.children(cluster);
    assert.equal(await changed, cluster);
    return cluster;
  }

  it('shows a loading row first, then reports the cluster node and lists its groups sorted by id', async () => {
    const [cluster] = data.roots();
    const changed = nextChange(data);
    assert.deepEqual(labels(await data.children(cluster)), ['loading:Loading consumer groups…']);
    assert.equal(await changed, cluster, 'the same cluster object is reported, so only it refreshes');
    assert.deepEqual(labels(await data.children(cluster)), ['audit', 'payments']);
    assert.equal(cluster.state.status, 'loaded');
  });

  it('keeps one cluster node object per source and returns no roots when no source is registered', async () => {
    assert.equal(data.roots()[0], data.roots()[0]);
    await registry.remove('sim');
    assert.deepEqual(data.roots(), []);
    assert.ok(source.disposed);
  });

  it('says "No consumer groups" for a cluster without groups', async () => {
    source.groups.clear();
    const cluster = await loadedCluster();
    assert.deepEqual(labels(await data.children(cluster)), ['info:No consumer groups']);
  });

  it('shows a cluster error as a retryable row, logs it, and shows loading again on retry', async () => {
    source.listError = new Error('connect ECONNREFUSED 127.0.0.1:9092');
    const cluster = await loadedCluster();
    const [row] = (await data.children(cluster)) as MessageNode[];
    assert.equal(row.severity, 'error');
    assert.equal(row.retrySourceId, 'sim');
    assert.match(row.text, /ECONNREFUSED/);
    assert.equal(errors.length, 1);

    source.listError = undefined;
    const reports: Array<string | undefined> = [];
    data.onDidChange(() => reports.push(cluster.state.status));
    await data.refresh('sim', true); // the user's Retry
    assert.deepEqual(reports, ['loading', 'loaded']);
    assert.deepEqual(labels(await data.children(cluster)), ['audit', 'payments']);
  });

  it('shows one group\'s failure on that group while the others load', async () => {
    source.describeErrors.set('payments', new Error('NOT_COORDINATOR'));
    const cluster = await loadedCluster();
    const groups = (await data.children(cluster)) as GroupNode[];
    const [auditChildren, paymentsChildren] = await Promise.all(groups.map((g) => data.children(g)));
    assert.deepEqual(labels(auditChildren), ['info:No members and no committed offsets']);
    assert.deepEqual(labels(paymentsChildren), ['error:Failed to describe group: NOT_COORDINATOR']);
    assert.match(errors[0], /payments/);
  });

  it('shows a group summary error without describing the group', async () => {
    source.put(groupDetail('broken', { error: 'GROUP_AUTHORIZATION_FAILED', state: 'Unknown' }));
    const cluster = await loadedCluster();
    const broken = ((await data.children(cluster)) as GroupNode[]).find((g) => g.summary.groupId === 'broken');
    assert.ok(broken);
    assert.deepEqual(labels(await data.children(broken)), ['error:Failed to load group: GROUP_AUTHORIZATION_FAILED']);
    assert.ok(!source.calls.includes('describeGroup:broken'));
  });

  it('keeps the last snapshot on screen while a reload runs', async () => {
    const cluster = await loadedCluster();
    let open!: () => void;
    source.gate = new Promise((resolve) => (open = resolve));
    source.put(groupDetail('new-group'));
    const reload = data.refresh();
    assert.deepEqual(labels(await data.children(cluster)), ['audit', 'payments']);
    open();
    await reload;
    assert.deepEqual(labels(await data.children(cluster)), ['audit', 'new-group', 'payments']);
  });

  it('folds reload requests made during a load into one more load', async () => {
    await loadedCluster();
    let open!: () => void;
    source.gate = new Promise((resolve) => (open = resolve));
    const before = source.calls.filter((c) => c === 'listGroups').length;
    const reloads = [data.refresh(), data.refresh(), data.refresh()];
    open();
    await Promise.all(reloads);
    assert.equal(source.calls.filter((c) => c === 'listGroups').length - before, 2);
  });

  it('forwards source pushes with the source id and unsubscribes when the source goes', async () => {
    source.emitChange();
    assert.deepEqual(changedSources, ['sim']);
    await registry.remove('sim');
    assert.equal(source.listenerCount(), 0);
  });

  it('adds a cluster node when a source registers and reports the whole tree', async () => {
    const changed = nextChange(data);
    registry.add({ source: new FakeSource('prod', 'Production', 'kafka') });
    assert.equal(await changed, undefined);
    assert.deepEqual(data.roots().map((c) => c.label), ['Demo', 'Production']);
  });

  it('knows each node\'s parent for reveal()', async () => {
    const cluster = await loadedCluster();
    const [group] = await data.children(cluster);
    assert.equal(data.parent(group), cluster);
    assert.equal(data.parent(cluster), undefined);
  });
});

describe('views/GroupTreeModel targeted refreshes', () => {
  let registry: SourceRegistry;
  let source: FakeSource;
  let data: GroupTreeModel;
  let reported: Array<TreeNode | undefined>;

  beforeEach(async () => {
    registry = new SourceRegistry();
    source = new FakeSource('sim', 'Demo');
    source.put(groupDetail('payments', { members: [member('m-1')] })).put(groupDetail('audit'));
    registry.add({ source, control: new FakeControl() });
    data = new GroupTreeModel(registry);
    await data.children(data.roots()[0]);
    await data.refresh();
    reported = [];
    data.onDidChange((node) => reported.push(node));
  });

  afterEach(() => data.dispose());

  it('reports only the group whose figures changed, as the same row object', async () => {
    const [cluster] = data.roots();
    const before = (await data.children(cluster)) as GroupNode[];
    source.put(groupDetail('payments', { state: 'PreparingRebalance', members: [member('m-1')] }));
    await data.refresh();
    assert.deepEqual(reported, [before[1]], 'the payments row alone, the object VS Code already holds');
    assert.equal(before[1].summary.state, 'PreparingRebalance');
    const after = (await data.children(cluster)) as GroupNode[];
    assert.equal(after[1], before[1]);
  });

  it('reports nothing when nothing changed, and the cluster when its list of groups changed', async () => {
    const [cluster] = data.roots();
    await data.children(cluster); // the rows VS Code holds
    await data.refresh();
    assert.deepEqual(reported, []);
    source.put(groupDetail('billing'));
    await data.refresh();
    assert.deepEqual(reported, [cluster]);
    assert.deepEqual(labels(await data.children(cluster)), ['audit', 'billing', 'payments']);
  });

  it('reports exactly the group whose lag changed, and nothing for the same data again', async () => {
    const [cluster] = data.roots();
    source.put(groupDetail('payments', { members: [member('m-1')], offsets: [offsets('orders', 0, 5, 10)] }));
    await data.refresh();
    reported.length = 0;
    const before = (await data.children(cluster)) as GroupNode[];
    await data.refresh();
    assert.deepEqual(reported, [], 'the same data: no row refreshed');
    source.put(groupDetail('payments', { members: [member('m-1')], offsets: [offsets('orders', 0, 5, 12)] }));
    await data.refresh();
    assert.deepEqual(reported, [before[1]], 'lag 5 -> 7: the payments row alone');
    assert.equal(before[1].summary.totalLag, 7);
  });

  it('keeps the row objects under a group on a re-read, updating in place only the changed ones', async () => {
    const [cluster] = data.roots();
    const detail = (end: number) =>
      groupDetail('payments', {
        members: [member('m-1', { assignment: [{ topic: 'orders', partition: 0 }] }), member('m-2', { assignment: [{ topic: 'orders', partition: 1 }] })],
        offsets: [offsets('orders', 0, 5, 10, 'm-1'), offsets('orders', 1, 5, end, 'm-2')],
      });
    source.put(detail(10));
    await data.refresh();
    const group = ((await data.children(cluster)) as GroupNode[])[1];
    const first = await data.children(group);
    const again = await data.children(group);
    assert.deepEqual(again.map((n, i) => n === first[i]), [true, true], 'same data, same objects');
    source.put(detail(20));
    const changed = (await data.children(group)) as MemberNode[];
    assert.deepEqual(changed.map((n, i) => n === first[i]), [true, true], 'the rows VS Code holds, so each can be refreshed alone');
    assert.equal(changed[1].partitions[0].logEndOffset, 20, "m-2's new figures are in its row");
    assert.equal(data.parent(changed[1]), group);
  });

  /** payments with members m-1 (orders-0) and m-2 (orders-1), opened down to m-1's partition row. */
  async function openedPayments(committed0: number, end0: number, end1: number): Promise<{ group: GroupNode; members: MemberNode[]; partition: PartitionNode }> {
    const [cluster] = data.roots();
    source.put(paymentsDetail(committed0, end0, end1));
    await data.refresh();
    const group = ((await data.children(cluster)) as GroupNode[])[1];
    const members = (await data.children(group)) as MemberNode[];
    const [partition] = (await data.children(members[0])) as PartitionNode[];
    reported.length = 0;
    return { group, members, partition };
  }

  function paymentsDetail(committed0: number, end0: number, end1: number): GroupDetail {
    return groupDetail('payments', {
      members: [member('m-1', { assignment: [{ topic: 'orders', partition: 0 }] }), member('m-2', { assignment: [{ topic: 'orders', partition: 1 }] })],
      offsets: [offsets('orders', 0, committed0, end0, 'm-1'), offsets('orders', 1, 5, end1, 'm-2')],
    });
  }

  it('reports nothing under an opened group when a push brings the same data (no row re-rendered)', async () => {
    await openedPayments(5, 10, 10);
    await data.refresh();
    assert.deepEqual(reported, [], 'an unchanged opened group, its members and partitions are not refreshed');
  });

  it("reports only the partition row whose offsets moved while its member's and group's rows read the same", async () => {
    const { partition } = await openedPayments(5, 10, 10);
    source.put(paymentsDetail(8, 13, 10)); // consumed 3, produced 3: the same lag everywhere
    await data.refresh();
    assert.deepEqual(reported, [partition], 'the one partition row, as the object VS Code holds');
    assert.equal(partition.offsets.committedOffset, 8);
  });

  it("reports the group alone when one partition's lag changed (the editor re-reads the rows under it)", async () => {
    const { group, partition } = await openedPayments(5, 10, 10);
    source.put(paymentsDetail(5, 12, 10));
    await data.refresh();
    assert.deepEqual(reported, [group]);
    const [member1] = (await data.children(group)) as MemberNode[];
    assert.equal(((await data.children(member1)) as PartitionNode[])[0], partition, 'the re-read keeps the partition row object');
    assert.equal(partition.offsets.lag, 7);
  });

  it('reports the member rows whose partitions moved while the group row reads the same', async () => {
    const { members } = await openedPayments(5, 10, 10);
    // A rebalance swapped the partitions: same lag, state and member count, so the group row reads the same.
    source.put(
      groupDetail('payments', {
        members: [member('m-1', { assignment: [{ topic: 'orders', partition: 1 }] }), member('m-2', { assignment: [{ topic: 'orders', partition: 0 }] })],
        offsets: [offsets('orders', 0, 5, 10, 'm-2'), offsets('orders', 1, 5, 10, 'm-1')],
      }),
    );
    await data.refresh();
    assert.ok(reported.length > 0 && reported.every((n) => n === members[0] || n === members[1]), `only the members' rows: ${reported.map((n) => n?.id).join(', ')}`);
  });

  it('reports the group when a member joins (its list of rows changed)', async () => {
    const { group } = await openedPayments(5, 10, 10);
    const detail = paymentsDetail(5, 10, 10);
    source.put({ ...detail, members: [...detail.members, member('m-3')], memberCount: 3 });
    await data.refresh();
    assert.deepEqual(reported, [group]);
  });

  it('re-renders an opened group for new figures at most every OPENED_GROUP_REFRESH_MS, and for a new state at once', async () => {
    let now = 0;
    data.dispose();
    data = new GroupTreeModel(registry, { retries: { now: () => now } });
    await data.children(data.roots()[0]);
    await data.refresh();
    reported = [];
    data.onDidChange((node) => reported.push(node));
    const { group } = await openedPayments(5, 10, 10);
    source.put(paymentsDetail(5, 11, 10));
    await data.refresh();
    assert.deepEqual(reported, [group], 'the first change shows at once');
    now += OPENED_GROUP_REFRESH_MS - 1;
    source.put(paymentsDetail(5, 12, 10));
    await data.refresh();
    assert.deepEqual(reported, [group], 'lag again within the window: the rows under the group stay still');
    now += 1;
    await data.refresh();
    assert.deepEqual(reported, [group, group], 'the window is over: the held lag shows');
    assert.equal(group.summary.totalLag, 12);
    source.put({ ...paymentsDetail(5, 12, 10), state: 'PreparingRebalance' });
    await data.refresh();
    assert.deepEqual(reported, [group, group, group], 'a new state (icon, menu) shows at once');
  });

  it('reports the whole cluster on a full refresh (the Refresh button, after a command)', async () => {
    const [cluster] = data.roots();
    await data.refresh(undefined, true);
    assert.deepEqual(reported, [cluster]);
  });
});
