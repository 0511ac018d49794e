/**
 * "Delete Group…", "Delete Committed Offsets…" and "Remove Static Member(s)": questions, confirmation
 * naming what goes, the admin call, and an outcome with one line per group, partition or member, so the
 * command shows every refusal with the broker's reason. No editor types.
 */
import type { GroupAdmin } from '../model/groupAdmin';
import type { GroupDetail, GroupState, Member } from '../model/types';
import { describeGroupChanges, formatOffset, groupChanges, type GroupChanges } from '../offsets/offsetDrift';
import { formatTopicPartition } from '../offsets/topicPartitions';
import { takeOffsetSnapshot, undoRecord, type OffsetSnapshot, type UndoStore } from '../offsets/undo';
import { shareGroupOffsetsAdmin } from '../offsets/shareAdmin';
import type { AdminPrompts } from './adminPrompts';

export interface AdminOutcome {
  /** One-line summary for the notification. */
  summary: string;
  /** One line per item, for the log and the notification's detail. */
  lines: string[];
  /** True when every item succeeded. */
  ok: boolean;
  /** What the group had before the change, for "Undo Last Offset Change" (offsets that were really deleted). */
  undo?: OffsetSnapshot;
}

/** Why a group that is not Empty cannot be deleted, in the broker's terms. */
export function nonEmptyGroupReason(groupId: string, state: GroupState | 'missing', memberCount: number): string | null {
  if (state === 'Empty') {
    return null;
  }
  if (state === 'missing' || state === 'Dead') {
    return `Group '${groupId}' does not exist (GROUP_ID_NOT_FOUND).`;
  }
  return (
    `Group '${groupId}' is ${state} with ${memberCount} member(s): Kafka deletes only Empty groups and answers NON_EMPTY_GROUP. ` +
    'Stop its consumers (or remove its static members and wait for the session timeout) first.'
  );
}

/**
 * What the offset flows call the group and its offsets: a consumer group's committed offsets, or (through
 * shareGroupOffsetsAdmin) a share group's start offsets, which are deleted per topic only.
 */
export interface GroupOffsetsKind {
  group: 'consumer' | 'share';
  offsets: string;
  /** DeleteShareGroupOffsets takes topics, not partitions. */
  wholeTopics: boolean;
}

export const CONSUMER_OFFSETS: GroupOffsetsKind = { group: 'consumer', offsets: 'committed', wholeTopics: false };
export const SHARE_OFFSETS: GroupOffsetsKind = { group: 'share', offsets: 'start', wholeTopics: true };

/** The admin and wording for the group's type: a share group's start offsets go through AlterShareGroupOffsets and friends. */
export function offsetsAdminFor(admin: GroupAdmin, groupId: string, groupType: GroupDetail['groupType']): { admin: GroupAdmin; kind: GroupOffsetsKind } {
  return groupType === 'share' ? { admin: shareGroupOffsetsAdmin(admin, groupId), kind: SHARE_OFFSETS } : { admin, kind: CONSUMER_OFFSETS };
}

/** Keeps a deletion's undo record under `key` and says in the summary how to put the offsets back. */
export async function keepDeletionUndo(store: UndoStore, key: string, kind: GroupOffsetsKind, outcome: AdminOutcome): Promise<void> {
  if (!outcome.undo) {
    return;
  }
  await store.update(key, undoRecord(outcome.undo, kind.group));
  outcome.summary += '. "Undo Last Offset Change" on the group commits them again';
}

