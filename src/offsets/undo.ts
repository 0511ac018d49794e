/**
 * The before-snapshot that makes a reset (or an offset deletion) undoable, and the actions that restore it.
 * An OffsetCommit can put back any offset, but it cannot make a partition "uncommitted" again: partitions the
 * group had no offset for before the change must be removed with OffsetDelete (Admin deleteConsumerGroupOffsets,
 * `kafka-consumer-groups.sh --delete-offsets`), which the broker allows only while the group is Empty or does
 * not subscribe to the topic.
 */
import type { TopicPartition } from '../model/types';
import type { CommittedOffset } from './resetPlan';
import { compareTopicPartitions, PartitionMap } from './topicPartitions';

export interface SnapshotOffset extends TopicPartition {
  /** The committed offset before the change, or null when there was none. */
  offset: number | null;
  metadata?: string;
}

export interface OffsetSnapshot {
  groupId: string;
  /** Epoch milliseconds when the snapshot was taken. */
  takenAt: number;
  offsets: SnapshotOffset[];
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
  touched: Iterable<TopicPartition>,
  takenAt: number,
): OffsetSnapshot {
  const before = new PartitionMap<CommittedOffset>();
  for (const entry of committed) {
    before.set(entry.topic, entry.partition, entry);
  }
  const offsets = new PartitionMap<SnapshotOffset>();
  for (const { topic, partition } of touched) {
    const entry = before.get(topic, partition);
    const snapshot: SnapshotOffset = { topic, partition, offset: entry ? entry.offset : null };
    if (entry?.metadata !== undefined) {
      snapshot.metadata = entry.metadata;
    }
    offsets.set(topic, partition, snapshot);
  }
  return { groupId, takenAt, offsets: offsets.sortedEntries().map(([, value]) => value) };
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
