/**
 * The before-snapshot that makes a reset (or an offset deletion) undoable, and the actions that restore it.
 * An OffsetCommit can put back any offset, but it cannot make a partition "uncommitted" again: partitions the
 * group had no offset for before the change must be removed with OffsetDelete (Admin deleteConsumerGroupOffsets,
 * `kafka-consumer-groups.sh --delete-offsets`), which the broker allows only while the group is Empty or does
 * not subscribe to the topic.
 */
import type { TopicPartition } from '../model/types';
import { formatOffset } from './offsetDrift';
import type { CommittedOffset } from './resetPlan';
import { compareTopicPartitions, formatTopicPartition, PartitionMap } from './topicPartitions';

export interface SnapshotOffset extends TopicPartition {
  /** The committed offset before the change, or null when there was none. */
  offset: number | null;
  metadata?: string;
  /**
   * What the change leaves there: the offset it commits, or null when it deletes the offset. Undo puts the old
   * offset back only where this is still committed (absent in records written before it was kept).
   */
  after?: number | null;
}

/** A partition a change touches, with what the change leaves there when known. */
export interface TouchedPartition extends TopicPartition {
  after?: number | null;
}

export interface OffsetSnapshot {
  groupId: string;
  /** 'share' when the offsets are a share group's start offsets (restored with AlterShareGroupOffsets). */
  groupType?: 'share';
  /** Epoch milliseconds when the snapshot was taken. */
  takenAt: number;
  offsets: SnapshotOffset[];
}

/** Where undo records are kept: the workspace state (a vscode.Memento fits). */
export interface UndoStore {
  get(key: string): unknown;
  update(key: string, value: unknown): PromiseLike<void>;
}

/** Workspace-state key of the last offset change (a reset or a deletion) of a group on a cluster: what undo restores. */
export function undoSnapshotKey(sourceId: string, groupId: string): string {
  return `kafkaGroupLens.lastReset:${encodeURIComponent(sourceId)}:${encodeURIComponent(groupId)}`;
}

/** The record as kept: a share group's says so, since undo restores it with AlterShareGroupOffsets. */
export function undoRecord(snapshot: OffsetSnapshot, groupKind: 'consumer' | 'share' | 'streams'): OffsetSnapshot {
  return groupKind === 'share' ? { ...snapshot, groupType: 'share' } : snapshot;
}

export interface RestoreActions {
  /** Offsets to commit (with generation -1, as alterConsumerGroupOffsets does). */
  commit: CommittedOffset[];
  /** Partitions that had no committed offset before: delete their offsets with OffsetDelete. */
  deleteOffsets: TopicPartition[];
}

/** Records what the group had committed for every partition the change will touch (e.g. a reset plan's rows). */
export function takeOffsetSnapshot(
  groupId: string,
  committed: Iterable<CommittedOffset>,
  touched: Iterable<TouchedPartition>,
  takenAt: number,
): OffsetSnapshot {
  const before = new PartitionMap<CommittedOffset>();
  for (const entry of committed) {
    before.set(entry.topic, entry.partition, entry);
  }
  const offsets = new PartitionMap<SnapshotOffset>();
  for (const { topic, partition, after } of touched) {
    const entry = before.get(topic, partition);
    const snapshot: SnapshotOffset = { topic, partition, offset: entry ? entry.offset : null };
    if (entry?.metadata !== undefined) {
      snapshot.metadata = entry.metadata;
    }
    if (after !== undefined) {
      snapshot.after = after;
    }
    offsets.set(topic, partition, snapshot);
  }
  return { groupId, takenAt, offsets: offsets.sortedEntries().map(([, value]) => value) };
}

/** The snapshot reduced to the given partitions (those a partly failed change really changed). */
export function keepPartitions(snapshot: OffsetSnapshot, partitions: Iterable<TopicPartition>): OffsetSnapshot {
  const kept = new PartitionMap<true>();
  for (const { topic, partition } of partitions) {
    kept.set(topic, partition, true);
  }
  return { ...snapshot, offsets: snapshot.offsets.filter((o) => kept.has(o.topic, o.partition)) };
}

/**
 * What undo does with one partition, decided from what the group has committed now:
 *  - restore: it still holds what the change left (or the record predates `after`): put the old offset back;
 *  - not-changed: it holds the old offset, so the change never landed there (a partly failed reset): leave it;
 *  - changed-since: someone committed since the change: putting the old offset back overwrites that commit.
 */
export type UndoStatus = 'restore' | 'not-changed' | 'changed-since';

export interface UndoStep extends TopicPartition {
  /** What the group has committed now (null: nothing). */
  currentOffset: number | null;
  /** What undo puts back; null means the offset is deleted (the group had none before). */
  restoredOffset: number | null;
  /** What the change left, when the record knows it. */
  leftByChange?: number | null;
  status: UndoStatus;
}

/** One step per partition of the snapshot, against the offsets committed now. */
export function planUndoSteps(snapshot: OffsetSnapshot, committedNow: Iterable<CommittedOffset>): UndoStep[] {
  const now = new PartitionMap<number>();
  for (const { topic, partition, offset } of committedNow) {
    now.set(topic, partition, offset);
  }
  return snapshot.offsets.map(({ topic, partition, offset, after }) => {
    const currentOffset = now.get(topic, partition) ?? null;
    const step: UndoStep = { topic, partition, currentOffset, restoredOffset: offset, status: 'restore' };
    if (after !== undefined) {
      step.leftByChange = after;
      if (currentOffset !== after) {
        step.status = currentOffset === offset ? 'not-changed' : 'changed-since';
      }
    }
    return step;
  });
}

/** "t-0: 120 → 100", "t-1: 40 → (no offset)", or for a later commit "t-0: 130 (the change left 120) → 100". */
export function describeUndoStep(step: UndoStep): string {
  const since = step.status === 'changed-since' && step.leftByChange !== undefined ? ` (the change left ${formatOffset(step.leftByChange)})` : '';
  return `${formatTopicPartition(step)}: ${formatOffset(step.currentOffset)}${since} → ${formatOffset(step.restoredOffset)}`;
}

/** What to send to put the snapshot back: commits for partitions that had an offset, deletions for the rest. */
export function restoreActions(snapshot: OffsetSnapshot): RestoreActions {
  const commit: CommittedOffset[] = [];
  const deleteOffsets: TopicPartition[] = [];
  for (const { topic, partition, offset, metadata } of [...snapshot.offsets].sort(compareTopicPartitions)) {
    if (offset === null) {
      deleteOffsets.push({ topic, partition });
    } else {
      commit.push(metadata === undefined ? { topic, partition, offset } : { topic, partition, offset, metadata });
    }
  }
  return { commit, deleteOffsets };
}
