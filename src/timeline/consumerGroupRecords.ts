/**
 * The KIP-848 consumer-group records of `__consumer_offsets` (record types 3 and 5 to 8 and 16 of
 * Kafka's group coordinator), on the generated codecs: the simulator's engine writes them and the
 * real-cluster reader decodes them, so both feed the same derivation (consumerGroupEvents.ts).
 *
 * On the wire (CoordinatorRecordSerde) a key is `[int16 record type][key message v0]` and a value
 * `[int16 value version][value message]`; a null value is a tombstone. Kafka 4.1 to 4.4 write every
 * one of these keys and values at version 0 (4.1 made them `coordinator-key` schemas with an apiKey;
 * the bytes did not change); what later versions added is tagged (MetadataHash in 4.1,
 * AssignmentTimestamp and AssignmentEpochs in 4.3), so a newer writer's fields are kept, not lost.
 * Type 4 (ConsumerGroupPartitionMetadata, only written by 4.0) decodes as a record we skip.
 */
import { ByteReader } from '../protocol/byteReader';
import { ByteWriter } from '../protocol/byteWriter';
import { ProtocolError, errorMessage } from '../protocol/errors';
import type { MessageCodec } from '../protocol/runtime';
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

/** One record, tagged with its key's type (GroupCoordinatorRecordHelpers of Kafka 4.4); a null value is a tombstone. */
export type ConsumerGroupRecord =
  | { type: 'ConsumerGroupMetadata'; key: ConsumerGroupMetadataKeyData; value: ConsumerGroupMetadataValueData | null }
  | { type: 'ConsumerGroupMemberMetadata'; key: ConsumerGroupMemberMetadataKeyData; value: ConsumerGroupMemberMetadataValueData | null }
  | { type: 'ConsumerGroupTargetAssignmentMetadata'; key: ConsumerGroupTargetAssignmentMetadataKeyData; value: ConsumerGroupTargetAssignmentMetadataValueData | null }
  | { type: 'ConsumerGroupTargetAssignmentMember'; key: ConsumerGroupTargetAssignmentMemberKeyData; value: ConsumerGroupTargetAssignmentMemberValueData | null }
  | { type: 'ConsumerGroupCurrentMemberAssignment'; key: ConsumerGroupCurrentMemberAssignmentKeyData; value: ConsumerGroupCurrentMemberAssignmentValueData | null }
  | { type: 'ConsumerGroupRegularExpression'; key: ConsumerGroupRegularExpressionKeyData; value: ConsumerGroupRegularExpressionValueData | null };

export type ConsumerGroupRecordType = ConsumerGroupRecord['type'];

interface RecordCodecs {
  type: ConsumerGroupRecordType;
  key: MessageCodec<unknown>;
  value: MessageCodec<unknown>;
}

function codecs<K, V>(type: ConsumerGroupRecordType, key: MessageCodec<K>, value: MessageCodec<V>): RecordCodecs {
  return { type, key, value };
}

/** The record type (int16 at the start of a key) of each record, from the generated codecs. */
const BY_RECORD_TYPE: ReadonlyMap<number, RecordCodecs> = new Map([
  codecs('ConsumerGroupMetadata', ConsumerGroupMetadataKey, ConsumerGroupMetadataValue),
  codecs('ConsumerGroupMemberMetadata', ConsumerGroupMemberMetadataKey, ConsumerGroupMemberMetadataValue),
  codecs('ConsumerGroupTargetAssignmentMetadata', ConsumerGroupTargetAssignmentMetadataKey, ConsumerGroupTargetAssignmentMetadataValue),
  codecs('ConsumerGroupTargetAssignmentMember', ConsumerGroupTargetAssignmentMemberKey, ConsumerGroupTargetAssignmentMemberValue),
  codecs('ConsumerGroupCurrentMemberAssignment', ConsumerGroupCurrentMemberAssignmentKey, ConsumerGroupCurrentMemberAssignmentValue),
  codecs('ConsumerGroupRegularExpression', ConsumerGroupRegularExpressionKey, ConsumerGroupRegularExpressionValue),
].map((entry) => [recordTypeOf(entry.key), entry]));

const BY_NAME: ReadonlyMap<ConsumerGroupRecordType, RecordCodecs> = new Map([...BY_RECORD_TYPE.values()].map((entry) => [entry.type, entry]));

/** 4.0's ConsumerGroupPartitionMetadata: replaced by MetadataHash in 4.1, nothing a timeline needs. */
export const CONSUMER_GROUP_PARTITION_METADATA_RECORD_TYPE = recordTypeOf(ConsumerGroupPartitionMetadataKey);

function recordTypeOf(codec: MessageCodec<unknown>): number {
  if (codec.apiKey === null) {
    throw new Error(`${codec.name} has no record type`);
  }
  return codec.apiKey;
}

/** True when the key's record type is one of the consumer-group records decoded here. */
export function isConsumerGroupRecordType(recordType: number): boolean {
  return BY_RECORD_TYPE.has(recordType);
}

/**
 * Decodes the rest of a key (after its int16 record type) and the value of a consumer-group record.
 * Throws a ProtocolError naming the record when the bytes are not one.
 */
export function decodeConsumerGroupRecord(recordType: number, keyBody: ByteReader, value: Uint8Array | null): ConsumerGroupRecord {
  const entry = BY_RECORD_TYPE.get(recordType);
  if (entry === undefined) {
    throw new ProtocolError(`record type ${recordType} is not a consumer-group record`);
  }
  const key = readWhole(entry.key, keyBody, 0);
  if (value === null) {
    return { type: entry.type, key, value: null } as ConsumerGroupRecord;
  }
  const reader = new ByteReader(value);
  const version = reader.int16();
  const { lo, hi } = entry.value.validVersions;
  if (version < lo || version > hi) {
    throw new ProtocolError(`${entry.value.name}: unsupported version ${version} (this decoder reads ${lo} to ${hi})`);
  }
  return { type: entry.type, key, value: readWhole(entry.value, reader, version) } as ConsumerGroupRecord;
}

/** The key and value bytes Kafka's CoordinatorRecordSerde writes for a record (value null: tombstone). */
export function encodeConsumerGroupRecord(record: ConsumerGroupRecord): { key: Uint8Array; value: Uint8Array | null } {
  const entry = BY_NAME.get(record.type);
  if (entry === undefined) {
    throw new Error(`unknown consumer-group record ${record.type}`);
  }
  const key = new ByteWriter();
  key.int16(recordTypeOf(entry.key));
  entry.key.write(key, 0, record.key);
  if (record.value === null) {
    return { key: key.finish(), value: null };
  }
  const value = new ByteWriter();
  const version = entry.value.validVersions.hi;
  value.int16(version);
  entry.value.write(value, version, record.value);
  return { key: key.finish(), value: value.finish() };
}

/** The group a record belongs to. */
export function groupOf(record: ConsumerGroupRecord): string {
  return record.key.groupId;
}

function readWhole(codec: MessageCodec<unknown>, reader: ByteReader, version: number): unknown {
  try {
    const message = codec.read(reader, version);
    if (reader.remaining !== 0) {
      throw new ProtocolError(`${reader.remaining} unexpected trailing byte(s)`);
    }
    return message;
  } catch (error) {
    throw new ProtocolError(`${codec.name}: ${errorMessage(error)}`);
  }
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
