import { strict as assert } from 'assert';
import { AgentTools, MAX_HISTORY_WATCHES, MAX_SIMULATED_MS, type TreeClusterGroups } from '../../../src/agent/agentTools';
import type { Unsubscribe } from '../../../src/model/clusterSource';
import { FakeSource, groupDetail } from '../views/fakeSource';
import type { GroupSummary } from '../../../src/model/types';
import { DEMO_SCENARIO } from '../../../src/simulator/scenarios/demo';
import { GroupHealthTracker } from '../../../src/views/groupHealthTracker';
import { demoAdmin, type SimAdminFixture } from '../commands/simAdminFixture';

/** The demo cluster as the tree would hold it after one load: the summaries with health and lag in time. */
async function toolsOverDemo(): Promise<{ fx: SimAdminFixture; tools: AgentTools; tree: GroupSummary[] }> {
  const fx = demoAdmin();
  const tree = await new GroupHealthTracker(() => fx.source.simulation.now).load(fx.source);
  const loaded: TreeClusterGroups[] = [{ sourceId: fx.source.id, label: fx.source.label, groups: tree }];
  const tools = new AgentTools({ sources: () => [{ source: fx.source, admin: fx.admin }], loadedGroups: () => loaded });
  return { fx, tools, tree };
}

function treeGroup(tree: readonly GroupSummary[], groupId: string): GroupSummary {
  const found = tree.find((g) => g.groupId === groupId);
  assert.ok(found, `the tree lists ${groupId}`);
  return found;
}

