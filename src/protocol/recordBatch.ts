// Record batches, message format v2 (magic 2), reading and writing: Kafka hand-writes this format
// (DefaultRecordBatch, DefaultRecord) rather than generating it, and so do we. Offsets, timestamps and producer ids
// are int64 and stay bigint, as in the generated messages.
import { gunzipSync } from 'node:zlib';
import { ByteReader } from './byteReader';
import { ByteWriter } from './byteWriter';
import { crc32c } from './crc32c';
import { ProtocolError, errorMessage } from './errors';

export const Compression = { none: 0, gzip: 1, snappy: 2, lz4: 3, zstd: 4 } as const;

/** Attribute bits of a batch (DefaultRecordBatch). */
const COMPRESSION_MASK = 0x07;
const LOG_APPEND_TIME_FLAG = 0x08;
const TRANSACTIONAL_FLAG = 0x10;
const CONTROL_FLAG = 0x20;

/** baseOffset int64 + batchLength int32: what precedes the bytes batchLength counts. */
const LOG_OVERHEAD = 12;
/** Everything of a v2 batch header, up to and including the record count. */
const HEADER_SIZE = 61;
/** From the batch start to the attributes, where the CRC's range begins. */
const CRC_OFFSET = 17;
const ATTRIBUTES_OFFSET = 21;
const MAGIC = 2;
/** The smallest record: its length and six one-byte fields (attributes, deltas, null key and value, no headers). */
const MIN_RECORD_SIZE = 7;
/** A bound on what one compressed batch may inflate to, so a hostile batch cannot exhaust memory. */
const DEFAULT_MAX_DECOMPRESSED = 64 * 1024 * 1024;

export interface RecordHeader {
  key: string;
  value: Uint8Array | null;
}

export interface BatchRecord {
  offset: bigint;
  timestamp: bigint;
  key: Uint8Array | null;
  value: Uint8Array | null;
  headers: RecordHeader[];
}

/** The header of one batch, as written. */
export interface RecordBatchHeader {
  baseOffset: bigint;
  batchLength: number;
  partitionLeaderEpoch: number;
  magic: number;
  crc: number;
  compression: number;
  /** Log-append time: the broker stamped maxTimestamp, and every record carries it. */
  logAppendTime: boolean;
  transactional: boolean;
  /** A control batch (transaction marker): its one record is a marker, not data. */
  control: boolean;
  lastOffsetDelta: number;
  /** Offset of the batch's last record as written; the next batch starts after it. */
  lastOffset: bigint;
  baseTimestamp: bigint;
  maxTimestamp: bigint;
  producerId: bigint;
  producerEpoch: number;
  baseSequence: number;
  recordCount: number;
}

export interface BatchFrame {
  header: RecordBatchHeader;
  /** False for a batch the broker cut at max bytes: its header is whole, its records are not. */
  complete: boolean;
  /** The batch's bytes (overhead included), when complete. */
  bytes: Uint8Array | null;
}

export interface RecordBatch extends RecordBatchHeader {
  records: BatchRecord[];
}

export interface DecodeOptions {
  /** Inflates snappy, lz4 or zstd (gzip is built in); without it such a batch is an error. */
  decompress?: (compression: number, data: Uint8Array) => Uint8Array;
  maxDecompressedBytes?: number;
}

