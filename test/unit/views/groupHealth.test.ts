/**
 * Lag health in the view over the real simulator (demo scenario, virtual time): every load samples every group into
 * one store, the evaluation moves a group to STALLED when its consumers stop committing while producers go on, and
 * the row shows it (icon, colour, reason in the tooltip); a source without details gets no health at all.
 */
import { strict as assert } from 'assert';
import { buildScenario } from '../../../src/simulator/scenarios/runScenario';
import { DEMO_SCENARIO } from '../../../src/simulator/scenarios/demo';
import { SimSource } from '../../../src/simulator/editor/simSource';
import { DEFAULT_GROUP_HEALTH_SETTINGS, GroupHealthTracker } from '../../../src/views/groupHealthTracker';
import { HEALTH_ICONS, withGroupHealth } from '../../../src/views/groupHealthView';
import { describeNode } from '../../../src/views/groupTreeRows';
import { queryGroups } from '../../../src/views/groupQuery';
import type { GroupDetail, GroupSummary } from '../../../src/model/types';
import { FakeSource, groupDetail } from './fakeSource';

const STEP_MS = 40_000;

describe('views: group health over the simulator', () => {
  let simulator: SimSource;
  let now: number;
  let tracker: GroupHealthTracker;

  beforeEach(() => {
    const { simulation } = buildScenario(DEMO_SCENARIO, { startTime: 0 });
    simulator = new SimSource(simulation, { id: 'simulator' });
    now = 0;
    const evaluation = { ...DEFAULT_GROUP_HEALTH_SETTINGS.evaluation, windowMs: 2 * 60_000 };
    tracker = new GroupHealthTracker(() => now, { ...DEFAULT_GROUP_HEALTH_SETTINGS, evaluation });
  });

  afterEach(() => simulator.dispose());

  async function step(): Promise<Map<string, GroupSummary>> {
    simulator.advance(STEP_MS);
    now += STEP_MS;
    return new Map((await tracker.load(simulator)).map((g) => [g.groupId, g]));
  }

  it('samples every group at each load and moves a group OK → STALLED when its consumers stop committing while producers go on', async () => {
    let groups = await step();
    assert.equal(groups.get('payments-audit')?.health?.status, 'OK');
    assert.match(groups.get('payments-audit')?.health?.reason ?? '', /collecting samples/);
    for (let i = 0; i < 4; i++) {
      groups = await step();
    }
    assert.notEqual(groups.get('payments-audit')?.health?.status, 'STALLED', 'consuming, not stalled');
    assert.equal(tracker.series('simulator', 'payments-audit')?.times.length, 5, 'one sample per load');
    for (const consumer of simulator.control.listConsumers('payments-audit')) {
      simulator.control.pausePolling(consumer.handle, 60 * 60_000);
    }
    let stalled: GroupSummary | undefined;
    for (let i = 0; i < 6 && stalled === undefined; i++) {
      stalled = (await step()).get('payments-audit');
      stalled = stalled?.health?.status === 'STALLED' ? stalled : undefined;
    }
    assert.ok(stalled, 'STALLED within the window after the commits stop');
    assert.match(stalled.health?.reason ?? '', /committed offset \d+ has not moved over the last 2m while lag is \d+/);
    assert.ok(stalled.memberCount > 0, 'the members are still there: stalled, not stopped');
  });

  it('says STOPPED for a group nobody consumes whose lag stays', async () => {
    let groups = await step();
    for (let i = 0; i < 4; i++) {
      groups = await step();
    }
    assert.equal(groups.get('billing-archive')?.health?.status, 'STOPPED');
    assert.deepEqual(queryGroups([...groups.values()], { idPatterns: [], states: [], types: [], health: ['STOPPED'], hasLag: null, hasMembers: null }, { key: 'name', descending: false })
      .map((g) => g.groupId), ['billing-archive'], 'the health: filter reads it');
  });

  it('leaves the summaries as they are for a source that cannot list details', async () => {
    const source = new FakeSource('prod', 'Production', 'kafka').put(groupDetail('orders'));
    const [summary] = await tracker.load(source);
    assert.equal(summary.health, undefined);
    assert.equal(tracker.series('prod', 'orders'), undefined);
  });

  it('forgets the samples of removed clusters', async () => {
    await step();
    assert.ok(tracker.sampleBytes > 0);
    tracker.forgetSourcesNotIn(new Set(['other']));
    assert.equal(tracker.sampleBytes, 0);
    assert.equal(tracker.series('simulator', 'payments-audit'), undefined);
  });
});

