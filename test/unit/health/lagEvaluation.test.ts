import * as assert from 'assert';
import {
  DEFAULT_LAG_EVALUATION_OPTIONS, evaluateGroup, evaluatePartition, formatDuration, type LagEvaluationOptions, type LagRule,
  type PartitionSeriesLike,
} from '../../../src/health/lagEvaluation';
import type { LagHealthStatus } from '../../../src/model/types';

const MINUTE = 60_000;
const NOW = 1_700_000_000_000;

/** A sample: minutes before NOW, committed offset, log end offset (null = unknown), optional lag in time, commit time. */
type Row = [minutesAgo: number, committed: number | null, logEnd: number | null, lagInTimeMs?: number, commitMinutesAgo?: number];

interface Case {
  name: string;
  rows: Row[];
  status: LagHealthStatus;
  rule: LagRule;
  logStartOffset?: number;
  owned?: boolean;
  options?: Partial<LagEvaluationOptions>;
  /** A fragment the reason must contain. */
  reason?: string;
}

function build(rows: Row[], extra: Partial<PartitionSeriesLike> = {}): { times: number[]; series: PartitionSeriesLike } {
  const nan = (v: number | null | undefined): number => v ?? Number.NaN;
  return {
    times: rows.map(([ago]) => NOW - ago * MINUTE),
    series: {
      topic: 'orders', partition: 3,
      committed: rows.map((r) => nan(r[1])),
      logEnd: rows.map((r) => nan(r[2])),
      lagInTimeMs: rows.some((r) => r[3] !== undefined) ? rows.map((r) => nan(r[3])) : null,
      commitTimes: rows.some((r) => r[4] !== undefined) ? rows.map((r) => (r[4] === undefined ? Number.NaN : NOW - r[4] * MINUTE)) : null,
      ...extra,
    },
  };
}

/** Five samples a minute apart, oldest first, from (committed, logEnd) pairs. */
function minutes(...pairs: Array<[number | null, number | null]>): Row[] {
  return pairs.map(([c, e], i) => [pairs.length - 1 - i, c, e]);
}

