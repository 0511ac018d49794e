/**
 * The member side of Kafka 4.4's streams-group heartbeat (GroupMetadataManager's helpers for
 * StreamsGroupHeartbeat): finding or creating the dynamic or static member a heartbeat speaks for, the
 * group's size limit, whether the member's metadata changed, and the task offsets a member reports.
 * Functions over the group that change nothing in it: the static member's replacement and a changed member's
 * metadata add their records to the caller's list, which StreamsGroupHeartbeatHandler then commits.
 */
import type { StreamsGroupHeartbeatRequestData } from '../../../protocol/messages/streamsGroupHeartbeatRequest';
import { KafkaApiError } from '../../common/errors';
import {
  throwIfInstanceIdIsFenced, throwIfInstanceIdIsUnreleased, throwIfStaticMemberIsUnknown, throwIfStreamsGroupMemberEpochIsInvalid,
} from './heartbeatValidation';
import * as recordsOf from './records';
import type { StreamsGroup } from './streamsGroup';
import { hasEpochRelevantMemberConfigChanged, newStreamsGroupMember, streamsMemberEquals, type StreamsGroupMember } from './streamsGroupMember';

export function throwIfStreamsGroupIsFull(group: StreamsGroup, instanceId: string | null, memberId: string, maxSize: number): void {
  if (instanceId !== null && group.staticMembers.has(instanceId)) {
    return;
  }
  if (group.members.size >= maxSize && (memberId === '' || !group.members.has(memberId))) {
    throw new KafkaApiError('GROUP_MAX_SIZE_REACHED', `The streams group has reached its maximum capacity of ${maxSize} members.`);
  }
}

/** getOrMaybeCreateDynamicStreamsGroupMember */
export function dynamicStreamsMember(group: StreamsGroup, request: StreamsGroupHeartbeatRequestData, isJoining: boolean): StreamsGroupMember {
  const existing = group.member(request.memberId);
  if (existing === undefined && !isJoining) {
    throw new KafkaApiError('UNKNOWN_MEMBER_ID', `Member ${request.memberId} is not a member of group ${group.groupId}.`);
  }
  const member = existing ?? newStreamsGroupMember(request.memberId);
  throwIfStreamsGroupMemberEpochIsInvalid(member, request.memberEpoch, request);
  return member;
}

/** getOrMaybeCreateStaticStreamsGroupMember: a rejoining static member replaces its predecessor, taking its target. */
export function staticStreamsMember(group: StreamsGroup, request: StreamsGroupHeartbeatRequestData, instanceId: string, isJoining: boolean, records: recordsOf.StreamsGroupRecord[]): StreamsGroupMember {
  const existing = group.staticMember(instanceId);
  if (isJoining) {
    if (existing === undefined) {
      return group.member(request.memberId) ?? newStreamsGroupMember(request.memberId);
    }
    throwIfInstanceIdIsUnreleased(existing, request.memberId, instanceId);
    const replacement: StreamsGroupMember = { ...existing, memberId: request.memberId, memberEpoch: 0, previousMemberEpoch: 0 };
    records.push(
      ...recordsOf.removeStreamsMemberRecords(group.groupId, existing.memberId),
      recordsOf.newStreamsGroupMemberRecord(group.groupId, replacement),
      recordsOf.newStreamsGroupTargetAssignmentRecord(group.groupId, replacement.memberId, group.targetAssignmentOf(existing.memberId)),
      recordsOf.newStreamsGroupCurrentAssignmentRecord(group.groupId, replacement),
    );
    return replacement;
  }
  const member = throwIfStaticMemberIsUnknown(existing, instanceId);
  throwIfInstanceIdIsFenced(member, request.memberId, instanceId);
  throwIfStreamsGroupMemberEpochIsInvalid(member, request.memberEpoch, request);
  return member;
}

/** hasStreamsMemberMetadataChanged: writes the member record; a static member's rejoin bumps only for what matters. */
export function hasStreamsMemberMetadataChanged(group: StreamsGroup, instanceId: string | null, member: StreamsGroupMember, updated: StreamsGroupMember, records: recordsOf.StreamsGroupRecord[]): boolean {
  if (streamsMemberEquals(member, updated)) {
    return false;
  }
  records.push(recordsOf.newStreamsGroupMemberRecord(group.groupId, updated));
  return instanceId === null || hasEpochRelevantMemberConfigChanged(member, updated);
}

function toNested(list: ReadonlyArray<{ subtopologyId: string; partition: number; offset: bigint }>): Map<string, Map<number, bigint>> {
  const result = new Map<string, Map<number, bigint>>();
  for (const { subtopologyId, partition, offset } of list) {
    const byPartition = result.get(subtopologyId) ?? new Map<number, bigint>();
    if (byPartition.has(partition)) {
      throw new KafkaApiError('INVALID_REQUEST', `Task offsets contain a duplicate entry for subtopology ${subtopologyId} and partition ${partition}.`);
    }
    byPartition.set(partition, offset);
    result.set(subtopologyId, byPartition);
  }
  return result;
}

/** MemberTaskOffsets.update: a list the request carries replaces the stored one. */
export function updatedTaskOffsets(current: ReturnType<StreamsGroup['memberTaskOffsets']>, request: StreamsGroupHeartbeatRequestData): ReturnType<StreamsGroup['memberTaskOffsets']> {
  return {
    taskOffsets: request.taskOffsets === null ? current.taskOffsets : toNested(request.taskOffsets),
    taskEndOffsets: request.taskEndOffsets === null ? current.taskEndOffsets : toNested(request.taskEndOffsets),
  };
}
