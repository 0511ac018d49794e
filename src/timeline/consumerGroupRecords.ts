/**
 * The KIP-848 consumer-group records of `__consumer_offsets` (record types 3 and 5 to 8 and 16 of
 * Kafka's group coordinator), on the generated codecs: the simulator's engine writes them and the
 * real-cluster reader decodes them, so both feed the same derivation (consumerGroupEvents.ts).
 *
 * The bytes (coordinatorRecordCodecs.ts): `[int16 record type][key v0]`, `[int16 version][value]`. Kafka 4.1 to 4.4 write every
 * one of these keys and values at version 0 (4.1 made them `coordinator-key` schemas with an apiKey;
 * the bytes did not change); what later versions added is tagged (MetadataHash in 4.1,
 * AssignmentTimestamp and AssignmentEpochs in 4.3), so a newer writer's fields are kept, not lost.
 * Type 4 (ConsumerGroupPartitionMetadata, only written by 4.0) decodes as a record we skip.
 */
import type { ByteReader } from '../protocol/byteReader';
import { ConsumerGroupCurrentMemberAssignmentKey, type ConsumerGroupCurrentMemberAssignmentKeyData } from '../protocol/messages/consumerGroupCurrentMemberAssignmentKey';
import { ConsumerGroupCurrentMemberAssignmentValue, type ConsumerGroupCurrentMemberAssignmentValueData } from '../protocol/messages/consumerGroupCurrentMemberAssignmentValue';
import { ConsumerGroupMemberMetadataKey, type ConsumerGroupMemberMetadataKeyData } from '../protocol/messages/consumerGroupMemberMetadataKey';
import { ConsumerGroupMemberMetadataValue, type ConsumerGroupMemberMetadataValueData } from '../protocol/messages/consumerGroupMemberMetadataValue';
import { ConsumerGroupMetadataKey, type ConsumerGroupMetadataKeyData } from '../protocol/messages/consumerGroupMetadataKey';
import { ConsumerGroupMetadataValue, type ConsumerGroupMetadataValueData } from '../protocol/messages/consumerGroupMetadataValue';
import { ConsumerGroupPartitionMetadataKey } from '../protocol/messages/consumerGroupPartitionMetadataKey';
import { ConsumerGroupRegularExpressionKey, type ConsumerGroupRegularExpressionKeyData } from '../protocol/messages/consumerGroupRegularExpressionKey';
import { ConsumerGroupRegularExpressionValue, type ConsumerGroupRegularExpressionValueData } from '../protocol/messages/consumerGroupRegularExpressionValue';
import { ConsumerGroupTargetAssignmentMemberKey, type ConsumerGroupTargetAssignmentMemberKeyData } from '../protocol/messages/consumerGroupTargetAssignmentMemberKey';
import { ConsumerGroupTargetAssignmentMemberValue, type ConsumerGroupTargetAssignmentMemberValueData } from '../protocol/messages/consumerGroupTargetAssignmentMemberValue';
import { ConsumerGroupTargetAssignmentMetadataKey, type ConsumerGroupTargetAssignmentMetadataKeyData } from '../protocol/messages/consumerGroupTargetAssignmentMetadataKey';
import { ConsumerGroupTargetAssignmentMetadataValue, type ConsumerGroupTargetAssignmentMetadataValueData } from '../protocol/messages/consumerGroupTargetAssignmentMetadataValue';
import { CoordinatorRecordFamily, recordCodecs, recordTypeOf } from './coordinatorRecordCodecs';

/** One record, tagged with its key's type (GroupCoordinatorRecordHelpers of Kafka 4.4); a null value is a tombstone. */
export type ConsumerGroupRecord =
  | { type: 'ConsumerGroupMetadata'; key: ConsumerGroupMetadataKeyData; value: ConsumerGroupMetadataValueData | null }
  | { type: 'ConsumerGroupMemberMetadata'; key: ConsumerGroupMemberMetadataKeyData; value: ConsumerGroupMemberMetadataValueData | null }
  | { type: 'ConsumerGroupTargetAssignmentMetadata'; key: ConsumerGroupTargetAssignmentMetadataKeyData; value: ConsumerGroupTargetAssignmentMetadataValueData | null }
  | { type: 'ConsumerGroupTargetAssignmentMember'; key: ConsumerGroupTargetAssignmentMemberKeyData; value: ConsumerGroupTargetAssignmentMemberValueData | null }
  | { type: 'ConsumerGroupCurrentMemberAssignment'; key: ConsumerGroupCurrentMemberAssignmentKeyData; value: CurrentMemberAssignmentValue | null }
  | { type: 'ConsumerGroupRegularExpression'; key: ConsumerGroupRegularExpressionKeyData; value: ConsumerGroupRegularExpressionValueData | null };

