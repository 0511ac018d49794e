/**
 * The contents of one `__consumer_offsets` partition: the record batches the coordinator appended
 * (one per coordinator operation, as Kafka's runtime writes them atomically), kept beside the
 * partition's PartitionLog, which counts their offsets and timestamps for ListOffsets and the LSO.
 *
 * Bounded as Kafka bounds the topic (cleanup.policy=compact): when the records superseded by a later
 * record of the same key outnumber the live ones (min.cleanable.dirty.ratio 0.5), a cleaning pass
 * drops them, and tombstones older than delete.retention.ms (24 h), outside the active segment
 * (the newest ACTIVE_SEGMENT_RECORDS offsets, which the cleaner never touches, so a reader tailing
 * the log still sees every record). Offsets never move: cleaned batches keep their offsets, with gaps.
 * Records are kept as the coordinator built them and encoded on their first fetch: most are never read.
 */
import type { PartitionLog, StoredRecords } from './partitionLog';
import type { LogRecord, RecordSerde, StoredBatch, StoredRecord } from './storedBatches';
import type { IsolationLevel, TransactionResult } from './transactionIndex';

export { encodedRecord, encodeStoredBatches, type StoredBatch, type StoredRecord } from './storedBatches';

/** Kafka's delete.retention.ms default: how long a tombstone outlives what it deleted. */
export const DELETE_RETENTION_MS = 24 * 60 * 60 * 1000;
/** Offsets at the end of the log that cleaning leaves alone (Kafka's active segment). */
export const ACTIVE_SEGMENT_RECORDS = 1000;
/** A cleaning pass runs once this many records are superseded, and no fewer than live ones. */
const MIN_DIRTY_RECORDS = 1000;

export class CoordinatorRecordLog<R extends LogRecord = LogRecord> implements StoredRecords {
  private batches: StoredBatch<R>[] = [];
  /** Offset of the newest record of each key. */
  private readonly latest = new Map<string, number>();
  private superseded = 0;
  private recordCount = 0;
  /** The high watermark at the last cleaning: the next waits for a new segment to roll. */
  private cleanedAt = 0;
  /** The records of each producer's transaction open in this partition: they count once committed. */
  private readonly openTransactions = new Map<number, StoredRecord<R>[]>();

  constructor(
    private readonly log: PartitionLog,
    private readonly serde: RecordSerde<R>,
  ) {}

  /** Records stored (superseded ones not yet cleaned included), for memory accounting and tests. */
  get storedRecords(): number {
    return this.recordCount;
  }

  /** Appends one coordinator operation's records as one batch (in `producerId`'s transaction when given); returns its base offset. */
  append(records: readonly R[], timestamp: number, producerId: number | null = null): number {
    if (records.length === 0) {
      return this.log.highWatermark;
    }
    const base = producerId === null ? this.log.append(records.length, timestamp) : this.log.appendTransactional(producerId, records.length, timestamp);
    const stored = records.map((record, i): StoredRecord<R> => ({ offset: base + i, record, keyId: this.serde.keyId(record), serde: this.serde, encoded: null }));
    if (producerId === null) {
      this.supersede(stored);
    } else {
      this.openTransactions.set(producerId, [...(this.openTransactions.get(producerId) ?? []), ...stored]);
    }
    this.batches.push({ baseOffset: base, lastOffset: base + records.length - 1, timestamp, producerId, marker: null, records: stored });
    this.recordCount += stored.length;
    this.maybeClean(timestamp);
    return base;
  }

  /** Writes the marker ending `producerId`'s transaction here, if it has one open here (false otherwise). */
  endTransaction(producerId: number, result: TransactionResult, timestamp: number): boolean {
    const pending = this.openTransactions.get(producerId);
    if (pending === undefined) {
      return false;
    }
    this.openTransactions.delete(producerId);
    if (result === 'COMMIT') {
      this.supersede(pending);
    } else {
      this.superseded += pending.length; // an aborted write is garbage at once
    }
    const offset = this.log.writeControlMarker(producerId, result, timestamp);
    this.batches.push({ baseOffset: offset, lastOffset: offset, timestamp, producerId, marker: result, records: [] });
    return true;
  }

  /**
   * The batches a fetch from `from` returns, as a broker returns them: whole batches from the one
   * holding `from`, up to the high watermark (read_uncommitted) or the LSO (read_committed, which
   * also skips aborted batches), at most `maxRecords` records (at least one batch).
   */
  read(from: number, isolation: IsolationLevel, maxRecords: number): StoredBatch<R>[] {
    const end = isolation === 'read_committed' ? this.log.lastStableOffset : this.log.highWatermark;
    const result: StoredBatch<R>[] = [];
    let taken = 0;
    for (let i = this.firstBatchEndingAtOrAfter(from); i < this.batches.length && taken < maxRecords; i++) {
      const batch = this.batches[i];
      if (batch.lastOffset >= end) {
        break;
      }
      if (batch.marker === null && batch.producerId !== null && isolation === 'read_committed' && this.log.visibleRecords(batch.baseOffset, batch.lastOffset + 1, isolation) === 0) {
        continue; // an aborted transaction's records
      }
      if (batch.marker === null && batch.records.length === 0) {
        continue;
      }
      result.push(batch);
      taken += Math.max(1, batch.records.length);
    }
    return result;
  }

  /** The records become their keys' newest; what they replace is garbage for the cleaner. */
  private supersede(records: readonly StoredRecord<R>[]): void {
    for (const record of records) {
      const id = record.keyId;
      if (this.latest.has(id)) {
        this.superseded++;
      }
      this.latest.set(id, record.offset);
    }
  }

  private firstBatchEndingAtOrAfter(offset: number): number {
    let lo = 0;
    let hi = this.batches.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.batches[mid].lastOffset >= offset) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  private maybeClean(now: number): void {
    const segmentRolled = this.log.highWatermark - this.cleanedAt >= ACTIVE_SEGMENT_RECORDS;
    if (segmentRolled && this.superseded >= MIN_DIRTY_RECORDS && this.superseded * 2 >= this.recordCount) {
      this.clean(now);
    }
  }

  /** One pass of Kafka's log cleaner over everything before the active segment. */
  clean(now: number): void {
    this.cleanedAt = this.log.highWatermark;
    const cleanableEnd = this.log.highWatermark - ACTIVE_SEGMENT_RECORDS;
    const kept: StoredBatch<R>[] = [];
    for (const batch of this.batches) {
      if (batch.lastOffset >= cleanableEnd) {
        kept.push(batch);
        continue;
      }
      const expired = now - batch.timestamp >= DELETE_RETENTION_MS;
      if (batch.marker !== null) {
        if (!expired) {
          kept.push(batch);
        }
        continue;
      }
      if (batch.producerId !== null && this.openTransactions.has(batch.producerId)) {
        kept.push(batch); // its transaction may still commit
        continue;
      }
      const records = batch.records.filter((record) => {
        const id = record.keyId;
        if (this.latest.get(id) !== record.offset) {
          this.superseded--; // superseded, or an aborted write
          return false;
        }
        if (record.record.value === null && expired) {
          this.latest.delete(id); // a tombstone past its retention: the key is gone
          return false;
        }
        return true;
      });
      if (records.length > 0) {
        kept.push({ ...batch, records });
      }
    }
    this.batches = kept;
    this.recordCount = kept.reduce((n, b) => n + b.records.length, 0);
  }
}
