/**
 * Splits the record bytes of one Fetch partition into v2 record batches and reads their records.
 * The batch framing (base offset, length, magic, last offset delta, control flag) is read first,
 * because the reader's offset bookkeeping must advance past every batch, even one whose records
 * compaction removed entirely or a control batch. Records are read here too, with every count and
 * length bounded by the bytes left (a corrupt count fails at once instead of looping); kafkajs
 * 2.2.4 only lends its decompression codecs.
 */
import { lookupCodecByAttributes } from 'kafkajs/src/protocol/message/compression';
import { ProtocolDecodeError } from './protocol/wire';
import { errorMessage } from '../protocol/errors';

export interface FetchedRecord {
  offset: number;
  /** Epoch ms (the batch's log-append time when the topic uses it). */
  timestamp: number;
  key: Buffer | null;
  value: Buffer | null;
}

export interface RecordBatch {
  baseOffset: number;
  /** Offset of the batch's last record as written; the next batch starts after it. */
  lastOffset: number;
  /** Transaction markers: they carry no data records. */
  control: boolean;
  records: FetchedRecord[];
}

/** baseOffset int64 + batchLength int32: what precedes the bytes `batchLength` counts. */
const LOG_OVERHEAD = 12;
/** From the start of the batch: partitionLeaderEpoch int32 follows the overhead, then magic int8. */
const MAGIC_OFFSET = 16;
const ATTRIBUTES_OFFSET = 21;
const LAST_OFFSET_DELTA_OFFSET = 23;
const FIRST_TIMESTAMP_OFFSET = 27;
const MAX_TIMESTAMP_OFFSET = 35;
const RECORD_COUNT_OFFSET = 57;
/** Everything of a v2 batch header, up to and including the record count. */
const V2_HEADER_SIZE = 61;
const CONTROL_FLAG = 0x20;
const LOG_APPEND_TIME_FLAG = 0x08;
const COMPRESSION_MASK = 0x07;
const RECORD_BATCH_MAGIC = 2;

/** A batch's header fields, read without decoding its records. */
export interface BatchFrame {
  baseOffset: number;
  lastOffset: number;
  control: boolean;
  /** False for a batch the broker cut at max bytes: its header is whole, its records are not. */
  complete: boolean;
  /** The batch's bytes (overhead included), when complete. */
  bytes: Buffer | null;
}

/** The batches framed in a Fetch answer, and where framing had to stop on a corrupt header. */
export interface FrameScan {
  frames: BatchFrame[];
  /** The first batch whose header cannot be right; nothing after it can be framed. */
  broken?: { baseOffset: number; reason: string };
}

/** An int64 offset as a number, refused rather than rounded past 2^53. */
function safeOffset(value: bigint, what: string): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new ProtocolDecodeError(`${what}: offset ${value} is beyond 2^53 and cannot be handled exactly`);
  }
  return Number(value);
}

/**
 * The batches in `bytes`, in order, from their headers. A batch cut at the end (the broker stops
 * at max bytes) is listed as incomplete when its header arrived whole, else left out. A header that
 * cannot be right (length, magic, negative last offset delta, offset beyond 2^53) stops the scan.
 */
export function scanBatchFrames(bytes: Buffer): FrameScan {
  const frames: BatchFrame[] = [];
  let position = 0;
  while (bytes.length - position >= LOG_OVERHEAD) {
    const rawBase = bytes.readBigInt64BE(position);
    const baseForMessages = rawBase.toString();
    const batchLength = bytes.readInt32BE(position + 8);
    const size = LOG_OVERHEAD + batchLength;
    const broken = (reason: string): FrameScan => ({ frames, broken: { baseOffset: Number(rawBase), reason: `record batch at offset ${baseForMessages}: ${reason}` } });
    if (batchLength < V2_HEADER_SIZE - LOG_OVERHEAD) {
      return broken(`length ${batchLength} is shorter than a batch header`);
    }
    if (bytes.length - position < V2_HEADER_SIZE) {
      break;
    }
    const batch = bytes.subarray(position, Math.min(bytes.length, position + size));
    const magic = batch.readInt8(MAGIC_OFFSET);
    if (magic !== RECORD_BATCH_MAGIC) {
      return broken(`message format v${magic} is not supported (only v${RECORD_BATCH_MAGIC})`);
    }
    const lastOffsetDelta = batch.readInt32BE(LAST_OFFSET_DELTA_OFFSET);
    if (lastOffsetDelta < 0) {
      return broken(`last offset delta ${lastOffsetDelta} is negative`);
    }
    let baseOffset: number;
    let lastOffset: number;
    try {
      baseOffset = safeOffset(rawBase, 'record batch');
      lastOffset = safeOffset(rawBase + BigInt(lastOffsetDelta), 'record batch');
    } catch (error) {
      return broken((error as Error).message);
    }
    const complete = batch.length === size;
    frames.push({ baseOffset, lastOffset, control: (batch.readInt16BE(ATTRIBUTES_OFFSET) & CONTROL_FLAG) !== 0, complete, bytes: complete ? batch : null });
    if (!complete) {
      break;
    }
    position += size;
  }
  return { frames };
}

/** As scanBatchFrames, but a corrupt header throws. */
export function readBatchFrames(bytes: Buffer): BatchFrame[] {
  const scan = scanBatchFrames(bytes);
  if (scan.broken) {
    throw new ProtocolDecodeError(scan.broken.reason);
  }
  return scan.frames;
}