function readHeader(reader: ByteReader): RecordBatchHeader {
  const baseOffset = reader.int64();
  const batchLength = reader.int32();
  const partitionLeaderEpoch = reader.int32();
  const magic = reader.int8();
  if (magic !== MAGIC) {
    throw new ProtocolError(`record batch at offset ${baseOffset}: message format v${magic} is not supported (only v${MAGIC})`);
  }
  const crc = reader.uint32();
  const attributes = reader.int16();
  const lastOffsetDelta = reader.int32();
  if (lastOffsetDelta < 0) {
    // The next batch starts after baseOffset + lastOffsetDelta: a negative delta would send a reader backwards.
    throw new ProtocolError(`record batch at offset ${baseOffset}: last offset delta ${lastOffsetDelta} is negative`);
  }
  return {
    baseOffset, batchLength, partitionLeaderEpoch, magic, crc,
    compression: attributes & COMPRESSION_MASK,
    logAppendTime: (attributes & LOG_APPEND_TIME_FLAG) !== 0,
    transactional: (attributes & TRANSACTIONAL_FLAG) !== 0,
    control: (attributes & CONTROL_FLAG) !== 0,
    lastOffsetDelta,
    lastOffset: baseOffset + BigInt(lastOffsetDelta),
    baseTimestamp: reader.int64(),
    maxTimestamp: reader.int64(),
    producerId: reader.int64(),
    producerEpoch: reader.int16(),
    baseSequence: reader.int32(),
    recordCount: reader.int32(),
  };
}

/** The batches framed in a Fetch answer, and where framing had to stop on a header that cannot be right. */
export interface FrameScan {
  frames: BatchFrame[];
  /** The first batch whose header cannot be right (length, magic, negative last offset delta); nothing after it can be framed. */
  broken?: { baseOffset: bigint; reason: string };
}

/**
 * The batches in `bytes`, in order, from their headers, without reading their records (a reader's
 * offset bookkeeping must move past every batch, one whose records compaction removed and a control
 * batch included). A batch cut at the end (a broker stops at max bytes) is listed as incomplete when
 * its header arrived whole, and left out otherwise. A header that cannot be right stops the scan and
 * is reported in `broken`, so a reader can step past it instead of failing on everything before it.
 */
export function scanBatchFrames(bytes: Uint8Array): FrameScan {
  const frames: BatchFrame[] = [];
  let position = 0;
  while (bytes.length - position >= LOG_OVERHEAD) {
    const framing = new ByteReader(bytes, position, position + LOG_OVERHEAD);
    const baseOffset = framing.int64();
    const batchLength = framing.int32();
    if (batchLength < HEADER_SIZE - LOG_OVERHEAD) {
      return { frames, broken: { baseOffset, reason: `record batch at offset ${baseOffset}: length ${batchLength} is shorter than a batch header` } };
    }
    if (bytes.length - position < HEADER_SIZE) {
      break;
    }
    const size = LOG_OVERHEAD + batchLength;
    let header: RecordBatchHeader;
    try {
      header = readHeader(new ByteReader(bytes, position, position + HEADER_SIZE));
    } catch (error) {
      return { frames, broken: { baseOffset, reason: errorMessage(error) } };
    }
    const complete = bytes.length - position >= size;
    frames.push({ header, complete, bytes: complete ? bytes.subarray(position, position + size) : null });
    if (!complete) {
      break;
    }
    position += size;
  }
  return { frames };
}

/** As scanBatchFrames, but a header that cannot be right throws its ProtocolError. */
export function readBatchFrames(bytes: Uint8Array): BatchFrame[] {
  const scan = scanBatchFrames(bytes);
  if (scan.broken) {
    throw new ProtocolError(scan.broken.reason);
  }
  return scan.frames;
}

function readRecord(reader: ByteReader, header: RecordBatchHeader): BatchRecord {
  const length = reader.varint();
  if (length < MIN_RECORD_SIZE - 1 || length > reader.remaining) {
    throw new ProtocolError(`length ${length} does not fit the ${reader.remaining} bytes left`);
  }
  const body = new ByteReader(reader.raw(length, 'a record'));
  body.int8(); // record attributes: unused
  const timestampDelta = body.varlong();
  const offsetDelta = body.varint();
  const key = readVarBytes(body, 'record key');
  const value = readVarBytes(body, 'record value');
  const headerCount = body.varint();
  if (headerCount < 0 || headerCount * 2 > body.remaining) {
    throw new ProtocolError(`${headerCount} headers cannot fit in the ${body.remaining} bytes left`);
  }
  const headers: RecordHeader[] = [];
  for (let i = 0; i < headerCount; i++) {
    const headerKey = readVarBytes(body, 'header key');
    if (headerKey === null) {
      throw new ProtocolError('a header has a null key');
    }
    headers.push({ key: Buffer.from(headerKey).toString('utf8'), value: readVarBytes(body, 'header value') });
  }
  return {
    offset: header.baseOffset + BigInt(offsetDelta),
    timestamp: header.logAppendTime ? header.maxTimestamp : header.baseTimestamp + timestampDelta,
    key, value, headers,
  };
}

