/**
 * Lag in time on a real cluster: which partitions to read and filling `lagInTimeMs` from the record batches the
 * group loader fetched at the committed offsets (the same bounded Fetch as the transaction-marker check), and
 * `lagInTimeSpanMs` from the newest record (one ListOffsets MAX_TIMESTAMP per leader, roundReads.ts). The figures
 * themselves are src/health/lagInTime.ts's.
 */
import { computeLagInTime, maxLagInTime, pickRecordAt, type NewestRecord } from '../health/lagInTime';
import type { PartitionOffsets } from '../model/types';
import { errorMessage } from '../protocol/errors';
import { decodeRecordBatches } from '../protocol/recordBatch';

/**
 * Decoded batches per fetched answer: many groups committed at the same offset of a partition share one
 * Fetch answer, decoded once. Keyed weakly: a load's answers go with the load.
 */
const decodedAnswers = new WeakMap<Uint8Array, ReturnType<typeof decodeRecordBatches>>();

function decodedOnce(bytes: Uint8Array): ReturnType<typeof decodeRecordBatches> {
  let batches = decodedAnswers.get(bytes);
  if (!batches) {
    batches = decodeRecordBatches(bytes);
    decodedAnswers.set(bytes, batches);
  }
  return batches;
}

/** The rows whose lag in time needs a read: committed and behind the high watermark. */
export function lagInTimeCandidates(rows: readonly PartitionOffsets[]): PartitionOffsets[] {
  return rows.filter((row) => row.committedOffset !== null && row.committedOffset >= 0 && row.logEndOffset !== null && row.logEndOffset > row.committedOffset);
}

/** Where to fetch for a row: its committed offset, or the log start when retention removed it (a Fetch there fails). */
export function lagInTimeFetchOffset(row: PartitionOffsets): number {
  return Math.max(row.committedOffset ?? 0, row.logStartOffset ?? 0);
}

export interface LagInTimeReads {
  /** The record bytes fetched for the row's partition at `offset`; undefined or null when that Fetch gave none. */
  bytesAt(row: PartitionOffsets, offset: number): Uint8Array | null | undefined;
  /** The partition's newest record (ListOffsets MAX_TIMESTAMP); undefined when not read (then the span is unknown). */
  newestOf?(row: PartitionOffsets): NewestRecord | undefined;
  now: number;
  /** A read that cannot be decoded is logged here and leaves the row's figure unset. */
  debug(message: string): void;
}

/**
 * Sets `lagInTimeMs` on each committed row: 0 when there is nothing to consume, the age of the first record at or
 * after the committed offset when it was read, unset when it could not be; likewise `lagInTimeSpanMs` (when the
 * newest record was read too) and `lagInTimeApproximate` (only when there is a reason). Returns the group's `maxLagInTimeMs`:
 * the largest known, null when lagging rows were read without result, undefined when there was nothing to read.
 */
export function fillLagInTime(rows: readonly PartitionOffsets[], reads: LagInTimeReads): number | null | undefined {
  const lagging = new Set(lagInTimeCandidates(rows));
  for (const row of rows) {
    if (row.committedOffset === null || row.committedOffset < 0 || row.logEndOffset === null) {
      continue;
    }
    if (!lagging.has(row)) {
      row.lagInTimeMs = 0;
      row.lagInTimeSpanMs = 0;
      continue;
    }
    const offset = lagInTimeFetchOffset(row);
    const bytes = reads.bytesAt(row, offset);
    if (!bytes) {
      continue;
    }
    try {
      const lag = computeLagInTime({
        now: reads.now,
        committedOffset: row.committedOffset,
        logStartOffset: row.logStartOffset,
        logEndOffset: row.logEndOffset,
        firstUnconsumed: pickRecordAt(decodedOnce(bytes), offset),
        newest: reads.newestOf?.(row) ?? null,
      });
      if (lag.ageMs !== null) {
        row.lagInTimeMs = lag.ageMs;
      }
      if (lag.spanMs !== null) {
        row.lagInTimeSpanMs = lag.spanMs;
      }
      if (lag.approximate.length > 0) {
        row.lagInTimeApproximate = lag.approximate;
      }
    } catch (err) {
      reads.debug(`Lag in time of ${row.topic}-${row.partition}: ${errorMessage(err)}`);
    }
  }
  const max = maxLagInTime(rows);
  return max !== null ? max : lagging.size > 0 ? null : undefined;
}
