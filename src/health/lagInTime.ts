/**
 * Lag in time: how far behind in time a group is on one partition. The age of the oldest unconsumed record (now
 * minus the timestamp of the record at the committed offset) and the span of produced time still to consume (the
 * newest record's timestamp minus that one), with the reasons the figures are approximate.
 *
 * Reading it costs two small requests per lagging partition, which the source makes (this module is pure):
 *  - the record at the committed offset: a Fetch at that offset with a small max bytes (one batch), decoded with
 *    `decodeRecordBatches`, then `pickRecordAt(batches, committed)`. When that returns no record and a `nextOffset`
 *    below the log end (only markers were read), one more Fetch from `nextOffset` may be made; bound it.
 *  - the newest record: ListOffsets with timestamp -3 (MAX_TIMESTAMP, KIP-734, v7+) gives its offset and timestamp
 *    in one request; or a Fetch of the last batch (at log end − 1) and `pickNewestRecord`.
 * Then `computeLagInTime` and, for the tooltip, `describeLagInTime`.
 */
import type { LagInTimeApproximation, PartitionOffsets } from '../model/types';
import type { RecordBatch } from '../protocol/recordBatch';
import { formatDuration } from './lagEvaluation';

export type TimestampType = 'CreateTime' | 'LogAppendTime';

export interface RecordTime {
  offset: number;
  /** Epoch milliseconds; null when the record carries none (-1). */
  timestamp: number | null;
  timestampType: TimestampType;
}

/** What a one-batch Fetch said about the first record at or after an offset. */
export interface PickedRecord {
  /** The first data record at or after the offset asked for; null when the batches hold none. */
  record: RecordTime | null;
  /** Transaction markers (control batches) lay at the offset asked for and were skipped. */
  skippedMarkers: boolean;
  /** Offsets between the one asked for (after any markers) and the record are missing: compaction removed them. */
  skippedMissing: boolean;
  /** The data records read have timestamps that go backwards (client-set CreateTime). */
  nonMonotonic: boolean;
  /** The offset after the last batch read: where to fetch next when `record` is null. */
  nextOffset: number;
}

/** The fields of a decoded batch that picking needs (a `RecordBatch` from `decodeRecordBatches` has them). */
export type BatchForTime = Pick<RecordBatch, 'baseOffset' | 'lastOffset' | 'control' | 'logAppendTime' | 'records'>;

function recordTime(batch: BatchForTime, index: number): RecordTime {
  const record = batch.records[index];
  return {
    offset: Number(record.offset),
    timestamp: record.timestamp < 0n ? null : Number(record.timestamp),
    timestampType: batch.logAppendTime ? 'LogAppendTime' : 'CreateTime',
  };
}

/** True when the data records of `batches`, in offset order, have a timestamp below an earlier one. */
function timestampsGoBack(batches: readonly BatchForTime[]): boolean {
  let previous = Number.NEGATIVE_INFINITY;
  for (const batch of batches) {
    if (batch.control) {
      continue;
    }
    for (const record of batch.records) {
      const timestamp = Number(record.timestamp);
      if (timestamp >= 0) {
        if (timestamp < previous) {
          return true;
        }
        previous = timestamp;
      }
    }
  }
  return false;
}

/**
 * The first data record at or after `offset` in the batches a Fetch returned (a Fetch starts at the batch that holds
 * the offset, so records before it are skipped). Control batches are skipped; aborted transactions' data records are
 * not told apart (that needs the Fetch's aborted-transactions list, out of scope here).
 */
export function pickRecordAt(batches: readonly BatchForTime[], offset: number | bigint): PickedRecord {
  const target = BigInt(offset);
  let expected = target;
  let skippedMarkers = false;
  let nextOffset = Number(target);
  const ordered = [...batches].sort((a, b) => (a.baseOffset < b.baseOffset ? -1 : a.baseOffset > b.baseOffset ? 1 : 0));
  const nonMonotonic = timestampsGoBack(ordered);
  for (const batch of ordered) {
    if (batch.lastOffset < target) {
      continue;
    }
    nextOffset = Number(batch.lastOffset + 1n);
    if (batch.control) {
      if (batch.baseOffset <= expected) {
        skippedMarkers = true;
        expected = batch.lastOffset + 1n;
      }
      continue;
    }
    const index = batch.records.findIndex((record) => record.offset >= target);
    if (index >= 0) {
      const found = batch.records[index].offset;
      return { record: recordTime(batch, index), skippedMarkers, skippedMissing: found > expected, nonMonotonic, nextOffset };
    }
  }
  return { record: null, skippedMarkers, skippedMissing: false, nonMonotonic, nextOffset };
}

/** The last data record in the batches (by offset), for the newest record's timestamp; null when there is none. */
export function pickNewestRecord(batches: readonly BatchForTime[]): RecordTime | null {
  let newest: { batch: BatchForTime; index: number } | null = null;
  for (const batch of batches) {
    if (batch.control || batch.records.length === 0) {
      continue;
    }
    const index = batch.records.length - 1;
    if (newest === null || batch.records[index].offset > newest.batch.records[newest.index].offset) {
      newest = { batch, index };
    }
  }
  return newest === null ? null : recordTime(newest.batch, newest.index);
}

export type { LagInTimeApproximation } from '../model/types';

/** The newest record's offset and timestamp: ListOffsets MAX_TIMESTAMP gives these (not whose clock it is). */
export type NewestRecord = Pick<RecordTime, 'offset' | 'timestamp'> & Partial<Pick<RecordTime, 'timestampType'>>;