/** Delete Group: refuses (with the reason) unless Empty, confirms, then sends DeleteGroups. */
export async function deleteGroupFlow(
  prompts: AdminPrompts,
  admin: GroupAdmin,
  groupId: string,
  memberCount: number,
  kind: GroupOffsetsKind = CONSUMER_OFFSETS,
): Promise<AdminOutcome | undefined> {
  const reason = nonEmptyGroupReason(groupId, await admin.groupState(groupId), memberCount);
  if (reason) {
    throw new Error(reason);
  }
  const committed = await admin.committedOffsets(groupId);
  const confirmed = await prompts.confirm({
    message: `Delete ${kind.group} group '${groupId}'?`,
    detail: `Its ${committed.length} ${kind.offsets} offset(s) are deleted with it. This cannot be undone.`,
    action: 'Delete Group',
  });
  if (!confirmed) {
    return undefined;
  }
  const results = await admin.deleteGroups([groupId]);
  const result = results.find((r) => r.groupId === groupId) ?? { groupId, error: 'The coordinator did not answer for this group' };
  return result.error === undefined
    ? { ok: true, summary: `Deleted group '${groupId}'`, lines: [`${groupId}: deleted`] }
    : { ok: false, summary: `Group '${groupId}' was not deleted: ${result.error}`, lines: [`${groupId}: ${result.error}`] };
}

/** How often a write asks again when the group keeps changing between its confirmation and its re-check. */
export const MAX_CONFIRMATIONS = 3;

/**
 * Delete Committed Offsets: pick a committed topic, optionally fewer partitions, confirm, OffsetDelete. After the
 * confirmation the group is read again: when its state or one of the offsets shown changed, nothing is deleted
 * and the confirmation is asked again with what changed and the offsets as they are now.
 */
export async function deleteOffsetsFlow(prompts: AdminPrompts, admin: GroupAdmin, groupId: string, kind: GroupOffsetsKind = CONSUMER_OFFSETS): Promise<AdminOutcome | undefined> {
  let state = await admin.groupState(groupId);
  let committed = await admin.committedOffsets(groupId);
  if (committed.length === 0) {
    throw new Error(`Group '${groupId}' has no ${kind.offsets} offsets`);
  }
  const topics = [...new Set(committed.map((c) => c.topic))].sort();
  const title = `Delete Committed Offsets of ${groupId}`;
  const topic = await prompts.pickOne(
    topics.map((t) => ({ label: t, description: `${committed.filter((c) => c.topic === t).length} partition(s) with a ${kind.offsets} offset`, value: t })),
    { title: kind.wholeTopics ? title : `${title} (1/2)`, placeholder: `Topic whose ${kind.offsets} offsets to delete` },
  );
  if (topic === undefined) {
    return undefined;
  }
  const offsets = committed.filter((c) => c.topic === topic).sort((a, b) => a.partition - b.partition);
  let partitions: number[] | undefined = kind.wholeTopics ? offsets.map((o) => o.partition) : undefined;
  while (partitions === undefined || partitions.length === 0) {
    partitions = await prompts.pickMany(
      offsets.map((o) => ({ label: `${o.partition}`, description: `committed ${o.offset}`, picked: true, value: o.partition })),
      { title: `${title} (2/2)`, placeholder: 'Partitions (all are picked: the whole topic)' },
    );
    if (partitions === undefined) {
      return undefined;
    }
  }
  const chosen = partitions.map((partition) => ({ topic, partition }));
  const shownOffsets = () => chosen.map((tp) => ({ ...tp, offset: committed.find((c) => c.topic === tp.topic && c.partition === tp.partition)?.offset ?? null }));
  let changed: GroupChanges | undefined;
  for (let asked = 0; ; asked++) {
    const shown = shownOffsets();
    const again = changed ? `The group changed since you were asked (${describeGroupChanges(changed, 'shown').join('; ')}). ` : '';
    const confirmed = await prompts.confirm({
      message: `${again}Delete the ${kind.offsets} offsets of '${groupId}' (${state}) for ${shown.length} partition(s) of ${topic}?`,
      detail: `${shown.map((o) => `${formatTopicPartition(o)} (${formatOffset(o.offset)})`).join(', ')}. The group will start these partitions from ${kind.group === 'share' ? 'share.auto.offset.reset' : 'auto.offset.reset'} next time.`,
      action: 'Delete Offsets',
    });
    if (!confirmed) {
      return undefined;
    }
    const stateNow = await admin.groupState(groupId);
    const committedNow = await admin.committedOffsets(groupId);
    changed = groupChanges(groupId, { state, offsets: shown }, { state: stateNow, committed: committedNow });
    state = stateNow;
    committed = committedNow;
    if (!changed) {
      break;
    }
    if (asked >= MAX_CONFIRMATIONS - 1) {
      throw new Error(`'${groupId}' keeps changing (${describeGroupChanges(changed, 'shown').join('; ')}); no offset was deleted`);
    }
  }
  const takenAt = admin.now();
  const deletion = await admin.deleteOffsets(groupId, topic, partitions);
  const deleted: number[] = [];
  const lines = partitions.map((partition) => {
    const answer = deletion.partitions.find((p) => p.topic === topic && p.partition === partition);
    const error = answer ? (answer.error ?? deletion.error) : (deletion.error ?? 'The coordinator did not answer for this partition');
    if (error === undefined) {
      deleted.push(partition);
    }
    return `${formatTopicPartition({ topic, partition })}: ${error ?? 'deleted'}`;
  });
  const failed = partitions.length - deleted.length;
  const summary =
    failed === 0
      ? `Deleted ${partitions.length} ${kind.offsets} offset(s) of '${groupId}' on ${topic}`
      : `${failed} of ${partitions.length} offset(s) of '${groupId}' on ${topic} were not deleted${deletion.error ? `: ${deletion.error}` : ''}`;
  const undo =
    deleted.length > 0 ? takeOffsetSnapshot(groupId, committed, deleted.map((partition) => ({ topic, partition, after: null })), takenAt) : undefined;
  return undo ? { ok: failed === 0, summary, lines, undo } : { ok: failed === 0, summary, lines };
}

