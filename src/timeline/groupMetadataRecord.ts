/**
 * Decoder for the records of `__consumer_offsets` that describe classic groups, on the generated
 * record codecs of src/protocol (Kafka's group-coordinator record schemas).
 *
 * Every key starts with an int16 record type: 0 and 1 are offset commits (LegacyOffsetCommitKey,
 * OffsetCommitKey), 2 is a group's metadata (GroupMetadataKey {group}), 3, 5 to 8 and 16 are KIP-848
 * consumer-group records (consumerGroupRecords.ts), 10 to 15 share-group records (shareGroupRecords.ts),
 * 17 and 19 to 23 streams-group records (streamsGroupRecords.ts). A value starts with its own int16 version; a
 * GroupMetadataValue is v0-4 (v4 is the first flexible one). A null value is a tombstone: the group
 * was deleted.
 */
import { ByteReader } from '../protocol/byteReader';
import { ProtocolError, errorMessage } from '../protocol/errors';
import { GroupMetadataKey } from '../protocol/messages/groupMetadataKey';
import { GroupMetadataValue as GroupMetadataValueCodec } from '../protocol/messages/groupMetadataValue';
import { LegacyOffsetCommitKey } from '../protocol/messages/legacyOffsetCommitKey';
import { OffsetCommitKey } from '../protocol/messages/offsetCommitKey';
import { decodeConsumerGroupRecord, isConsumerGroupRecordType, type ConsumerGroupRecord } from './consumerGroupRecords';
import { SHARE_GROUP_RECORDS, type ShareGroupRecord } from './shareGroupRecords';
import { STREAMS_GROUP_RECORDS, type StreamsGroupRecord } from './streamsGroupRecords';

/** The record type of a group's metadata (GroupMetadataKey's coordinator record type). */
export const GROUP_METADATA_KEY_VERSION = GroupMetadataKey.apiKey ?? 2;
export const MAX_GROUP_METADATA_VALUE_VERSION = GroupMetadataValueCodec.validVersions.hi;

export type OffsetsTopicKey =
  | { type: 'offset-commit'; keyVersion: number; group: string; topic: string; partition: number }
  | { type: 'group-metadata'; group: string }
  | { type: 'other'; keyVersion: number };

export interface GroupMetadataMember {
  memberId: string;
  /** v3+; null for dynamic members and in older versions. */
  groupInstanceId: string | null;
  clientId: string;
  clientHost: string;
  /** v1+; null in v0, which did not record it. */
  rebalanceTimeoutMs: number | null;
  sessionTimeoutMs: number;
  /** The member's metadata for the selected protocol (a ConsumerProtocolSubscription for "consumer"). */
  subscription: Uint8Array;
  /** What the leader assigned (a ConsumerProtocolAssignment for "consumer"). */
  assignment: Uint8Array;
}

export interface GroupMetadataValue {
  version: number;
  protocolType: string;
  generation: number;
  /** Selected protocol (the assignor name); null while the group is Empty. */
  protocol: string | null;
  leader: string | null;
  /** v2+: epoch ms of the group's last state change; null when absent or -1. */
  currentStateTimestamp: number | null;
  members: GroupMetadataMember[];
}

export type OffsetsTopicRecord =
  | { type: 'group-metadata'; group: string; /** null: tombstone, the group was deleted. */ value: GroupMetadataValue | null }
  | { type: 'offset-commit'; group: string; topic: string; partition: number }
  | { type: 'consumer-group'; group: string; record: ConsumerGroupRecord }
  | { type: 'share-group'; group: string; record: ShareGroupRecord }
  | { type: 'streams-group'; group: string; record: StreamsGroupRecord }
  | { type: 'other'; keyVersion: number };

const OFFSET_COMMIT_KEYS = new Map([LegacyOffsetCommitKey, OffsetCommitKey].map((codec) => [codec.apiKey, codec]));

