/**
 * The record batches of one Produce partition, checked as Kafka's LogValidator checks a client's
 * batches before anything is appended: magic v2, the CRC-32C, no control batches, a positive record
 * count that equals both the records actually in the batch and the last offset delta + 1, and
 * sizes that add up. The simulator's logs store counts, so the count is what must be right.
 */
import { gunzipSync } from 'node:zlib';
import { crc32c } from '../../protocol/crc32c';
import { errorMessage } from '../../protocol/errors';

/** What the batches of one Produce partition hold: a record count, and whose transaction they belong to. */
export interface ProducedBatches {
  records: number;
  /** Set when the batches carry the transactional attribute (their producer id and epoch). */
  transactional: { producerId: number; epoch: number } | null;
}

/** Why a partition's batches were refused, with the error code Kafka answers (CORRUPT_MESSAGE or INVALID_RECORD). */
export class RejectedBatches extends Error {
  constructor(
    readonly errorCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'RejectedBatches';
  }
}

export const CORRUPT_MESSAGE = 2;
export const INVALID_RECORD = 87;
export const UNSUPPORTED_COMPRESSION_TYPE = 76;

/** baseOffset int64 + batchLength int32. */
const LOG_OVERHEAD = 12;
/** Bytes of a v2 batch from partitionLeaderEpoch through the record count. */
const V2_HEADER_AFTER_OVERHEAD = 49;
/** Where the CRC-covered part (attributes onwards) starts, from the batch's first byte. */
const CRC_COVERED_FROM = 21;
const MAGIC = 2;
const COMPRESSION_MASK = 0x07;
const GZIP = 1;
const TRANSACTIONAL = 0x10;
const CONTROL = 0x20;
/** Decompressed records may not exceed socket.request.max.bytes, so a small gzip bomb cannot blow up. */
const MAX_DECOMPRESSED_BYTES = 104_857_600;

const corrupt = (message: string) => new RejectedBatches(CORRUPT_MESSAGE, message);
const invalid = (message: string) => new RejectedBatches(INVALID_RECORD, message);

/** Reads the varints of records; every read past the end is a corrupt record. */
class RecordCursor {
  position = 0;

  constructor(private readonly bytes: Buffer) {}

  get remaining(): number {
    return this.bytes.length - this.position;
  }

  /** Zigzag varint (int32) or varlong (int64, up to 10 bytes); the value only needs to be a safe number here. */
  varint(maxBytes = 5): number {
    let raw = 0n;
    for (let i = 0; i < maxBytes; i++) {
      if (this.position >= this.bytes.length) {
        throw corrupt(`record ends inside a varint at byte ${this.position}`);
      }
      const byte = this.bytes[this.position++];
      raw |= BigInt(byte & 0x7f) << BigInt(7 * i);
      if ((byte & 0x80) === 0) {
        return Number((raw >> 1n) ^ -(raw & 1n));
      }
    }
    throw corrupt(`varint longer than ${maxBytes} bytes at byte ${this.position}`);
  }

  skip(n: number, what: string): void {
    if (n < 0 || n > this.remaining) {
      throw corrupt(`${what} of ${n} byte(s) does not fit in the ${this.remaining} left`);
    }
    this.position += n;
  }

  /** A varint length then that many bytes; -1 is null. */
  skipNullable(what: string): void {
    const length = this.varint();
    if (length !== -1) {
      this.skip(length, what);
    }
  }
}

