/**
 * KIP-848 consumer groups: ConsumerGroupDescribe (API 69, v0–v1) on the group's coordinator, and
 * what it says turned into the model: epochs, the server assignor, subscriptions (names and regex),
 * each member's current and target assignment with what it still has to revoke or is waiting for,
 * and the member type (classic or consumer) that shows an online migration from classic (KIP-1099).
 */
import type { ConsumerGroupInfo, ConsumerGroupMemberInfo, Member } from '../model/types';
import { ConsumerGroupDescribeRequest } from '../protocol/messages/consumerGroupDescribeRequest';
import { ConsumerGroupDescribeResponse, type DescribedGroup, type Member as DescribedMember } from '../protocol/messages/consumerGroupDescribeResponse';
import { hasLoadingCode, retryWhileCoordinatorLoads } from './coordinatorRetry';
import {
  notOfThisType,
  flattenAssignment,
  groupErrorText,
  groupStateOf,
  partitionsMissingFrom,
  sortedUnique,
  type TypedGroupDescription,
} from './groupTypes';
import { requireNegotiatedVersion, sendGenerated, type GeneratedApi } from './groupTypesWire';
import type { KafkajsBroker } from './kafkajsBridge';

export const CONSUMER_GROUP_DESCRIBE: GeneratedApi<
  ReturnType<typeof ConsumerGroupDescribeRequest.defaults>,
  ReturnType<typeof ConsumerGroupDescribeResponse.defaults>
> = { request: ConsumerGroupDescribeRequest, response: ConsumerGroupDescribeResponse };

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

/** One described group in the load pipeline's terms. */
export function typedConsumerGroup(group: DescribedGroup): TypedGroupDescription {
  if (notOfThisType(group.errorCode)) {
    return { groupId: group.groupId, groupType: 'consumer', state: 'Unknown', assignor: '', members: [], notThisType: true, error: groupErrorText(group.errorCode, group.errorMessage) };
  }
  if (group.errorCode !== 0) {
    return { groupId: group.groupId, groupType: 'consumer', state: 'Unknown', assignor: '', members: [], error: groupErrorText(group.errorCode, group.errorMessage) };
  }
  const info = consumerGroupInfo(group);
  return {
    groupId: group.groupId,
    groupType: 'consumer',
    state: groupStateOf('consumer', group.groupState),
    assignor: group.assignorName,
    groupEpoch: group.groupEpoch,
    members: consumerGroupTreeMembers(info),
    consumerGroup: info,
  };
}

/**
 * ConsumerGroupDescribe of the groups on their coordinator (one request, repeated while the
 * coordinator loads), at the highest version both sides know. Throws when the request fails as a
 * whole (the caller puts that on each group); a group's own error code lands on that group.
 */
export async function describeConsumerGroups(broker: KafkajsBroker, groupIds: readonly string[]): Promise<TypedGroupDescription[]> {
  if (groupIds.length === 0) {
    return [];
  }
  const version = requireNegotiatedVersion(broker, CONSUMER_GROUP_DESCRIBE);
  const describe = () => sendGenerated(broker, CONSUMER_GROUP_DESCRIBE, version, { groupIds: [...groupIds], includeAuthorizedOperations: false });
  const response = await retryWhileCoordinatorLoads(describe, (r) => hasLoadingCode(r.groups));
  return response.groups.map(typedConsumerGroup);
}