export function decodeOffsetsTopicKey(key: Uint8Array): OffsetsTopicKey {
  return withContext('__consumer_offsets key', () => {
    const reader = new ByteReader(key);
    const keyVersion = reader.int16();
    const offsetCommitKey = OFFSET_COMMIT_KEYS.get(keyVersion);
    if (offsetCommitKey !== undefined) {
      const { group, topic, partition } = offsetCommitKey.read(reader, 0);
      expectEnd(reader);
      return { type: 'offset-commit', keyVersion, group, topic, partition };
    }
    if (keyVersion === GROUP_METADATA_KEY_VERSION) {
      const { group } = GroupMetadataKey.read(reader, 0);
      expectEnd(reader);
      return { type: 'group-metadata', group };
    }
    if (keyVersion < 0) {
      throw new ProtocolError(`invalid version ${keyVersion}`);
    }
    return { type: 'other', keyVersion };
  });
}

export function decodeGroupMetadataValue(value: Uint8Array): GroupMetadataValue {
  const reader = new ByteReader(value);
  const version = withContext('GroupMetadataValue', () => reader.int16());
  if (version < 0 || version > MAX_GROUP_METADATA_VALUE_VERSION) {
    throw new ProtocolError(`GroupMetadataValue: unsupported version ${version} (this decoder reads 0 to ${MAX_GROUP_METADATA_VALUE_VERSION})`);
  }
  const decoded = withContext(`GroupMetadataValue v${version}`, () => {
    const message = GroupMetadataValueCodec.read(reader, version);
    expectEnd(reader);
    return message;
  });
  const timestamp = decoded.currentStateTimestamp ?? -1n;
  return {
    version,
    protocolType: decoded.protocolType,
    generation: decoded.generation,
    protocol: decoded.protocol,
    leader: decoded.leader,
    // An epoch-ms timestamp past 2^53 is corrupt, not a date: it reads as unknown, like -1.
    currentStateTimestamp: timestamp < 0n || timestamp > BigInt(Number.MAX_SAFE_INTEGER) ? null : Number(timestamp),
    members: decoded.members.map((m) => ({
      memberId: m.memberId,
      groupInstanceId: version >= 3 ? (m.groupInstanceId ?? null) : null,
      clientId: m.clientId,
      clientHost: m.clientHost,
      rebalanceTimeoutMs: version >= 1 ? (m.rebalanceTimeout ?? null) : null,
      sessionTimeoutMs: m.sessionTimeout,
      subscription: m.subscription,
      assignment: m.assignment,
    })),
  };
}

/** Decodes one `__consumer_offsets` record; `value` null is a tombstone. */
export function decodeOffsetsTopicRecord(key: Uint8Array, value: Uint8Array | null): OffsetsTopicRecord {
  const recordType = key.byteLength >= 2 ? new DataView(key.buffer, key.byteOffset, 2).getInt16(0) : -1;
  if (isConsumerGroupRecordType(recordType)) {
    const record = withContext('__consumer_offsets record', () => decodeConsumerGroupRecord(recordType, keyBody(key), value));
    return { type: 'consumer-group', group: record.key.groupId, record };
  }
  if (SHARE_GROUP_RECORDS.has(recordType)) {
    const record = withContext('__consumer_offsets record', () => SHARE_GROUP_RECORDS.decode(recordType, keyBody(key), value));
    return { type: 'share-group', group: record.key.groupId, record };
  }
  if (STREAMS_GROUP_RECORDS.has(recordType)) {
    const record = withContext('__consumer_offsets record', () => STREAMS_GROUP_RECORDS.decode(recordType, keyBody(key), value));
    return { type: 'streams-group', group: record.key.groupId, record };
  }
  const decodedKey = decodeOffsetsTopicKey(key);
  switch (decodedKey.type) {
    case 'group-metadata':
      return { type: 'group-metadata', group: decodedKey.group, value: value === null ? null : decodeGroupMetadataValue(value) };
    case 'offset-commit':
      return { type: 'offset-commit', group: decodedKey.group, topic: decodedKey.topic, partition: decodedKey.partition };
    case 'other':
      return decodedKey;
  }
}

/** A reader of a key past its int16 record type. */
function keyBody(key: Uint8Array): ByteReader {
  const reader = new ByteReader(key);
  reader.int16();
  return reader;
}

/** Prefixes errors with what was being read. */
function withContext<T>(where: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw new ProtocolError(`${where}: ${errorMessage(error)}`);
  }
}

/** A record that does not end where its schema does is not what we think it is. */
function expectEnd(reader: ByteReader): void {
  if (reader.remaining !== 0) {
    throw new ProtocolError(`${reader.remaining} unexpected trailing byte(s)`);
  }
}