const CASES: Case[] = [
  { name: 'no samples at all', rows: [], status: 'OK', rule: 'no-data' },
  { name: 'samples only outside the window', rows: [[30, 5, 10], [20, 5, 10]], status: 'OK', rule: 'no-data' },
  { name: 'log end unknown', rows: minutes([5, null]), status: 'OK', rule: 'no-data' },
  { name: 'never committed', rows: minutes([null, 100], [null, 120]), status: 'OK', rule: 'no-commit' },
  { name: 'offsets at 0: empty partition', rows: minutes([0, 0], [0, 0], [0, 0]), status: 'OK', rule: 'caught-up' },
  { name: 'offsets at 0 with lag, not moving, owned', rows: minutes([0, 10], [0, 10], [0, 10]), status: 'STALLED', rule: 'stalled' },
  { name: 'committed past log end (topic recreated)', rows: minutes([50, 60], [50, 60], [500, 20]), status: 'ERROR', rule: 'committed-past-log-end', reason: 'past the log end offset 20' },
  { name: 'log truncation: committed below log start', rows: minutes([5, 100], [5, 110], [5, 120]), logStartOffset: 40, status: 'ERROR', rule: 'committed-below-log-start', reason: '35 records were deleted' },
  { name: 'committed at log start is fine', rows: minutes([40, 100], [60, 110], [80, 120]), logStartOffset: 40, status: 'OK', rule: 'consuming' },
  { name: 'caught up now, even after a stall', rows: minutes([5, 10], [5, 10], [10, 10]), status: 'OK', rule: 'caught-up' },
  { name: 'rewind with lag', rows: minutes([100, 200], [120, 210], [20, 220]), status: 'REWIND', rule: 'rewind', reason: 'went back from 120 to 20' },
  { name: 'rewind of a caught-up group (Burrow would say OK)', rows: minutes([200, 200], [200, 200], [0, 200]), status: 'REWIND', rule: 'rewind' },
  { name: 'rewind seen on two samples, window not full', rows: minutes([100, 200], [50, 200]), status: 'REWIND', rule: 'rewind' },
  { name: 'rewind older than the window is forgotten', rows: [[15, 100, 200], [12, 50, 200], [2, 60, 200], [1, 70, 200], [0, 80, 200]], status: 'OK', rule: 'consuming' },
  { name: 'window not full: stalled pattern on two samples', rows: minutes([5, 10], [5, 10]), status: 'OK', rule: 'collecting', reason: '2 of 3' },
  { name: 'unknown committed samples do not count', rows: minutes([5, 10], [null, 12], [5, 14]), status: 'OK', rule: 'collecting' },
  { name: 'lag was zero in the window', rows: minutes([10, 10], [10, 30], [12, 40]), status: 'OK', rule: 'lag-was-zero' },
  { name: 'stalled: committed constant, lag constant', rows: minutes([5, 10], [5, 10], [5, 10], [5, 10]), status: 'STALLED', rule: 'stalled', reason: 'offset 5 has not moved' },
  { name: 'stalled: committed constant, lag growing', rows: minutes([5, 10], [5, 20], [5, 30]), status: 'STALLED', rule: 'stalled' },
  { name: 'stopped: unchanged for stoppedAfterMs (no commit times)', rows: [[20, 5, 10], [14, 5, 10], [9, 5, 10], [4, 5, 10], [0, 5, 10]], status: 'STOPPED', rule: 'stopped', reason: 'has not moved for 20m' },
  { name: 'stopped: nobody owns the partition', rows: minutes([5, 10], [5, 10], [5, 10]), owned: false, status: 'STOPPED', rule: 'stopped', reason: 'no member owns' },
  { name: 'stopped: commit times say no commit for 16 minutes', rows: [[2, 5, 10, undefined, 16], [1, 5, 12, undefined, 16], [0, 5, 14, undefined, 16]], status: 'STOPPED', rule: 'stopped', reason: 'no commit for 16m' },
  { name: 'stalled: commits continue but the offset does not move', rows: [[2, 5, 10, undefined, 2], [1, 5, 12, undefined, 1], [0, 5, 14, undefined, 0]], status: 'STALLED', rule: 'stalled' },
  { name: 'commit times override the offset-age rule', rows: [[20, 5, 10, undefined, 0], [2, 5, 10, undefined, 0], [1, 5, 10, undefined, 0], [0, 5, 10, undefined, 0]], status: 'STALLED', rule: 'stalled' },
  { name: 'warning: advancing but lag growing', rows: minutes([10, 20], [15, 30], [20, 40]), status: 'WARNING', rule: 'lag-growing', reason: '10 → 20' },
  { name: 'warning: advancing, lag flat (Burrow: not decreasing)', rows: minutes([10, 20], [20, 30], [30, 40]), status: 'WARNING', rule: 'lag-growing' },
  { name: 'ok: lag decreased once', rows: minutes([10, 20], [15, 30], [25, 32], [30, 45]), status: 'OK', rule: 'consuming' },
  { name: 'warning: lag in time past the limit', rows: [[2, 10, 40, 1000], [1, 30, 45, 1000], [0, 40, 50, 90_000]], options: { lagInTimeWarningMs: MINUTE }, status: 'WARNING', rule: 'lag-in-time', reason: '1m 30s old' },
  { name: 'lag in time under the limit', rows: [[2, 10, 40, 1000], [1, 30, 45, 1000], [0, 40, 50, 30_000]], options: { lagInTimeWarningMs: MINUTE }, status: 'OK', rule: 'consuming' },
  { name: 'samples in the future are ignored', rows: [[-5, 0, 100], ...minutes([10, 20], [20, 25], [30, 32])], status: 'OK', rule: 'consuming' },
];

