/**
 * What "Reset Offsets…", its Execute button and "Undo Last Offset Change" do, over GroupAdmin and the pure planner:
 * gather the facts kafka-consumer-groups.sh would read, plan, commit with generation -1 after re-checking that the
 * group is still as previewed, and keep the before-snapshot that undo restores (saved before the first commit).
 * No editor types: the commands and the preview panel call these.
 */
import type { GroupAdmin, PartitionResult } from '../model/groupAdmin';
import type { TopicPartition } from '../model/types';
import { describeGroupChanges, formatOffset, groupChanges, type GroupChanges } from '../offsets/offsetDrift';
import { inactiveGroupError, planReset, resetPartitions, type ResetFacts, type ResetRequest, type ResetRow } from '../offsets/resetPlan';
import { previewRows, type ResetPreview } from '../offsets/resetPreview';
import { formatTopicPartition, PartitionMap } from '../offsets/topicPartitions';
import { describeUndoStep, keepPartitions, planUndoSteps, restoreActions, takeOffsetSnapshot, undoRecord, type OffsetSnapshot, type UndoStep, type UndoStore } from '../offsets/undo';
import type { ConfirmOptions } from '../commands/adminPrompts';
import { errorMessage } from '../protocol/errors';

export { describeGroupChanges, describeUndoStep, type GroupChanges, type UndoStep };

/** Checked between the steps of long work; set by the progress notification's Cancel button. */
export interface CancelSignal {
  readonly cancelled: boolean;
}

export class CancelledError extends Error {
  constructor() {
    super('Cancelled');
    this.name = 'CancelledError';
  }
}

export function throwIfCancelled(signal: CancelSignal | undefined): void {
  if (signal?.cancelled) {
    throw new CancelledError();
  }
}

/** Topics a whole-topic scope names, whose partition counts the planner needs. */
function wholeTopics(request: ResetRequest): string[] {
  return request.scope.kind === 'topics' ? request.scope.topics.filter((t) => !t.partitions).map((t) => t.topic) : [];
}

/** Reads what the planner needs, as the CLI does; refuses an active group before any other lookup. */
export async function gatherResetFacts(admin: GroupAdmin, request: ResetRequest, signal?: CancelSignal): Promise<{ ok: true; facts: ResetFacts } | { ok: false; error: string }> {
  const groupState = await admin.groupState(request.groupId);
  const refusal = inactiveGroupError(request.groupId, groupState);
  if (refusal) {
    return { ok: false, error: refusal };
  }
  throwIfCancelled(signal);
  const committed = await admin.committedOffsets(request.groupId);
  const partitionsPerTopic = await admin.partitionCounts(wholeTopics(request));
  const partitions = resetPartitions(request, { committed, partitionsPerTopic });
  if (!partitions.ok) {
    return partitions;
  }
  throwIfCancelled(signal);
  const logOffsets = await admin.logOffsets(partitions.partitions);
  throwIfCancelled(signal);
  return {
    ok: true,
    facts: {
      groupState,
      committed,
      partitionsPerTopic,
      logOffsets,
      offsetForTimestamp: (topic, partition, timestampMs) => {
        throwIfCancelled(signal);
        return admin.offsetForTimestamp(topic, partition, timestampMs);
      },
      now: admin.now(),
    },
  };
}

/** The dry run: the plan with the signed difference of each row. */
export async function previewReset(admin: GroupAdmin, request: ResetRequest, signal?: CancelSignal): Promise<ResetPreview> {
  const gathered = await gatherResetFacts(admin, request, signal);
  if (!gathered.ok) {
    return { ok: false, request, error: gathered.error };
  }
  const plan = await planReset(request, gathered.facts);
  if (!plan.ok) {
    return { ok: false, request, error: plan.error };
  }
  return { ok: true, request, groupState: gathered.facts.groupState, rows: previewRows(plan.rows), warnings: plan.warnings };
}

/** What Execute needs of a preview: the request, and the state and offsets the user saw. */
export type PlannedReset = Pick<Extract<ResetPreview, { ok: true }>, 'request' | 'groupState' | 'rows'>;

export type ExecuteOutcome =
  /**
   * `snapshot` is the undo record as finally kept: undefined when no partition was changed. `confirmed` is false
   * when the commit failed as a whole and the offsets could not be read back: which partitions took the new
   * offset is unknown (undo finds out partition by partition).
   */
  | { ok: true; snapshot: OffsetSnapshot | undefined; results: PartitionResult[]; confirmed: boolean }
  /** Nothing was written: the group is no longer as previewed. */
  | { ok: false; changes: GroupChanges };

export interface ExecuteOptions {
  /** Epoch milliseconds of the undo record. */
  takenAt: number;
  /**
   * Keeps the undo record. Called before the first commit is sent (with every planned partition), and again
   * when the commit changed fewer partitions (with those, or undefined when it changed none).
   */
  saveUndo(snapshot: OffsetSnapshot | undefined): Promise<void>;
}

