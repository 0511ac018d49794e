/**
 * One partition's log, stored as append batches rather than records: batch i starts at
 * baseOffsets[i] and carries timestamp timestamps[i]; it ends where batch i+1 starts (or at the
 * high watermark). A million records appended in one call cost one slot.
 */
import type { StoredBatch } from './storedBatches';
import type { ProducerState } from '../../model/transactions';
import { ProducerStateTable, type BatchProducer } from './producerStateTable';
import { TransactionIndex, type ControlMarker, type IsolationLevel, type ReadResult, type TransactionResult } from './transactionIndex';

/** Something waiting for data, like a consumer blocked in poll(). Woken once per registration. */
export interface DataWaiter {
  onData(): void;
}

/**
 * Records a partition keeps itself rather than generating them on fetch (`__consumer_offsets`): the
 * batches a fetch from `from` returns. The coordinators' record log implements it.
 */
export interface StoredRecords {
  read(from: number, isolation: IsolationLevel, maxRecords: number): StoredBatch[];
}

export class PartitionLog {
  /** The records themselves where the simulator keeps them (`__consumer_offsets`); null where Fetch generates them. */
  storedRecords: StoredRecords | null = null;
  private waiters: Set<DataWaiter> | null = null;
  private baseOffsets = new Float64Array(16);
  /** Running maximum of batch timestamps, so a binary search finds the first batch at or after t (like Kafka's time index). */
  private maxTimestamps = new Float64Array(16);
  private batchCount = 0;
  private firstLiveBatch = 0;
  private hw = 0;
  private startOffset = 0;
  private readonly transactions = new TransactionIndex();
  private readonly producers = new ProducerStateTable();

  get highWatermark(): number {
    return this.hw;
  }

  get logStartOffset(): number {
    return this.startOffset;
  }

  /** First offset of the earliest open transaction if it is below the HW, else the HW (UnifiedLog.lastStableOffset). */
  get lastStableOffset(): number {
    const firstUnstable = this.transactions.firstUnstableOffset();
    return firstUnstable !== null && firstUnstable < this.hw ? firstUnstable : this.hw;
  }

  /** Number of aborted transactions in the aborted-transaction index. */
  get abortedTransactions(): number {
    return this.transactions.abortedTransactions;
  }

  /**
   * Appends `count` records in the producer's transaction (opening it here on its first batch); returns
   * the base offset. A bare producer id is the engine's own writer (epoch 0, no sequence).
   */
  appendTransactional(producer: BatchProducer | number, count: number, timestamp: number): number {
    if (!Number.isInteger(count) || count < 1) {
      throw new Error(`Transactional record count must be a positive integer, got ${count}`);
    }
    const writer = typeof producer === 'number' ? { producerId: producer, producerEpoch: 0, baseSequence: -1 } : producer;
    const base = this.append(count, timestamp);
    this.transactions.recordBatch(writer.producerId, base, base + count);
    this.producers.recordBatch(writer, base, count, timestamp, true);
    return base;
  }

  /**
   * Writes the COMMIT or ABORT control marker that ends `producerId`'s transaction; it occupies one
   * offset. Written also where the producer has none open (it then ends nothing), as a broker does.
   */
  writeControlMarker(producerId: number, result: TransactionResult, timestamp: number, producerEpoch = 0, coordinatorEpoch = 0): number {
    const offset = this.hw;
    this.transactions.recordMarker({ producerId, producerEpoch, result }, offset);
    this.producers.recordMarker(producerId, producerEpoch, coordinatorEpoch, timestamp);
    this.append(1, timestamp);
    return offset;
  }

  /** True when `producerId` has a transaction open on this partition. */
  hasOpenTransaction(producerId: number): boolean {
    return this.transactions.hasOpenTransaction(producerId);
  }

  /** DescribeProducers: the producers this partition remembers at `now`. */
  activeProducers(now: number): ProducerState[] {
    return this.producers.activeProducers(now);
  }

