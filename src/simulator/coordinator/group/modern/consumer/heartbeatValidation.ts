/**
 * The checks Kafka 4.4 makes on a ConsumerGroupHeartbeat before it changes anything
 * (GroupCoordinatorService.throwIfConsumerGroupHeartbeatRequestIsInvalid and the throwIf* helpers of
 * GroupMetadataManager), with Kafka's errors and messages.
 */
import type { ConsumerGroupHeartbeatRequestData } from '../../../../../protocol/messages/consumerGroupHeartbeatRequest';
import type { ConsumerGroup } from './consumerGroup';
import type { ConsumerGroupMember } from './consumerGroupMember';
import { compileTopicRegex } from '../../../../common/topicRegex';
import { KafkaApiError, LEAVE_GROUP_MEMBER_EPOCH, LEAVE_GROUP_STATIC_MEMBER_EPOCH, type PartitionEpochs } from './types';

function invalid(message: string): never {
  throw new KafkaApiError('INVALID_REQUEST', message);
}

function throwIfEmptyString(value: string | null, message: string): void {
  if (value?.trim() === '') {
    invalid(message);
  }
}

export function throwIfConsumerGroupHeartbeatRequestIsInvalid(
  request: ConsumerGroupHeartbeatRequestData,
  apiVersion: number,
  assignors: readonly string[],
): void {
  // From version 1 the consumer generates its member id, so it is never empty.
  if (apiVersion >= 1 || request.memberEpoch > 0 || request.memberEpoch === LEAVE_GROUP_MEMBER_EPOCH) {
    throwIfEmptyString(request.memberId, "MemberId can't be empty.");
  }
  throwIfEmptyString(request.groupId, "GroupId can't be empty.");
  throwIfEmptyString(request.instanceId, "InstanceId can't be empty.");
  throwIfEmptyString(request.rackId, "RackId can't be empty.");
  if (request.memberEpoch === 0) {
    if (request.rebalanceTimeoutMs === -1) {
      invalid('RebalanceTimeoutMs must be provided in first request.');
    }
    if (request.topicPartitions === null || request.topicPartitions.length > 0) {
      invalid('TopicPartitions must be empty when (re-)joining.');
    }
    if (request.subscribedTopicNames === null && (request.subscribedTopicRegex ?? null) === null) {
      invalid('Either SubscribedTopicNames or SubscribedTopicRegex must be non-null when (re-)joining.');
    }
  } else if (request.memberEpoch === LEAVE_GROUP_STATIC_MEMBER_EPOCH) {
    if (request.instanceId === null) {
      invalid("InstanceId can't be null.");
    }
  } else if (request.memberEpoch < LEAVE_GROUP_STATIC_MEMBER_EPOCH) {
    invalid('MemberEpoch is invalid.');
  }
  if (request.serverAssignor !== null && !assignors.includes(request.serverAssignor)) {
    throw new KafkaApiError('UNSUPPORTED_ASSIGNOR',
      `ServerAssignor ${request.serverAssignor} is not supported. Supported assignors: ${assignors.join(', ')}.`);
  }
  const regex = request.subscribedTopicRegex ?? null;
  if (regex !== null && regex !== '') {
    compileTopicRegex(regex);
  }
}

/** isSubset: the member owns only partitions of `assigned`. */
function isSubset(owned: ConsumerGroupHeartbeatRequestData['topicPartitions'], assigned: PartitionEpochs): boolean {
  if (owned === null) {
    return false;
  }
  return owned.every(({ topicId, partitions }) => {
    const target = assigned.get(topicId);
    return target !== undefined && partitions.every((partition) => target.has(partition));
  });
}

export function throwIfMemberEpochIsInvalid(
  member: ConsumerGroupMember,
  receivedMemberEpoch: number,
  owned: ConsumerGroupHeartbeatRequestData['topicPartitions'],
): void {
  if (receivedMemberEpoch > member.memberEpoch) {
    throw new KafkaApiError('FENCED_MEMBER_EPOCH', `The consumer group member has a greater member epoch (${receivedMemberEpoch}) `
      + `than the one known by the group coordinator (${member.memberEpoch}). The member must abandon all its partitions and rejoin.`);
  }
  // A member that lost the response of its last epoch bump may retry with the previous epoch.
  if (receivedMemberEpoch < member.memberEpoch
    && (receivedMemberEpoch !== member.previousMemberEpoch || !isSubset(owned, member.assignedPartitions))) {
    throw new KafkaApiError('FENCED_MEMBER_EPOCH', `The consumer group member has a smaller member epoch (${receivedMemberEpoch}) `
      + `than the one known by the group coordinator (${member.memberEpoch}). The member must abandon all its partitions and rejoin.`);
  }
}

export function throwIfConsumerGroupIsFull(group: ConsumerGroup, memberId: string, instanceId: string | null, maxSize: number): void {
  const known = (memberId !== '' && group.members.has(memberId)) || (instanceId !== null && group.staticMembers.has(instanceId));
  if (group.members.size >= maxSize && !known) {
    throw new KafkaApiError('GROUP_MAX_SIZE_REACHED', `The consumer group has reached its maximum capacity of ${maxSize} members.`);
  }
}

export function unknownMember(groupId: string, memberId: string): KafkaApiError {
  return new KafkaApiError('UNKNOWN_MEMBER_ID', `Member ${memberId} is not a member of group ${groupId}.`);
}

export function throwIfStaticMemberIsUnknown(member: ConsumerGroupMember | undefined, instanceId: string): asserts member is ConsumerGroupMember {
  if (member === undefined) {
    throw new KafkaApiError('UNKNOWN_MEMBER_ID', `Instance id ${instanceId} is unknown.`);
  }
}

export function throwIfInstanceIdIsFenced(member: ConsumerGroupMember, memberId: string, instanceId: string): void {
  if (member.memberId !== memberId) {
    throw new KafkaApiError('FENCED_INSTANCE_ID', `Static member ${memberId} with instance id ${instanceId} was fenced by member ${member.memberId}.`);
  }
}

export function throwIfInstanceIdIsUnreleased(member: ConsumerGroupMember, memberId: string, instanceId: string): void {
  if (member.memberEpoch !== LEAVE_GROUP_STATIC_MEMBER_EPOCH) {
    throw new KafkaApiError('UNRELEASED_INSTANCE_ID', `Static member ${memberId} with instance id ${instanceId} cannot join the group `
      + `because the instance id is owned by ${member.memberId} member.`);
  }
}
