/**
 * What moved between two reads of a group's committed offsets: a write (a reset, an undo, an offset deletion)
 * re-reads the group just before it is sent and goes ahead only when nothing it showed the user has changed,
 * because another reset, a consumer or a CLI may have committed in between. Kafka offers no compare-and-set on
 * committed offsets, so this narrows the window to the time between the re-read and the write; it cannot close it.
 */
import type { GroupState, TopicPartition } from '../model/types';
import type { CommittedOffset } from './resetPlan';
import { formatTopicPartition, PartitionMap } from './topicPartitions';

/** An offset as shown: a committed offset, or null for none. */
export interface ShownOffset extends TopicPartition {
  offset: number | null;
}

/** A partition whose committed offset is not what was shown. */
export interface OffsetDrift extends TopicPartition {
  /** What was shown (null: no committed offset). */
  shown: number | null;
  /** What the group has committed now (null: none). */
  now: number | null;
}

/** The partitions of `shown` whose committed offset is now different, in the order of `shown`. */
export function offsetDrift(shown: Iterable<ShownOffset>, committedNow: Iterable<CommittedOffset>): OffsetDrift[] {
  const now = new PartitionMap<number>();
  for (const { topic, partition, offset } of committedNow) {
    now.set(topic, partition, offset);
  }
  const drift: OffsetDrift[] = [];
  for (const { topic, partition, offset } of shown) {
    const current = now.get(topic, partition) ?? null;
    if (current !== offset) {
      drift.push({ topic, partition, shown: offset, now: current });
    }
  }
  return drift;
}

/** "123" or "(no offset)". */
export function formatOffset(offset: number | null): string {
  return offset === null ? '(no offset)' : String(offset);
}

/** "t-0: previewed 700, now 0" (`shownAs` names the earlier read: "previewed", "shown", "the reset left"). */
export function describeOffsetDrift(drift: OffsetDrift, shownAs: string): string {
  return `${formatTopicPartition(drift)}: ${shownAs} ${formatOffset(drift.shown)}, now ${formatOffset(drift.now)}`;
}

/** Dead and "not known to the coordinator" are the same fact for a write: the group has no members and no state. */
export function sameGroupState(a: GroupState | 'missing', b: GroupState | 'missing'): boolean {
  const normal = (state: GroupState | 'missing') => (state === 'Dead' ? 'missing' : state);
  return normal(a) === normal(b);
}

/** What changed in the group between a preview (or a confirmation) and the write. */
export interface GroupChanges {
  groupId: string;
  /** Set when the group's state changed. */
  state?: { shown: GroupState | 'missing'; now: GroupState | 'missing' };
  /** Partitions whose committed offset is no longer the one shown. */
  partitions: OffsetDrift[];
}

/** One line per change: "state: previewed Empty, now Stable", "t-0: previewed 700, now 0". */
export function describeGroupChanges(changes: GroupChanges, shownAs: string): string[] {
  const state = changes.state ? [`state: ${shownAs} ${changes.state.shown}, now ${changes.state.now}`] : [];
  return [...state, ...changes.partitions.map((drift) => describeOffsetDrift(drift, shownAs))];
}

/** The changes between what was shown and what was read now, or undefined when there is none. */
export function groupChanges(
  groupId: string,
  shown: { state: GroupState | 'missing'; offsets: Iterable<ShownOffset> },
  now: { state: GroupState | 'missing'; committed: Iterable<CommittedOffset> },
): GroupChanges | undefined {
  const partitions = offsetDrift(shown.offsets, now.committed);
  const stateChanged = !sameGroupState(shown.state, now.state);
  if (partitions.length === 0 && !stateChanged) {
    return undefined;
  }
  return stateChanged ? { groupId, state: { shown: shown.state, now: now.state }, partitions } : { groupId, partitions };
}