/**
 * Every complete batch in `bytes`, in order, with its records. A truncated batch at the end (the
 * broker cuts the response at max bytes) is left out: the next fetch starts at it again.
 */
export async function decodeRecordBatches(bytes: Buffer): Promise<RecordBatch[]> {
  const batches: RecordBatch[] = [];
  for (const frame of readBatchFrames(bytes)) {
    if (frame.bytes === null) {
      break;
    }
    batches.push({ baseOffset: frame.baseOffset, lastOffset: frame.lastOffset, control: frame.control, records: await decodeBatchRecords(frame) });
  }
  return batches;
}

/** The records of one complete batch (none for a control batch); throws ProtocolDecodeError naming the batch. */
export async function decodeBatchRecords(frame: BatchFrame): Promise<FetchedRecord[]> {
  if (frame.control || frame.bytes === null) {
    return [];
  }
  const batch = frame.bytes;
  const what = `record batch at offset ${frame.baseOffset}`;
  try {
    const attributes = batch.readInt16BE(ATTRIBUTES_OFFSET);
    const count = batch.readInt32BE(RECORD_COUNT_OFFSET);
    let records = batch.subarray(V2_HEADER_SIZE);
    const codec = lookupCodecByAttributes(attributes);
    if (codec) {
      records = await codec.decompress(records);
    } else if ((attributes & COMPRESSION_MASK) !== 0) {
      throw new Error(`compression codec ${attributes & COMPRESSION_MASK} is unknown`);
    }
    const logAppendTime = (attributes & LOG_APPEND_TIME_FLAG) !== 0 ? Number(batch.readBigInt64BE(MAX_TIMESTAMP_OFFSET)) : null;
    return readRecords(new RecordReader(records, what), count, {
      baseOffset: BigInt(frame.baseOffset),
      firstTimestamp: batch.readBigInt64BE(FIRST_TIMESTAMP_OFFSET),
      logAppendTime,
    });
  } catch (error) {
    if (error instanceof ProtocolDecodeError) {
      throw error;
    }
    throw new ProtocolDecodeError(`${what}: ${errorMessage(error)}`);
  }
}

interface BatchContext {
  baseOffset: bigint;
  firstTimestamp: bigint;
  logAppendTime: number | null;
}

function readRecords(reader: RecordReader, count: number, context: BatchContext): FetchedRecord[] {
  reader.checkCount(count, 'records');
  const out: FetchedRecord[] = [];
  for (let i = 0; i < count; i++) {
    const length = reader.varint();
    reader.checkCount(length, 'record length');
    const record = reader.sub(length, `record ${i}`);
    record.int8(); // attributes: unused
    const timestampDelta = record.varlong();
    const offsetDelta = record.varint();
    const key = record.varBytes();
    const value = record.varBytes();
    const headers = record.varint();
    record.checkCount(headers, 'headers');
    for (let h = 0; h < headers; h++) {
      record.varBytes(); // key
      record.varBytes(); // value
    }
    out.push({
      offset: safeOffset(context.baseOffset + BigInt(offsetDelta), reader.what),
      timestamp: context.logAppendTime ?? Number(context.firstTimestamp + timestampDelta),
      key,
      value,
    });
  }
  return out;
}

/** Bounds-checked reader of a record's zigzag varints and varint-length bytes. */
class RecordReader {
  private offset = 0;

  constructor(private readonly buffer: Buffer, readonly what: string) {}

  /** A count or length must fit in the bytes left: each item takes at least one byte. */
  checkCount(count: number, name: string): void {
    if (count < 0 || count > this.buffer.length - this.offset) {
      throw new ProtocolDecodeError(`${this.what}: ${count} ${name} cannot fit in the ${this.buffer.length - this.offset} bytes left`);
    }
  }

  sub(length: number, name: string): RecordReader {
    const slice = this.buffer.subarray(this.offset, this.offset + length);
    this.offset += length;
    return new RecordReader(slice, `${this.what}, ${name}`);
  }

  int8(): number {
    this.need(1);
    return this.buffer.readInt8(this.offset++);
  }

  varint(): number {
    return Number(this.zigzag(5));
  }

  varlong(): bigint {
    return this.zigzag(10);
  }

  /** Varint length (-1: null), then that many bytes. */
  varBytes(): Buffer | null {
    const length = this.varint();
    if (length === -1) {
      return null;
    }
    this.checkCount(length, 'bytes');
    const bytes = Buffer.from(this.buffer.subarray(this.offset, this.offset + length));
    this.offset += length;
    return bytes;
  }

  private need(n: number): void {
    if (this.offset + n > this.buffer.length) {
      throw new ProtocolDecodeError(`${this.what}: needs ${n} more byte(s) at offset ${this.offset}, only ${this.buffer.length - this.offset} left`);
    }
  }

  private zigzag(maxBytes: number): bigint {
    let raw = 0n;
    for (let i = 0; i < maxBytes; i++) {
      this.need(1);
      const byte = this.buffer[this.offset++];
      raw |= BigInt(byte & 0x7f) << BigInt(7 * i);
      if ((byte & 0x80) === 0) {
        return (raw >> 1n) ^ -(raw & 1n);
      }
    }
    throw new ProtocolDecodeError(`${this.what}: varint longer than ${maxBytes} bytes at offset ${this.offset}`);
  }
}
