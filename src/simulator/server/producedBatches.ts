/**
 * The record batches of one Produce partition, checked as Kafka's LogValidator checks a client's
 * batches before anything is appended: magic v2, the CRC-32C, no control batches, a positive record
 * count that equals both the records actually in the batch and the last offset delta + 1, offset
 * deltas in order, and sizes that add up. Reading is the protocol layer's (recordBatch.ts); this
 * module only decides which Kafka error a bad batch gets.
 */
import { errorCodeOf } from '../../protocol/errorCodes';
import { errorMessage, ProtocolError } from '../../protocol/errors';
import { Compression, readBatchFrames, readProducedRecords } from '../../protocol/recordBatch';
import type { BatchProducer } from '../log/producerStateTable';

/** What the batches of one Produce partition hold: each record's timestamp (CreateTime), and whose transaction they belong to. */
export interface ProducedBatches {
  records: number;
  /** One per record, in offset order: the producer's timestamps, as a broker keeps them under CreateTime. */
  timestamps: number[];
  /** Who wrote the batches, when an idempotent or transactional producer did (producer id >= 0): the first batch's id, epoch and base sequence. */
  producer: BatchProducer | null;
  /** True when the batches carry the transactional attribute. */
  transactional: boolean;
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

export const CORRUPT_MESSAGE = errorCodeOf('CORRUPT_MESSAGE');
export const INVALID_RECORD = errorCodeOf('INVALID_RECORD');
export const UNSUPPORTED_COMPRESSION_TYPE = errorCodeOf('UNSUPPORTED_COMPRESSION_TYPE');

/** Decompressed records may not exceed socket.request.max.bytes, so a small gzip bomb cannot blow up. */
const MAX_DECOMPRESSED_BYTES = 104_857_600;

const corrupt = (message: string) => new RejectedBatches(CORRUPT_MESSAGE, message);
const invalid = (message: string) => new RejectedBatches(INVALID_RECORD, message);

/** Malformed bytes (the protocol layer's ProtocolError) are a corrupt message; anything else is not ours to map. */
function asRejection(error: unknown): unknown {
  return error instanceof ProtocolError ? corrupt(errorMessage(error)) : error;
}

/** Checks the batches of one Produce partition and returns what they hold; throws RejectedBatches. */
export function readProducedBatches(bytes: Uint8Array): ProducedBatches {
  const timestamps: number[] = [];
  let producer: BatchProducer | null = null;
  let transactional = false;
  let frames;
  try {
    frames = readBatchFrames(bytes);
  } catch (error) {
    throw asRejection(error);
  }
  let covered = 0;
  for (const frame of frames) {
    const { header } = frame;
    if (!frame.complete || frame.bytes === null) {
      throw corrupt(`batch length ${header.batchLength} exceeds the ${bytes.length - covered - 12} bytes left`);
    }
    if (header.control) {
      throw invalid('clients may not write control batches');
    }
    if (header.recordCount <= 0) {
      throw invalid(`invalid reported count for record batch: ${header.recordCount}`);
    }
    if (header.lastOffsetDelta !== header.recordCount - 1) {
      throw invalid(`inconsistent batch offset range: last offset delta ${header.lastOffsetDelta} for ${header.recordCount} record(s)`);
    }
    if (header.compression !== Compression.none && header.compression !== Compression.gzip) {
      // Only none and gzip can be read here without a native codec; the count could not be checked.
      throw new RejectedBatches(UNSUPPORTED_COMPRESSION_TYPE, `compression type ${header.compression} is not supported by the simulator (none and gzip are)`);
    }
    let read;
    try {
      read = readProducedRecords(frame.bytes, { maxDecompressedBytes: MAX_DECOMPRESSED_BYTES });
    } catch (error) {
      throw asRejection(error);
    }
    if (read.bytesLeft > 0) {
      throw invalid(`the batch declares ${header.recordCount} record(s) but holds more (${read.bytesLeft} byte(s) left)`);
    }
    if (read.records.length !== header.recordCount) {
      throw invalid(`the batch declares ${header.recordCount} record(s) but holds ${read.records.length}`);
    }
    read.records.forEach((record, index) => {
      if (record.offset - header.baseOffset !== BigInt(index)) {
        throw invalid(`record ${index} has offset delta ${record.offset - header.baseOffset}`);
      }
      timestamps.push(Number(record.timestamp));
    });
    if (header.producerId >= 0n && producer === null) {
      producer = { producerId: Number(header.producerId), producerEpoch: header.producerEpoch, baseSequence: header.baseSequence };
    }
    transactional ||= header.transactional;
    covered += frame.bytes.length;
  }
  if (covered !== bytes.length) {
    throw corrupt(`${bytes.length - covered} byte(s) left at ${covered}, fewer than a v2 batch header`);
  }
  return { records: timestamps.length, timestamps, producer, transactional };
}
