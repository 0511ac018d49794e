/**
 * The one decoding path of the group coordinator's records in `__consumer_offsets`, shared by the
 * consumer-, share- and streams-group record families (consumerGroupRecords.ts, shareGroupRecords.ts,
 * streamsGroupRecords.ts), on the generated codecs.
 *
 * On the wire (CoordinatorRecordSerde) a key is `[int16 record type][key message v0]` and a value
 * `[int16 value version][value message]`; a null value is a tombstone.
 */
import { ByteReader } from '../protocol/byteReader';
import { ByteWriter } from '../protocol/byteWriter';
import { ProtocolError, errorMessage } from '../protocol/errors';
import type { MessageCodec } from '../protocol/runtime';

/** A record of a family: its key's type name, the decoded key and value (null: tombstone). */
export interface CoordinatorRecord {
  type: string;
  key: { groupId: string };
  value: unknown;
}

interface RecordCodecs {
  type: string;
  key: MessageCodec<unknown>;
  value: MessageCodec<unknown>;
}

/** Pairs a record's name with its key and value codecs (the key's apiKey is the record type). */
export function recordCodecs<K, V>(type: string, key: MessageCodec<K>, value: MessageCodec<V>): RecordCodecs {
  return { type, key, value };
}

export function recordTypeOf(codec: MessageCodec<unknown>): number {
  if (codec.apiKey === null) {
    throw new Error(`${codec.name} has no record type`);
  }
  return codec.apiKey;
}

/** The records of one family, by record type; R is the family's tagged union. */
export class CoordinatorRecordFamily<R extends CoordinatorRecord> {
  private readonly byRecordType: ReadonlyMap<number, RecordCodecs>;
  private readonly byName: ReadonlyMap<string, RecordCodecs>;

  /** @param family names the family in errors ("consumer-group"). */
  constructor(private readonly family: string, entries: readonly RecordCodecs[]) {
    this.byRecordType = new Map(entries.map((entry) => [recordTypeOf(entry.key), entry]));
    this.byName = new Map(entries.map((entry) => [entry.type, entry]));
  }

  /** True when the key's record type is one of this family's. */
  has(recordType: number): boolean {
    return this.byRecordType.has(recordType);
  }

  /**
   * Decodes the rest of a key (after its int16 record type) and the value of one of the family's
   * records. Throws a ProtocolError naming the record when the bytes are not one.
   */
  decode(recordType: number, keyBody: ByteReader, value: Uint8Array | null): R {
    const entry = this.byRecordType.get(recordType);
    if (entry === undefined) {
      throw new ProtocolError(`record type ${recordType} is not a ${this.family} record`);
    }
    const key = readWhole(entry.key, keyBody, 0);
    if (value === null) {
      return { type: entry.type, key, value: null } as R;
    }
    const reader = new ByteReader(value);
    const version = reader.int16();
    const { lo, hi } = entry.value.validVersions;
    if (version < lo || version > hi) {
      throw new ProtocolError(`${entry.value.name}: unsupported version ${version} (this decoder reads ${lo} to ${hi})`);
    }
    return { type: entry.type, key, value: readWhole(entry.value, reader, version) } as R;
  }

  /** The key and value bytes Kafka's CoordinatorRecordSerde writes for a record (value null: tombstone). */
  encode(record: R): { key: Uint8Array; value: Uint8Array | null } {
    const entry = this.byName.get(record.type);
    if (entry === undefined) {
      throw new Error(`unknown ${this.family} record ${record.type}`);
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