describe('agent tools over the demo simulator', () => {
  let fx: SimAdminFixture;
  let tools: AgentTools;
  let tree: GroupSummary[];
  beforeEach(async () => {
    ({ fx, tools, tree } = await toolsOverDemo());
  });
  afterEach(async () => {
    tools.dispose();
    await fx.source.dispose();
  });

  it('lists the groups with the figures of the tree rows, filtered and sorted as the tree does', () => {
    const all = tools.listGroups({});
    assert.match(all, new RegExp(`${tree.length} of ${tree.length} groups`));
    for (const group of tree) {
      assert.ok(all.includes(`- ${group.groupId} [${group.groupType}] ${group.state}, members ${group.memberCount}, lag ${group.totalLag}`), `row of ${group.groupId}`);
    }
    const empty = tools.listGroups({ filter: 'state:empty' });
    const emptyIds = tree.filter((g) => g.state === 'Empty').map((g) => g.groupId);
    assert.ok(emptyIds.includes('billing-archive'));
    assert.match(empty, new RegExp(`${emptyIds.length} of ${tree.length} groups matching "state:empty"`));
    assert.doesNotMatch(empty, /orders-processor/);
    const byLag = tools.listGroups({ sortBy: 'totalLag', limit: 1 });
    const largest = [...tree].sort((a, b) => (b.totalLag ?? -1) - (a.totalLag ?? -1))[0];
    assert.match(byLag, new RegExp(`- ${largest.groupId} .*lag ${largest.totalLag}`));
    assert.match(byLag, new RegExp(`${tree.length - 1} more groups left out`));
  });

  it('turns a bad filter, sort or cluster into an error that says what to send', () => {
    assert.throws(() => tools.listGroups({ filter: 'state:bogus' }), /Bad "filter".*state:stable,empty/s);
    assert.throws(() => tools.listGroups({ sortBy: 'size' as never }), /use one of name, totalLag/);
    assert.throws(() => tools.listGroups({ cluster: 'prod' }), /No cluster "prod"; the clusters are "Simulator/);
  });

  it('describes a group with its members, assignment and the lag the tree shows', async () => {
    const orders = treeGroup(tree, 'orders-processor');
    const text = await tools.describeGroup({ group: 'orders-processor' });
    assert.match(text, new RegExp(`orders-processor \\[classic\\] Stable, members ${orders.memberCount}, lag ${orders.totalLag}`));
    const detail = await fx.source.describeGroup('orders-processor');
    for (const member of detail.members) {
      assert.ok(text.includes(`member ${member.memberId}`), `member ${member.clientId}`);
    }
    assert.match(text, /assignor range/);
    assert.match(text, new RegExp(`Partitions \\(${detail.offsets.length}, largest lag first\\)`));
    if (orders.health) {
      assert.ok(text.includes(orders.health.status === 'OK' ? 'health OK' : `health ${orders.health.status}`));
    }
    await assert.rejects(tools.describeGroup({ group: 'no-such-group' }), /has no group "no-such-group"; call listGroups/);
    await assert.rejects(tools.describeGroup({ group: '' }), /"group" is required/);
  });

  it('tells the rebalance history inside a window, with causes', () => {
    const events = fx.source.rebalanceEvents('orders-processor');
    assert.ok(events.length > 0);
    const text = tools.rebalanceHistory({ group: 'orders-processor' });
    assert.match(text, new RegExp(`${events.length} events`));
    assert.match(text, /cause: /);
    const last = events[events.length - 1];
    const late = tools.rebalanceHistory({ group: 'orders-processor', from: String(last.time / 1000) });
    assert.match(late, new RegExp(`: ${events.filter((e) => e.time >= last.time).length} events`));
    assert.throws(() => tools.rebalanceHistory({ group: 'orders-processor', from: 'yesterday' }), /virtual time; give seconds/);
    assert.throws(() => tools.rebalanceHistory({ group: 'orders-processor', lastMinutes: -1 }), /positive number/);
  });

  it('explains the lag of an Empty group: its lagging partitions have no owner', async () => {
    const archive = treeGroup(tree, 'billing-archive');
    const text = await tools.explainLag({ group: 'billing-archive' });
    assert.match(text, new RegExp(`lag ${archive.totalLag}`));
    const detail = await fx.source.describeGroup('billing-archive');
    const lagging = detail.offsets.filter((o) => (o.lag ?? 0) > 0);
    assert.ok(lagging.length > 0);
    assert.match(text, new RegExp(`${lagging.length} lagging partition\\(s\\) have no owner.*no members`));
  });

  it('plans a reset with the rows of the preview and changes nothing', async () => {
    const before = await fx.admin.committedOffsets('billing-archive');
    const text = await tools.planReset({ group: 'billing-archive', scenario: 'to-earliest' });
    assert.match(text, /Group state Empty/);
    for (const { topic, partition, offset } of before) {
      assert.match(text, new RegExp(`\\| ${topic} \\| ${partition} \\| ${offset} \\| 0 \\|`));
    }
    assert.deepEqual(await fx.admin.committedOffsets('billing-archive'), before);
    assert.match(await tools.planReset({ group: 'orders-processor', scenario: 'to-earliest' }), /Cannot plan: .*orders-processor/);
    await assert.rejects(tools.planReset({ group: 'billing-archive', scenario: 'shift-by', value: 'ten' }), /needs "value"/);
  });

  it('runs a scenario in virtual time and reports its events and final groups', () => {
    const text = tools.simulate({ scenario: JSON.stringify(DEMO_SCENARIO), limit: 5 });
    assert.match(text, /Simulated in virtual time: \d+ events, 5 group\(s\)/);
    assert.match(text, /- billing-archive \[simple\] Empty, members 0, lag 1050/);
    assert.throws(() => tools.simulate({ scenario: '{' }), /not valid JSON/);
    assert.throws(() => tools.simulate({ scenario: { topics: 'x' } }), /Invalid scenario:[\s\S]*Fix those fields/);
    assert.throws(() => tools.simulate({ scenario: { ...DEMO_SCENARIO, durationMs: MAX_SIMULATED_MS + 1 } }), /one hour of virtual time/);
  });
});

/** A real cluster's history: read from __consumer_offsets only while watched. */
class WatchedSource extends FakeSource {
  readonly watching = new Set<string>();
  rebalanceEvents(): [] {
    return [];
  }
  watchRebalances(groupId: string): Unsubscribe {
    this.watching.add(groupId);
    return () => this.watching.delete(groupId);
  }
}

describe('agent tools over a real cluster\'s history', () => {
  it('starts reading a group\'s history once, says so, and keeps a bounded number of reads running', () => {
    const source = new WatchedSource('prod', 'Production', 'kafka');
    const tools = new AgentTools({ sources: () => [{ source }], loadedGroups: () => [] });
    assert.match(tools.rebalanceHistory({ group: 'g-0' }), /started just now; ask again in a few seconds/);
    assert.doesNotMatch(tools.rebalanceHistory({ group: 'g-0' }), /started just now/);
    for (let i = 1; i <= MAX_HISTORY_WATCHES; i++) {
      tools.rebalanceHistory({ group: `g-${i}` });
    }
    assert.equal(source.watching.size, MAX_HISTORY_WATCHES);
    assert.ok(!source.watching.has('g-0'), 'the read asked about longest ago ended');
    tools.dispose();
    assert.equal(source.watching.size, 0);
  });
});

describe('agent tools over two clusters', () => {
  it('finds the cluster of a group when none is named, and asks for one when that is ambiguous', async () => {
    const summary = (groupId: string) => ({ groupId }) as GroupSummary;
    const prod = new FakeSource('prod', 'Production', 'kafka').put(groupDetail('payments')).put(groupDetail('shared'));
    const staging = new FakeSource('staging', 'Staging', 'kafka').put(groupDetail('audit')).put(groupDetail('shared'));
    const tools = new AgentTools({
      sources: () => [{ source: prod }, { source: staging }],
      loadedGroups: () => [
        { sourceId: 'prod', label: 'Production', groups: [summary('payments'), summary('shared')] },
        { sourceId: 'staging', label: 'Staging', groups: [summary('audit'), summary('shared')] },
      ],
    });
    assert.equal(tools.cluster(undefined, 'audit').source.id, 'staging');
    assert.equal(tools.cluster(undefined, 'payments').source.id, 'prod');
    assert.equal(tools.cluster('Production', 'audit').source.id, 'prod', 'a named cluster wins');
    assert.throws(() => tools.cluster(undefined, 'shared'), /"shared" is in "Production" and "Staging"; name one in "cluster"/);
    assert.throws(() => tools.cluster(undefined, 'nowhere'), /There are 2 clusters; name one in "cluster"/);
    assert.match(await tools.describeGroup({ group: 'audit' }), /audit/);
  });
});
