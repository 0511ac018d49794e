/**
 * Bounded text for the language-model tools: what a tool answers must fit a model's context whatever the cluster
 * holds (20,000 groups, 500 partitions a group), so every list here is capped and says how many entries it left
 * out. Pure functions over the model's plain data; no `vscode` import (tested in plain Node).
 */
import { formatDuration } from '../health/lagEvaluation';
import type { GroupDetail, GroupSummary, Member, PartitionOffsets, TopicPartition } from '../model/types';

/** The caps every tool applies: a default and a hard maximum for lists the caller may size. */
export const TOOL_LIMITS = {
  groupsDefault: 50,
  groupsMax: 200,
  membersShown: 50,
  partitionsShown: 100,
  partitionsPerMember: 20,
  eventsDefault: 50,
  eventsMax: 200,
  simulatedGroupsShown: 20,
  /** Characters of one tool answer; longer text is cut with a note. */
  maxChars: 24_000,
} as const;

/** A requested list size clamped to 1..max, or the default when none was asked. */
export function clampLimit(asked: number | undefined, fallback: number, max: number): number {
  if (asked === undefined || !Number.isFinite(asked)) {
    return fallback;
  }
  return Math.min(Math.max(1, Math.floor(asked)), max);
}

/** At most `max` lines, then one line saying how many `noun` were left out. */
export function boundLines(lines: readonly string[], max: number, noun: string): string[] {
  if (lines.length <= max) {
    return [...lines];
  }
  return [...lines.slice(0, max), `… ${lines.length - max} more ${noun} left out`];
}

/** The text cut at `max` characters (on a line end where possible), with a note of what was cut. */
export function capChars(text: string, max: number = TOOL_LIMITS.maxChars): string {
  if (text.length <= max) {
    return text;
  }
  const cut = text.lastIndexOf('\n', max);
  const end = cut > max / 2 ? cut : max;
  return `${text.slice(0, end)}\n… answer cut: ${text.length - end} more characters left out (ask for fewer items)`;
}

/** "orders:0,1,2 payments:3": partitions grouped by topic, at most `max` partitions written out. */
export function formatPartitions(partitions: readonly TopicPartition[], max: number = TOOL_LIMITS.partitionsPerMember): string {
  if (partitions.length === 0) {
    return '(none)';
  }
  const byTopic = new Map<string, number[]>();
  for (const { topic, partition } of partitions.slice(0, max)) {
    byTopic.set(topic, [...(byTopic.get(topic) ?? []), partition]);
  }
  const text = [...byTopic].map(([topic, list]) => `${topic}:${[...list].sort((a, b) => a - b).join(',')}`).join(' ');
  return partitions.length > max ? `${text} (+${partitions.length - max} more)` : text;
}

function lagText(lag: number | null): string {
  return lag === null ? 'unknown' : String(lag);
}

function lagInTimeText(ms: number | null | undefined): string | undefined {
  return ms === null || ms === undefined ? undefined : formatDuration(ms);
}

/** One group as the tree's row reads it: state, type, members, lag, lag in time and health with its reason. */
export function formatGroupLine(group: GroupSummary): string {
  const parts = [`${group.groupId} [${group.groupType}] ${group.state}`, `members ${group.memberCount}`, `lag ${lagText(group.totalLag)}`];
  const inTime = lagInTimeText(group.maxLagInTimeMs);
  if (inTime) {
    parts.push(`lag in time ${inTime}`);
  }
  if (group.health) {
    parts.push(group.health.status === 'OK' ? 'health OK' : `health ${group.health.status} (${group.health.reason})`);
  }
  if (group.detailsPending) {
    parts.push('details pending');
  }
  if (group.error) {
    parts.push(`error: ${group.error}`);
  }
  return `- ${parts.join(', ')}`;
}

export interface ClusterGroups {
  sourceId: string;
  label: string;
  kind: 'simulator' | 'kafka';
  /** Undefined while the cluster's groups are not loaded. */
  groups?: readonly GroupSummary[];
  /** The groups that match the filter, in the order to show. */
  matching?: readonly GroupSummary[];
  /** Why the groups are not loaded, when loading them failed. */
  failure?: string;
}

