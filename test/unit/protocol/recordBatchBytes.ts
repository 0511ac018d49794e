/** Builders for v2 record batches as a broker returns them in a Fetch response, CRC-32C included (readers check it). */
import { gzipSync } from 'node:zlib';
import { crc32c } from '../../../src/protocol/crc32c';
import { concat, i16, i32, i64, uvarint } from '../timeline/kafkaBytes';

/** Signed (zigzag) varint, as records encode their lengths and deltas. */
export function varint(value: number): Uint8Array {
  return uvarint(value >= 0 ? value * 2 : -value * 2 - 1);
}

function varBytes(value: Uint8Array | null): Uint8Array {
  return value === null ? varint(-1) : concat(varint(value.byteLength), value);
}

export interface TestRecord {
  offsetDelta: number;
  timestampDelta?: number;
  key: Uint8Array | null;
  value: Uint8Array | null;
}

export interface TestBatch {
  baseOffset: number;
  records: TestRecord[];
  /** Defaults to the last record's offset delta; larger when compaction removed the batch's tail. */
  lastOffsetDelta?: number;
  firstTimestamp?: number;
  gzip?: boolean;
  /** A transaction marker batch. */
  control?: boolean;
}

function record(r: TestRecord): Uint8Array {
  const body = concat(Uint8Array.of(0), varint(r.timestampDelta ?? 0), varint(r.offsetDelta), varBytes(r.key), varBytes(r.value), varint(0));
  return concat(varint(body.byteLength), body);
}

export function recordBatch(batch: TestBatch): Uint8Array {
  const records = concat(...batch.records.map(record));
  const attributes = (batch.gzip ? 1 : 0) | (batch.control ? 0x30 : 0);
  const lastOffsetDelta = batch.lastOffsetDelta ?? batch.records[batch.records.length - 1]?.offsetDelta ?? 0;
  const firstTimestamp = batch.firstTimestamp ?? 1_700_000_000_000;
  const afterLength = concat(
    i32(0), // partition leader epoch
    Uint8Array.of(2), // magic
    i32(0), // crc
    i16(attributes),
    i32(lastOffsetDelta),
    i64(firstTimestamp),
    i64(firstTimestamp),
    i64(-1), // producer id
    i16(-1), // producer epoch
    i32(-1), // base sequence
    i32(batch.records.length),
    batch.gzip ? gzipSync(records) : records,
  );
  return withCrc(concat(i64(batch.baseOffset), i32(afterLength.byteLength), afterLength));
}

/** Sets a batch's CRC-32C (at 17, over everything from the attributes at 21 on), after a test changed its bytes. */
export function withCrc<T extends Uint8Array>(bytes: T): T {
  new DataView(bytes.buffer, bytes.byteOffset).setUint32(17, crc32c(bytes, 21));
  return bytes;
}

/** A control record's key: version 0, type 0 (abort) or 1 (commit). */
export function controlKey(type: 0 | 1): Uint8Array {
  return concat(i16(0), i16(type));
}
