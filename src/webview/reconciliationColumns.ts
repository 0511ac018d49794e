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
  /** Reconciliation r has pending revocations [recPartStart[2r], recPartStart[2r + 1]) and pending assignments up to recPartStart[2r + 2]. */
  recPartStart: Int32Array;
  recPartTopic: Int32Array;
  recPartNumber: Int32Array;
}

export const RECONCILIATION_STATES: readonly MemberReconciliation['state'][] = ['stable', 'unrevoked-partitions', 'unreleased-partitions', 'unknown'];
const STATE_CODES = new Map(RECONCILIATION_STATES.map((state, index) => [state, index]));

export const RECONCILIATION_TYPED = {
  recAt: Int32Array,
  recMemberEpoch: Int32Array,
  recPreviousEpoch: Int32Array,
  recTargetEpoch: Int32Array,
  recState: Uint8Array,
  recConvergedMs: Float64Array,
  recPartStart: Int32Array,
  recPartTopic: Int32Array,
  recPartNumber: Int32Array,
} as const;

export function encodeReconciliations(reconciliations: ReadonlyArray<MemberReconciliation | undefined>, ref: (text: string) => number): ReconciliationColumns {
  const present = reconciliations.flatMap((rec) => (rec === undefined ? [] : [rec]));
  const parts = present.reduce((n, rec) => n + rec.pendingRevocation.length + rec.pendingAssignment.length, 0);
  const n = present.length;
  const columns: ReconciliationColumns = {
    recAt: new Int32Array(reconciliations.length).fill(-1),
    recMemberEpoch: new Int32Array(n),
    recPreviousEpoch: new Int32Array(n),
    recTargetEpoch: new Int32Array(n),
    recState: new Uint8Array(n),
    recConvergedMs: new Float64Array(n),
    recPartStart: new Int32Array(n * 2 + 1),
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
    columns.recPartStart[r * 2] = part;
    put(rec.pendingRevocation);
    columns.recPartStart[r * 2 + 1] = part;
    put(rec.pendingAssignment);
    r++;
  });
  columns.recPartStart[n * 2] = part;
  return columns;
}

/** Checks the columns hold together; throws naming what does not. */
export function checkReconciliations(columns: ReconciliationColumns, count: number): void {
  const n = columns.recMemberEpoch.length;
  const sameLength = [columns.recPreviousEpoch, columns.recTargetEpoch, columns.recState, columns.recConvergedMs].every((c) => c.length === n);
  if (columns.recAt.length !== count || !sameLength || columns.recPartStart.length !== n * 2 + 1 || columns.recPartNumber.length !== columns.recPartTopic.length) {
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
  const rec: MemberReconciliation = {
    memberEpoch: columns.recMemberEpoch[r],
    previousMemberEpoch: columns.recPreviousEpoch[r],
    state,
    targetEpoch: columns.recTargetEpoch[r],
    pendingRevocation: partitions(columns.recPartStart[r * 2], columns.recPartStart[r * 2 + 1]),
    pendingAssignment: partitions(columns.recPartStart[r * 2 + 1], columns.recPartStart[r * 2 + 2]),
  };
  if (!Number.isNaN(columns.recConvergedMs[r])) {
    rec.convergedAfterMs = columns.recConvergedMs[r];
  }
  return rec;
}