function staticMembers(detail: GroupDetail): Array<Member & { groupInstanceId: string }> {
  return detail.members.filter((m): m is Member & { groupInstanceId: string } => m.groupInstanceId != null);
}

/**
 * Remove Static Member(s): LeaveGroup by group.instance.id. `instanceIds` given (a member row) skips the
 * pick; otherwise the group's static members are offered.
 */
export async function removeStaticMembersFlow(
  prompts: AdminPrompts,
  admin: GroupAdmin,
  detail: GroupDetail,
  instanceIds?: readonly string[],
): Promise<AdminOutcome | undefined> {
  const groupId = detail.groupId;
  let chosen = instanceIds ? [...instanceIds] : undefined;
  if (!chosen) {
    const candidates = staticMembers(detail);
    if (candidates.length === 0) {
      throw new Error(`Group '${groupId}' has no static members (none has a group.instance.id)`);
    }
    chosen = await prompts.pickMany(
      candidates.map((m) => ({ label: m.groupInstanceId, description: m.clientId, detail: `member ${m.memberId}, ${m.assignment.length} partition(s)`, value: m.groupInstanceId })),
      { title: `Remove Static Members of ${groupId}`, placeholder: 'group.instance.id of the members to remove' },
    );
    if (chosen === undefined || chosen.length === 0) {
      return undefined;
    }
  }
  const confirmed = await prompts.confirm({
    message: `Remove ${chosen.length} static member(s) from '${groupId}'?`,
    detail: `${chosen.join(', ')}. The group rebalances; a removed consumer that is still running joins again as a new member.`,
    action: chosen.length === 1 ? 'Remove Member' : 'Remove Members',
  });
  if (!confirmed) {
    return undefined;
  }
  const outcome = await admin.removeStaticMembers(groupId, chosen);
  const lines = outcome.members.map((m) => `${m.groupInstanceId}: ${m.error ?? 'removed'}`);
  const failed = outcome.members.filter((m) => m.error !== undefined).length;
  const summary =
    failed === 0
      ? `Removed ${chosen.length} static member(s) from '${groupId}'; the group rebalances`
      : `${failed} of ${chosen.length} member(s) of '${groupId}' were not removed${outcome.error ? `: ${outcome.error}` : ''}`;
  return { ok: failed === 0, summary, lines };
}
