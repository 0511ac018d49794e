/**
 * ConsumerGroupDescribe (v0–v1) of a KIP-848 group, as ConsumerGroup.asDescribedGroup builds it: the
 * group's state, epochs and default assignor, and per member its current and target assignment with
 * topic names from the metadata image.
 */
import type { Assignment, DescribedGroup, Member } from '../../../../../protocol/messages/consumerGroupDescribeResponse';
import { errorCodeOf } from '../../../../../protocol/errorCodes';
import { computePreferredServerAssignor, type ConsumerGroup } from './consumerGroup';
import type { PartitionEpochs, TopicMetadataImage, TopicPartitionSets } from './types';

/** authorizedOperations when the client did not ask for them (Integer.MIN_VALUE). */
export const AUTHORIZED_OPERATIONS_OMITTED = -2147483648;
/** Member.memberType: 1 for a member that uses the consumer protocol, 0 for one that joined with JoinGroup (-1 unknown). */
const CONSUMER_MEMBER_TYPE = 1;
const CLASSIC_MEMBER_TYPE = 0;

/** A member's partitions with their topics' names, as the describe responses of consumer and share groups give them. */
export function describedAssignment(assignment: PartitionEpochs | TopicPartitionSets, image: TopicMetadataImage): Assignment {
  const topicPartitions = [];
  for (const [topicId, partitions] of assignment) {
    const topic = image.topicById(topicId);
    // A deleted topic has no name to give; Kafka leaves it out.
    if (topic !== undefined) {
      topicPartitions.push({ topicId, topicName: topic.name, partitions: [...partitions.keys()].sort((a, b) => a - b) });
    }
  }
  return { topicPartitions };
}

/** What every modern group's DescribedGroup starts with: no error, the id, the state and both epochs. */
export function describedModernGroupHeader(group: { groupId: string; state: string; groupEpoch: number; assignmentEpoch: number }) {
  return { errorCode: 0, errorMessage: null, groupId: group.groupId, groupState: group.state, groupEpoch: group.groupEpoch, assignmentEpoch: group.assignmentEpoch };
}

export function describeConsumerGroup(group: ConsumerGroup, defaultAssignor: string, image: TopicMetadataImage): DescribedGroup {
  const members: Member[] = [...group.members.values()].map((member) => ({
    memberId: member.memberId,
    instanceId: member.instanceId,
    rackId: member.rackId,
    memberEpoch: member.memberEpoch,
    clientId: member.clientId,
    clientHost: member.clientHost,
    subscribedTopicNames: [...member.subscribedTopicNames],
    subscribedTopicRegex: member.subscribedTopicRegex === '' ? null : member.subscribedTopicRegex,
    assignment: describedAssignment(member.assignedPartitions, image),
    targetAssignment: describedAssignment(group.targetAssignmentOf(member.memberId), image),
    memberType: member.classicMemberMetadata === null ? CONSUMER_MEMBER_TYPE : CLASSIC_MEMBER_TYPE,
  }));
  return {
    ...describedModernGroupHeader(group),
    assignorName: computePreferredServerAssignor(group.members.values()) ?? defaultAssignor,
    members,
    authorizedOperations: AUTHORIZED_OPERATIONS_OMITTED,
  };
}

export function unknownGroupDescription(groupId: string): DescribedGroup {
  return {
    errorCode: errorCodeOf('GROUP_ID_NOT_FOUND'),
    errorMessage: `Group ${groupId} not found.`,
    groupId,
    groupState: '',
    groupEpoch: 0,
    assignmentEpoch: 0,
    assignorName: '',
    members: [],
    authorizedOperations: AUTHORIZED_OPERATIONS_OMITTED,
  };
}
