/**
 * A Burrow-style evaluation of a group's lag over a sliding window of samples (LinkedIn Burrow's
 * `core/internal/evaluator/caching.go`), per partition and per group. The partition rules, first match wins, at `now`
 * over the window (now − windowMs, now] of samples whose committed and log end offsets are both known:
 *
 *  1. OK `no-data`: no sample of the partition in the window, or its newest one lacks the log end offset.
 *  2. OK `no-commit`: the newest sample has no committed offset (the group never committed the partition).
 *  3. ERROR `committed-past-log-end`: newest committed offset > log end offset (the topic was recreated or truncated
 *     below the group's position: its next fetch is out of range).
 *  4. ERROR `committed-below-log-start`: newest committed offset < log start offset (retention or DeleteRecords
 *     removed records the group had not read: they are lost to it).
 *  5. OK `caught-up`: newest lag is 0 (Burrow evaluates nothing without current lag either).
 *  6. REWIND `rewind`: the committed offset went down between two consecutive samples in the window. Burrow checks
 *     this only when lag was never 0 in the window; we check it first, because an operator's reset of a caught-up
 *     group is exactly what the row should show until the window forgets it.
 *  6b. WARNING `blocked-by-transaction`: a read_committed group has read up to the LSO and an open transaction holds
 *     it below the HW (`blockedBy`, transactionBlock.ts): it waits on the producer, which is neither STALLED nor
 *     STOPPED; known from the newest load, so it needs no window of samples.
 *  7. OK `collecting`: fewer than `minSamples` samples in the window (`complete` is false).
 *  8. OK `lag-was-zero`: lag was 0 in some sample of the window (Burrow's rule 1: the group keeps up).
 *  9. STOPPED `stopped`: the commits stopped while lag > 0: the newest commit time is `stoppedAfterMs` or more old
 *     when the source gives commit times; otherwise the committed offset has not changed for `stoppedAfterMs` or
 *     more, or has not changed over the window while no member owns the partition (nobody consumes it). Burrow's
 *     rule 3 compares the silence with the span of the window's commits; polling cannot see a commit that repeats an
 *     offset, so we use a fixed threshold instead.
 * 10. STALLED `stalled`: the committed offset did not change over the window while lag > 0 (Burrow's rule 4): the
 *     consumer is alive (or was until recently) but does not advance.
 * 11. WARNING `lag-growing`: lag never decreased between consecutive samples of the window (Burrow's rule 5: the
 *     consumer advances but not faster than the producers).
 * 12. WARNING `lag-in-time`: the newest lag in time exceeds `lagInTimeWarningMs`, when that threshold is set.
 * 13. OK `consuming`.
 *
 * A group's status is its worst partition's (severity ERROR > REWIND > STOPPED > STALLED > WARNING > OK, ties to the
 * larger lag), or ERROR when the group itself could not be read; the reason names that partition and its rule.
 */
import type { GroupHealth, GroupSummary, LagHealthStatus, TopicPartition } from '../model/types';

export const HEALTH_SEVERITY: Readonly<Record<LagHealthStatus, number>> = {
  OK: 0, WARNING: 1, STALLED: 2, STOPPED: 3, REWIND: 4, ERROR: 5,
};

export type LagRule =
  | 'no-data' | 'no-commit' | 'committed-past-log-end' | 'committed-below-log-start' | 'caught-up' | 'rewind'
  | 'collecting' | 'lag-was-zero' | 'blocked-by-transaction' | 'stopped' | 'stalled' | 'lag-growing' | 'lag-in-time' | 'consuming' | 'group-error';

export interface LagEvaluationOptions {
  /** The sliding window the rules look at. */
  windowMs: number;
  /** Samples the window needs before the trend rules (7–11) apply. */
  minSamples: number;
  /** How long without a commit (or without the committed offset moving) makes a lagging partition STOPPED. */
  stoppedAfterMs: number;
  /** Lag in time past which a partition is WARNING; null turns the rule off. */
  lagInTimeWarningMs: number | null;
}

export const DEFAULT_LAG_EVALUATION_OPTIONS: Readonly<LagEvaluationOptions> = {
  windowMs: 10 * 60 * 1000,
  minSamples: 3,
  stoppedAfterMs: 15 * 60 * 1000,
  lagInTimeWarningMs: null,
};

/** One partition's samples, aligned with the group's times; NaN is unknown. `lagSamples.ts`'s `PartitionSeries` is one. */
export interface PartitionSeriesLike extends TopicPartition {
  committed: ArrayLike<number>;
  logEnd: ArrayLike<number>;
  lagInTimeMs?: ArrayLike<number> | null;
  commitTimes?: ArrayLike<number> | null;
  logStartOffset?: number | null;
  owned?: boolean | null;
  /** Set when the newest load found the group waiting at an open transaction's LSO (transactionBlock.ts). */
  blockedBy?: string | null;
}

export interface GroupSeriesLike {
  times: ArrayLike<number>;
  partitions: readonly PartitionSeriesLike[];
}