function readVarBytes(reader: ByteReader, what: string): Uint8Array | null {
  const length = reader.varint();
  return length < 0 ? null : reader.raw(length, what);
}

function recordsBytes(frame: Uint8Array, header: RecordBatchHeader, options: DecodeOptions): Uint8Array {
  const data = frame.subarray(HEADER_SIZE);
  const maxBytes = options.maxDecompressedBytes ?? DEFAULT_MAX_DECOMPRESSED;
  switch (header.compression) {
    case Compression.none:
      return data;
    case Compression.gzip:
      try {
        return gunzipSync(data, { maxOutputLength: maxBytes });
      } catch (error) {
        throw new ProtocolError(`record batch at offset ${header.baseOffset}: gzip: ${errorMessage(error)}`);
      }
    default: {
      if (options.decompress === undefined) {
        throw new ProtocolError(`record batch at offset ${header.baseOffset}: compression ${header.compression} needs a decompressor`);
      }
      const inflated = options.decompress(header.compression, data);
      if (inflated.length > maxBytes) {
        throw new ProtocolError(`record batch at offset ${header.baseOffset}: inflates past ${maxBytes} bytes`);
      }
      return inflated;
    }
  }
}

/** Reads one whole batch: checks its CRC (as Java consumers do), then its records. */
export function decodeRecordBatch(frame: Uint8Array, options: DecodeOptions = {}): RecordBatch {
  const header = readHeader(new ByteReader(frame, 0, Math.min(frame.length, HEADER_SIZE)));
  if (frame.length !== LOG_OVERHEAD + header.batchLength) {
    throw new ProtocolError(`record batch at offset ${header.baseOffset}: ${frame.length} bytes, its length says ${LOG_OVERHEAD + header.batchLength}`);
  }
  const actualCrc = crc32c(frame, ATTRIBUTES_OFFSET);
  if (actualCrc !== header.crc) {
    throw new ProtocolError(`record batch at offset ${header.baseOffset}: CRC ${actualCrc} does not match the stored ${header.crc}`);
  }
  const reader = new ByteReader(recordsBytes(frame, header, options));
  if (header.recordCount < 0 || header.recordCount * MIN_RECORD_SIZE > reader.remaining) {
    throw new ProtocolError(`record batch at offset ${header.baseOffset}: ${header.recordCount} records cannot fit in the ${reader.remaining} bytes left`);
  }
  const records: BatchRecord[] = [];
  for (let i = 0; i < header.recordCount; i++) {
    try {
      records.push(readRecord(reader, header));
    } catch (error) {
      throw new ProtocolError(`record batch at offset ${header.baseOffset}, record ${i}: ${errorMessage(error)}`);
    }
  }
  return { ...header, records };
}

/** Every complete batch in `bytes`, with its records; a batch cut at the end is left out (fetch it again). */
export function decodeRecordBatches(bytes: Uint8Array, options: DecodeOptions = {}): RecordBatch[] {
  return readBatchFrames(bytes)
    .filter((frame): frame is BatchFrame & { bytes: Uint8Array } => frame.bytes !== null)
    .map((frame) => decodeRecordBatch(frame.bytes, options));
}