describe('views/groupHealthView', () => {
  const base = { groupId: 'g', state: 'Stable', protocolType: 'consumer', groupType: 'classic', assignor: 'range', coordinator: null, memberCount: 1, totalLag: 5 } as const;
  const row = { description: 'Stable · 1 member · lag 5', tooltip: '**g**', icon: { id: 'pass', color: 'testing.iconPassed' } };

  it('keeps an unevaluated row as it is, and an OK one with its state icon', () => {
    assert.deepEqual(withGroupHealth(base, row), row);
    const ok = withGroupHealth({ ...base, health: { status: 'OK', reason: 'p-0: lag was 0' } }, row);
    assert.deepEqual(ok.icon, row.icon);
    assert.equal(ok.description, row.description);
    assert.match(ok.tooltip, /Health\\: OK/);
  });

  it('shows a bad status as the icon and in the description, the reason and the lag in time in the tooltip', () => {
    const stalled = withGroupHealth({ ...base, maxLagInTimeMs: 125_000, health: { status: 'STALLED', reason: 'orders-1: committed offset 4 has not moved' } }, row);
    assert.deepEqual(stalled.icon, HEALTH_ICONS.STALLED);
    assert.equal(stalled.description, 'Stable · 1 member · lag 5 · STALLED · behind 2m 5s');
    assert.match(stalled.tooltip, /orders\\-1\\: committed offset 4 has not moved/);
    assert.match(stalled.tooltip, /Largest lag in time\\: 2m 5s/);
  });

  it('is what the tree row shows', () => {
    const summary: GroupSummary = { ...base, health: { status: 'STOPPED', reason: 'x' } };
    const descriptor = describeNode({ kind: 'group', id: 'id', sourceId: 's', sourceKind: 'simulator', summary });
    assert.deepEqual(descriptor.icon, HEALTH_ICONS.STOPPED);
  });
});

describe('simulator: lag in time from the partition logs', () => {
  it('is the age of the record at the committed offset: it grows with the clock on a stuck partition and is 0 on a caught-up one', async () => {
    const { simulation } = buildScenario(DEMO_SCENARIO, { startTime: 0 });
    const simulator = new SimSource(simulation, { id: 'simulator' });
    try {
      simulator.advance(60_000);
      const billing = async () => (await simulator.listGroupDetails()).find((g) => g.groupId === 'billing-archive') as GroupDetail;
      const before = await billing();
      simulator.advance(45_000);
      const after = await billing();
      const stuck = (d: typeof before) => d.offsets.find((o) => o.topic === 'legacy-events' && o.partition === 2);
      const caughtUp = after.offsets.find((o) => o.lag === 0);
      assert.ok(stuck(before)?.lagInTimeMs !== undefined && stuck(before)?.lagInTimeMs !== null);
      assert.equal((stuck(after)?.lagInTimeMs ?? 0) - (stuck(before)?.lagInTimeMs ?? 0), 45_000, 'no commit: the oldest unread record ages with the clock');
      assert.equal(caughtUp?.lagInTimeMs, 0);
      assert.equal(after.maxLagInTimeMs, Math.max(...after.offsets.map((o) => o.lagInTimeMs ?? 0)));
      const log = simulation.cluster.partition('legacy-events', 2);
      assert.equal(log?.timestampAt(-1), null, 'below the log start');
      assert.equal(log?.timestampAt(log.highWatermark), null, 'at the high watermark: no record yet');
    } finally {
      await simulator.dispose();
    }
  });
});
