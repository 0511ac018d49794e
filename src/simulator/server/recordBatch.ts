/**
 * Record batch v2 on the server side: writing the batches a Fetch returns (uncompressed, one
 * record per visible offset; producedBatches.ts reads what a Produce carries). The simulator's
 * logs store record counts only, so fetched values are generated from their position.
 */
import { ByteWriter } from '../../kafka/protocol/wire';
import { crc32c } from '../../protocol/crc32c';

export interface OutgoingRecord {
  offset: number;
  value: Buffer;
}

const MAGIC = 2;

/** Zigzag varint, as record fields are written (values here stay within int32). */
function varint(w: ByteWriter, value: number): void {
  w.uvarint(((value << 1) ^ (value >> 31)) >>> 0);
}

function encodeRecord(record: OutgoingRecord & { key?: Buffer }, baseOffset: number): Buffer {
  const body = new ByteWriter().int8(0);
  varint(body, 0); // timestamp delta: every record carries the batch timestamp
  varint(body, record.offset - baseOffset);
  if (record.key) {
    varint(body, record.key.length);
    body.raw(record.key);
  } else {
    varint(body, -1); // null key
  }
  varint(body, record.value.length);
  body.raw(record.value);
  varint(body, 0); // no headers
  const bytes = body.toBuffer();
  const out = new ByteWriter();
  varint(out, bytes.length);
  return out.raw(bytes).toBuffer();
}

/** Batch attributes (bits): transactional, and control (a transaction marker). */
const TRANSACTIONAL = 0x10;
const CONTROL = 0x20;

interface BatchProducer {
  attributes: number;
  producerId: number;
}

const PLAIN: BatchProducer = { attributes: 0, producerId: -1 };

/** One uncompressed v2 batch holding `records` (ascending offsets, gaps allowed) stamped `timestamp`. */
export function encodeRecordBatch(records: readonly OutgoingRecord[], timestamp: number): Buffer {
  return encodeBatch(records, timestamp, PLAIN);
}

/**
 * The control batch a transaction's COMMIT or ABORT marker is on the wire: one record whose key
 * is version 0 and the marker type (0 abort, 1 commit) and whose value is version 0 and the
 * coordinator epoch. Consumers skip it and move past its offset.
 */
export function encodeControlBatch(offset: number, producerId: number, result: 'COMMIT' | 'ABORT', timestamp: number): Buffer {
  const key = new ByteWriter().int16(0).int16(result === 'COMMIT' ? 1 : 0).toBuffer();
  const value = new ByteWriter().int16(0).int32(0).toBuffer();
  return encodeBatch([{ offset, key, value }], timestamp, { attributes: TRANSACTIONAL | CONTROL, producerId });
}

function encodeBatch(records: ReadonlyArray<OutgoingRecord & { key?: Buffer }>, timestamp: number, producer: BatchProducer): Buffer {
  if (records.length === 0) {
    throw new Error('A record batch needs at least one record');
  }
  const baseOffset = records[0].offset;
  const afterCrc = new ByteWriter()
    .int16(producer.attributes) // no compression, create time
    .int32(records[records.length - 1].offset - baseOffset)
    .int64(timestamp)
    .int64(timestamp)
    .int64(producer.producerId)
    .int16(producer.producerId >= 0 ? 0 : -1) // producer epoch
    .int32(-1) // base sequence
    .int32(records.length);
  for (const record of records) {
    afterCrc.raw(encodeRecord(record, baseOffset));
  }
  const checked = afterCrc.toBuffer();
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32c(checked));
  const batchLength = 4 + 1 + 4 + checked.length;
  return new ByteWriter().int64(baseOffset).int32(batchLength).int32(0).int8(MAGIC).raw(crc).raw(checked).toBuffer();
}

/** The deterministic value of a simulated record: where it sits. */
export function simulatedValue(topic: string, partition: number, offset: number): Buffer {
  return Buffer.from(`${topic}/${partition}@${offset}`, 'utf8');
}
