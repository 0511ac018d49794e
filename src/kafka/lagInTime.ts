/**
 * Lag in time on a real cluster: which partitions to read and filling `lagInTimeMs` from the record batches the
 * group loader fetched at the committed offsets (the same bounded Fetch as the transaction-marker check). The
 * figures themselves are src/health/lagInTime.ts's.
 *
 * Only the age of the oldest unconsumed record is kept: the model has no field for the span of produced time, so
 * the newest record (ListOffsets MAX_TIMESTAMP) is not asked for.
 */
import { computeLagInTime, maxLagInTime, pickRecordAt } from '../health/lagInTime';
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
  now: number;
  /** A read that cannot be decoded is logged here and leaves the row's figure unset. */
  debug(message: string): void;
}

/**
 * Sets `lagInTimeMs` on each committed row: 0 when there is nothing to consume, the age of the first record at or
 * after the committed offset when it was read, unset when it could not be. Returns the group's `maxLagInTimeMs`:
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
        newest: null,
      });
      if (lag.ageMs !== null) {
        row.lagInTimeMs = lag.ageMs;
      }
    } catch (err) {
      reads.debug(`Lag in time of ${row.topic}-${row.partition}: ${errorMessage(err)}`);
    }
  }
  const max = maxLagInTime(rows);
  return max !== null ? max : lagging.size > 0 ? null : undefined;
}
