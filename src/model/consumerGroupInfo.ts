/**
 * A described KIP-848 consumer group (ConsumerGroupDescribe's answer) in the model's terms: epochs, the
 * server assignor, subscriptions, each member's current and target assignment with what it still
 * revokes or awaits, and the member types that show an online migration. One mapping for both
 * sources: KafkaSource reads the answer from a broker, the simulator from its own engine.
 */
import type { DescribedGroup, Member as DescribedMember } from '../protocol/messages/consumerGroupDescribeResponse';
import { compareTopicPartitions, topicPartitionKey, type ConsumerGroupInfo, type ConsumerGroupMemberInfo, type Member, type TopicPartition } from './types';

/** Topic partitions of a describe's assignment (topic name and partition numbers), sorted. */
export function flattenAssignment(topicPartitions: ReadonlyArray<{ topicName: string; partitions: readonly number[] }>): TopicPartition[] {
  return topicPartitions.flatMap(({ topicName, partitions }) => partitions.map((partition) => ({ topic: topicName, partition }))).sort(compareTopicPartitions);
}


/** The partitions of `a` that `b` lacks, in `a`'s order. */
export function partitionsMissingFrom(a: readonly TopicPartition[], b: readonly TopicPartition[]): TopicPartition[] {
  const inB = new Set(b.map(topicPartitionKey));
  return a.filter((tp) => !inB.has(topicPartitionKey(tp)));
}

/** Each value once, sorted (UTF-16 order, as Java's String.compareTo). */
export function sortedUnique(values: Iterable<string>): string[] {
  return [...new Set(values)].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
}

/** KIP-1099's MemberType: -1 unknown, 0 classic, 1 consumer. */
function memberTypeOf(code: number | undefined): ConsumerGroupMemberInfo['memberType'] {
  return code === 0 ? 'classic' : code === 1 ? 'consumer' : 'unknown';
}

function memberInfo(m: DescribedMember, assignmentEpoch: number): ConsumerGroupMemberInfo {
  const assignment = flattenAssignment(m.assignment.topicPartitions);
  const targetAssignment = flattenAssignment(m.targetAssignment.topicPartitions);
  const partitionsToRevoke = partitionsMissingFrom(assignment, targetAssignment);
  const partitionsAwaited = partitionsMissingFrom(targetAssignment, assignment);
  return {
    memberId: m.memberId,
    instanceId: m.instanceId,
    rackId: m.rackId,
    clientId: m.clientId,
    clientHost: m.clientHost,
    memberEpoch: m.memberEpoch,
    subscribedTopicNames: sortedUnique(m.subscribedTopicNames),
    // Brokers send "" for a member without a regex (the field is nullable, but null is not what they write).
    subscribedTopicRegex: m.subscribedTopicRegex || null,
    assignment,
    targetAssignment,
    partitionsToRevoke,
    partitionsAwaited,
    reconciling: m.memberEpoch < assignmentEpoch || partitionsToRevoke.length > 0 || partitionsAwaited.length > 0,
    memberType: memberTypeOf(m.memberType),
  };
}

/** The model's view of one described consumer group (its error code is 0). */
export function consumerGroupInfo(group: DescribedGroup): ConsumerGroupInfo {
  const members = group.members.map((m) => memberInfo(m, group.assignmentEpoch));
  const classicMembers = members.filter((m) => m.memberType === 'classic').length;
  const consumerMembers = members.filter((m) => m.memberType === 'consumer').length;
  return {
    groupEpoch: group.groupEpoch,
    assignmentEpoch: group.assignmentEpoch,
    assignmentPending: group.assignmentEpoch < group.groupEpoch,
    assignorName: group.assignorName,
    subscribedTopicNames: sortedUnique(members.flatMap((m) => m.subscribedTopicNames)),
    subscribedTopicRegexes: sortedUnique(members.flatMap((m) => (m.subscribedTopicRegex ? [m.subscribedTopicRegex] : []))),
    members,
    migration: classicMembers > 0 && consumerMembers > 0 ? { classicMembers, consumerMembers } : null,
  };
}

/** The members as the tree reads them: the current assignment, with the target and epoch beside it. */
export function consumerGroupTreeMembers(info: ConsumerGroupInfo): Member[] {
  return info.members.map((m) => ({
    memberId: m.memberId,
    groupInstanceId: m.instanceId,
    clientId: m.clientId,
    clientHost: m.clientHost,
    subscription: m.subscribedTopicRegex ? [...m.subscribedTopicNames, m.subscribedTopicRegex] : m.subscribedTopicNames,
    assignment: m.assignment,
    targetAssignment: m.targetAssignment,
    memberEpoch: m.memberEpoch,
    rackId: m.rackId,
  }));
}