/** Walks the records of one batch and returns how many there are; each must be exactly as long as it says. */
function countRecords(records: Buffer, declared: number): number {
  const cursor = new RecordCursor(records);
  let count = 0;
  while (cursor.remaining > 0) {
    if (count === declared) {
      throw invalid(`the batch declares ${declared} record(s) but holds more (${cursor.remaining} byte(s) left)`);
    }
    const length = cursor.varint();
    if (length < 1 || length > cursor.remaining) {
      throw corrupt(`record ${count} declares ${length} byte(s), ${cursor.remaining} left`);
    }
    const end = cursor.position + length;
    const record = new RecordCursor(records.subarray(cursor.position, end));
    record.skip(1, 'attributes');
    record.varint(10); // timestamp delta
    const offsetDelta = record.varint();
    if (offsetDelta !== count) {
      throw invalid(`record ${count} has offset delta ${offsetDelta}`);
    }
    record.skipNullable('key');
    record.skipNullable('value');
    const headers = record.varint();
    if (headers < 0) {
      throw corrupt(`record ${count} has ${headers} headers`);
    }
    for (let h = 0; h < headers; h++) {
      const keyLength = record.varint();
      record.skip(keyLength, 'header key');
      record.skipNullable('header value');
    }
    if (record.remaining !== 0) {
      throw corrupt(`record ${count} has ${record.remaining} byte(s) past its fields`);
    }
    cursor.position = end;
    count++;
  }
  return count;
}

function recordsOf(batch: Buffer, compression: number): Buffer {
  const records = batch.subarray(LOG_OVERHEAD + V2_HEADER_AFTER_OVERHEAD);
  if (compression === 0) {
    return records;
  }
  if (compression !== GZIP) {
    // Only none and gzip can be read here without a native codec; the count could not be checked.
    throw new RejectedBatches(UNSUPPORTED_COMPRESSION_TYPE, `compression type ${compression} is not supported by the simulator (none and gzip are)`);
  }
  try {
    return gunzipSync(records, { maxOutputLength: MAX_DECOMPRESSED_BYTES });
  } catch (error) {
    throw corrupt(`gzip records do not decompress: ${errorMessage(error)}`);
  }
}

/** Checks the batches of one Produce partition and returns what they hold; throws RejectedBatches. */
export function readProducedBatches(bytes: Buffer): ProducedBatches {
  let records = 0;
  let transactional: ProducedBatches['transactional'] = null;
  let position = 0;
  while (position < bytes.length) {
    if (bytes.length - position < LOG_OVERHEAD + V2_HEADER_AFTER_OVERHEAD) {
      throw corrupt(`${bytes.length - position} byte(s) left at ${position}, fewer than a v2 batch header`);
    }
    const batchLength = bytes.readInt32BE(position + 8);
    if (batchLength < V2_HEADER_AFTER_OVERHEAD) {
      throw corrupt(`batch length ${batchLength} is shorter than a v2 header`);
    }
    const end = position + LOG_OVERHEAD + batchLength;
    if (end > bytes.length) {
      throw corrupt(`batch length ${batchLength} exceeds the ${bytes.length - position - LOG_OVERHEAD} bytes left`);
    }
    const batch = bytes.subarray(position, end);
    const magic = batch.readInt8(16);
    if (magic !== MAGIC) {
      throw corrupt(`message format v${magic} is not supported (only v${MAGIC})`);
    }
    const crc = batch.readUInt32BE(17);
    if (crc32c(batch.subarray(CRC_COVERED_FROM)) !== crc) {
      throw corrupt(`batch at byte ${position} fails its CRC-32C check`);
    }
    const attributes = batch.readInt16BE(21);
    if (attributes & CONTROL) {
      throw invalid('clients may not write control batches');
    }
    const lastOffsetDelta = batch.readInt32BE(23);
    const producerId = Number(batch.readBigInt64BE(43));
    const epoch = batch.readInt16BE(51);
    const count = batch.readInt32BE(57);
    if (count <= 0) {
      throw invalid(`invalid reported count for record batch: ${count}`);
    }
    if (lastOffsetDelta !== count - 1) {
      throw invalid(`inconsistent batch offset range: last offset delta ${lastOffsetDelta} for ${count} record(s)`);
    }
    const decoded = countRecords(recordsOf(batch, attributes & COMPRESSION_MASK), count);
    if (decoded !== count) {
      throw invalid(`the batch declares ${count} record(s) but holds ${decoded}`);
    }
    if (attributes & TRANSACTIONAL) {
      transactional = { producerId, epoch };
    }
    records += count;
    position = end;
  }
  return { records, transactional };
}