/** A transaction marker's record: the key is version 0 and the type (0 abort, 1 commit), the value version 0 and the coordinator epoch. */
export interface ControlMarker {
  type: 'ABORT' | 'COMMIT';
  coordinatorEpoch: number;
}

export function readControlMarker(record: BatchRecord): ControlMarker {
  if (record.key === null || record.key.length < 4) {
    throw new ProtocolError(`control record at offset ${record.offset} has no type`);
  }
  const key = new ByteReader(record.key);
  key.int16();
  const type = key.int16();
  if (type !== 0 && type !== 1) {
    throw new ProtocolError(`control record at offset ${record.offset}: unknown control type ${type}`);
  }
  let coordinatorEpoch = -1;
  if (record.value !== null && record.value.length >= 6) {
    const value = new ByteReader(record.value);
    value.int16();
    coordinatorEpoch = value.int32();
  }
  return { type: type === 1 ? 'COMMIT' : 'ABORT', coordinatorEpoch };
}

export interface NewRecord {
  /** Offset from the batch's base offset; the record's index by default. */
  offsetDelta?: number;
  /** Milliseconds after the batch's base timestamp; 0 by default. */
  timestampDelta?: bigint;
  key?: Uint8Array | null;
  value: Uint8Array | null;
  headers?: RecordHeader[];
}

export interface NewBatch {
  baseOffset: bigint;
  baseTimestamp: bigint;
  /** The newest record timestamp; the base timestamp plus the largest delta by default. */
  maxTimestamp?: bigint;
  records: readonly NewRecord[];
  partitionLeaderEpoch?: number;
  producerId?: bigint;
  producerEpoch?: number;
  baseSequence?: number;
  transactional?: boolean;
  control?: boolean;
}

function writeVarBytes(writer: ByteWriter, bytes: Uint8Array | null | undefined): void {
  if (bytes === null || bytes === undefined) {
    writer.varint(-1);
  } else {
    writer.varint(bytes.length);
    writer.raw(bytes);
  }
}

/** One uncompressed v2 batch, its CRC computed. */
export function encodeRecordBatch(batch: NewBatch): Uint8Array {
  if (batch.records.length === 0) {
    throw new ProtocolError('A record batch needs at least one record');
  }
  const writer = new ByteWriter(HEADER_SIZE + 32 * batch.records.length);
  let lastOffsetDelta = 0;
  let maxDelta = 0n;
  const body = new ByteWriter();
  batch.records.forEach((record, index) => {
    const offsetDelta = record.offsetDelta ?? index;
    const timestampDelta = record.timestampDelta ?? 0n;
    lastOffsetDelta = offsetDelta;
    maxDelta = timestampDelta > maxDelta ? timestampDelta : maxDelta;
    const fields = new ByteWriter(64);
    fields.int8(0);
    fields.varlong(timestampDelta);
    fields.varint(offsetDelta);
    writeVarBytes(fields, record.key);
    writeVarBytes(fields, record.value);
    const headers = record.headers ?? [];
    fields.varint(headers.length);
    for (const header of headers) {
      writeVarBytes(fields, Buffer.from(header.key, 'utf8'));
      writeVarBytes(fields, header.value);
    }
    const bytes = fields.finish();
    body.varint(bytes.length);
    body.raw(bytes);
  });
  const producerId = batch.producerId ?? -1n;
  const attributes = (batch.transactional === true ? TRANSACTIONAL_FLAG : 0) | (batch.control === true ? CONTROL_FLAG : 0);
  const records = body.finish();
  writer.int64(batch.baseOffset);
  writer.int32(HEADER_SIZE - LOG_OVERHEAD + records.length);
  writer.int32(batch.partitionLeaderEpoch ?? -1);
  writer.int8(MAGIC);
  writer.uint32(0); // the CRC, set below once the bytes it covers are written
  writer.int16(attributes);
  writer.int32(lastOffsetDelta);
  writer.int64(batch.baseTimestamp);
  writer.int64(batch.maxTimestamp ?? batch.baseTimestamp + maxDelta);
  writer.int64(producerId);
  writer.int16(batch.producerEpoch ?? (producerId >= 0n ? 0 : -1));
  writer.int32(batch.baseSequence ?? -1);
  writer.int32(batch.records.length);
  writer.raw(records);
  const bytes = writer.finish();
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).writeUInt32BE(crc32c(bytes, ATTRIBUTES_OFFSET), CRC_OFFSET);
  return bytes;
}