export interface PartitionHealth extends TopicPartition {
  status: LagHealthStatus;
  rule: LagRule;
  reason: string;
  /** Newest lag, when known. */
  lag: number | null;
  /** Newest lag in time, when known. */
  lagInTimeMs: number | null;
  /** Samples in the window with both offsets known. */
  samples: number;
  /** False while the window has fewer than `minSamples` samples. */
  complete: boolean;
}

export interface GroupHealthEvaluation extends GroupHealth {
  rule: LagRule;
  /** The partition the status comes from; null when no partition decided it. */
  worst: PartitionHealth | null;
  partitions: PartitionHealth[];
  counts: Record<LagHealthStatus, number>;
  /** Fraction of partitions whose window is complete (Burrow's `complete`); 1 when there are none. */
  complete: number;
  maxLagInTimeMs: number | null;
}

/** "45s", "12m 5s", "3h 2m". */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) {
    return `${seconds}s`;
  }
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) {
    return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m ${seconds % 60}s`;
  }
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `${hours}h` : `${hours}h ${minutes % 60}m`;
}

function known(value: number | undefined): value is number {
  return value !== undefined && !Number.isNaN(value);
}

function verdict(
  series: PartitionSeriesLike, status: LagHealthStatus, rule: LagRule, reason: string,
  facts: { lag: number | null; lagInTimeMs: number | null; samples: number; complete: boolean },
): PartitionHealth {
  return { topic: series.topic, partition: series.partition, status, rule, reason, ...facts };
}

/** Evaluates one partition at `now`; see the rules at the top of this file. */
export function evaluatePartition(
  series: PartitionSeriesLike, times: ArrayLike<number>, now: number,
  options: Readonly<LagEvaluationOptions> = DEFAULT_LAG_EVALUATION_OPTIONS,
): PartitionHealth {
  const windowStart = now - options.windowMs;
  // Rows in the window, oldest first; `newest` is the newest row with anything known.
  const rows: number[] = [];
  let newest = -1;
  for (let i = 0; i < times.length; i++) {
    if (times[i] <= windowStart || times[i] > now) {
      continue;
    }
    if (known(series.committed[i]) || known(series.logEnd[i])) {
      newest = i;
    }
    if (known(series.committed[i]) && known(series.logEnd[i])) {
      rows.push(i);
    }
  }
  const lagInTimeMs = newest >= 0 && series.lagInTimeMs != null && known(series.lagInTimeMs[newest]) ? series.lagInTimeMs[newest] : null;
  const facts = { lag: null as number | null, lagInTimeMs, samples: rows.length, complete: rows.length >= options.minSamples };
  if (newest < 0 || !known(series.logEnd[newest])) {
    return verdict(series, 'OK', 'no-data', 'no log end offset sampled in the window yet', facts);
  }
  const committed = series.committed[newest];
  if (!known(committed)) {
    return verdict(series, 'OK', 'no-commit', 'the group has no committed offset for this partition', facts);
  }
  const logEnd = series.logEnd[newest];
  const lag = logEnd - committed;
  facts.lag = lag;
  if (lag < 0) {
    return verdict(series, 'ERROR', 'committed-past-log-end',
      `committed offset ${committed} is past the log end offset ${logEnd}: the group's next fetch is out of range`, facts);
  }
  const logStart = series.logStartOffset;
  if (logStart != null && committed < logStart) {
    return verdict(series, 'ERROR', 'committed-below-log-start',
      `committed offset ${committed} is below the log start offset ${logStart}: ${logStart - committed} records were deleted before the group read them`, facts);
  }
  if (lag === 0) {
    return verdict(series, 'OK', 'caught-up', 'caught up (lag 0)', facts);
  }
  for (let k = 1; k < rows.length; k++) {
    const [before, after] = [series.committed[rows[k - 1]], series.committed[rows[k]]];
    if (after < before) {
      return verdict(series, 'REWIND', 'rewind',
        `committed offset went back from ${before} to ${after} ${formatDuration(now - times[rows[k]])} ago`, facts);
    }
  }
  if (series.blockedBy) {
    return verdict(series, 'WARNING', 'blocked-by-transaction', series.blockedBy, facts);
  }
  const window = formatDuration(options.windowMs);
  if (!facts.complete) {
    return verdict(series, 'OK', 'collecting',
      `collecting samples: ${rows.length} of ${options.minSamples} in the last ${window} (lag ${lag})`, facts);
  }
  const lagOf = (row: number): number => series.logEnd[row] - series.committed[row];
  if (rows.some((row) => lagOf(row) === 0)) {
    return verdict(series, 'OK', 'lag-was-zero', `lag was 0 within the last ${window} (now ${lag})`, facts);
  }
  const unmoved = rows.every((row) => series.committed[row] === committed);
  const stopped = stoppedReason(series, times, now, newest, committed, unmoved, options);
  if (stopped !== null) {
    return verdict(series, 'STOPPED', 'stopped', `${stopped} while lag is ${lag}`, facts);
  }
  if (unmoved) {
    return verdict(series, 'STALLED', 'stalled',
      `committed offset ${committed} has not moved over the last ${window} while lag is ${lag}`, facts);
  }
  const first = rows[0];
  const advanced = committed - series.committed[first];
  if (rows.every((row, k) => k === 0 || lagOf(row) >= lagOf(rows[k - 1]))) {
    return verdict(series, 'WARNING', 'lag-growing',
      `lag did not decrease over the last ${window} (${lagOf(first)} → ${lag}) while the committed offset advanced by ${advanced}`, facts);
  }
  if (options.lagInTimeWarningMs !== null && lagInTimeMs !== null && lagInTimeMs > options.lagInTimeWarningMs) {
    return verdict(series, 'WARNING', 'lag-in-time',
      `oldest unconsumed record is ${formatDuration(lagInTimeMs)} old (limit ${formatDuration(options.lagInTimeWarningMs)})`, facts);
  }
  return verdict(series, 'OK', 'consuming', `consuming: lag ${lag}, committed offset advanced by ${advanced} in the last ${window}`, facts);
}