export interface LagInTimeInput {
  now: number;
  committedOffset: number | null;
  logStartOffset: number | null;
  logEndOffset: number | null;
  /** `pickRecordAt(batches, committed)` (or at the log start when the committed offset is below it); null when not read. */
  firstUnconsumed: PickedRecord | null;
  /** The newest record (ListOffsets MAX_TIMESTAMP or `pickNewestRecord`); null when not read. */
  newest: NewestRecord | null;
}

export interface LagInTime {
  /** Age of the oldest unconsumed record in ms: 0 when there is nothing to consume, null when unknown. */
  ageMs: number | null;
  /** Produced time still to consume in ms (newest − oldest unconsumed timestamp): 0 when none, null when unknown. */
  spanMs: number | null;
  /** Why the figures are approximate; empty when they are exact. */
  approximate: LagInTimeApproximation[];
  /** Whose clock the timestamps are, when a record was read. */
  timestampType: TimestampType | null;
}

/** Age and span for one partition; see the top of this file for how the inputs are read. */
export function computeLagInTime(input: LagInTimeInput): LagInTime {
  const { committedOffset, logStartOffset, logEndOffset, firstUnconsumed, newest } = input;
  const approximate = new Set<LagInTimeApproximation>();
  const result = (ageMs: number | null, spanMs: number | null, timestampType: TimestampType | null = null): LagInTime =>
    ({ ageMs, spanMs, approximate: [...approximate], timestampType });
  if (committedOffset === null || logEndOffset === null) {
    return result(null, null);
  }
  if (logEndOffset - committedOffset <= 0) {
    return result(0, 0);
  }
  if (logStartOffset !== null && committedOffset < logStartOffset) {
    // The records between the committed offset and the log start are gone: the oldest unconsumed one was older.
    approximate.add('retention');
  }
  if (firstUnconsumed === null) {
    return result(null, null);
  }
  if (firstUnconsumed.skippedMarkers) {
    approximate.add('transaction-markers');
  }
  if (firstUnconsumed.skippedMissing) {
    approximate.add('compaction');
  }
  if (firstUnconsumed.nonMonotonic) {
    approximate.add('client-timestamps');
  }
  const record = firstUnconsumed.record;
  if (record === null) {
    // Only markers up to the log end: nothing a consumer would see is left (Kafka's markerOnlyLag).
    return firstUnconsumed.nextOffset >= logEndOffset && firstUnconsumed.skippedMarkers ? result(0, 0) : result(null, null);
  }
  if (record.timestamp === null) {
    return result(null, null, record.timestampType);
  }
  let ageMs = input.now - record.timestamp;
  if (ageMs < 0) {
    approximate.add('client-timestamps');
    ageMs = 0;
  }
  let spanMs: number | null = null;
  if (newest !== null && newest.timestamp !== null) {
    spanMs = newest.timestamp - record.timestamp;
    if (spanMs < 0) {
      approximate.add('client-timestamps');
      spanMs = 0;
    }
  }
  return result(ageMs, spanMs, record.timestampType);
}

const APPROXIMATION_TEXT: Readonly<Record<LagInTimeApproximation, string>> = {
  retention: 'the committed offset is below the log start: unread records were deleted, so the real age is larger',
  compaction: 'the record at the committed offset was compacted away; the first record after it was used',
  'transaction-markers': 'transaction markers lie at the committed offset; the first data record after them was used',
  'client-timestamps': 'timestamps are set by the producers (CreateTime) and go backwards or lie in the future',
};

export function describeApproximation(reason: LagInTimeApproximation): string {
  return APPROXIMATION_TEXT[reason];
}

/** Tooltip lines for one partition's lag in time. */
export function describeLagInTime(lag: LagInTime): string[] {
  if (lag.ageMs === null) {
    return ['lag in time unknown', ...lag.approximate.map(describeApproximation)];
  }
  if (lag.ageMs === 0 && lag.spanMs === 0 && lag.timestampType === null) {
    return ['nothing to consume', ...lag.approximate.map(describeApproximation)];
  }
  const lines = [`oldest unconsumed record is ${formatDuration(lag.ageMs)} old`];
  if (lag.spanMs !== null) {
    lines.push(`${formatDuration(lag.spanMs)} of produced time left to consume`);
  }
  if (lag.timestampType !== null) {
    lines.push(lag.timestampType === 'LogAppendTime'
      ? 'timestamps: LogAppendTime (set by the broker when appended)'
      : 'timestamps: CreateTime (set by the producer)');
  }
  const approximations = lag.approximate.map((reason) => `approximate: ${describeApproximation(reason)}`);
  return [...lines, ...approximations];
}

/**
 * A partition row's lag in time for a tooltip: "5m behind in time · 2m of produced time still to consume" (the
 * span when it was read) and why it is approximate (describeApproximation's words); null when it was not read.
 */
export function lagInTimeTooltip(row: Pick<PartitionOffsets, 'lagInTimeMs' | 'lagInTimeSpanMs' | 'lagInTimeApproximate'>): { text: string; approximate: string[] } | null {
  if (row.lagInTimeMs == null) {
    return null;
  }
  const span = row.lagInTimeSpanMs == null ? '' : ` · ${formatDuration(row.lagInTimeSpanMs)} of produced time still to consume`;
  return { text: `${formatDuration(row.lagInTimeMs)} behind in time${span}`, approximate: (row.lagInTimeApproximate ?? []).map(describeApproximation) };
}

/** A group's largest lag in time over its partitions, when any is known. */
export function maxLagInTime(partitions: readonly Pick<PartitionOffsets, 'lagInTimeMs'>[]): number | null {
  let max: number | null = null;
  for (const { lagInTimeMs } of partitions) {
    if (lagInTimeMs != null && (max === null || lagInTimeMs > max)) {
      max = lagInTimeMs;
    }
  }
  return max;
}
