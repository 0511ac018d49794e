/**
 * The engine's side of a KIP-848 group's timeline: it replays each batch it writes into the group
 * and hands the same batch to the one derivation of events from records (timeline/consumerGroupEvents),
 * which the real-cluster reader of __consumer_offsets uses too, so both draw the same timeline.
 */
import type { RebalanceEvent } from '../../model/types';
import { ConsumerGroupTimelines, type OperationCause } from '../../timeline/consumerGroupEvents';
import type { ConsumerGroup } from './consumerGroup';
import {
  newConsumerGroupCurrentAssignmentRecord,
  newConsumerGroupEpochRecord,
  newConsumerGroupMemberSubscriptionRecord,
  newConsumerGroupTargetAssignmentEpochRecord,
  newConsumerGroupTargetAssignmentRecord,
  type ConsumerGroupRecord,
} from './records';
import type { TopicMetadataImage } from './types';

export type { OperationCause };

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

  replay(group: ConsumerGroup, records: readonly ConsumerGroupRecord[], cause: OperationCause): void {
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
