/**
 * Record batch v2 on the server side: writing the batches a Fetch returns (uncompressed, one
 * record per visible offset) and reading the record count of the batches a Produce carries. The
 * simulator's logs store record counts only, so fetched values are generated from their position.
 */
import { ByteReader, ByteWriter, ProtocolDecodeError } from '../../kafka/protocol/wire';
import { crc32c } from './crc32c';

export interface OutgoingRecord {
  offset: number;
  value: Buffer;
}

/** baseOffset int64 + batchLength int32. */
const LOG_OVERHEAD = 12;
/** Bytes from partitionLeaderEpoch through the record count. */
const V2_HEADER_AFTER_OVERHEAD = 49;
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

/** What the batches of one Produce partition hold: a record count, and whose transaction they belong to. */
export interface ProducedBatches {
  records: number;
  /** Set when the batches carry the transactional attribute (their producer id and epoch). */
  transactional: { producerId: number; epoch: number } | null;
}

/** Reads the batches of one Produce partition. Every batch must be complete and v2. */
export function readProducedBatches(bytes: Buffer): ProducedBatches {
  let records = 0;
  let transactional: ProducedBatches['transactional'] = null;
  let position = 0;
  while (position < bytes.length) {
    const framing = new ByteReader(bytes.subarray(position, position + LOG_OVERHEAD), 'produced record batch');
    framing.int64(); // base offset: the broker assigns offsets
    const batchLength = framing.int32();
    if (batchLength < V2_HEADER_AFTER_OVERHEAD) {
      throw new ProtocolDecodeError(`produced record batch: length ${batchLength} is shorter than a v2 header`);
    }
    const end = position + LOG_OVERHEAD + batchLength;
    if (end > bytes.length) {
      throw new ProtocolDecodeError(`produced record batch: length ${batchLength} exceeds the ${bytes.length - position - LOG_OVERHEAD} bytes left`);
    }
    const r = new ByteReader(bytes.subarray(position + LOG_OVERHEAD, end), 'produced record batch');
    r.int32(); // partition leader epoch
    const magic = r.int8();
    if (magic !== MAGIC) {
      throw new ProtocolDecodeError(`produced record batch: message format v${magic} is not supported (only v${MAGIC})`);
    }
    r.int32(); // crc
    const attributes = r.int16();
    r.int32(); // last offset delta
    r.int64(); // base timestamp
    r.int64(); // max timestamp
    const producerId = r.int64();
    const epoch = r.int16();
    r.int32(); // base sequence
    const count = r.int32();
    if (count < 0) {
      throw new ProtocolDecodeError(`produced record batch: negative record count ${count}`);
    }
    if (attributes & TRANSACTIONAL) {
      transactional = { producerId, epoch };
    }
    records += count;
    position = end;
  }
  return { records, transactional };
}

/** Records in the batches of one Produce partition. */
export function countProducedRecords(bytes: Buffer): number {
  return readProducedBatches(bytes).records;
}
