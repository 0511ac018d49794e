/**
 * Batches of records a partition keeps as their writer built them (the coordinators' `__consumer_offsets`
 * records), encoded to bytes on their first fetch. The writer says how through a RecordSerde (Kafka's
 * coordinator runtime Serializer), so the log knows nothing of what the records mean.
 */
import { encodeControlBatch, encodeRecordBatch } from '../../protocol/recordBatch';
import type { TransactionResult } from './transactionIndex';

/** A record as the log sees it: a value, null for a tombstone. */
export interface LogRecord {
  readonly value: unknown;
}

/** The record's key and value bytes, encoded once. */
export interface EncodedRecord {
  key: Uint8Array;
  value: Uint8Array | null;
}

/** What the writer of stored records tells the log of them (the group coordinator's record serde implements it). */
export interface RecordSerde<R extends LogRecord = LogRecord> {
  /** The identity of the record's key, for compaction. */
  keyId(record: R): string;
  encode(record: R): EncodedRecord;
}

export interface StoredRecord<R extends LogRecord = LogRecord> {
  offset: number;
  record: R;
  /** Its key's identity (recordKeyId), for compaction. */
  keyId: string;
  /** How its bytes are made. */
  serde: RecordSerde<R>;
  /** Its bytes, once a fetch asked for them. */
  encoded: EncodedRecord | null;
}

/** The record's key and value bytes, encoded once. */
export function encodedRecord<R extends LogRecord>(stored: StoredRecord<R>): EncodedRecord {
  stored.encoded ??= stored.serde.encode(stored.record);
  return stored.encoded;
}

export interface StoredBatch<R extends LogRecord = LogRecord> {
  baseOffset: number;
  /** Kept through cleaning, so a reader moves past the batch's last offset even when its last record went. */
  lastOffset: number;
  timestamp: number;
  /** The producer of a transactional batch (a TxnOffsetCommit's records), else null. */
  producerId: number | null;
  /** A COMMIT or ABORT marker (control batch), else null. */
  marker: TransactionResult | null;
  records: StoredRecord<R>[];
}

/**
 * The bytes a broker sends for stored batches (a Fetch of `__consumer_offsets`): the coordinator's
 * batches as it appended them (a cleaned batch keeps its offsets), transaction markers as control batches.
 */
export function encodeStoredBatches(batches: readonly StoredBatch[]): Buffer {
  return Buffer.concat(batches.map((batch) => {
    const timestamp = BigInt(batch.timestamp);
    if (batch.marker !== null) {
      return encodeControlBatch({ offset: BigInt(batch.baseOffset), producerId: BigInt(batch.producerId ?? -1), producerEpoch: 0, type: batch.marker, coordinatorEpoch: 0, timestamp });
    }
    return encodeRecordBatch({
      baseOffset: BigInt(batch.baseOffset),
      baseTimestamp: timestamp,
      records: batch.records.map((record) => ({ offsetDelta: record.offset - batch.baseOffset, ...encodedRecord(record) })),
      ...(batch.producerId !== null ? { producerId: BigInt(batch.producerId), producerEpoch: 0, transactional: true } : {}),
    });
  }));
}
