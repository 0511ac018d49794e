/**
 * Pure decoder for the records of `__consumer_offsets` that describe classic groups.
 *
 * Every key starts with an int16 version that says what the record is: 0 and 1 are offset
 * commits (OffsetCommitKey), 2 is a group's metadata (GroupMetadataKey {group}), higher ones are
 * KIP-848 and share-group records we do not read. A GroupMetadata value is GroupMetadataValue
 * v0-4 (Kafka 4.0 group-coordinator/src/main/resources/common/message/GroupMetadataValue.json);
 * v4 is the first flexible version (compact strings, compact arrays, tagged fields). A null value
 * is a tombstone: the group was deleted.
 */
import { ByteReader, ProtocolDecodeError } from '../kafka/protocol/wire';
import { errorMessage } from '../protocol/errors';

export const GROUP_METADATA_KEY_VERSION = 2;
export const MAX_GROUP_METADATA_VALUE_VERSION = 4;

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
  subscription: Buffer;
  /** What the leader assigned (a ConsumerProtocolAssignment for "consumer"). */
  assignment: Buffer;
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
  | { type: 'other'; keyVersion: number };

export function decodeOffsetsTopicKey(key: Uint8Array): OffsetsTopicKey {
  const reader = new ByteReader(asBuffer(key), '__consumer_offsets key');
  const keyVersion = reader.int16();
  if (keyVersion === 0 || keyVersion === 1) {
    const group = reader.string();
    const topic = reader.string();
    const partition = reader.int32();
    expectEnd(reader, '__consumer_offsets key');
    return { type: 'offset-commit', keyVersion, group, topic, partition };
  }
  if (keyVersion === GROUP_METADATA_KEY_VERSION) {
    const group = reader.string();
    expectEnd(reader, '__consumer_offsets key');
    return { type: 'group-metadata', group };
  }
  if (keyVersion < 0) {
    throw new ProtocolDecodeError(`__consumer_offsets key: invalid version ${keyVersion}`);
  }
  return { type: 'other', keyVersion };
}

export function decodeGroupMetadataValue(value: Uint8Array): GroupMetadataValue {
  const reader = new ByteReader(asBuffer(value), 'GroupMetadataValue');
  const version = reader.int16();
  if (version < 0 || version > MAX_GROUP_METADATA_VALUE_VERSION) {
    throw new ProtocolDecodeError(
      `GroupMetadataValue: unsupported version ${version} (this decoder reads 0 to ${MAX_GROUP_METADATA_VALUE_VERSION})`,
    );
  }
  const what = `GroupMetadataValue v${version}`;
  const fields = version >= 4 ? flexibleFields(reader) : classicFields(reader);
  const { protocolType, generation, protocol, leader, rawTimestamp, memberCount } = withContext(what, () => ({
    protocolType: fields.string(),
    generation: reader.int32(),
    protocol: fields.nullableString(),
    leader: fields.nullableString(),
    rawTimestamp: version >= 2 ? reader.int64() : -1,
    memberCount: fields.arrayLength(),
  }));
  const members: GroupMetadataMember[] = [];
  for (let i = 0; i < memberCount; i++) {
    members.push(
      withContext(`${what} members[${i}]`, () => {
        const memberId = fields.string();
        const groupInstanceId = version >= 3 ? fields.nullableString() : null;
        const clientId = fields.string();
        const clientHost = fields.string();
        const rebalanceTimeoutMs = version >= 1 ? reader.int32() : null;
        const sessionTimeoutMs = reader.int32();
        const subscription = fields.bytes();
        const assignment = fields.bytes();
        fields.endStruct();
        return { memberId, groupInstanceId, clientId, clientHost, rebalanceTimeoutMs, sessionTimeoutMs, subscription, assignment };
      }),
    );
  }
  withContext(what, () => fields.endStruct());
  expectEnd(reader, what);
  return {
    version,
    protocolType,
    generation,
    protocol,
    leader,
    currentStateTimestamp: rawTimestamp < 0 ? null : rawTimestamp,
    members,
  };
}

/** Decodes one `__consumer_offsets` record; `value` null is a tombstone. */
export function decodeOffsetsTopicRecord(key: Uint8Array, value: Uint8Array | null): OffsetsTopicRecord {
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

/** The primitives whose encoding differs between classic and flexible versions. */
interface VersionedFields {
  string(): string;
  nullableString(): string | null;
  bytes(): Buffer;
  arrayLength(): number;
  /** Flexible structs end with a tagged-field section; classic ones end with nothing. */
  endStruct(): void;
}

function classicFields(reader: ByteReader): VersionedFields {
  return {
    string: () => reader.string(),
    nullableString: () => reader.nullableString(),
    bytes: () => requireBytes(reader.nullableBytes()),
    arrayLength: () => requireLength(reader, reader.int32()),
    endStruct: () => undefined,
  };
}

function flexibleFields(reader: ByteReader): VersionedFields {
  return {
    string: () => reader.compactString(),
    nullableString: () => reader.compactNullableString(),
    bytes: () => requireBytes(reader.compactNullableBytes()),
    arrayLength: () => requireLength(reader, reader.uvarint() - 1),
    endStruct: () => reader.skipTaggedFields(),
  };
}

function requireBytes(bytes: Buffer | null): Buffer {
  if (bytes === null) {
    throw new ProtocolDecodeError('null where bytes are required');
  }
  return bytes;
}

/** Array lengths are read by hand (not ByteReader.array) so each member can be decoded in its own error context. */
function requireLength(reader: ByteReader, length: number): number {
  if (length < 0) {
    throw new ProtocolDecodeError(`invalid array length ${length}`);
  }
  // Each member takes at least one byte: a larger count means corrupt input, not a huge group.
  if (length > reader.remaining) {
    throw new ProtocolDecodeError(`array of ${length} items cannot fit in ${reader.remaining} bytes`);
  }
  return length;
}

/** Prefixes errors with where in the record they happened. */
function withContext<T>(where: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw new ProtocolDecodeError(`${where}: ${errorMessage(error)}`);
  }
}

/** A record that does not end where its schema does is not what we think it is. */
function expectEnd(reader: ByteReader, what: string): void {
  if (reader.remaining !== 0) {
    throw new ProtocolDecodeError(`${what}: ${reader.remaining} unexpected trailing byte(s)`);
  }
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
