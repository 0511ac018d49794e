/**
 * What "Reset Offsets…", its Execute button and "Undo Last Offset Change" do, over GroupAdmin and the pure planner:
 * gather the facts kafka-consumer-groups.sh would read, plan, commit with generation -1 after re-checking the
 * group, and keep the before-snapshot that undo restores. No editor types: the commands and the preview
 * panel call these.
 */
import type { GroupAdmin, PartitionResult } from '../model/groupAdmin';
import type { GroupState, TopicPartition } from '../model/types';
import { inactiveGroupError, planReset, resetPartitions, type ResetFacts, type ResetRequest, type ResetRow } from '../offsets/resetPlan';
import { restoreActions, takeOffsetSnapshot, type OffsetSnapshot } from '../offsets/undo';
import { formatTopicPartition } from '../offsets/topicPartitions';

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

function throwIfCancelled(signal: CancelSignal | undefined): void {
  if (signal?.cancelled) {
    throw new CancelledError();
  }
}

export interface PreviewRow extends ResetRow {
  /** newOffset - currentOffset, or null when the group has no committed offset there. */
  difference: number | null;
}

export type ResetPreview =
  | { ok: true; request: ResetRequest; groupState: GroupState | 'missing'; rows: PreviewRow[]; warnings: string[] }
  | { ok: false; request: ResetRequest; error: string };

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
  const rows = plan.rows.map((row) => ({ ...row, difference: row.currentOffset === null ? null : row.newOffset - row.currentOffset }));
  return { ok: true, request, groupState: gathered.facts.groupState, rows, warnings: plan.warnings };
}

/** "+5", "-3", "0", or "" when there was no committed offset. */
export function formatDifference(difference: number | null): string {
  if (difference === null) {
    return '';
  }
  return difference > 0 ? `+${difference}` : String(difference);
}

export interface ExecutedReset {
  snapshot: OffsetSnapshot;
  results: PartitionResult[];
}

/** A partition the broker refused, as "t-0: REASON". */
export function describeFailures(results: readonly PartitionResult[]): string[] {
  return results.filter((r) => r.error !== undefined).map((r) => `${formatTopicPartition(r)}: ${r.error}`);
}

/**
 * Execute: re-checks that the group is still inactive, snapshots what it has committed for the planned
 * partitions, then commits the previewed offsets (generation -1). Every planned partition gets a result.
 */
export async function executeReset(admin: GroupAdmin, groupId: string, rows: readonly ResetRow[], takenAt: number): Promise<ExecutedReset> {
  const refusal = inactiveGroupError(groupId, await admin.groupState(groupId));
  if (refusal) {
    throw new Error(refusal);
  }
  const snapshot = takeOffsetSnapshot(groupId, await admin.committedOffsets(groupId), rows, takenAt);
  const answered = await admin.commitOffsets(
    groupId,
    rows.map(({ topic, partition, newOffset }) => ({ topic, partition, offset: newOffset })),
  );
  return { snapshot, results: everyPartitionAnswered(rows, answered) };
}

/** Results in the order asked, with "no answer" for any partition the broker left out. */
function everyPartitionAnswered(asked: readonly TopicPartition[], answered: readonly PartitionResult[]): PartitionResult[] {
  return asked.map(({ topic, partition }) => {
    const found = answered.find((r) => r.topic === topic && r.partition === partition);
    return found ?? { topic, partition, error: 'The broker did not answer for this partition' };
  });
}

export interface UndoStep extends TopicPartition {
  /** What the group has committed now (null: nothing). */
  currentOffset: number | null;
  /** What undo puts back; null means the offset is deleted (the group had none before). */
  restoredOffset: number | null;
}

/** What undo would change, partition by partition, for the confirmation. */
export async function planUndo(admin: GroupAdmin, snapshot: OffsetSnapshot): Promise<UndoStep[]> {
  const committed = await admin.committedOffsets(snapshot.groupId);
  const current = (tp: TopicPartition) => committed.find((c) => c.topic === tp.topic && c.partition === tp.partition)?.offset ?? null;
  return snapshot.offsets.map((s) => ({ topic: s.topic, partition: s.partition, currentOffset: current(s), restoredOffset: s.offset }));
}

/** "t-0: 120 → 100" or "t-1: 40 → (no offset)". */
export function describeUndoStep(step: UndoStep): string {
  const show = (offset: number | null) => (offset === null ? '(no offset)' : String(offset));
  return `${formatTopicPartition(step)}: ${show(step.currentOffset)} → ${show(step.restoredOffset)}`;
}

/** Undo: commits the snapshot's offsets and deletes those the group did not have before. */
export async function undoReset(admin: GroupAdmin, snapshot: OffsetSnapshot): Promise<PartitionResult[]> {
  const refusal = inactiveGroupError(snapshot.groupId, await admin.groupState(snapshot.groupId));
  if (refusal) {
    throw new Error(refusal);
  }
  const actions = restoreActions(snapshot);
  const results = actions.commit.length > 0 ? await admin.commitOffsets(snapshot.groupId, actions.commit) : [];
  const byTopic = new Map<string, number[]>();
  for (const { topic, partition } of actions.deleteOffsets) {
    byTopic.set(topic, [...(byTopic.get(topic) ?? []), partition]);
  }
  for (const [topic, partitions] of byTopic) {
    const deletion = await admin.deleteOffsets(snapshot.groupId, topic, partitions);
    results.push(...deletion.partitions.map((p) => (p.error === undefined && deletion.error !== undefined ? { ...p, error: deletion.error } : p)));
  }
  return everyPartitionAnswered(snapshot.offsets, results);
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
        (o.metadata === undefined || typeof o.metadata === 'string'),
    );
  return typeof candidate.groupId === 'string' && typeof candidate.takenAt === 'number' && offsetsOk ? (candidate as OffsetSnapshot) : undefined;
}
