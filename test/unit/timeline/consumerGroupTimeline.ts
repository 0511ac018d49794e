/**
 * A KIP-848 membership change driven through the simulator's engine with a manual clock, with the
 * record batches it wrote and when: two members join, the first is slow to revoke, a third joins,
 * one leaves. Shared by the derivation's tests and the reader's.
 */
import type { RebalanceEvent } from '../../../src/model/types';
import type { ConsumerGroupRecord } from '../../../src/timeline/consumerGroupRecords';
import { engineContext, fooTopicId, MockPartitionAssignor } from '../simulator/coordinator/group/modern/consumer/engineSupport';

export const TIMELINE_GROUP = 'timeline-group';
export const TOPIC_NAMES = new Map([[fooTopicId, 'foo']]);

export interface WrittenBatch {
  time: number;
  records: ConsumerGroupRecord[];
}

export interface MembershipChange {
  batches: WrittenBatch[];
  /** The events the engine emitted while writing them. */
  events: RebalanceEvent[];
}

const join = { memberEpoch: 0, rebalanceTimeoutMs: 60000, subscribedTopicNames: ['foo'], serverAssignor: 'range', topicPartitions: [] };

function owned(partitions: number[]): Array<{ topicId: string; partitions: number[] }> {
  return [{ topicId: fooTopicId, partitions }];
}

export function membershipChange(): MembershipChange {
  const assignor = new MockPartitionAssignor();
  const context = engineContext({ topics: [{ topicId: fooTopicId, name: 'foo', numPartitions: 6 }], assignor: assignor.assign });
  const batches: WrittenBatch[] = [];
  const at = (time: number, request: Parameters<typeof context.heartbeat>[0]): void => {
    context.timer.advance(time - context.timer.now);
    const before = context.written.length;
    context.heartbeat(request);
    batches.push(...context.written.slice(before).map((records) => ({ time, records })));
  };
  const groupId = TIMELINE_GROUP;
  assignor.prepare({ m1: [[fooTopicId, [0, 1, 2, 3, 4, 5]]] });
  at(0, { groupId, memberId: 'm1', ...join });
  assignor.prepare({ m1: [[fooTopicId, [0, 1, 2]]], m2: [[fooTopicId, [3, 4, 5]]] });
  at(1000, { groupId, memberId: 'm2', ...join });
  at(2000, { groupId, memberId: 'm1', memberEpoch: 2, topicPartitions: owned([0, 1, 2, 3, 4, 5]) }); // told to revoke 3-5
  at(3000, { groupId, memberId: 'm2', memberEpoch: 3, topicPartitions: [] }); // still waiting for them
  at(7000, { groupId, memberId: 'm1', memberEpoch: 2, topicPartitions: owned([0, 1, 2]) }); // slow to revoke: 5 s after the target
  at(8000, { groupId, memberId: 'm2', memberEpoch: 3, topicPartitions: [] });
  assignor.prepare({ m1: [[fooTopicId, [0, 1]]], m2: [[fooTopicId, [3, 4]]], m3: [[fooTopicId, [2, 5]]] });
  at(10000, { groupId, memberId: 'm3', ...join });
  at(10500, { groupId, memberId: 'm1', memberEpoch: 3, topicPartitions: owned([0, 1, 2]) });
  at(10600, { groupId, memberId: 'm1', memberEpoch: 3, topicPartitions: owned([0, 1]) });
  at(11000, { groupId, memberId: 'm2', memberEpoch: 3, topicPartitions: owned([3, 4, 5]) });
  at(11100, { groupId, memberId: 'm2', memberEpoch: 3, topicPartitions: owned([3, 4]) });
  at(12000, { groupId, memberId: 'm3', memberEpoch: 4, topicPartitions: [] });
  assignor.prepare({ m1: [[fooTopicId, [0, 1, 2]]], m3: [[fooTopicId, [3, 4, 5]]] });
  at(15000, { groupId, memberId: 'm2', memberEpoch: -1 }); // leaves
  return { batches, events: context.events };
}

/** Each member's convergence: [member, epoch reached, milliseconds it took]. */
export function convergence(events: readonly RebalanceEvent[]): Array<[string, number, number]> {
  return events.flatMap((event) =>
    event.reconciliation?.convergedAfterMs === undefined ? [] : [[event.memberId ?? '', event.reconciliation.memberEpoch, event.reconciliation.convergedAfterMs] as [string, number, number]]);
}
