import { strict as assert } from 'node:assert';
import type { RebalanceEvent, TopicPartition } from '../../../src/model/types';
import { runScenario } from '../../../src/simulator/scenarios/runScenario';
import { DEMO_SCENARIO } from '../../../src/simulator/scenarios/demo';
import { buildTimeline, TimelineBuilder, timelineBuilder } from '../../../src/timeline/timelineModel';
import { manyEvents } from '../../webview/sampleEvents';
import { membershipChange, TIMELINE_GROUP } from './consumerGroupTimeline';

const tp = (partition: number): TopicPartition => ({ topic: 't', partition });
const base = { groupId: 'g' };

/** An eager group: a joins (gen 1), b joins (gen 2, everything revoked and reassigned), a static member s rejoins. */
const eagerEvents: RebalanceEvent[] = [
  { ...base, time: 0, kind: 'member-joined', generation: 0, memberId: 'a-1', clientId: 'a' },
  { ...base, time: 0, kind: 'rebalance-started', generation: 0, stateBefore: 'Empty', stateAfter: 'PreparingRebalance' },
  { ...base, time: 3000, kind: 'state-changed', generation: 1, stateBefore: 'PreparingRebalance', stateAfter: 'CompletingRebalance' },
  { ...base, time: 3010, kind: 'assignment-changed', generation: 1, assignments: [{ memberId: 'a-1', revoked: [], assigned: [tp(0), tp(1)] }] },
  { ...base, time: 3010, kind: 'state-changed', generation: 1, stateBefore: 'CompletingRebalance', stateAfter: 'Stable' },
  { ...base, time: 10000, kind: 'member-joined', generation: 1, memberId: 's-1', groupInstanceId: 's', clientId: 's' },
  { ...base, time: 10000, kind: 'rebalance-started', generation: 1, stateBefore: 'Stable', stateAfter: 'PreparingRebalance' },
  { ...base, time: 12000, kind: 'state-changed', generation: 2, stateBefore: 'PreparingRebalance', stateAfter: 'CompletingRebalance' },
  {
    ...base,
    time: 12020,
    kind: 'assignment-changed',
    generation: 2,
    assignments: [
      { memberId: 'a-1', revoked: [tp(0), tp(1)], assigned: [tp(0)] },
      { memberId: 's-1', groupInstanceId: 's', revoked: [], assigned: [tp(1)] },
    ],
  },
  { ...base, time: 12020, kind: 'state-changed', generation: 2, stateBefore: 'CompletingRebalance', stateAfter: 'Stable' },
  { ...base, time: 20000, kind: 'member-expired', generation: 2, memberId: 's-1', groupInstanceId: 's' },
  { ...base, time: 25000, kind: 'static-rejoin', generation: 2, memberId: 's-2', groupInstanceId: 's', clientId: 's' },
];

/** A cooperative group: a-1 gives up p2 in gen 2, the follow-up rebalance hands it to b-1, then another starts. */
const cooperativeEvents: RebalanceEvent[] = [
  { ...base, time: 0, kind: 'assignment-changed', generation: 1, assignments: [{ memberId: 'a-1', revoked: [], assigned: [tp(0), tp(1), tp(2)] }] },
  { ...base, time: 0, kind: 'state-changed', generation: 1, stateAfter: 'Stable' },
  { ...base, time: 100, kind: 'rebalance-started', generation: 1, stateBefore: 'Stable', stateAfter: 'PreparingRebalance' },
  { ...base, time: 200, kind: 'assignment-changed', generation: 2, assignments: [{ memberId: 'a-1', revoked: [tp(2)], assigned: [] }] },
  { ...base, time: 200, kind: 'state-changed', generation: 2, stateAfter: 'Stable' },
  { ...base, time: 210, kind: 'rebalance-started', generation: 2, stateBefore: 'Stable', stateAfter: 'PreparingRebalance', cause: 'need to revoke partitions and re-join' },
  { ...base, time: 300, kind: 'assignment-changed', generation: 3, assignments: [{ memberId: 'b-1', revoked: [], assigned: [tp(2)] }] },
  { ...base, time: 300, kind: 'state-changed', generation: 3, stateAfter: 'Stable' },
  { ...base, time: 400, kind: 'rebalance-started', generation: 3, stateBefore: 'Stable', stateAfter: 'PreparingRebalance' },
];