/**
 * ExecuteOptions.saveUndo over the workspace's undo store, as the preview panel and the agent's executeReset keep
 * it. A reset that changes nothing keeps the record of the change before it (read when this is made).
 */
export function undoRecordSaver(store: UndoStore, key: string, groupKind: 'consumer' | 'share' | 'streams'): ExecuteOptions['saveUndo'] {
  const previousUndo = store.get(key);
  return async (snapshot) => store.update(key, snapshot ? undoRecord(snapshot, groupKind) : previousUndo);
}

/** One sentence on an executed reset: what was committed, what failed, and whether undo can put it back. */
export function executedResetSummary(groupId: string, outcome: Extract<ExecuteOutcome, { ok: true }>): string {
  const failures = describeFailures(outcome.results);
  const undoHint = outcome.snapshot ? ' "Undo Last Offset Change" on the group puts the previous ones back.' : '';
  if (!outcome.confirmed) {
    return `The commit failed and the offsets could not be read back: which of the ${outcome.results.length} partition(s) were reset is unknown. "Undo Last Offset Change" restores those the reset reached.`;
  }
  return failures.length === 0 ? `Committed ${outcome.results.length} offset(s) of ${groupId}.${undoHint}` : `${failures.length} of ${outcome.results.length} partition(s) were not reset.${undoHint}`;
}

/** A partition the broker refused, as "t-0: REASON". */
export function describeFailures(results: readonly PartitionResult[]): string[] {
  return results.filter((r) => r.error !== undefined).map((r) => `${formatTopicPartition(r)}: ${r.error}`);
}

/**
 * Execute: re-reads the group's state and committed offsets and writes nothing when either differs from the
 * preview (the changes come back so the user can re-plan). Otherwise it saves the undo record, then commits
 * the previewed offsets (generation -1). Every planned partition gets a result.
 */
export async function executeReset(admin: GroupAdmin, preview: PlannedReset, options: ExecuteOptions): Promise<ExecuteOutcome> {
  const groupId = preview.request.groupId;
  const state = await admin.groupState(groupId);
  const refusal = inactiveGroupError(groupId, state);
  if (refusal) {
    throw new Error(refusal);
  }
  const committed = await admin.committedOffsets(groupId);
  const shownOffsets = preview.rows.map(({ topic, partition, currentOffset }) => ({ topic, partition, offset: currentOffset }));
  const changes = groupChanges(groupId, { state: preview.groupState, offsets: shownOffsets }, { state, committed });
  if (changes) {
    return { ok: false, changes };
  }
  const touched = preview.rows.map(({ topic, partition, newOffset }) => ({ topic, partition, after: newOffset }));
  const snapshot = takeOffsetSnapshot(groupId, committed, touched, options.takenAt);
  await options.saveUndo(snapshot);
  const { results, confirmed } = await commitPlanned(admin, groupId, preview.rows);
  const changed = results.filter((r) => r.error === undefined);
  if (!confirmed || changed.length === results.length) {
    // Unconfirmed: the whole record stays; undo restores only partitions still holding what the reset left.
    return { ok: true, snapshot, results, confirmed };
  }
  const kept = changed.length > 0 ? keepPartitions(snapshot, changed) : undefined;
  await options.saveUndo(kept);
  return { ok: true, snapshot: kept, results, confirmed };
}

/**
 * Commits the planned offsets. When the request fails as a whole (the broker went away part way), reads the
 * offsets back to learn which partitions took the new offset; `confirmed` is false when even that fails.
 */
async function commitPlanned(admin: GroupAdmin, groupId: string, rows: readonly ResetRow[]): Promise<{ results: PartitionResult[]; confirmed: boolean }> {
  try {
    const answered = await admin.commitOffsets(
      groupId,
      rows.map(({ topic, partition, newOffset }) => ({ topic, partition, offset: newOffset })),
    );
    return { results: everyPartitionAnswered(rows, answered), confirmed: true };
  } catch (e) {
    const reason = errorMessage(e);
    let now: PartitionMap<number>;
    try {
      now = new PartitionMap<number>();
      for (const { topic, partition, offset } of await admin.committedOffsets(groupId)) {
        now.set(topic, partition, offset);
      }
    } catch (readError) {
      const error = `Unknown: the commit failed (${reason}) and reading the offsets back failed (${errorMessage(readError)}); Undo checks each partition`;
      return { results: rows.map(({ topic, partition }) => ({ topic, partition, error })), confirmed: false };
    }
    return {
      results: rows.map(({ topic, partition, newOffset }) =>
        now.get(topic, partition) === newOffset ? { topic, partition } : { topic, partition, error: `Not committed: ${reason}` },
      ),
      confirmed: true,
    };
  }
}

