/**
 * The simulator's demo scenario through the timeline: the event kinds each group logs, and what
 * the timeline model makes of them (lanes, eager rebalances, the static member's restart).
 */
import { strict as assert } from 'node:assert';
import type { RebalanceEvent } from '../../../src/model/types';
import { runScenario } from '../../../src/simulator/scenarios/runScenario';
import { DEMO_SCENARIO } from '../../../src/simulator/scenarios/demo';
import { buildTimeline } from '../../../src/timeline/timelineModel';

/** Kinds in order, without the periodic commits, with consecutive repeats collapsed to "kind×n". */
function kindSequence(events: readonly RebalanceEvent[]): string[] {
  const kinds = events.filter((e) => e.kind !== 'offsets-committed').map((e) => e.kind);
  const collapsed: string[] = [];
  for (let i = 0; i < kinds.length; ) {
    let j = i;
    while (j < kinds.length && kinds[j] === kinds[i]) {
      j++;
    }
    collapsed.push(j - i > 1 ? `${kinds[i]}×${j - i}` : kinds[i]);
    i = j;
  }
  return collapsed;
}

describe('timeline of the demo scenario', () => {
  const { events } = runScenario(DEMO_SCENARIO);
  const of = (groupId: string): RebalanceEvent[] => events.filter((e) => e.groupId === groupId);

  it('logs a join, an eager rebalance, and a crash expired by the session timeout for orders-processor', () => {
    const group = of('orders-processor');
    assert.deepEqual(kindSequence(group), [
      'member-joined',
      'rebalance-started',
      'state-changed',
      'member-joined×2',
      'state-changed×2',
      'sync-completed',
      'assignment-changed×3',
      'member-joined',
      'rebalance-started',
      'state-changed',
      'assignment-changed×3',
      'state-changed×2',
      'sync-completed',
      'assignment-changed×4',
      'member-expired',
      'rebalance-started',
      'state-changed',
      'assignment-changed×3',
      'state-changed×2',
      'sync-completed',
      'assignment-changed×3',
    ]);
    const model = buildTimeline('orders-processor', group);
    assert.equal(model.lanes.length, 4);
    assert.deepEqual(
      model.rebalances.map((r) => [r.mode, r.generationBefore, r.generationAfter, r.stoppedPartitions.length]),
      [
        ['none', 0, 1, 0],
        ['eager', 1, 2, 6],
        ['eager', 2, 3, 6],
      ],
    );
    assert.deepEqual(model.lanes[1].spans.map((s) => s.to !== null), [true], 'the crashed member’s lane ends at its expiry');
  });

  it('shows the static member of payments-audit restarting without a rebalance, on one lane', () => {
    const group = of('payments-audit');
    assert.deepEqual(kindSequence(group).slice(-3), ['assignment-changed×3', 'static-rejoin', 'assignment-changed']);
    const model = buildTimeline('payments-audit', group);
    assert.equal(model.rebalances.length, 1);
    assert.deepEqual(
      model.lanes.map((l) => [l.label, l.memberIds.length]),
      [
        ['payments-audit-a (static)', 2],
        ['payments-audit-b (static)', 1],
      ],
    );
  });

  it('logs the poll timeout of inventory-sync and its rejoin as a new member', () => {
    const group = of('inventory-sync');
    const sequence = kindSequence(group);
    assert.deepEqual(sequence.slice(sequence.indexOf('poll-timeout'), sequence.indexOf('poll-timeout') + 3), ['poll-timeout', 'member-left', 'rebalance-started']);
    const model = buildTimeline('inventory-sync', group);
    assert.deepEqual(
      model.rebalances.map((r) => r.mode),
      ['none', 'eager', 'eager'],
    );
    assert.equal(model.lanes.length, 3, 'the member that timed out rejoins under a new member id, on a new lane');
  });
});
