/**
 * The streams-group records of `__consumer_offsets` (record types 17 and 19 to 23 of Kafka 4.4's
 * group coordinator, KIP-1071), decoded on the shared path (coordinatorRecordCodecs.ts).
 *
 * Types 17, 19, 20, 21 and 22 have the shapes of the consumer group's 3, 5, 6, 7 and 8 with *tasks*
 * in place of partitions, so asConsumerGroupRecord maps them onto those and one derivation
 * (consumerGroupEvents.ts) reads all three: an active task (subtopology s, partition p; Kafka Streams
 * names it s_p) is shown as the partition p of a pseudo-topic `subtopology s`, and active tasks
 * pending revocation as partitions pending revocation. Standby and warm-up tasks hold no input
 * partition: the current assignment carries them beside the active tasks, for the member's reconciliation. Streams numbers its member states from 1, not 0. The member's process id is shown with its client id. The topology
 * (23) makes no event: a topology change shows as the group-epoch bump that follows.
 */
import { StreamsGroupCurrentMemberAssignmentKey, type StreamsGroupCurrentMemberAssignmentKeyData } from '../protocol/messages/streamsGroupCurrentMemberAssignmentKey';
import { StreamsGroupCurrentMemberAssignmentValue, type StreamsGroupCurrentMemberAssignmentValueData } from '../protocol/messages/streamsGroupCurrentMemberAssignmentValue';
import { StreamsGroupMemberMetadataKey, type StreamsGroupMemberMetadataKeyData } from '../protocol/messages/streamsGroupMemberMetadataKey';
import { StreamsGroupMemberMetadataValue, type StreamsGroupMemberMetadataValueData } from '../protocol/messages/streamsGroupMemberMetadataValue';
import { StreamsGroupMetadataKey, type StreamsGroupMetadataKeyData } from '../protocol/messages/streamsGroupMetadataKey';
import { StreamsGroupMetadataValue, type StreamsGroupMetadataValueData } from '../protocol/messages/streamsGroupMetadataValue';
import { StreamsGroupTargetAssignmentMemberKey, type StreamsGroupTargetAssignmentMemberKeyData } from '../protocol/messages/streamsGroupTargetAssignmentMemberKey';
import { StreamsGroupTargetAssignmentMemberValue, type StreamsGroupTargetAssignmentMemberValueData } from '../protocol/messages/streamsGroupTargetAssignmentMemberValue';
import { StreamsGroupTargetAssignmentMetadataKey, type StreamsGroupTargetAssignmentMetadataKeyData } from '../protocol/messages/streamsGroupTargetAssignmentMetadataKey';
import { StreamsGroupTargetAssignmentMetadataValue, type StreamsGroupTargetAssignmentMetadataValueData } from '../protocol/messages/streamsGroupTargetAssignmentMetadataValue';
import { StreamsGroupTopologyKey, type StreamsGroupTopologyKeyData } from '../protocol/messages/streamsGroupTopologyKey';
import { StreamsGroupTopologyValue, type StreamsGroupTopologyValueData } from '../protocol/messages/streamsGroupTopologyValue';
import type { ConsumerGroupRecord } from './consumerGroupRecords';
import { CoordinatorRecordFamily, recordCodecs } from './coordinatorRecordCodecs';

/** One streams-group record, tagged with its key's type; a null value is a tombstone. */
export type StreamsGroupRecord =
  | { type: 'StreamsGroupMetadata'; key: StreamsGroupMetadataKeyData; value: StreamsGroupMetadataValueData | null }
  | { type: 'StreamsGroupMemberMetadata'; key: StreamsGroupMemberMetadataKeyData; value: StreamsGroupMemberMetadataValueData | null }
  | { type: 'StreamsGroupTargetAssignmentMetadata'; key: StreamsGroupTargetAssignmentMetadataKeyData; value: StreamsGroupTargetAssignmentMetadataValueData | null }
  | { type: 'StreamsGroupTargetAssignmentMember'; key: StreamsGroupTargetAssignmentMemberKeyData; value: StreamsGroupTargetAssignmentMemberValueData | null }
  | { type: 'StreamsGroupCurrentMemberAssignment'; key: StreamsGroupCurrentMemberAssignmentKeyData; value: StreamsGroupCurrentMemberAssignmentValueData | null }
  | { type: 'StreamsGroupTopology'; key: StreamsGroupTopologyKeyData; value: StreamsGroupTopologyValueData | null };