describe('timeline/timelineModel', () => {
  it('gives each member a lane, keeps a static member on one lane across member ids, and keeps group events off the lanes', () => {
    const model = buildTimeline('g', eagerEvents);
    assert.deepEqual(
      model.lanes.map((l) => [l.key, l.label, l.memberIds, l.spans]),
      [
        ['member:a-1', 'a · 1', ['a-1'], [{ from: 0, to: null }]],
        ['static:s', 's (static)', ['s-1', 's-2'], [{ from: 10000, to: 20000 }, { from: 25000, to: null }]],
      ],
    );
    assert.deepEqual(
      model.markers.toArray().filter((m) => m.lane === -1).map((m) => m.kind),
      ['rebalance-started', 'state-changed', 'assignment-changed', 'state-changed', 'rebalance-started', 'state-changed', 'assignment-changed', 'state-changed'],
    );
    assert.deepEqual(
      model.markers.toArray().filter((m) => m.kind === 'assignment-changed').map((m) => [m.time, m.lane]),
      [
        [3010, -1],
        [3010, 0],
        [12020, -1],
        [12020, 0],
        [12020, 1],
      ],
    );
    assert.equal(model.start, 0);
    assert.equal(model.end, 25000);
  });

  it('derives state phases and generation spans', () => {
    const model = buildTimeline('g', eagerEvents);
    assert.deepEqual(
      model.phases.map((p) => [p.state, p.from, p.to]),
      [
        ['PreparingRebalance', 0, 3000],
        ['CompletingRebalance', 3000, 3010],
        ['Stable', 3010, 10000],
        ['PreparingRebalance', 10000, 12000],
        ['CompletingRebalance', 12000, 12020],
        ['Stable', 12020, 25000],
      ],
    );
    assert.deepEqual(
      model.generations.map((g) => [g.generation, g.from, g.to]),
      [
        [0, 0, 3000],
        [1, 3000, 12000],
        [2, 12000, 25000],
      ],
    );
  });

  it('measures each rebalance and stops the whole group for an eager one', () => {
    const [first, second] = buildTimeline('g', eagerEvents).rebalances;
    assert.equal(first.mode, 'none');
    assert.deepEqual([first.from, first.to, first.generationBefore, first.generationAfter], [0, 3010, 0, 1]);
    assert.equal(second.mode, 'eager');
    assert.deepEqual([second.from, second.to, second.finished], [10000, 12020, true]);
    assert.deepEqual(second.stoppedPartitions, [tp(0), tp(1)]);
    assert.deepEqual([second.stoppedFrom, second.stoppedTo], [10000, 12020]);
    assert.deepEqual(second.assignments, [
      { memberId: 'a-1', revoked: [tp(0), tp(1)], assigned: [tp(0)] },
      { memberId: 's-1', groupInstanceId: 's', revoked: [], assigned: [tp(1)] },
    ]);
  });

  it('stops only moved partitions for a cooperative rebalance, until the follow-up rebalance assigns them', () => {
    const [cooperative, followUp, open] = buildTimeline('g', cooperativeEvents).rebalances;
    assert.equal(cooperative.mode, 'cooperative');
    assert.deepEqual(cooperative.stoppedPartitions, [tp(2)]);
    assert.deepEqual([cooperative.stoppedFrom, cooperative.stoppedTo], [200, 300]);
    assert.equal(followUp.mode, 'none');
    assert.equal(open.finished, false);
    assert.deepEqual([open.from, open.to], [400, 400]);
  });

  it("calls a KIP-848 group's rebalances reconciliation, in group epochs, stopping only the partitions each member revoked", () => {
    const { events } = membershipChange();
    const rebalances = buildTimeline(TIMELINE_GROUP, events).rebalances;
    const moving = rebalances.filter((r) => r.mode !== 'none');
    assert.ok(moving.length > 0, 'the membership change moves partitions');
    for (const rebalance of rebalances) {
      assert.equal(rebalance.protocol, 'consumer');
      assert.notEqual(rebalance.mode, 'eager', `epoch ${rebalance.generationBefore} → ${rebalance.generationAfter} is no stop-the-world rebalance`);
      assert.notEqual(rebalance.mode, 'cooperative');
    }
    for (const rebalance of moving) {
      assert.equal(rebalance.mode, 'reconciliation');
      const revoked = new Set(rebalance.assignments.flatMap((c) => c.revoked.map((p) => `${p.topic}-${p.partition}`)));
      assert.deepEqual(new Set(rebalance.stoppedPartitions.map((p) => `${p.topic}-${p.partition}`)), revoked);
    }
    assert.ok(buildTimeline('g', eagerEvents).rebalances.every((r) => r.protocol === 'classic'));
  });

  it('sorts events by time, stably, and finds markers by time', () => {
    const model = buildTimeline('g', [
      { ...base, time: 50, kind: 'member-joined', generation: 0, memberId: 'x' },
      { ...base, time: 10, kind: 'member-joined', generation: 0, memberId: 'y' },
      { ...base, time: 50, kind: 'member-left', generation: 0, memberId: 'y' },
    ]);
    assert.deepEqual(model.events.map((e) => `${e.time}:${e.memberId}:${e.kind}`), ['10:y:member-joined', '50:x:member-joined', '50:y:member-left']);
    assert.equal(model.markers.firstAtOrAfter(0), 0);
    assert.equal(model.markers.firstAtOrAfter(11), 1);
    assert.equal(model.markers.firstAtOrAfter(51), 3);
    assert.deepEqual(buildTimeline('g', []).lanes, []);
  });

  describe('appending to a builder', () => {
    /** Appends `events` in chunks of varying size and checks each model against a build from scratch. */
    function checkAppends(label: string, events: readonly RebalanceEvent[], seed: number): void {
      const builder = new TimelineBuilder('g');
      let at = 0;
      let step = 0;
      while (at < events.length) {
        // Sizes 1..(7 + a few): deterministic, and often cutting a rebalance between its events.
        const size = 1 + ((seed * 31 + step * 17) % (7 + (step % 5)));
        const chunk = events.slice(at, at + size);
        assert.equal(builder.append(chunk), true, `${label}: append at ${at}`);
        at += chunk.length;
        step++;
        assert.deepEqual(builder.model(), buildTimeline('g', events.slice(0, at)), `${label}: after ${at} of ${events.length} events`);
      }
      // Short histories: also every split into two appends, with a model taken in between.
      for (let split = 0; events.length <= 100 && split <= events.length; split++) {
        const halves = timelineBuilder('g', events.slice(0, split));
        halves.model();
        halves.append(events.slice(split));
        assert.deepEqual(halves.model(), buildTimeline('g', events), `${label}: split at ${split}`);
      }
    }

    it('gives the same model as a build from scratch after every append', () => {
      checkAppends('eager', eagerEvents, 1);
      checkAppends('cooperative', cooperativeEvents, 2);
      // The group settles first and the sync's assignments (with the revocation) follow at the same instant.
      const settleFirst = cooperativeEvents.map((e) => (e.time === 200 ? { ...e } : e));
      [settleFirst[3], settleFirst[4]] = [settleFirst[4], settleFirst[3]];
      checkAppends('cooperative, settled before the assignments', settleFirst, 4);
      const demo = runScenario(DEMO_SCENARIO).events;
      for (const groupId of new Set(demo.map((e) => e.groupId))) {
        checkAppends(groupId, demo.filter((e) => e.groupId === groupId), groupId.length);
      }
      checkAppends('sample', manyEvents('g', 600), 3);
    });

    it('refuses an event earlier than the last one and adds none of its batch', () => {
      const builder = timelineBuilder('g', eagerEvents.slice(0, 5));
      const before = builder.model();
      assert.equal(builder.append([{ ...base, time: 9000, kind: 'member-joined', generation: 1, memberId: 'x' }, { ...base, time: 5, kind: 'member-left', generation: 1, memberId: 'x' }]), false);
      assert.equal(builder.eventCount, 5);
      assert.deepEqual(builder.model(), before);
    });

    it('leaves models it returned earlier as they were', () => {
      const builder = timelineBuilder('g', eagerEvents.slice(0, 5));
      const first = builder.model();
      builder.append(eagerEvents.slice(5));
      assert.equal(first.events.length, 5);
      assert.equal(first.end, 3010);
      assert.equal(builder.model().events.length, eagerEvents.length);
    });
  });
});
