/**
 * TargetAssignmentBuilder of Kafka 4.4 (modern.TargetAssignmentBuilder.ConsumerTargetAssignmentBuilder):
 * runs the group's server assignor over its members (with the updated member swapped in and a replaced
 * static member taken out) and returns the records of what changed: one
 * ConsumerGroupTargetAssignmentMember per member whose target changed, in the order Kafka's member
 * HashMap iterates, then the ConsumerGroupTargetAssignmentMetadata of the new epoch.
 */
import { javaHashMapKeyOrder, JavaHashOrder } from '../../../common/javaHashOrder';
import { javaStringHashCode } from '../../../../protocol/offsetsPartition';
import type { AssignedTopic, GroupAssignment, GroupSpec, MemberSpec, SubscriptionType, TopicMetadata } from '../assignor/index';
import { parseUuid } from '../assignor/uuid';
import type { ConsumerGroup } from './consumer/consumerGroup';
import type { ConsumerGroupMember } from './consumer/consumerGroupMember';
import { subscribedTopicIds } from './consumer/currentAssignmentBuilder';
import { newConsumerGroupTargetAssignmentEpochRecord, newConsumerGroupTargetAssignmentRecord, type ConsumerGroupRecord } from './consumer/records';
import { topicPartitionSetsEqual, type TopicMetadataImage, type TopicPartitionSets } from './consumer/types';

export interface TargetAssignmentInput {
  group: ConsumerGroup;
  groupEpoch: number;
  assignorName: 'uniform' | 'range';
  subscriptionType: SubscriptionType;
  metadataImage: TopicMetadataImage;
  /** The member as this heartbeat updated it (absent when a timer or a topic change triggers the assignment). */
  updatedMember?: ConsumerGroupMember;
  /** Members to leave out (a static member being replaced). */
  removedMemberIds?: readonly string[];
  timestamp: number;
  assignor: (name: 'uniform' | 'range', groupSpec: GroupSpec, topics: readonly TopicMetadata[]) => GroupAssignment;
}

export interface TargetAssignmentResult {
  records: ConsumerGroupRecord[];
  targetAssignment: Map<string, TopicPartitionSets>;
}

/** Topic ids in the order Kafka's HashMap<Uuid, …> iterates them. */
export function inUuidHashOrder(topicIds: Iterable<string>): string[] {
  const order = new JavaHashOrder<string>();
  for (const topicId of topicIds) {
    order.add(topicId, parseUuid(topicId).hash);
  }
  return order.keys();
}

function assignedTopics(assignment: TopicPartitionSets): AssignedTopic[] {
  return inUuidHashOrder(assignment.keys()).map((topicId) => ({
    topicId,
    partitions: [...(assignment.get(topicId) ?? [])].sort((a, b) => a - b),
  }));
}

export function buildTargetAssignment(input: TargetAssignmentInput): TargetAssignmentResult {
  const { group, metadataImage } = input;
  const members = new Map(group.members);
  for (const memberId of input.removedMemberIds ?? []) {
    members.delete(memberId);
  }
  const updated = input.updatedMember;
  if (updated !== undefined) {
    members.set(updated.memberId, updated);
  }
  const memberIds = [...members.keys()];
  const specs: MemberSpec[] = [];
  const topicsInUse = new Set<string>();
  for (const [memberId, member] of members) {
    let assignment = group.targetAssignmentOf(memberId);
    // A new static member that replaces a departed one starts from its predecessor's target.
    const previousMemberId = member.instanceId === null ? undefined : group.staticMembers.get(member.instanceId);
    if (previousMemberId !== undefined && previousMemberId !== memberId && !group.targetAssignment.has(memberId)) {
      assignment = group.targetAssignmentOf(previousMemberId);
    }
    const names = [...subscribedTopicIds(member, resolvedTopics(group), metadataImage)];
    const byName = new Map(names.map((topicId) => [metadataImage.topicById(topicId)?.name ?? topicId, topicId]));
    const orderedNames = [...byName.keys()];
    const subscribed = javaHashMapKeyOrder(orderedNames).map((index) => byName.get(orderedNames[index]) ?? '');
    subscribed.forEach((topicId) => topicsInUse.add(topicId));
    specs.push({
      memberId,
      instanceId: member.instanceId ?? undefined,
      rackId: member.rackId ?? undefined,
      subscribedTopicIds: subscribed,
      assignment: assignedTopics(assignment).filter(({ topicId }) => metadataImage.topicById(topicId) !== undefined),
    });
  }
  const topics: TopicMetadata[] = [...topicsInUse].map((topicId) => ({
    topicId,
    numPartitions: metadataImage.topicById(topicId)?.numPartitions ?? 0,
  }));
  const spec: GroupSpec = { members: specs, subscriptionType: input.subscriptionType };
  const computed = input.assignor(input.assignorName, spec, topics);

  const result = targetAssignmentRecords(memberIds, computed, group.targetAssignment, (memberId, next) => newConsumerGroupTargetAssignmentRecord(group.groupId, memberId, next));
  result.records.push(newConsumerGroupTargetAssignmentEpochRecord(group.groupId, input.groupEpoch, input.timestamp));
  return result;
}

/**
 * The end of TargetAssignmentBuilder.build for any modern group: each member's new target, and a record for each
 * member whose target changed, in the order Kafka's member HashMap iterates (the caller appends the epoch record).
 */
export function targetAssignmentRecords<R>(
  memberIds: readonly string[], computed: GroupAssignment, previous: ReadonlyMap<string, TopicPartitionSets>, newRecord: (memberId: string, partitions: TopicPartitionSets) => R,
): { records: R[]; targetAssignment: Map<string, TopicPartitionSets> } {
  const records: R[] = [];
  const targetAssignment = new Map<string, TopicPartitionSets>();
  for (const index of javaHashMapKeyOrder(memberIds)) {
    const memberId = memberIds[index];
    const next: TopicPartitionSets = new Map([...(computed.get(memberId) ?? [])].map(([topicId, partitions]) => [topicId, new Set(partitions)]));
    targetAssignment.set(memberId, next);
    const old = previous.get(memberId);
    if (old === undefined || !topicPartitionSetsEqual(old, next)) {
      records.push(newRecord(memberId, next));
    }
  }
  return { records, targetAssignment };
}

/** The group's resolved regexes as regex → topic names. */
export function resolvedTopics(group: ConsumerGroup): Map<string, ReadonlySet<string>> {
  return new Map([...group.resolvedRegularExpressions].map(([regex, resolved]) => [regex, resolved.topics]));
}

/** A deterministic 64-bit hash of the subscribed topics' metadata (name, id, partition count), standing in for Kafka's group metadata hash. */
export function computeMetadataHash(topicNames: Iterable<string>, metadataImage: TopicMetadataImage): bigint {
  let hash = 0xcbf29ce484222325n;
  const mask = (1n << 64n) - 1n;
  for (const name of [...topicNames].sort()) {
    const topic = metadataImage.topicByName(name);
    if (topic === undefined) {
      continue;
    }
    for (const part of [topic.name, topic.topicId, String(topic.numPartitions)]) {
      hash = ((hash ^ BigInt(javaStringHashCode(part) >>> 0)) * 0x100000001b3n) & mask;
    }
  }
  return BigInt.asIntN(64, hash);
}
