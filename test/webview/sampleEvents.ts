/**
 * Rebalance event fixtures for the browser test and the benchmark: a realistic story of one group
 * (eager rebalances, a static member expiring and rejoining, a poll timeout, a cooperative
 * rebalance with its follow-up), and a generator that repeats such rounds to any size.
 */
import type { MemberAssignmentChange, RebalanceEvent, TopicPartition } from '../../src/model/types';

const tps = (topic: string, ...partitions: number[]): TopicPartition[] => partitions.map((partition) => ({ topic, partition }));

/** Events of one group, oldest first, with times in virtual milliseconds from 0. */
export function storyEvents(groupId: string): RebalanceEvent[] {
  const g = { groupId };
  const a = { memberId: 'billing-1-3f9c2a71-4b6e-4d0e-9a51-0c2b5f7e8d11', clientId: 'billing-1' };
  const b = { memberId: 'billing-2-8e1d7c55-2f3a-47b9-b6c4-91d0e2a3f4b5', clientId: 'billing-2' };
  const c = { memberId: 'billing-3-5c6d7e8f-9a0b-4c1d-8e2f-3a4b5c6d7e8f', clientId: 'billing-3' };
  const s1 = { memberId: 'billing-static-a-0d4e5f60-7a8b-4c9d-8e0f-1a2b3c4d5e6f', groupInstanceId: 'billing-static-a', clientId: 'billing-s' };
  const s2 = { memberId: 'billing-static-a-77aa88bb-99cc-4dde-8eff-001122334455', groupInstanceId: 'billing-static-a', clientId: 'billing-s' };
  const change = (member: { memberId: string; groupInstanceId?: string }, revoked: TopicPartition[], assigned: TopicPartition[]): MemberAssignmentChange => ({
    memberId: member.memberId,
    groupInstanceId: member.groupInstanceId ?? null,
    revoked,
    assigned,
  });
  return [
    { ...g, time: 0, kind: 'member-joined', generation: 0, ...a, cause: 'new member joined' },
    { ...g, time: 0, kind: 'rebalance-started', generation: 0, stateBefore: 'Empty', stateAfter: 'PreparingRebalance', cause: 'Adding new member billing-1 with group instance id null' },
    { ...g, time: 1200, kind: 'member-joined', generation: 0, ...b, cause: 'new member joined' },
    { ...g, time: 6000, kind: 'state-changed', generation: 1, stateBefore: 'PreparingRebalance', stateAfter: 'CompletingRebalance', cause: 'join phase completed' },
    { ...g, time: 6040, kind: 'assignment-changed', generation: 1, assignments: [change(a, [], tps('orders', 0, 1, 2)), change(b, [], tps('orders', 3, 4, 5))] },
    { ...g, time: 6040, kind: 'sync-completed', generation: 1, stateBefore: 'CompletingRebalance', stateAfter: 'Stable', cause: 'leader assignment persisted' },
    { ...g, time: 20000, kind: 'member-joined', generation: 1, ...s1, cause: 'new static member joined' },
    { ...g, time: 20000, kind: 'rebalance-started', generation: 1, stateBefore: 'Stable', stateAfter: 'PreparingRebalance', cause: 'Adding new member billing-static-a with group instance id billing-static-a' },
    { ...g, time: 22500, kind: 'state-changed', generation: 2, stateBefore: 'PreparingRebalance', stateAfter: 'CompletingRebalance' },
    {
      ...g,
      time: 22530,
      kind: 'assignment-changed',
      generation: 2,
      assignments: [change(a, tps('orders', 0, 1, 2), tps('orders', 0, 1)), change(b, tps('orders', 3, 4, 5), tps('orders', 2, 3)), change(s1, [], tps('orders', 4, 5))],
    },
    { ...g, time: 22530, kind: 'sync-completed', generation: 2, stateBefore: 'CompletingRebalance', stateAfter: 'Stable' },
    { ...g, time: 41000, kind: 'member-expired', generation: 2, ...s1, cause: 'Session timeout expired for member billing-static-a' },
    { ...g, time: 41000, kind: 'rebalance-started', generation: 2, stateBefore: 'Stable', stateAfter: 'PreparingRebalance', cause: 'removing member after session timeout' },
    { ...g, time: 43800, kind: 'state-changed', generation: 3, stateBefore: 'PreparingRebalance', stateAfter: 'CompletingRebalance' },
    { ...g, time: 43820, kind: 'assignment-changed', generation: 3, assignments: [change(a, tps('orders', 0, 1), tps('orders', 0, 1, 2)), change(b, tps('orders', 2, 3), tps('orders', 3, 4, 5)), change(s1, tps('orders', 4, 5), [])] },
    { ...g, time: 43820, kind: 'sync-completed', generation: 3, stateBefore: 'CompletingRebalance', stateAfter: 'Stable' },
    { ...g, time: 52000, kind: 'static-rejoin', generation: 3, ...s2, cause: 'static member billing-static-a rejoined' },
    { ...g, time: 52000, kind: 'rebalance-started', generation: 3, stateBefore: 'Stable', stateAfter: 'PreparingRebalance', cause: 'Adding new member billing-static-a with group instance id billing-static-a' },
    { ...g, time: 54100, kind: 'state-changed', generation: 4, stateBefore: 'PreparingRebalance', stateAfter: 'CompletingRebalance' },
    { ...g, time: 54120, kind: 'assignment-changed', generation: 4, assignments: [change(a, tps('orders', 0, 1, 2), tps('orders', 0, 1)), change(b, tps('orders', 3, 4, 5), tps('orders', 2, 3)), change(s2, [], tps('orders', 4, 5))] },
    { ...g, time: 54120, kind: 'sync-completed', generation: 4, stateBefore: 'CompletingRebalance', stateAfter: 'Stable' },
    { ...g, time: 70000, kind: 'poll-timeout', generation: 4, ...b, cause: 'consumer poll timeout has expired.' },
    { ...g, time: 70000, kind: 'member-left', generation: 4, ...b, cause: 'consumer poll timeout has expired.' },
    { ...g, time: 70000, kind: 'rebalance-started', generation: 4, stateBefore: 'Stable', stateAfter: 'PreparingRebalance', cause: 'Removing member billing-2 on LeaveGroup' },
    { ...g, time: 72600, kind: 'state-changed', generation: 5, stateBefore: 'PreparingRebalance', stateAfter: 'CompletingRebalance' },
    { ...g, time: 72640, kind: 'assignment-changed', generation: 5, assignments: [change(a, tps('orders', 0, 1), tps('orders', 0, 1, 2)), change(b, tps('orders', 2, 3), []), change(s2, tps('orders', 4, 5), tps('orders', 3, 4, 5))] },
    { ...g, time: 72640, kind: 'sync-completed', generation: 5, stateBefore: 'CompletingRebalance', stateAfter: 'Stable' },
    // The group has since moved to cooperative-sticky: when billing-3 joins, only orders-2 and orders-5 move, in two rounds.
    { ...g, time: 76000, kind: 'member-joined', generation: 5, ...c, cause: 'new member joined' },
    { ...g, time: 76000, kind: 'rebalance-started', generation: 5, stateBefore: 'Stable', stateAfter: 'PreparingRebalance', cause: 'Adding new member billing-3 with group instance id null' },
    { ...g, time: 78100, kind: 'state-changed', generation: 6, stateBefore: 'PreparingRebalance', stateAfter: 'CompletingRebalance' },
    { ...g, time: 78130, kind: 'assignment-changed', generation: 6, assignments: [change(a, tps('orders', 2), []), change(s2, tps('orders', 5), [])] },
    { ...g, time: 78130, kind: 'sync-completed', generation: 6, stateBefore: 'CompletingRebalance', stateAfter: 'Stable' },
    { ...g, time: 78200, kind: 'rebalance-started', generation: 6, stateBefore: 'Stable', stateAfter: 'PreparingRebalance', cause: 'need to revoke partitions and re-join' },
    { ...g, time: 80200, kind: 'state-changed', generation: 7, stateBefore: 'PreparingRebalance', stateAfter: 'CompletingRebalance' },
    { ...g, time: 80230, kind: 'assignment-changed', generation: 7, assignments: [change(c, [], tps('orders', 2, 5))] },
    { ...g, time: 80230, kind: 'sync-completed', generation: 7, stateBefore: 'CompletingRebalance', stateAfter: 'Stable' },
    { ...g, time: 86000, kind: 'offsets-committed', generation: 7, ...a, cause: 'commit of 3 partitions' },
  ];
}

/** `count` events: the story repeated with fresh members and shifted times, as a long-lived busy group. */
export function manyEvents(groupId: string, count: number): RebalanceEvent[] {
  const story = storyEvents(groupId);
  const period = story[story.length - 1].time + 5000;
  const events: RebalanceEvent[] = [];
  for (let round = 0; events.length < count; round++) {
    const suffix = `-r${round % 40}`;
    for (const event of story) {
      if (events.length >= count) {
        break;
      }
      events.push({
        ...event,
        time: event.time + round * period,
        generation: event.generation + round * 7,
        memberId: event.memberId === undefined ? undefined : event.memberId + suffix,
        assignments: event.assignments?.map((c) => ({ ...c, memberId: c.memberId + suffix })),
      });
    }
  }
  return events;
}