export const STREAMS_GROUP_RECORDS = new CoordinatorRecordFamily<StreamsGroupRecord>('streams-group', [
  recordCodecs('StreamsGroupMetadata', StreamsGroupMetadataKey, StreamsGroupMetadataValue),
  recordCodecs('StreamsGroupMemberMetadata', StreamsGroupMemberMetadataKey, StreamsGroupMemberMetadataValue),
  recordCodecs('StreamsGroupTargetAssignmentMetadata', StreamsGroupTargetAssignmentMetadataKey, StreamsGroupTargetAssignmentMetadataValue),
  recordCodecs('StreamsGroupTargetAssignmentMember', StreamsGroupTargetAssignmentMemberKey, StreamsGroupTargetAssignmentMemberValue),
  recordCodecs('StreamsGroupCurrentMemberAssignment', StreamsGroupCurrentMemberAssignmentKey, StreamsGroupCurrentMemberAssignmentValue),
  recordCodecs('StreamsGroupTopology', StreamsGroupTopologyKey, StreamsGroupTopologyValue),
]);

/** The pseudo-topic under which a subtopology's active tasks are shown. */
export function subtopologyTopic(subtopologyId: string): string {
  return `subtopology ${subtopologyId}`;
}

function asTopicPartitions(tasks: ReadonlyArray<{ subtopologyId: string; partitions: number[] }>): Array<{ topicId: string; partitions: number[] }> {
  return tasks.map((task) => ({ topicId: subtopologyTopic(task.subtopologyId), partitions: task.partitions }));
}

/**
 * Streams' MemberState values (coordinator/group/streams/MemberState.java: STABLE 1, UNREVOKED_TASKS 2,
 * UNRELEASED_TASKS 3, UNKNOWN 127) as the consumer group's (modern/MemberState.java: 0, 1, 2, 127).
 */
function asConsumerMemberState(streamsState: number): number {
  return streamsState >= 1 && streamsState <= 3 ? streamsState - 1 : 127;
}

/** The consumer-group record of the same meaning; null for StreamsGroupTopology (no membership in it). */
export function asConsumerGroupRecord(record: StreamsGroupRecord): ConsumerGroupRecord | null {
  switch (record.type) {
    case 'StreamsGroupMetadata':
      return { type: 'ConsumerGroupMetadata', key: record.key, value: record.value === null ? null : { epoch: record.value.epoch, metadataHash: record.value.metadataHash } };
    case 'StreamsGroupMemberMetadata': {
      const value = record.value;
      return {
        type: 'ConsumerGroupMemberMetadata',
        key: record.key,
        value: value === null ? null : {
          instanceId: value.instanceId,
          rackId: value.rackId,
          clientId: value.clientId.includes(value.processId) ? value.clientId : `${value.clientId} (process ${value.processId})`,
          clientHost: value.clientHost,
          subscribedTopicNames: [],
          subscribedTopicRegex: null,
          rebalanceTimeoutMs: value.rebalanceTimeoutMs,
          serverAssignor: null,
        },
      };
    }
    case 'StreamsGroupTargetAssignmentMetadata':
      return { type: 'ConsumerGroupTargetAssignmentMetadata', key: record.key, value: record.value === null ? null : { assignmentEpoch: record.value.assignmentEpoch } };
    case 'StreamsGroupTargetAssignmentMember':
      return { type: 'ConsumerGroupTargetAssignmentMember', key: record.key, value: record.value === null ? null : { topicPartitions: asTopicPartitions(record.value.activeTasks) } };
    case 'StreamsGroupCurrentMemberAssignment':
      return {
        type: 'ConsumerGroupCurrentMemberAssignment',
        key: record.key,
        value: record.value === null ? null : {
          memberEpoch: record.value.memberEpoch,
          previousMemberEpoch: record.value.previousMemberEpoch,
          state: asConsumerMemberState(record.value.state),
          assignedPartitions: asTopicPartitions(record.value.activeTasks),
          partitionsPendingRevocation: asTopicPartitions(record.value.activeTasksPendingRevocation),
          standbyTasks: asTopicPartitions(record.value.standbyTasks),
          warmupTasks: asTopicPartitions(record.value.warmupTasks),
        },
      };
    case 'StreamsGroupTopology':
      return null;
  }
}