describe('lagEvaluation: Burrow-style rules', () => {
  for (const c of CASES) {
    it(`${c.name} → ${c.status} (${c.rule})`, () => {
      const { times, series } = build(c.rows, { logStartOffset: c.logStartOffset ?? null, owned: c.owned ?? null });
      const health = evaluatePartition(series, times, NOW, { ...DEFAULT_LAG_EVALUATION_OPTIONS, ...c.options });
      assert.deepStrictEqual([health.status, health.rule], [c.status, c.rule], health.reason);
      if (c.reason !== undefined) {
        assert.ok(health.reason.includes(c.reason), `"${health.reason}" should contain "${c.reason}"`);
      }
    });
  }

  it('reports lag, lag in time and completeness', () => {
    const { times, series } = build([[2, 10, 40, 5000], [1, 30, 45, 4000], [0, 40, 50, 3000]]);
    const health = evaluatePartition(series, times, NOW);
    assert.deepStrictEqual({ lag: health.lag, lagInTimeMs: health.lagInTimeMs, samples: health.samples, complete: health.complete },
      { lag: 10, lagInTimeMs: 3000, samples: 3, complete: true });
  });
});

describe('lagEvaluation: group', () => {
  const part = (partition: number, rows: Row[], extra: Partial<PartitionSeriesLike> = {}): PartitionSeriesLike =>
    ({ ...build(rows, extra).series, partition });
  const times = minutes([0, 0], [0, 0], [0, 0]).map(([ago]) => NOW - ago * MINUTE);

  it('takes the worst partition and names it and the rule', () => {
    const group = evaluateGroup({ times, partitions: [
      part(0, minutes([10, 20], [20, 25], [30, 32])),
      part(1, minutes([5, 10], [5, 10], [5, 10])),
      part(2, minutes([10, 20], [15, 30], [20, 40])),
    ] }, NOW);
    assert.strictEqual(group.status, 'STALLED');
    assert.strictEqual(group.rule, 'stalled');
    assert.ok(group.reason.startsWith('orders-1: committed offset 5 has not moved'), group.reason);
    assert.deepStrictEqual(group.counts, { OK: 1, WARNING: 1, STALLED: 1, STOPPED: 0, REWIND: 0, ERROR: 0 });
  });

  it('ties go to the larger lag and count the others', () => {
    const group = evaluateGroup({ times, partitions: [
      part(0, minutes([5, 10], [5, 10], [5, 10])),
      part(1, minutes([5, 90], [5, 90], [5, 90])),
    ] }, NOW);
    assert.ok(group.reason.startsWith('orders-1:'), group.reason);
    assert.ok(group.reason.endsWith('(and 1 more partition STALLED)'), group.reason);
  });

  it('is ERROR when the group could not be read, and OK with no samples', () => {
    assert.strictEqual(evaluateGroup(undefined, NOW, DEFAULT_LAG_EVALUATION_OPTIONS, 'COORDINATOR_NOT_AVAILABLE').status, 'ERROR');
    const empty = evaluateGroup(undefined, NOW);
    assert.deepStrictEqual([empty.status, empty.reason, empty.complete], ['OK', 'no samples yet', 1]);
  });

  it('keeps the maximum lag in time and the complete fraction', () => {
    const group = evaluateGroup({ times: [NOW - 1000], partitions: [
      part(0, [[0, 1, 5, 700]]), part(1, [[0, 1, 5, 9000]]),
    ] }, NOW);
    assert.strictEqual(group.maxLagInTimeMs, 9000);
    assert.strictEqual(group.complete, 0);
  });
});

describe('formatDuration', () => {
  it('writes seconds, minutes and hours', () => {
    assert.deepStrictEqual([formatDuration(45_000), formatDuration(725_000), formatDuration(600_000), formatDuration(3 * 3600_000 + 120_000), formatDuration(7200_000)],
      ['45s', '12m 5s', '10m', '3h 2m', '2h']);
  });
});