/** The clusters and their matching groups, `limit` groups in all. */
export function formatGroupList(clusters: readonly ClusterGroups[], filterText: string, limit: number): string {
  if (clusters.length === 0) {
    return 'No clusters are configured: enable kafkaGroupLens.simulator.enabled or run "Kafka Group Lens: Add Cluster…".';
  }
  const lines: string[] = [];
  let left = limit;
  for (const cluster of clusters) {
    const head = `Cluster "${cluster.label}" (id ${cluster.sourceId}, ${cluster.kind})`;
    if (cluster.failure) {
      lines.push(`${head}: its groups could not be loaded: ${cluster.failure}`);
      continue;
    }
    if (!cluster.groups || !cluster.matching) {
      lines.push(`${head}: groups not loaded yet (open the Consumer Groups view or try again shortly)`);
      continue;
    }
    const filtered = filterText.trim() === '' ? '' : ` matching "${filterText}"`;
    lines.push(`${head}: ${cluster.matching.length} of ${cluster.groups.length} groups${filtered}`);
    const shown = cluster.matching.slice(0, Math.max(left, 0));
    lines.push(...shown.map(formatGroupLine));
    left -= shown.length;
    if (shown.length < cluster.matching.length) {
      lines.push(`… ${cluster.matching.length - shown.length} more groups left out (narrow the filter, or raise limit up to ${TOOL_LIMITS.groupsMax})`);
    }
  }
  return lines.join('\n');
}

function memberName(member: Member): string {
  const who = member.groupInstanceId ? `static ${member.groupInstanceId}` : member.clientId;
  return `${who} (member ${member.memberId}, host ${member.clientHost})`;
}

function memberLine(member: Member): string {
  const parts = [`- ${memberName(member)}`, `assigned ${formatPartitions(member.assignment)}`];
  if (member.memberEpoch !== undefined) {
    parts.push(`epoch ${member.memberEpoch}`);
  }
  if (member.targetAssignment) {
    const awaited = member.targetAssignment.filter((t) => !member.assignment.some((a) => a.topic === t.topic && a.partition === t.partition));
    if (awaited.length > 0) {
      parts.push(`awaiting ${formatPartitions(awaited)}`);
    }
  }
  return parts.join(', ');
}

/** One partition row: committed, log end, lag, lag in time, LSO where known, owner. */
export function formatPartitionLine(row: PartitionOffsets, members: readonly Member[] = []): string {
  const parts = [`- ${row.topic}-${row.partition}: committed ${row.committedOffset ?? '(none)'}`, `log end ${row.logEndOffset ?? 'unknown'}`, `lag ${lagText(row.lag)}`];
  const inTime = lagInTimeText(row.lagInTimeMs);
  if (inTime) {
    parts.push(`lag in time ${inTime}`);
  }
  if (row.lastStableOffset !== undefined && row.lastStableOffset !== null && row.lastStableOffset !== row.logEndOffset) {
    parts.push(`last stable offset ${row.lastStableOffset}`);
  }
  if (row.pendingTransactionalOffset != null) {
    parts.push(`pending transactional offset ${row.pendingTransactionalOffset}`);
  }
  const owner = row.ownerMemberId ? members.find((m) => m.memberId === row.ownerMemberId) : undefined;
  parts.push(owner ? `owner ${owner.groupInstanceId ?? owner.clientId}` : row.ownerMemberId ? `owner ${row.ownerMemberId}` : 'no owner');
  return parts.join(', ');
}

/** Scalars and list sizes of a type-specific block (consumer, share, streams), one level deep. */
function typeFields(name: string, info: object | undefined): string[] {
  if (!info) {
    return [];
  }
  const fields = Object.entries(info).flatMap(([key, value]: [string, unknown]) => {
    if (Array.isArray(value)) {
      return value.every((v) => typeof v === 'string') && value.length <= 10 ? [`${key} [${value.join(', ')}]`] : [`${key}: ${value.length}`];
    }
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) {
      return [`${key} ${String(value)}`];
    }
    return [];
  });
  return [`${name}: ${fields.join(', ')}`];
}

/** A group as describe shows it: summary, type-specific fields, members with assignments, partitions. */
export function formatGroupDetail(detail: GroupDetail, clusterLabel: string): string {
  const lines = [
    `Group "${detail.groupId}" on cluster "${clusterLabel}"`,
    formatGroupLine(detail).slice(2),
    `assignor ${detail.assignor || '(none)'}, generation ${detail.generation ?? 'unknown'}, coordinator ${detail.coordinator ? `${detail.coordinator.nodeId} (${detail.coordinator.host}:${detail.coordinator.port})` : 'unknown'}, leader ${detail.leaderId ?? '(none)'}`,
  ];
  if (detail.isolationLevel) {
    lines.push(`isolation.level ${detail.isolationLevel}`);
  }
  lines.push(...typeFields('consumer protocol (KIP-848)', detail.consumerGroup), ...typeFields('share group (KIP-932)', detail.shareGroup), ...typeFields('streams group (KIP-1071)', detail.streamsGroup));
  lines.push(`Members (${detail.members.length}):`, ...boundLines(detail.members.map(memberLine), TOOL_LIMITS.membersShown, 'members'));
  const rows = [...detail.offsets].sort((a, b) => (b.lag ?? -1) - (a.lag ?? -1));
  lines.push(`Partitions (${rows.length}, largest lag first):`, ...boundLines(rows.map((r) => formatPartitionLine(r, detail.members)), TOOL_LIMITS.partitionsShown, 'partitions'));
  return lines.join('\n');
}
