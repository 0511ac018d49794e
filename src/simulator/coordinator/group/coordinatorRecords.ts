/**
 * The records Kafka 4.4's group coordinator writes to `__consumer_offsets` (GroupCoordinatorRecordHelpers),
 * for the simulator's coordinator to write them too: offset commits (OffsetCommitKey, value v4 as
 * 4.4 writes it, v1 only for the expire timestamp of old OffsetCommit versions, which the simulator
 * does not keep), classic groups' GroupMetadataKey/Value (value v3, Kafka's GROUP_METADATA_VALUE_VERSION),
 * the KIP-848 consumer-group records (modern/consumer/records.ts builds them; v0) and the streams-group
 * records (streams/records.ts; v0) and the share-group records (share/records.ts; v0). A null value is
 * a tombstone. Encoded as CoordinatorRecordSerde does: key `[int16 record type][key v0]`, value
 * `[int16 version][value]`.
 */
import { encodeAssignment, encodeSubscription } from '../../../protocol/consumerProtocol';
import { ByteWriter } from '../../../protocol/byteWriter';
import { GroupMetadataKey, type GroupMetadataKeyData } from '../../../protocol/messages/groupMetadataKey';
import { GroupMetadataValue, type GroupMetadataValueData } from '../../../protocol/messages/groupMetadataValue';
import { OffsetCommitKey, type OffsetCommitKeyData } from '../../../protocol/messages/offsetCommitKey';
import { OffsetCommitValue, type OffsetCommitValueData } from '../../../protocol/messages/offsetCommitValue';
import type { MessageCodec } from '../../../protocol/runtime';
import { encodeConsumerGroupRecord, type ConsumerGroupRecord } from '../../../timeline/consumerGroupRecords';
import { SHARE_GROUP_RECORDS, type ShareGroupRecord } from '../../../timeline/shareGroupRecords';
import { STREAMS_GROUP_RECORDS, type StreamsGroupRecord } from '../../../timeline/streamsGroupRecords';
import type { ClassicGroup } from './classic/classicGroup';
import type { CommittedOffset } from './group';
import type { ConsumerAssignment, ConsumerSubscription } from '../../common/requests';
import type { TransactionResult } from '../../log/transactionIndex';

/** GroupCoordinatorRecordHelpers.GROUP_METADATA_VALUE_VERSION of Kafka 4.4. */
export const GROUP_METADATA_VALUE_VERSION = 3;
/** GroupCoordinatorRecordHelpers.offsetCommitValueVersion(false) of Kafka 4.4: the first flexible version. */
export const OFFSET_COMMIT_VALUE_VERSION = 4;

export type CoordinatorRecord =
  | { type: 'OffsetCommit'; key: OffsetCommitKeyData; value: OffsetCommitValueData | null }
  | { type: 'GroupMetadata'; key: GroupMetadataKeyData; value: GroupMetadataValueData | null }
  | ConsumerGroupRecord
  | ShareGroupRecord
  | StreamsGroupRecord;

/** A record as it is stored and fetched: its key and value bytes (value null: tombstone). */
export interface EncodedRecord {
  key: Uint8Array;
  value: Uint8Array | null;
}

/** The group a record belongs to (the key of every group coordinator record names it). */
export function groupIdOf(record: CoordinatorRecord): string {
  switch (record.type) {
    case 'OffsetCommit':
    case 'GroupMetadata':
      return record.key.group;
    default:
      return record.key.groupId;
  }
}

export function newOffsetCommitRecord(groupId: string, topic: string, partition: number, committed: CommittedOffset, topicId?: string): CoordinatorRecord {
  const value: OffsetCommitValueData = {
    offset: BigInt(committed.offset),
    leaderEpoch: committed.leaderEpoch,
    metadata: committed.metadata,
    commitTimestamp: BigInt(committed.commitTimestamp),
    expireTimestamp: -1n,
  };
  if (topicId !== undefined) {
    value.topicId = topicId;
  }
  return { type: 'OffsetCommit', key: { group: groupId, topic, partition }, value };
}

export function newOffsetCommitTombstoneRecord(groupId: string, topic: string, partition: number): CoordinatorRecord {
  return { type: 'OffsetCommit', key: { group: groupId, topic, partition }, value: null };
}

function subscriptionBytes(subscription: ConsumerSubscription): Uint8Array {
  return encodeSubscription({
    topics: subscription.topics,
    userData: subscription.userData === undefined ? null : Buffer.from(subscription.userData, 'utf8'),
    ownedPartitions: subscription.ownedPartitions,
    generationId: subscription.generationId,
    rackId: null,
  });
}

function assignmentBytes(assignment: ConsumerAssignment): Uint8Array {
  return encodeAssignment({ partitions: assignment.partitions, userData: assignment.userData === undefined ? null : Buffer.from(assignment.userData, 'utf8') });
}

/**
 * newGroupMetadataRecord: the group's generation with every member's subscription for the selected
 * protocol and the assignment it holds (an Empty group: no members, as completeClassicGroupJoin writes it).
 */