/** Rule 9's reason, or null when the partition is not STOPPED. */
function stoppedReason(
  series: PartitionSeriesLike, times: ArrayLike<number>, now: number, newest: number, committed: number,
  unmoved: boolean, options: Readonly<LagEvaluationOptions>,
): string | null {
  const commitTimes = series.commitTimes;
  let lastCommit = Number.NEGATIVE_INFINITY;
  for (let i = 0; commitTimes != null && i <= newest; i++) {
    if (known(commitTimes[i]) && commitTimes[i] > lastCommit) {
      lastCommit = commitTimes[i];
    }
  }
  if (Number.isFinite(lastCommit)) {
    return now - lastCommit >= options.stoppedAfterMs ? `no commit for ${formatDuration(now - lastCommit)}` : null;
  }
  if (!unmoved) {
    return null;
  }
  if (series.owned === false) {
    return `no member owns the partition and committed offset ${committed} has not moved over the last ${formatDuration(options.windowMs)}`;
  }
  // Since when the committed offset has been what it is now, over every sample held (the window may be shorter).
  let since = times[newest];
  for (let i = newest - 1; i >= 0; i--) {
    if (known(series.committed[i])) {
      if (series.committed[i] !== committed) {
        break;
      }
      since = times[i];
    }
  }
  return now - since >= options.stoppedAfterMs ? `committed offset ${committed} has not moved for ${formatDuration(now - since)}` : null;
}

function partitionName(partition: TopicPartition): string {
  return `${partition.topic}-${partition.partition}`;
}

/**
 * Evaluates every partition of a group and takes the worst. `groupError` (the group's load error) makes it ERROR;
 * no series (nothing sampled yet) is OK with reason "no samples yet".
 */
export function evaluateGroup(
  series: GroupSeriesLike | undefined, now: number,
  options: Readonly<LagEvaluationOptions> = DEFAULT_LAG_EVALUATION_OPTIONS, groupError?: string,
): GroupHealthEvaluation {
  const partitions = series === undefined ? [] : series.partitions.map((p) => evaluatePartition(p, series.times, now, options));
  const counts: Record<LagHealthStatus, number> = { OK: 0, WARNING: 0, STALLED: 0, STOPPED: 0, REWIND: 0, ERROR: 0 };
  let worst: PartitionHealth | null = null;
  let maxLagInTimeMs: number | null = null;
  let complete = 0;
  for (const health of partitions) {
    counts[health.status]++;
    complete += health.complete ? 1 : 0;
    if (health.lagInTimeMs !== null && (maxLagInTimeMs === null || health.lagInTimeMs > maxLagInTimeMs)) {
      maxLagInTimeMs = health.lagInTimeMs;
    }
    if (worst === null || HEALTH_SEVERITY[health.status] > HEALTH_SEVERITY[worst.status]
      || (health.status === worst.status && (health.lag ?? -1) > (worst.lag ?? -1))) {
      worst = health;
    }
  }
  const base = { partitions, counts, complete: partitions.length === 0 ? 1 : complete / partitions.length, maxLagInTimeMs };
  if (groupError !== undefined) {
    return { ...base, status: 'ERROR', rule: 'group-error', reason: `the group could not be read: ${groupError}`, worst: null };
  }
  if (worst === null) {
    return { ...base, status: 'OK', rule: 'no-data', reason: series === undefined ? 'no samples yet' : 'no partitions sampled', worst: null };
  }
  const others = counts[worst.status] - 1;
  const more = worst.status !== 'OK' && others > 0 ? ` (and ${others} more ${others === 1 ? 'partition' : 'partitions'} ${worst.status})` : '';
  return { ...base, status: worst.status, rule: worst.rule, reason: `${partitionName(worst)}: ${worst.reason}${more}`, worst };
}

/** The summary with the evaluation's status and reason, and its largest lag in time when it has one. */
export function withHealth<T extends GroupSummary>(summary: T, evaluation: GroupHealthEvaluation): T {
  return {
    ...summary,
    health: { status: evaluation.status, reason: evaluation.reason },
    maxLagInTimeMs: evaluation.maxLagInTimeMs ?? summary.maxLagInTimeMs,
  };
}
