/**
 * A simulator KIP-848 group in the model's terms, from the engine's own ConsumerGroupDescribe answer, so the
 * tree shows it with the fields KafkaSource fills for a real broker's consumer group (epochs, server
 * assignor, each member's current and target assignment, what it still revokes or awaits).
 * The real-cluster twin is src/kafka/consumerGroupDescribe.ts (the simulator may not import it).
 */
import { compareTopicPartitions, type ConsumerGroupInfo, type ConsumerGroupMemberInfo, type Member, type TopicPartition } from '../model/types';
import type { Assignment, DescribedGroup } from '../protocol/messages/consumerGroupDescribeResponse';

function partitionsOf(assignment: Assignment): TopicPartition[] {
  return assignment.topicPartitions.flatMap(({ topicName, partitions }) => partitions.map((partition) => ({ topic: topicName, partition }))).sort(compareTopicPartitions);
}

function without(a: readonly TopicPartition[], b: readonly TopicPartition[]): TopicPartition[] {
  return a.filter((tp) => !b.some((other) => other.topic === tp.topic && other.partition === tp.partition));
}

function sortedUnique(values: Iterable<string>): string[] {
  return [...new Set(values)].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
}

/** ConsumerGroupInfo of a described group (error code 0); every simulator member speaks the consumer protocol. */
export function simConsumerGroupInfo(group: DescribedGroup): ConsumerGroupInfo {
  const members = group.members.map((m): ConsumerGroupMemberInfo => {
    const assignment = partitionsOf(m.assignment);
    const targetAssignment = partitionsOf(m.targetAssignment);
    const partitionsToRevoke = without(assignment, targetAssignment);
    const partitionsAwaited = without(targetAssignment, assignment);
    return {
      memberId: m.memberId, instanceId: m.instanceId, rackId: m.rackId, clientId: m.clientId, clientHost: m.clientHost, memberEpoch: m.memberEpoch,
      subscribedTopicNames: sortedUnique(m.subscribedTopicNames), subscribedTopicRegex: m.subscribedTopicRegex || null,
      assignment, targetAssignment, partitionsToRevoke, partitionsAwaited,
      reconciling: m.memberEpoch < group.assignmentEpoch || partitionsToRevoke.length > 0 || partitionsAwaited.length > 0,
      memberType: m.memberType === 0 ? 'classic' : m.memberType === 1 ? 'consumer' : 'unknown',
    };
  });
  return {
    groupEpoch: group.groupEpoch,
    assignmentEpoch: group.assignmentEpoch,
    assignmentPending: group.assignmentEpoch < group.groupEpoch,
    assignorName: group.assignorName,
    subscribedTopicNames: sortedUnique(members.flatMap((m) => m.subscribedTopicNames)),
    subscribedTopicRegexes: sortedUnique(members.flatMap((m) => (m.subscribedTopicRegex ? [m.subscribedTopicRegex] : []))),
    members,
    migration: null,
  };
}

/** The members as the tree reads them: the current assignment, with the target and epoch beside it. */
export function simConsumerGroupMembers(info: ConsumerGroupInfo): Member[] {
  return info.members.map((m) => ({
    memberId: m.memberId, groupInstanceId: m.instanceId, clientId: m.clientId, clientHost: m.clientHost,
    subscription: m.subscribedTopicRegex ? [...m.subscribedTopicNames, m.subscribedTopicRegex] : m.subscribedTopicNames,
    assignment: m.assignment, targetAssignment: m.targetAssignment, memberEpoch: m.memberEpoch, rackId: m.rackId,
  }));
}
