import * as assert from 'node:assert/strict';
import type { RebalanceEvent } from '../../../../../src/model/types';
import { buildTimeline } from '../../../../../src/timeline/timelineModel';
import { context, createInternalTopics, request, setup, type Tasks } from './streamsFixtures';

const noTasks = { activeTasks: [], standbyTasks: [], warmupTasks: [] };
const owned = (response: { activeTasks: Tasks; standbyTasks: Tasks; warmupTasks: Tasks }) => ({
  activeTasks: response.activeTasks ?? [], standbyTasks: response.standbyTasks ?? [], warmupTasks: response.warmupTasks ?? [],
});
const taskNames = (tasks: ReadonlyArray<{ topic: string; partition: number }> | undefined) => (tasks ?? []).map((t) => `${t.topic}-${t.partition}`);
const lastStep = (events: RebalanceEvent[], memberId: string) => events.filter((e) => e.kind === 'assignment-changed' && e.memberId === memberId).at(-1);

describe('StreamsGroupEventRecorder (the simulator\'s streams-group timeline)', () => {
  it('draws joins, the plan, each member\'s active and standby tasks, and leaves with Kafka\'s causes', () => {
    const { clock, image, handler, events } = setup({ numStandbyReplicas: 1 });
    createInternalTopics(image);
    const m1 = handler.heartbeat(context, request('m1', 0)).response;
    assert.deepEqual(events.filter((e) => e.kind === 'member-joined').map((e) => [e.memberId, e.cause]), [['m1', 'Member m1 joins the streams group.']]);
    clock.advance(3_000);
    const plan = events.find((e) => e.kind === 'sync-completed');
    assert.equal(plan?.cause, 'new target assignment for epoch 2');
    assert.deepEqual(plan?.assignments?.map((a) => [a.memberId, a.assigned.length, a.revoked.length]), [['m1', 8, 0]]);

    const m1Stable = handler.heartbeat(context, request('m1', m1.memberEpoch, noTasks)).response;
    assert.equal(lastStep(events, 'm1')?.reconciliation?.convergedAfterMs, 0, 'reached at the first heartbeat after the delayed assignment');
    assert.deepEqual(taskNames(lastStep(events, 'm1')?.assignments?.[0].assigned).slice(0, 2), ['subtopology 0-0', 'subtopology 0-1']);

    // A second process: half the active tasks move, and each process stands by for the other's.
    clock.advance(1_000);
    const m2 = handler.heartbeat(context, request('m2', 0)).response;
    const m1Revoking = handler.heartbeat(context, request('m1', m1Stable.memberEpoch, owned(m1Stable))).response;
    assert.deepEqual(lastStep(events, 'm1')?.reconciliation?.state, 'unrevoked-partitions');
    assert.equal(lastStep(events, 'm1')?.reconciliation?.pendingRevocation.length, 4);
    const m1Done = handler.heartbeat(context, request('m1', m1Revoking.memberEpoch, owned(m1Revoking))).response;
    const m2Done = handler.heartbeat(context, request('m2', m2.memberEpoch, noTasks)).response;
    assert.equal(handler.group('app')?.state, 'Stable');
    assert.equal(m1Done.memberEpoch, m2Done.memberEpoch);
    for (const memberId of ['m1', 'm2']) {
      const rec = lastStep(events, memberId)?.reconciliation;
      assert.equal(rec?.state, 'stable', memberId);
      const held = handler.group('app')?.member(memberId)?.assignedTasks.standbyTasks ?? new Map<string, ReadonlySet<number>>();
      const standby = [...held].flatMap(([subtopology, partitions]) => [...partitions].map((p) => `subtopology ${subtopology}-${p}`)).sort();
      assert.equal(standby.length, 2, `${memberId} stands by for the other process's two stateful tasks`);
      assert.deepEqual(taskNames(rec?.standbyTasks), standby, memberId);
      assert.deepEqual(rec?.warmupTasks, [], 'Kafka 4.4 assigns no warm-up tasks');
    }

    handler.heartbeat(context, request('m1', -1));
    const left = events.find((e) => e.kind === 'member-left');
    assert.deepEqual([left?.memberId, left?.cause], ['m1', 'Member m1 left the streams group.']);
    clock.advance(45_000);
    const expired = events.find((e) => e.kind === 'member-expired');
    assert.deepEqual([expired?.memberId, expired?.cause], ['m2', 'Streams member m2 fenced from the group because the member session expired.']);
    assert.equal(events.at(-1)?.kind, 'state-changed');
    assert.equal(events.at(-1)?.stateAfter, 'Empty');
    // The timeline tells a streams group's rebalances from a KIP-848 group's: only their steps carry standby tasks.
    const rebalances = buildTimeline('app', events).rebalances;
    assert.ok(rebalances.length > 0 && rebalances.every((r) => r.protocol === 'streams' || r.mode === 'none'), JSON.stringify(rebalances.map((r) => [r.protocol, r.mode])));
    assert.ok(rebalances.some((r) => r.mode === 'reconciliation'));
  });
});
