/**
 * Splits the record bytes of one Fetch partition into record batches. The batch framing (base
 * offset, length, magic, last offset delta, control flag) is read here, because the reader's
 * offset bookkeeping must advance past every batch, even one whose records compaction removed
 * entirely or a control batch; kafkajs 2.2.4's batch decoder then reads the records (it knows
 * every compression codec kafkajs has).
 */
import Decoder from 'kafkajs/src/protocol/decoder';
import decodeRecordBatch from 'kafkajs/src/protocol/recordBatch/v0/decoder';
import { ProtocolDecodeError } from './protocol/wire';

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
/** Everything of a v2 batch header, up to and including the record count. */
const V2_HEADER_SIZE = 61;
const CONTROL_FLAG = 0x20;
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

/**
 * The batches in `bytes`, in order, from their headers. A batch cut at the end (the broker stops
 * at max bytes) is listed as incomplete when its header arrived whole, else left out.
 */
export function readBatchFrames(bytes: Buffer): BatchFrame[] {
  const frames: BatchFrame[] = [];
  let position = 0;
  while (bytes.length - position >= LOG_OVERHEAD) {
    const baseOffset = Number(bytes.readBigInt64BE(position));
    const batchLength = bytes.readInt32BE(position + 8);
    const size = LOG_OVERHEAD + batchLength;
    if (batchLength < V2_HEADER_SIZE - LOG_OVERHEAD) {
      throw new ProtocolDecodeError(`record batch at offset ${baseOffset}: length ${batchLength} is shorter than a batch header`);
    }
    if (bytes.length - position < V2_HEADER_SIZE) {
      break;
    }
    const batch = bytes.subarray(position, Math.min(bytes.length, position + size));
    const magic = batch.readInt8(MAGIC_OFFSET);
    if (magic !== RECORD_BATCH_MAGIC) {
      throw new ProtocolDecodeError(`record batch at offset ${baseOffset}: message format v${magic} is not supported (only v${RECORD_BATCH_MAGIC})`);
    }
    const complete = batch.length === size;
    frames.push({
      baseOffset,
      lastOffset: baseOffset + batch.readInt32BE(LAST_OFFSET_DELTA_OFFSET),
      control: (batch.readInt16BE(ATTRIBUTES_OFFSET) & CONTROL_FLAG) !== 0,
      complete,
      bytes: complete ? batch : null,
    });
    if (!complete) {
      break;
    }
    position += size;
  }
  return frames;
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
    const { baseOffset, lastOffset, control } = frame;
    batches.push({ baseOffset, lastOffset, control, records: control ? [] : await decodeRecords(frame.bytes, baseOffset) });
  }
  return batches;
}

async function decodeRecords(batch: Buffer, baseOffset: number): Promise<FetchedRecord[]> {
  try {
    const decoded = await decodeRecordBatch(new Decoder(batch));
    return decoded.records.map((r) => ({ offset: Number(r.offset), timestamp: Number(r.timestamp), key: r.key, value: r.value }));
  } catch (error) {
    throw new ProtocolDecodeError(`record batch at offset ${baseOffset}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