  /** The epochs a marker for `producerId` is fenced against; undefined when it never wrote here. */
  producerEpochs(producerId: number): { producerEpoch: number; coordinatorEpoch: number } | undefined {
    return this.producers.epochsOf(producerId);
  }

  /**
   * A fetch from `position`: read_committed stops at the LSO and skips aborted batches, both skip
   * control markers. Returns the records the application sees and the position after them.
   */
  read(position: number, maxRecords: number, isolation: IsolationLevel): ReadResult {
    const end = isolation === 'read_committed' ? this.lastStableOffset : this.hw;
    return this.transactions.read(Math.max(position, this.startOffset), end, maxRecords, isolation);
  }

  /** The COMMIT or ABORT marker at `offset`, with the producer whose transaction it ended. */
  controlMarkerAt(offset: number): ControlMarker | undefined {
    return offset >= this.startOffset ? this.transactions.markerAt(offset) : undefined;
  }

  /** Records the application would see in [from, to) at this isolation level (to is capped at its end). */
  visibleRecords(from: number, to: number, isolation: IsolationLevel): number {
    const end = Math.min(to, isolation === 'read_committed' ? this.lastStableOffset : this.hw);
    return this.transactions.read(Math.max(from, this.startOffset), end, Infinity, isolation).records;
  }

  /** Number of stored batches (for memory accounting). */
  get storedBatches(): number {
    return this.batchCount - this.firstLiveBatch;
  }

  /** Calls `waiter.onData()` at the next append. */
  waitForData(waiter: DataWaiter): void {
    (this.waiters ??= new Set()).add(waiter);
  }

  /** Forgets a waiter that no longer waits (answered by a timeout, or its connection closed). */
  stopWaiting(waiter: DataWaiter): void {
    this.waiters?.delete(waiter);
  }

  /** Waiters registered and not yet woken (for leak checks). */
  get waiterCount(): number {
    return this.waiters?.size ?? 0;
  }

  /** Appends `count` records stamped `timestamp`; returns the base offset. */
  append(count: number, timestamp: number): number {
    if (!Number.isInteger(count) || count < 0) {
      throw new Error(`Record count must be a non-negative integer, got ${count}`);
    }
    if (!Number.isSafeInteger(this.hw + count)) {
      // Past 2^53 - 1 the high watermark would round: records would be counted as stored and lost.
      throw new Error(`Cannot append ${count} record(s) at offset ${this.hw}: offsets are exact only up to ${Number.MAX_SAFE_INTEGER}`);
    }
    const base = this.hw;
    if (count === 0) {
      return base;
    }
    if (this.waiters) {
      const waiters = this.waiters;
      this.waiters = null;
      for (const waiter of waiters) {
        waiter.onData();
      }
    }
    const last = this.batchCount - 1;
    const lastMax = last >= this.firstLiveBatch ? this.maxTimestamps[last] : -Infinity;
    if (last >= this.firstLiveBatch && lastMax >= timestamp) {
      // Same (or older) timestamp: the time index would not change, so extend the last batch.
      this.hw += count;
      return base;
    }
    if (this.batchCount === this.baseOffsets.length) {
      this.grow();
    }
    this.baseOffsets[this.batchCount] = base;
    this.maxTimestamps[this.batchCount] = Math.max(timestamp, lastMax);
    this.batchCount++;
    this.hw += count;
    return base;
  }

  /**
   * Appends records stamped one by one (a producer's CreateTime), in offset order; returns the base
   * offset. Records no newer than the newest so far share its slot, as they leave the time index as it is.
   */
  appendStamped(timestamps: readonly number[], producer?: BatchProducer): number {
    const base = this.hw;
    for (const timestamp of timestamps) {
      this.append(1, timestamp);
    }
    if (producer && timestamps.length > 0) {
      // An idempotent producer's batch: DescribeProducers lists it too.
      this.producers.recordBatch(producer, base, timestamps.length, Math.max(...timestamps), false);
    }
    return base;
  }