/** The control batch a transaction's COMMIT or ABORT marker is on the wire (EndTransactionMarker). */
export function encodeControlBatch(marker: {
  offset: bigint; producerId: bigint; producerEpoch: number; type: 'COMMIT' | 'ABORT'; coordinatorEpoch: number;
  timestamp: bigint; partitionLeaderEpoch?: number;
}): Uint8Array {
  const key = new ByteWriter(4);
  key.int16(0);
  key.int16(marker.type === 'COMMIT' ? 1 : 0);
  const value = new ByteWriter(6);
  value.int16(0);
  value.int32(marker.coordinatorEpoch);
  return encodeRecordBatch({
    baseOffset: marker.offset, baseTimestamp: marker.timestamp, partitionLeaderEpoch: marker.partitionLeaderEpoch,
    producerId: marker.producerId, producerEpoch: marker.producerEpoch, transactional: true, control: true,
    records: [{ key: key.finish(), value: value.finish() }],
  });
}

/** What the batches of one Produce partition hold, from their headers: every batch must be whole and v2. */
export function summarizeProducedBatches(bytes: Uint8Array): { records: number; transactional: { producerId: bigint; epoch: number } | null } {
  let records = 0;
  let transactional: { producerId: bigint; epoch: number } | null = null;
  let covered = 0;
  for (const frame of readBatchFrames(bytes)) {
    if (!frame.complete) {
      break;
    }
    if (frame.header.recordCount < 0) {
      throw new ProtocolError(`produced record batch: negative record count ${frame.header.recordCount}`);
    }
    records += frame.header.recordCount;
    if (frame.header.transactional) {
      transactional = { producerId: frame.header.producerId, epoch: frame.header.producerEpoch };
    }
    covered += LOG_OVERHEAD + frame.header.batchLength;
  }
  if (covered !== bytes.length) {
    throw new ProtocolError(`produced record batch: ${bytes.length - covered} bytes at the end are not a whole batch`);
  }
  return { records, transactional };
}

/**
 * The records of one whole batch as a broker reads a producer's (LogValidator): the CRC checked, then records read
 * until the declared count or the end of the bytes, whichever comes first, so the caller can tell a count the
 * records do not bear out (and bytes left after the last record) from a malformed record, which throws.
 */
export function readProducedRecords(frame: Uint8Array, options: DecodeOptions = {}): { header: RecordBatchHeader; records: BatchRecord[]; bytesLeft: number } {
  const header = readHeader(new ByteReader(frame, 0, Math.min(frame.length, HEADER_SIZE)));
  if (frame.length !== LOG_OVERHEAD + header.batchLength) {
    throw new ProtocolError(`record batch at offset ${header.baseOffset}: ${frame.length} bytes, its length says ${LOG_OVERHEAD + header.batchLength}`);
  }
  const actualCrc = crc32c(frame, ATTRIBUTES_OFFSET);
  if (actualCrc !== header.crc) {
    throw new ProtocolError(`record batch at offset ${header.baseOffset}: CRC ${actualCrc} does not match the stored ${header.crc}`);
  }
  const reader = new ByteReader(recordsBytes(frame, header, options));
  const records: BatchRecord[] = [];
  while (records.length < header.recordCount && reader.remaining > 0) {
    records.push(readRecord(reader, header));
  }
  return { header, records, bytesLeft: reader.remaining };
}
