/**
 * Builds a group's subtree from one GroupDetail: members with their assigned partitions, the committed
 * partitions nobody owns, and (simulator only) the stopped consumers that could be restarted.
 */
import type { GroupDetail, PartitionOffsets, TopicPartition } from '../model/types';
import type { SimulatedConsumerInfo } from '../model/simulatedConsumer';
import { nodeIds, type MemberNode, type SourceKind, type TreeNode } from './treeNodes';

function tpKey(tp: TopicPartition): string {
  return `${tp.topic}\u0000${tp.partition}`;
}

function byTopicPartition(a: TopicPartition, b: TopicPartition): number {
  return a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition;
}

/** An assigned partition the source gave no offsets row for: everything unknown. */
function unknownOffsets(tp: TopicPartition, ownerMemberId: string): PartitionOffsets {
  return { ...tp, committedOffset: null, logStartOffset: null, logEndOffset: null, lag: null, ownerMemberId };
}

export interface GroupChildrenInput {
  sourceId: string;
  sourceKind: SourceKind;
  detail: GroupDetail;
  /** The simulator's consumers of this group; empty for real clusters. */
  consumers: SimulatedConsumerInfo[];
}

export function groupChildren({ sourceId, sourceKind, detail, consumers }: GroupChildrenInput): TreeNode[] {
  const groupId = detail.groupId;
  const offsetsByTp = new Map(detail.offsets.map((o) => [tpKey(o), o]));
  const consumerByMemberId = new Map(consumers.filter((c) => c.memberId != null).map((c) => [c.memberId as string, c]));
  const assignedKeys = new Set<string>();

  const children: TreeNode[] = detail.members.map((member): MemberNode => {
    const partitions = [...member.assignment].sort(byTopicPartition).map((tp) => {
      assignedKeys.add(tpKey(tp));
      return offsetsByTp.get(tpKey(tp)) ?? unknownOffsets(tp, member.memberId);
    });
    return {
      kind: 'member',
      id: nodeIds.member(sourceId, groupId, member.memberId),
      sourceId,
      sourceKind,
      groupId,
      member,
      partitions,
      consumer: consumerByMemberId.get(member.memberId),
    };
  });

  const unassigned = detail.offsets
    .filter((o) => o.committedOffset != null && !assignedKeys.has(tpKey(o)))
    .sort(byTopicPartition);
  if (unassigned.length) {
    children.push({ kind: 'unassigned', id: nodeIds.unassigned(sourceId, groupId), partitions: unassigned });
  }

  const memberIds = new Set(detail.members.map((m) => m.memberId));
  const stopped = consumers.filter(
    (c) => (c.status === 'stopped' || c.status === 'crashed') && (c.memberId == null || !memberIds.has(c.memberId)),
  );
  if (stopped.length) {
    children.push({ kind: 'stoppedConsumers', id: nodeIds.stoppedConsumers(sourceId, groupId), sourceId, consumers: stopped });
  }

  if (!children.length) {
    children.push({
      kind: 'message',
      id: nodeIds.message(nodeIds.group(sourceId, groupId), 'empty'),
      severity: 'info',
      text: 'No members and no committed offsets',
    });
  }
  return children;
}

/** Children of the leaf-holding nodes, which carry their data with them. */
export function partitionChildren(parentId: string, partitions: PartitionOffsets[], assigned: boolean): TreeNode[] {
  return partitions.map((offsets) => ({
    kind: 'partition',
    id: nodeIds.partition(parentId, offsets.topic, offsets.partition),
    offsets,
    assigned,
  }));
}