export type ConsumerGroupRecordType = ConsumerGroupRecord['type'];

/**
 * A current assignment as the timeline reads it: a streams group's record, mapped onto the consumer
 * group's (streamsGroupRecords.ts), also carries its standby and warm-up tasks, which hold no partition.
 */
export type CurrentMemberAssignmentValue = ConsumerGroupCurrentMemberAssignmentValueData & {
  standbyTasks?: ConsumerGroupCurrentMemberAssignmentValueData['assignedPartitions'];
  warmupTasks?: ConsumerGroupCurrentMemberAssignmentValueData['assignedPartitions'];
};

const FAMILY = new CoordinatorRecordFamily<ConsumerGroupRecord>('consumer-group', [
  recordCodecs('ConsumerGroupMetadata', ConsumerGroupMetadataKey, ConsumerGroupMetadataValue),
  recordCodecs('ConsumerGroupMemberMetadata', ConsumerGroupMemberMetadataKey, ConsumerGroupMemberMetadataValue),
  recordCodecs('ConsumerGroupTargetAssignmentMetadata', ConsumerGroupTargetAssignmentMetadataKey, ConsumerGroupTargetAssignmentMetadataValue),
  recordCodecs('ConsumerGroupTargetAssignmentMember', ConsumerGroupTargetAssignmentMemberKey, ConsumerGroupTargetAssignmentMemberValue),
  recordCodecs('ConsumerGroupCurrentMemberAssignment', ConsumerGroupCurrentMemberAssignmentKey, ConsumerGroupCurrentMemberAssignmentValue),
  recordCodecs('ConsumerGroupRegularExpression', ConsumerGroupRegularExpressionKey, ConsumerGroupRegularExpressionValue),
]);

/** 4.0's ConsumerGroupPartitionMetadata: replaced by MetadataHash in 4.1, nothing a timeline needs. */
export const CONSUMER_GROUP_PARTITION_METADATA_RECORD_TYPE = recordTypeOf(ConsumerGroupPartitionMetadataKey);

/** True when the key's record type is one of the consumer-group records decoded here. */
export function isConsumerGroupRecordType(recordType: number): boolean {
  return FAMILY.has(recordType);
}

/**
 * Decodes the rest of a key (after its int16 record type) and the value of a consumer-group record.
 * Throws a ProtocolError naming the record when the bytes are not one.
 */
export function decodeConsumerGroupRecord(recordType: number, keyBody: ByteReader, value: Uint8Array | null): ConsumerGroupRecord {
  return FAMILY.decode(recordType, keyBody, value);
}

/** The key and value bytes Kafka's CoordinatorRecordSerde writes for a record (value null: tombstone). */
export function encodeConsumerGroupRecord(record: ConsumerGroupRecord): { key: Uint8Array; value: Uint8Array | null } {
  return FAMILY.encode(record);
}

/** The group a record belongs to. */
export function groupOf(record: ConsumerGroupRecord): string {
  return record.key.groupId;
}

/** The topic ids a record names (assignments name topics by id). */
export function topicIdsOf(record: ConsumerGroupRecord): string[] {
  switch (record.type) {
    case 'ConsumerGroupTargetAssignmentMember':
      return record.value?.topicPartitions.map((t) => t.topicId) ?? [];
    case 'ConsumerGroupCurrentMemberAssignment':
      return record.value === null ? [] : [...record.value.assignedPartitions, ...record.value.partitionsPendingRevocation].map((t) => t.topicId);
    default:
      return [];
  }
}
