/** The group administration requests kafkajs 2.2.4 lacks or cannot send the way an admin tool must. */
import { ApiKeys } from '../../protocol/messages/apis';
import { DeleteGroupsRequest } from '../../protocol/messages/deleteGroupsRequest';
import { DeleteGroupsResponse } from '../../protocol/messages/deleteGroupsResponse';
import { LeaveGroupRequest } from '../../protocol/messages/leaveGroupRequest';
import { LeaveGroupResponse } from '../../protocol/messages/leaveGroupResponse';
import { OffsetCommitRequest } from '../../protocol/messages/offsetCommitRequest';
import { OffsetCommitResponse } from '../../protocol/messages/offsetCommitResponse';
import { OffsetDeleteRequest } from '../../protocol/messages/offsetDeleteRequest';
import { OffsetDeleteResponse } from '../../protocol/messages/offsetDeleteResponse';
import { groupBy } from '../collections';
import { apiCall, requestSpec, type RequestSpec } from './apiCall';

export interface PartitionResult {
  topic: string;
  partition: number;
  errorCode: number;
}

export interface OffsetToCommit {
  topic: string;
  partition: number;
  /** A bigint goes on the wire exactly, up to 2^63-1. */
  offset: number | bigint;
  metadata?: string | null;
}

/**
 * OffsetCommit as an admin commit: generation -1, member id "" and no instance id, which the
 * coordinator accepts only while the group has no active members (what kafka-consumer-groups.sh
 * --reset-offsets --execute sends). v2 to v9: v10 names topics by id only, and Kafka 4.4's admin
 * client (OffsetCommitRequest.Builder with topic names) stops at v9 too.
 */
export function adminOffsetCommitRequest(groupId: string, offsets: readonly OffsetToCommit[]): RequestSpec<PartitionResult[]> {
  const topics = [...groupBy(offsets, (o) => o.topic)].map(([name, parts]) => ({
    name,
    partitions: parts.map((o) => ({ partitionIndex: o.partition, committedOffset: BigInt(o.offset), committedLeaderEpoch: -1, committedMetadata: o.metadata ?? '' })),
  }));
  return requestSpec(ApiKeys.OffsetCommit, 2, 9, (version) =>
    apiCall(
      OffsetCommitRequest,
      OffsetCommitResponse,
      version,
      { groupId, generationIdOrMemberEpoch: -1, memberId: '', groupInstanceId: null, retentionTimeMs: -1n, topics },
      (answer) => answer.topics.flatMap((t) => t.partitions.map((p) => ({ topic: t.name ?? '', partition: p.partitionIndex, errorCode: p.errorCode }))),
    ),
  );
}

export interface OffsetDeleteResult {
  errorCode: number;
  partitions: PartitionResult[];
}

/** OffsetDelete v0 (API 47): removes committed offsets of partitions the group does not subscribe to. */
export function offsetDeleteRequest(groupId: string, topic: string, partitions: readonly number[]): RequestSpec<OffsetDeleteResult> {
  return requestSpec(ApiKeys.OffsetDelete, 0, 0, (version) =>
    apiCall(
      OffsetDeleteRequest,
      OffsetDeleteResponse,
      version,
      { groupId, topics: [{ name: topic, partitions: partitions.map((partitionIndex) => ({ partitionIndex })) }] },
      (answer) => ({
        errorCode: answer.errorCode,
        partitions: answer.topics.flatMap((t) => t.partitions.map((p) => ({ topic: t.name, partition: p.partitionIndex, errorCode: p.errorCode }))),
      }),
    ),
  );
}

export interface LeaveGroupResult {
  errorCode: number;
  members: Array<{ memberId: string; groupInstanceId: string | null; errorCode: number }>;
}

/** The reason Kafka's admin client gives when the caller names none (RemoveMembersFromConsumerGroupOptions). */
export const ADMIN_LEAVE_REASON = 'member was removed by an admin';

/**
 * LeaveGroup v3 to v5 naming members by group.instance.id (member id ""), as
 * AdminClient.removeMembersFromConsumerGroup does; v5 carries its default reason.
 */
export function leaveGroupByInstanceIdRequest(groupId: string, instanceIds: readonly string[]): RequestSpec<LeaveGroupResult> {
  return requestSpec(ApiKeys.LeaveGroup, 3, 5, (version) =>
    apiCall(
      LeaveGroupRequest,
      LeaveGroupResponse,
      version,
      { groupId, members: instanceIds.map((groupInstanceId) => ({ memberId: '', groupInstanceId, reason: version >= 5 ? ADMIN_LEAVE_REASON : null })) },
      (answer) => ({
        errorCode: answer.errorCode,
        members: (answer.members ?? []).map((m) => ({ memberId: m.memberId, groupInstanceId: m.groupInstanceId, errorCode: m.errorCode })),
      }),
    ),
  );
}

/** DeleteGroups v1 to v3 (v2 is flexible; the answers are the same). */
export function deleteGroupsRequest(groupIds: readonly string[]): RequestSpec<Array<{ groupId: string; errorCode: number }>> {
  return requestSpec(ApiKeys.DeleteGroups, 1, 3, (version) =>
    apiCall(DeleteGroupsRequest, DeleteGroupsResponse, version, { groupsNames: [...groupIds] }, (answer) =>
      answer.results.map((r) => ({ groupId: r.groupId, errorCode: r.errorCode })),
    ),
  );
}