/** Results in the order asked, with "no answer" for any partition the broker left out. */
function everyPartitionAnswered(asked: readonly TopicPartition[], answered: readonly PartitionResult[]): PartitionResult[] {
  return asked.map(({ topic, partition }) => {
    const found = answered.find((r) => r.topic === topic && r.partition === partition);
    return found ?? { topic, partition, error: 'The broker did not answer for this partition' };
  });
}

/** What undo would do, partition by partition, for the confirmation. */
export async function planUndo(admin: GroupAdmin, snapshot: OffsetSnapshot): Promise<UndoStep[]> {
  return planUndoSteps(snapshot, await admin.committedOffsets(snapshot.groupId));
}

/**
 * The confirmation of an undo: the partitions it puts back, a warning when some were committed since the
 * change (undo overwrites those commits), the partitions it leaves alone, and why it asks again.
 */
export function undoConfirmation(snapshot: OffsetSnapshot, steps: readonly UndoStep[], changedWhileAsking?: GroupChanges): ConfirmOptions {
  const { groupId } = snapshot;
  const since = steps.filter((s) => s.status === 'changed-since');
  const alone = steps.filter((s) => s.status === 'not-changed');
  const when = new Date(snapshot.takenAt).toLocaleString();
  const again = changedWhileAsking ? `The offsets changed while you were asked (${describeGroupChanges(changedWhileAsking, 'shown').join('; ')}). ` : '';
  const message =
    since.length > 0
      ? `${again}${since.length} partition(s) of ${groupId} were committed since the change of ${when}; undo overwrites those commits. Put back the offsets from before anyway?`
      : `${again}Put back the offsets ${groupId} had before the change of ${when}?`;
  const restored = steps.filter((s) => s.status !== 'not-changed').map(describeUndoStep);
  const left = alone.length > 0 ? [`Left alone (the change never reached them): ${alone.map((s) => `${formatTopicPartition(s)} (${formatOffset(s.currentOffset)})`).join(', ')}`] : [];
  return { message, detail: [...restored, ...left].join('\n'), action: since.length > 0 ? 'Undo Anyway' : 'Undo' };
}

export type UndoOutcome =
  | { ok: true; results: PartitionResult[] }
  /** Nothing was written: the offsets are no longer those the confirmation showed. */
  | { ok: false; changes: GroupChanges };

/**
 * Undo of the confirmed steps: re-reads the group (refusing an active one), writes nothing when an offset is no
 * longer what the confirmation showed, else commits the old offsets and deletes those the group did not have
 * before. Partitions the change never reached are left alone.
 */
export async function undoReset(admin: GroupAdmin, snapshot: OffsetSnapshot, confirmed: readonly UndoStep[]): Promise<UndoOutcome> {
  const { groupId } = snapshot;
  const state = await admin.groupState(groupId);
  const refusal = inactiveGroupError(groupId, state);
  if (refusal) {
    throw new Error(refusal);
  }
  const shown = confirmed.map(({ topic, partition, currentOffset }) => ({ topic, partition, offset: currentOffset }));
  const changes = groupChanges(groupId, { state, offsets: shown }, { state, committed: await admin.committedOffsets(groupId) });
  if (changes) {
    return { ok: false, changes };
  }
  const toRestore = confirmed.filter((s) => s.status !== 'not-changed');
  const actions = restoreActions(keepPartitions(snapshot, toRestore));
  const results = actions.commit.length > 0 ? await admin.commitOffsets(groupId, actions.commit) : [];
  const byTopic = new Map<string, number[]>();
  for (const { topic, partition } of actions.deleteOffsets) {
    byTopic.set(topic, [...(byTopic.get(topic) ?? []), partition]);
  }
  for (const [topic, partitions] of byTopic) {
    const deletion = await admin.deleteOffsets(groupId, topic, partitions);
    results.push(...deletion.partitions.map((p) => (p.error === undefined && deletion.error !== undefined ? { ...p, error: deletion.error } : p)));
  }
  return { ok: true, results: everyPartitionAnswered(toRestore, results) };
}

/** An OffsetSnapshot read back from storage, checked field by field (workspace state is untyped JSON). */
export function parseStoredSnapshot(value: unknown): OffsetSnapshot | undefined {
  if (typeof value !== 'object' || value === null) {
    return undefined;
  }
  const candidate = value as Partial<OffsetSnapshot>;
  const offsetsOk =
    Array.isArray(candidate.offsets) &&
    candidate.offsets.every(
      (o) =>
        typeof o === 'object' &&
        o !== null &&
        typeof o.topic === 'string' &&
        Number.isInteger(o.partition) &&
        (o.offset === null || Number.isSafeInteger(o.offset)) &&
        (o.metadata === undefined || typeof o.metadata === 'string') &&
        (o.after === undefined || o.after === null || Number.isSafeInteger(o.after)),
    );
  const typeOk = candidate.groupType === undefined || candidate.groupType === 'share';
  return typeof candidate.groupId === 'string' && typeof candidate.takenAt === 'number' && offsetsOk && typeOk ? (candidate as OffsetSnapshot) : undefined;
}
