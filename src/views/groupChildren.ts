/**
 * Builds a group's subtree from one GroupDetail: the type's own facts (typeInfoRows.ts), members with
 * their partitions (and, while a KIP-848 or streams member reconciles, the partitions it still gives up
 * or waits for), the committed partitions nobody owns, and (simulator only) the stopped consumers that
 * could be restarted.
 */
import { compareTopicPartitions, topicPartitionKey, type GroupDetail, type Member, type PartitionOffsets, type TopicPartition } from '../model/types';
import type { SimulatedConsumerInfo } from '../model/simulatedConsumer';
import { typeInfoRows } from './typeInfoRows';
import { nodeIds, type GroupRef, type MemberNode, type PartitionEntry, type PartitionRole, type SourceKind, type TreeNode } from './treeNodes';


/** An assigned partition the source gave no offsets row for: everything unknown. */
function unknownOffsets(tp: TopicPartition, ownerMemberId: string | null): PartitionOffsets {
  return { ...tp, committedOffset: null, logStartOffset: null, logEndOffset: null, lag: null, ownerMemberId };
}

export interface GroupChildrenInput {
  sourceId: string;
  sourceKind: SourceKind;
  detail: GroupDetail;
  /** The simulator's consumers of this group; empty for real clusters. */
  consumers: SimulatedConsumerInfo[];
}

/** The partitions a member keeps, gives up and waits for: without a target assignment, it keeps all it has. */
export function reconciliation(member: Member): { kept: TopicPartition[]; revoking: TopicPartition[]; awaited: TopicPartition[] } {
  const current = [...member.assignment].sort(compareTopicPartitions);
  if (!member.targetAssignment) {
    return { kept: current, revoking: [], awaited: [] };
  }
  const target = new Set(member.targetAssignment.map(topicPartitionKey));
  const owned = new Set(current.map(topicPartitionKey));
  return {
    kept: current.filter((tp) => target.has(topicPartitionKey(tp))),
    revoking: current.filter((tp) => !target.has(topicPartitionKey(tp))),
    awaited: [...member.targetAssignment].sort(compareTopicPartitions).filter((tp) => !owned.has(topicPartitionKey(tp))),
  };
}

export function groupChildren({ sourceId, sourceKind, detail, consumers }: GroupChildrenInput): TreeNode[] {
  const groupId = detail.groupId;
  const groupRowId = nodeIds.group(sourceId, groupId);
  const offsetsByTp = new Map(detail.offsets.map((o) => [topicPartitionKey(o), o]));
  const consumerByMemberId = new Map(consumers.filter((c) => c.memberId != null).map((c) => [c.memberId as string, c]));
  const consumerMembers = new Map((detail.consumerGroup?.members ?? []).map((m) => [m.memberId, m]));
  const streamsMembers = new Map((detail.streamsGroup?.members ?? []).map((m) => [m.memberId, m]));
  const share = detail.groupType === 'share';
  const placedKeys = new Set<string>();
  const rowsOf = (tps: TopicPartition[], owner: string | null) =>
    tps.map((tp) => {
      placedKeys.add(topicPartitionKey(tp));
      return offsetsByTp.get(topicPartitionKey(tp)) ?? unknownOffsets(tp, owner);
    });

  const children: TreeNode[] = typeInfoRows(groupRowId, detail);
  for (const member of detail.members) {
    const { kept, revoking, awaited } = reconciliation(member);
    const node: MemberNode = {
      kind: 'member',
      id: nodeIds.member(sourceId, groupId, member.memberId),
      sourceId,
      sourceKind,
      groupId,
      member,
      partitions: rowsOf(kept, member.memberId),
      revoking: rowsOf(revoking, member.memberId),
      awaited: rowsOf(awaited, null),
      groupType: detail.groupType,
      groupAssignmentEpoch: detail.consumerGroup?.assignmentEpoch ?? detail.streamsGroup?.assignmentEpoch ?? detail.shareGroup?.assignmentEpoch,
      consumerMember: consumerMembers.get(member.memberId),
      streamsMember: streamsMembers.get(member.memberId),
      consumer: consumerByMemberId.get(member.memberId),
    };
    children.push(node);
  }

  const unassigned = detail.offsets.filter((o) => o.committedOffset != null && !placedKeys.has(topicPartitionKey(o))).sort(compareTopicPartitions);
  if (unassigned.length) {
    children.push({ kind: 'unassigned', id: nodeIds.unassigned(sourceId, groupId), group: { sourceId, groupId }, partitions: unassigned, share });
  }

  const memberIds = new Set(detail.members.map((m) => m.memberId));
  const stopped = consumers.filter(
    (c) => (c.status === 'stopped' || c.status === 'crashed') && (c.memberId == null || !memberIds.has(c.memberId)),
  );
  if (stopped.length) {
    children.push({ kind: 'stoppedConsumers', id: nodeIds.stoppedConsumers(sourceId, groupId), sourceId, consumers: stopped });
  }

  if (!children.some((c) => c.kind !== 'info')) {
    children.push({
      kind: 'message',
      id: nodeIds.message(groupRowId, 'empty'),
      severity: 'info',
      text: 'No members and no committed offsets',
    });
  }
  return children;
}

/** Every partition row of a member: kept, being given up, and awaited, in topic-partition order. */
export function memberEntries(node: MemberNode): PartitionEntry[] {
  const entries: PartitionEntry[] = [
    ...node.partitions.map((offsets) => ({ offsets, role: 'assigned' as const })),
    ...(node.revoking ?? []).map((offsets) => ({ offsets, role: 'revoking' as const })),
    ...(node.awaited ?? []).map((offsets) => ({ offsets, role: 'awaited' as const })),
  ];
  return entries.sort((a, b) => compareTopicPartitions(a.offsets, b.offsets));
}

/** A member's children: its partitions, in one topic row each when it has partitions of several topics. */
export function memberChildren(node: MemberNode): TreeNode[] {
  const entries = memberEntries(node);
  const share = node.groupType === 'share';
  const topics = [...new Set(entries.map((e) => e.offsets.topic))];
  const group = { sourceId: node.sourceId, groupId: node.groupId };
  if (topics.length <= 1) {
    return entryRows(node.id, entries, share, group);
  }
  return topics.map((topic) => ({
    kind: 'topic',
    id: nodeIds.topic(node.id, topic),
    group,
    topic,
    entries: entries.filter((e) => e.offsets.topic === topic),
    share,
  }));
}

/** Partition rows under `parentId`, each with its role. */
export function entryRows(parentId: string, entries: readonly PartitionEntry[], share: boolean, group: GroupRef): TreeNode[] {
  return entries.map(({ offsets, role }) => ({
    kind: 'partition',
    id: nodeIds.partition(parentId, offsets.topic, offsets.partition),
    group,
    offsets,
    role,
    share,
  }));
}

/** Children of the unassigned node, which carries its partitions with it. */
export function partitionChildren(parentId: string, partitions: PartitionOffsets[], role: PartitionRole, share: boolean, group: GroupRef): TreeNode[] {
  return entryRows(
    parentId,
    partitions.map((offsets) => ({ offsets, role })),
    share,
    group,
  );
}
