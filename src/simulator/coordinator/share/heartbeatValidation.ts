/**
 * The checks Kafka 4.4 makes on a ShareGroupHeartbeat before touching a group, with its messages:
 * GroupCoordinatorService.throwIfShareGroupHeartbeatRequestIsInvalid and GroupMetadataManager's
 * throwIfShareGroupMemberEpochIsInvalid and throwIfShareGroupIsFull.
 */
import type { ShareGroupHeartbeatRequestData } from '../../../protocol/messages/shareGroupHeartbeatRequest';
import { KafkaApiError } from '../../common/errors';
import type { ShareGroup } from './shareGroup';
import type { ShareGroupMember } from './shareGroupMember';

/** Utils.throwIfEmptyString: null passes, blank does not. */
function throwIfEmptyString(value: string | null, message: string): void {
  if (value !== null && value.trim().length === 0) {
    throw new KafkaApiError('INVALID_REQUEST', message);
  }
}

export function throwIfShareGroupHeartbeatRequestIsInvalid(request: ShareGroupHeartbeatRequestData): void {
  throwIfEmptyString(request.memberId, "MemberId can't be empty.");
  throwIfEmptyString(request.groupId, "GroupId can't be empty.");
  throwIfEmptyString(request.rackId, "RackId can't be empty.");
  if (request.memberEpoch === 0) {
    if (request.subscribedTopicNames === null || request.subscribedTopicNames.length === 0) {
      throw new KafkaApiError('INVALID_REQUEST', 'SubscribedTopicNames must be set in first request.');
    }
  } else if (request.memberEpoch < -1) {
    throw new KafkaApiError('INVALID_REQUEST', 'MemberEpoch is invalid.');
  }
}

export function throwIfShareGroupMemberEpochIsInvalid(member: ShareGroupMember, receivedMemberEpoch: number): void {
  if (receivedMemberEpoch === 0) {
    return;
  }
  if (receivedMemberEpoch > member.memberEpoch) {
    throw new KafkaApiError('FENCED_MEMBER_EPOCH', `The share group member has a greater member epoch (${receivedMemberEpoch}) than the one known by the group coordinator (${member.memberEpoch}). The member must abandon all its partitions and rejoin.`);
  }
  if (receivedMemberEpoch < member.memberEpoch && receivedMemberEpoch !== member.previousMemberEpoch) {
    throw new KafkaApiError('FENCED_MEMBER_EPOCH', `The share group member has a smaller member epoch (${receivedMemberEpoch}) than the one known by the group coordinator (${member.memberEpoch}), and it does not match the previous member epoch (${member.previousMemberEpoch}). The member must abandon all its partitions and rejoin.`);
  }
}

export function throwIfShareGroupIsFull(group: ShareGroup, memberId: string, maxSize: number): void {
  if (group.members.size >= maxSize && (memberId.length === 0 || !group.members.has(memberId))) {
    throw new KafkaApiError('GROUP_MAX_SIZE_REACHED', `The share group has reached its maximum capacity of ${maxSize} members.`);
  }
}

/** ShareGroup.getOrMaybeCreateMember(memberId, false) */
export function existingShareMember(group: ShareGroup, memberId: string): ShareGroupMember {
  const member = group.member(memberId);
  if (member === undefined) {
    throw new KafkaApiError('UNKNOWN_MEMBER_ID', `Member ${memberId} is not a member of group ${group.groupId}.`);
  }
  return member;
}