export function newGroupMetadataRecord(group: ClassicGroup): CoordinatorRecord {
  const protocol = group.protocolName;
  const members = protocol === null ? [] : [...group.members.values()].map((member) => ({
    memberId: member.memberId,
    groupInstanceId: member.groupInstanceId,
    clientId: member.clientId,
    clientHost: member.clientHost,
    rebalanceTimeout: member.rebalanceTimeoutMs,
    sessionTimeout: member.sessionTimeoutMs,
    subscription: subscriptionBytes(member.metadataFor(protocol) ?? { topics: [], ownedPartitions: [], generationId: -1 }),
    assignment: assignmentBytes(member.assignment),
  }));
  return {
    type: 'GroupMetadata',
    key: { group: group.groupId },
    value: {
      protocolType: group.protocolType ?? '',
      generation: group.generationId,
      protocol,
      leader: group.leaderId,
      currentStateTimestamp: BigInt(group.stateTimestamp),
      members,
    },
  };
}

/** newEmptyGroupMetadataRecord: what JoinGroup writes when it creates the group. */
export function newEmptyGroupMetadataRecord(group: ClassicGroup): CoordinatorRecord {
  return {
    type: 'GroupMetadata',
    key: { group: group.groupId },
    value: { protocolType: '', generation: 0, protocol: null, leader: null, currentStateTimestamp: BigInt(group.stateTimestamp), members: [] },
  };
}

export function newGroupMetadataTombstoneRecord(groupId: string): CoordinatorRecord {
  return { type: 'GroupMetadata', key: { group: groupId }, value: null };
}

/** What identifies the record's key (records of one key supersede each other): its type and key fields. */
export function recordKeyId(record: CoordinatorRecord): string {
  switch (record.type) {
    case 'OffsetCommit':
      return `1\u0000${record.key.group}\u0000${record.key.topic}\u0000${record.key.partition}`;
    case 'GroupMetadata':
      return `2\u0000${record.key.group}`;
    case 'ConsumerGroupMetadata':
    case 'ConsumerGroupTargetAssignmentMetadata':
    case 'StreamsGroupMetadata':
    case 'StreamsGroupTargetAssignmentMetadata':
    case 'StreamsGroupTopology':
    case 'ShareGroupMetadata':
    case 'ShareGroupTargetAssignmentMetadata':
    case 'ShareGroupStatePartitionMetadata':
      return `${record.type}\u0000${record.key.groupId}`;
    case 'ConsumerGroupRegularExpression':
      return `${record.type}\u0000${record.key.groupId}\u0000${record.key.regularExpression}`;
    default:
      return `${record.type}\u0000${record.key.groupId}\u0000${record.key.memberId}`;
  }
}

function encodeWith<K, V>(keyCodec: MessageCodec<K>, key: K, valueCodec: MessageCodec<V>, valueVersion: number, value: V | null): EncodedRecord {
  const keyWriter = new ByteWriter();
  keyWriter.int16(keyCodec.apiKey ?? -1);
  keyCodec.write(keyWriter, 0, key);
  if (value === null) {
    return { key: keyWriter.finish(), value: null };
  }
  const valueWriter = new ByteWriter();
  valueWriter.int16(valueVersion);
  valueCodec.write(valueWriter, valueVersion, value);
  return { key: keyWriter.finish(), value: valueWriter.finish() };
}

/** The key and value bytes Kafka's CoordinatorRecordSerde writes for the record. */
export function encodeCoordinatorRecord(record: CoordinatorRecord): EncodedRecord {
  switch (record.type) {
    case 'OffsetCommit':
      return encodeWith(OffsetCommitKey, record.key, OffsetCommitValue, OFFSET_COMMIT_VALUE_VERSION, record.value);
    case 'GroupMetadata':
      return encodeWith(GroupMetadataKey, record.key, GroupMetadataValue, GROUP_METADATA_VALUE_VERSION, record.value);
    case 'StreamsGroupMetadata':
    case 'StreamsGroupMemberMetadata':
    case 'StreamsGroupTargetAssignmentMetadata':
    case 'StreamsGroupTargetAssignmentMember':
    case 'StreamsGroupCurrentMemberAssignment':
    case 'StreamsGroupTopology':
      return STREAMS_GROUP_RECORDS.encode(record);
    case 'ShareGroupMetadata':
    case 'ShareGroupMemberMetadata':
    case 'ShareGroupTargetAssignmentMetadata':
    case 'ShareGroupTargetAssignmentMember':
    case 'ShareGroupCurrentMemberAssignment':
    case 'ShareGroupStatePartitionMetadata':
      return SHARE_GROUP_RECORDS.encode(record);
    default:
      return encodeConsumerGroupRecord(record);
  }
}

/** Where the coordinator appends its records: the group's `__consumer_offsets` partition. */
export interface CoordinatorRecordWriter {
  /** One coordinator operation's records, appended as one batch (in `producerId`'s transaction when given). */
  write(groupId: string, records: readonly CoordinatorRecord[], producerId?: number): void;
  /** The transaction marker for `producerId` in the group's partition (WriteTxnMarkers), if its transaction wrote there. */
  endTransaction(groupId: string, producerId: number, result: TransactionResult): void;
}

/** For a coordinator without a log (unit tests of the managers). */
export const NO_RECORD_WRITER: CoordinatorRecordWriter = { write: () => undefined, endTransaction: () => undefined };
