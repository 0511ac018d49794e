/**
 * The engine's side of a KIP-848 group's timeline: it replays each batch it writes into the group
 * and hands the same batch to the one derivation of events from records (timeline/consumerGroupEvents),
 * which the real-cluster reader of __consumer_offsets uses too, so both draw the same timeline.
 */
import type { RebalanceEvent } from '../../../../../model/types';
import { ConsumerGroupTimelines, type ClassicMemberIdentity, type OperationCause } from '../../../../../timeline/consumerGroupEvents';
import type { ConsumerGroup } from './consumerGroup';
import type { ConsumerGroupMember } from './consumerGroupMember';
import {
  newConsumerGroupCurrentAssignmentRecord,
  newConsumerGroupEpochRecord,
  newConsumerGroupMemberSubscriptionRecord,
  newConsumerGroupTargetAssignmentEpochRecord,
  newConsumerGroupTargetAssignmentRecord,
  type ConsumerGroupRecord,
} from './records';
import type { TopicMetadataImage } from './types';

export type { ClassicMemberIdentity, OperationCause };

/** A member as the classic group it stays in names it (its GroupMetadata record). */
export function classicMemberIdentity(member: ConsumerGroupMember): ClassicMemberIdentity {
  return { memberId: member.memberId, groupInstanceId: member.instanceId, clientId: member.clientId };
}

/**
 * A batch that converts the group (online migration): `upgrade`, from a classic group, its records start
 * with the converted group's; `downgrade`, to a classic group of `classicMembers`, its records are the tombstones.
 */
export type Conversion = { kind: 'upgrade' } | { kind: 'downgrade'; classicMembers: readonly ClassicMemberIdentity[] };

export type ConsumerGroupEventSink = (event: RebalanceEvent) => void;

/** Replays records into a group and emits the events they mean. */
export class ConsumerGroupEventRecorder {
  private readonly timelines: ConsumerGroupTimelines;

  constructor(
    private readonly sink: ConsumerGroupEventSink,
    image: TopicMetadataImage,
    private readonly now: () => number,
  ) {
    this.timelines = new ConsumerGroupTimelines((topicId) => image.topicById(topicId)?.name);
  }

  replay(group: ConsumerGroup, records: readonly ConsumerGroupRecord[], cause: OperationCause, conversion?: Conversion): void {
    if (conversion !== undefined) {
      for (const record of records) {
        group.replay(record);
      }
      const events = conversion.kind === 'upgrade'
        ? this.timelines.applyUpgradeBatch(group.groupId, records, this.now(), cause)
        : this.timelines.applyDowngradeBatch(group.groupId, conversion.classicMembers, this.now(), cause);
      events.forEach((event) => this.sink(event));
      return;
    }
    if (this.timelines.epoch(group.groupId) === undefined && group.members.size > 0) {
      // A group loaded from records this recorder did not see: start from what it holds, silently.
      this.timelines.applyBatch(group.groupId, stateRecords(group), this.now());
    }
    for (const record of records) {
      group.replay(record);
    }
    for (const event of this.timelines.applyBatch(group.groupId, records, this.now(), cause)) {
      this.sink(event);
    }
  }
}

/** Records that rebuild the group as it stands (what its compacted __consumer_offsets partition would hold). */
function stateRecords(group: ConsumerGroup): ConsumerGroupRecord[] {
  const members = [...group.members.values()];
  return [
    ...members.map((member) => newConsumerGroupMemberSubscriptionRecord(group.groupId, member)),
    newConsumerGroupEpochRecord(group.groupId, group.groupEpoch, group.metadataHash),
    ...[...group.targetAssignment].map(([memberId, partitions]) => newConsumerGroupTargetAssignmentRecord(group.groupId, memberId, partitions)),
    newConsumerGroupTargetAssignmentEpochRecord(group.groupId, group.assignmentEpoch, group.assignmentTimestamp),
    ...members.map((member) => newConsumerGroupCurrentAssignmentRecord(group.groupId, member)),
  ];
}