  /**
   * Where the stored batch after the one holding `offset` starts (appends of one timestamp share a batch), or
   * null when `offset` is in the last one: the batch boundaries a share fetch acquires along.
   */
  nextBatchStart(offset: number): number | null {
    let lo = this.firstLiveBatch;
    let hi = this.batchCount;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.baseOffsets[mid] > offset) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo < this.batchCount ? this.baseOffsets[lo] : null;
  }

  /** First offset whose timestamp is >= `timestamp`, or null when every record is older (ListOffsets returns -1). */
  offsetForTimestamp(timestamp: number): number | null {
    return this.timestampAndOffsetFor(timestamp)?.offset ?? null;
  }

  /**
   * As a broker's time index answers ListOffsets by timestamp: the first record whose timestamp is
   * >= `timestamp`, with that record's timestamp; null when every record is older. The slots keep
   * a running maximum, so the first slot reaching the target starts at exactly that record, and
   * its maximum is the record's own timestamp.
   */
  timestampAndOffsetFor(timestamp: number): { offset: number; timestamp: number } | null {
    let lo = this.firstLiveBatch;
    let hi = this.batchCount;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.maxTimestamps[mid] >= timestamp) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    if (lo === this.batchCount) {
      return null;
    }
    return { offset: Math.max(this.baseOffsets[lo], this.startOffset), timestamp: this.maxTimestamps[lo] };
  }

  /** The first record with the log's largest timestamp, and that timestamp (ListOffsets MAX_TIMESTAMP); null for an empty log. */
  maxTimestampAndOffset(): { offset: number; timestamp: number } | null {
    const last = this.batchCount - 1;
    if (last < this.firstLiveBatch) {
      return null;
    }
    return { offset: Math.max(this.baseOffsets[last], this.startOffset), timestamp: this.maxTimestamps[last] };
  }

  /**
   * Timestamp of the record at `offset` (its batch's, as the time index keeps it: the running maximum), or null when
   * the offset is not in the live log (below the log start or at/after the high watermark).
   */
  timestampAt(offset: number): number | null {
    if (offset < this.startOffset || offset >= this.hw) {
      return null;
    }
    let lo = this.firstLiveBatch;
    let hi = this.batchCount - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.baseOffsets[mid] <= offset) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo < this.batchCount ? this.maxTimestamps[lo] : null;
  }

  /** Timestamp of the newest record, or null for an empty log. */
  latestTimestamp(): number | null {
    return this.batchCount > this.firstLiveBatch ? this.maxTimestamps[this.batchCount - 1] : null;
  }

  /** Deletes whole batches whose records are all older than `cutoff` (time-based retention). */
  deleteBefore(cutoff: number): void {
    while (this.firstLiveBatch < this.batchCount && this.maxTimestamps[this.firstLiveBatch] < cutoff) {
      this.firstLiveBatch++;
      this.startOffset = this.firstLiveBatch < this.batchCount ? this.baseOffsets[this.firstLiveBatch] : this.hw;
    }
    this.transactions.truncateBefore(this.startOffset);
    if (this.firstLiveBatch > 1024 && this.firstLiveBatch * 2 > this.batchCount) {
      this.compact();
    }
  }

  private grow(): void {
    const size = this.baseOffsets.length * 2;
    const offsets = new Float64Array(size);
    offsets.set(this.baseOffsets);
    const stamps = new Float64Array(size);
    stamps.set(this.maxTimestamps);
    this.baseOffsets = offsets;
    this.maxTimestamps = stamps;
  }

  private compact(): void {
    const live = this.batchCount - this.firstLiveBatch;
    this.baseOffsets.copyWithin(0, this.firstLiveBatch, this.batchCount);
    this.maxTimestamps.copyWithin(0, this.firstLiveBatch, this.batchCount);
    this.batchCount = live;
    this.firstLiveBatch = 0;
  }
}
