/**
 * The KIP-848 reconciliation of member epoch steps (RebalanceEvent.reconciliation), packed in columns
 * beside the event columns: most events have none, so one index per event points into columns of the
 * few that do. Partition lists share the event columns' string table.
 */
import type { MemberReconciliation, TopicPartition } from '../model/types';

export interface ReconciliationColumns {
  /** Per event: -1, or the index r of its reconciliation in the rec* columns. */
  recAt: Int32Array;
  recMemberEpoch: Int32Array;
  recPreviousEpoch: Int32Array;
  recTargetEpoch: Int32Array;
  /** Index into RECONCILIATION_STATES. */
  recState: Uint8Array;
  /** NaN when the step did not converge. */
  recConvergedMs: Float64Array;
  /** 1 when reconciliation r is a streams member's, with standby and warm-up tasks (possibly none). */
  recHasTasks: Uint8Array;
  /**
   * Reconciliation r has RANGES_PER_RECONCILIATION ranges of partitions in order (pending revocations, pending
   * assignments, standby tasks, warm-up tasks): range k is [recPartStart[4r + k], recPartStart[4r + k + 1]).
   */
  recPartStart: Int32Array;
  recPartTopic: Int32Array;
  recPartNumber: Int32Array;
}

export const RECONCILIATION_STATES: readonly MemberReconciliation['state'][] = ['stable', 'unrevoked-partitions', 'unreleased-partitions', 'unknown'];
const RANGES_PER_RECONCILIATION = 4;
const STATE_CODES = new Map(RECONCILIATION_STATES.map((state, index) => [state, index]));

export const RECONCILIATION_TYPED = {
  recAt: Int32Array,
  recMemberEpoch: Int32Array,
  recPreviousEpoch: Int32Array,
  recTargetEpoch: Int32Array,
  recState: Uint8Array,
  recConvergedMs: Float64Array,
  recHasTasks: Uint8Array,
  recPartStart: Int32Array,
  recPartTopic: Int32Array,
  recPartNumber: Int32Array,
} as const;

export function encodeReconciliations(reconciliations: ReadonlyArray<MemberReconciliation | undefined>, ref: (text: string) => number): ReconciliationColumns {
  const present = reconciliations.flatMap((rec) => (rec === undefined ? [] : [rec]));
  const rangesOf = (rec: MemberReconciliation): ReadonlyArray<readonly TopicPartition[]> => [rec.pendingRevocation, rec.pendingAssignment, rec.standbyTasks ?? [], rec.warmupTasks ?? []];
  const parts = present.reduce((n, rec) => n + rangesOf(rec).reduce((m, range) => m + range.length, 0), 0);
  const n = present.length;
  const columns: ReconciliationColumns = {
    recAt: new Int32Array(reconciliations.length).fill(-1),
    recMemberEpoch: new Int32Array(n),
    recPreviousEpoch: new Int32Array(n),
    recTargetEpoch: new Int32Array(n),
    recState: new Uint8Array(n),
    recConvergedMs: new Float64Array(n),
    recHasTasks: new Uint8Array(n),
    recPartStart: new Int32Array(n * RANGES_PER_RECONCILIATION + 1),
    recPartTopic: new Int32Array(parts),
    recPartNumber: new Int32Array(parts),
  };
  let r = 0;
  let part = 0;
  const put = (partitions: readonly TopicPartition[]): void => {
    for (const tp of partitions) {
      columns.recPartTopic[part] = ref(tp.topic);
      columns.recPartNumber[part] = tp.partition;
      part++;
    }
  };
  reconciliations.forEach((rec, i) => {
    if (rec === undefined) {
      return;
    }
    columns.recAt[i] = r;
    columns.recMemberEpoch[r] = rec.memberEpoch;
    columns.recPreviousEpoch[r] = rec.previousMemberEpoch;
    columns.recTargetEpoch[r] = rec.targetEpoch;
    columns.recState[r] = STATE_CODES.get(rec.state) ?? STATE_CODES.get('unknown') ?? 0;
    columns.recConvergedMs[r] = rec.convergedAfterMs ?? Number.NaN;
    columns.recHasTasks[r] = rec.standbyTasks !== undefined && rec.warmupTasks !== undefined ? 1 : 0;
    rangesOf(rec).forEach((range, k) => {
      columns.recPartStart[r * RANGES_PER_RECONCILIATION + k] = part;
      put(range);
    });
    r++;
  });
  columns.recPartStart[n * RANGES_PER_RECONCILIATION] = part;
  return columns;
}

/** Checks the columns hold together; throws naming what does not. */
export function checkReconciliations(columns: ReconciliationColumns, count: number): void {
  const n = columns.recMemberEpoch.length;
  const sameLength = [columns.recPreviousEpoch, columns.recTargetEpoch, columns.recState, columns.recConvergedMs, columns.recHasTasks].every((c) => c.length === n);
  if (columns.recAt.length !== count || !sameLength || columns.recPartStart.length !== n * RANGES_PER_RECONCILIATION + 1 || columns.recPartNumber.length !== columns.recPartTopic.length) {
    throw new Error('event columns: the reconciliation columns do not match each other');
  }
  for (let i = 0; i < count; i++) {
    if (columns.recAt[i] < -1 || columns.recAt[i] >= n) {
      throw new Error(`event columns: event ${i} refers to reconciliation ${columns.recAt[i]} of ${n}`);
    }
  }
  const starts = columns.recPartStart;
  if (starts[0] !== 0 || starts[starts.length - 1] !== columns.recPartTopic.length || starts.some((v, i) => i > 0 && v < starts[i - 1])) {
    throw new Error('event columns: recPartStart must rise from 0 to the number of partitions');
  }
}

/** The reconciliation of event i, if it has one; `partitions` reads a range of the partition columns. */
export function decodeReconciliation(
  columns: ReconciliationColumns,
  i: number,
  partitions: (from: number, to: number) => TopicPartition[],
): MemberReconciliation | undefined {
  const r = columns.recAt[i];
  if (r < 0) {
    return undefined;
  }
  const state = RECONCILIATION_STATES[columns.recState[r]];
  if (state === undefined) {
    throw new Error(`event columns: reconciliation ${r} has state code ${columns.recState[r]}`);
  }
  const range = (k: number): TopicPartition[] => partitions(columns.recPartStart[r * RANGES_PER_RECONCILIATION + k], columns.recPartStart[r * RANGES_PER_RECONCILIATION + k + 1]);
  const rec: MemberReconciliation = {
    memberEpoch: columns.recMemberEpoch[r],
    previousMemberEpoch: columns.recPreviousEpoch[r],
    state,
    targetEpoch: columns.recTargetEpoch[r],
    pendingRevocation: range(0),
    pendingAssignment: range(1),
  };
  if (!Number.isNaN(columns.recConvergedMs[r])) {
    rec.convergedAfterMs = columns.recConvergedMs[r];
  }
  if (columns.recHasTasks[r] === 1) {
    rec.standbyTasks = range(2);
    rec.warmupTasks = range(3);
  }
  return rec;
}
