/**
 * ShareGroupDescribe for the engine's share groups (ShareGroup.asDescribedGroup of Kafka 4.4): the group's epochs
 * and state, the assignor, and each member with its subscription and the partitions it consumes (topics the
 * image no longer knows left out, as asShareGroupDescribeMember does).
 */
import { errorCodeOf } from '../../../protocol/errorCodes';
import type { DescribedGroup, Member } from '../../../protocol/messages/shareGroupDescribeResponse';
import { AUTHORIZED_OPERATIONS_OMITTED, describedAssignment, describedModernGroupHeader } from '../group/modern/consumer/consumerGroupDescribe';
import type { TopicMetadataImage } from '../group/modern/consumer/types';
import type { ShareGroup } from './shareGroup';
import type { ShareGroupMember } from './shareGroupMember';

/** group.share.assignors: the only built-in share assignor. */
export const SIMPLE_ASSIGNOR_NAME = 'simple';

/** The answer for a group that is not a share group, or none at all. */
export function shareGroupNotFound(groupId: string, message: string): DescribedGroup {
  return {
    errorCode: errorCodeOf('GROUP_ID_NOT_FOUND'), errorMessage: message, groupId, groupState: '', groupEpoch: 0, assignmentEpoch: 0,
    assignorName: '', members: [], authorizedOperations: AUTHORIZED_OPERATIONS_OMITTED,
  };
}

function describeShareMember(member: ShareGroupMember, metadataImage: TopicMetadataImage): Member {
  return {
    memberId: member.memberId,
    rackId: member.rackId,
    memberEpoch: member.memberEpoch,
    clientId: member.clientId,
    clientHost: member.clientHost,
    subscribedTopicNames: [...member.subscribedTopicNames],
    assignment: describedAssignment(member.assignedPartitions, metadataImage),
  };
}

export function describeShareGroup(group: ShareGroup, metadataImage: TopicMetadataImage): DescribedGroup {
  return {
    ...describedModernGroupHeader(group),
    assignorName: SIMPLE_ASSIGNOR_NAME,
    members: [...group.members.values()].map((member) => describeShareMember(member, metadataImage)),
    authorizedOperations: AUTHORIZED_OPERATIONS_OMITTED,
  };
}
