/**
 * The streams-group records of `__consumer_offsets` as Kafka 4.4's StreamsCoordinatorRecordHelpers writes
 * them (record types 17 and 19–23, value version 0); a null value is a tombstone. Subtopologies are listed
 * by id and partitions ascending, as Kafka sorts them.
 */
import type { StreamsGroupRecord } from '../../../timeline/streamsGroupRecords';
import type { StreamsGroupTopologyValueData } from '../../../protocol/messages/streamsGroupTopologyValue';
import type { StreamsGroup } from './streamsGroup';
import type { StreamsGroupMember } from './streamsGroupMember';
import { sortedTaskIds, sortedTaskIdsWithEpochs, type TasksTuple } from './tasksTuple';

export type { StreamsGroupRecord } from '../../../timeline/streamsGroupRecords';

export function newStreamsGroupMemberRecord(groupId: string, member: StreamsGroupMember): StreamsGroupRecord {
  return {
    type: 'StreamsGroupMemberMetadata',
    key: { groupId, memberId: member.memberId },
    value: {
      instanceId: member.instanceId,
      rackId: member.rackId,
      clientId: member.clientId,
      clientHost: member.clientHost,
      rebalanceTimeoutMs: member.rebalanceTimeoutMs,
      topologyEpoch: member.topologyEpoch,
      processId: member.processId,
      userEndpoint: member.userEndpoint === null ? null : { ...member.userEndpoint },
      clientTags: [...member.clientTags].map(([key, value]) => ({ key, value })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)),
    },
  };
}

export function newStreamsGroupMemberTombstoneRecord(groupId: string, memberId: string): StreamsGroupRecord {
  return { type: 'StreamsGroupMemberMetadata', key: { groupId, memberId }, value: null };
}

/** newStreamsGroupMetadataRecord: the epoch with what it was computed from (the configs in the TreeMap's order). */
export function newStreamsGroupMetadataRecord(group: StreamsGroup, epoch: number, metadataHash: bigint, validatedTopologyEpoch: number, configs: ReadonlyMap<string, string>): StreamsGroupRecord {
  return {
    type: 'StreamsGroupMetadata',
    key: { groupId: group.groupId },
    value: {
      epoch,
      metadataHash,
      validatedTopologyEpoch,
      lastAssignmentConfigs: [...configs].map(([key, value]) => ({ key, value })),
      storedDescriptionTopologyEpoch: group.storedDescriptionTopologyEpoch,
      failedDescriptionTopologyEpoch: group.failedDescriptionTopologyEpoch,
    },
  };
}

export function newStreamsGroupEpochTombstoneRecord(groupId: string): StreamsGroupRecord {
  return { type: 'StreamsGroupMetadata', key: { groupId }, value: null };
}

export function newStreamsGroupTargetAssignmentRecord(groupId: string, memberId: string, tasks: TasksTuple): StreamsGroupRecord {
  return {
    type: 'StreamsGroupTargetAssignmentMember',
    key: { groupId, memberId },
    value: { activeTasks: sortedTaskIds(tasks.activeTasks), standbyTasks: sortedTaskIds(tasks.standbyTasks), warmupTasks: sortedTaskIds(tasks.warmupTasks) },
  };
}

export function newStreamsGroupTargetAssignmentTombstoneRecord(groupId: string, memberId: string): StreamsGroupRecord {
  return { type: 'StreamsGroupTargetAssignmentMember', key: { groupId, memberId }, value: null };
}

export function newStreamsGroupTargetAssignmentMetadataRecord(groupId: string, assignmentEpoch: number, assignmentTimestamp: number): StreamsGroupRecord {
  return { type: 'StreamsGroupTargetAssignmentMetadata', key: { groupId }, value: { assignmentEpoch, assignmentTimestamp: BigInt(assignmentTimestamp) } };
}

export function newStreamsGroupTargetAssignmentMetadataTombstoneRecord(groupId: string): StreamsGroupRecord {
  return { type: 'StreamsGroupTargetAssignmentMetadata', key: { groupId }, value: null };
}

export function newStreamsGroupCurrentAssignmentRecord(groupId: string, member: StreamsGroupMember): StreamsGroupRecord {
  const assigned = member.assignedTasks;
  const pending = member.tasksPendingRevocation;
  return {
    type: 'StreamsGroupCurrentMemberAssignment',
    key: { groupId, memberId: member.memberId },
    value: {
      memberEpoch: member.memberEpoch,
      previousMemberEpoch: member.previousMemberEpoch,
      state: member.state,
      activeTasks: sortedTaskIdsWithEpochs(assigned.activeTasksWithEpochs),
      standbyTasks: sortedTaskIds(assigned.standbyTasks),
      warmupTasks: sortedTaskIds(assigned.warmupTasks),
      activeTasksPendingRevocation: sortedTaskIdsWithEpochs(pending.activeTasksWithEpochs),
      standbyTasksPendingRevocation: sortedTaskIds(pending.standbyTasks),
      warmupTasksPendingRevocation: sortedTaskIds(pending.warmupTasks),
    },
  };
}

export function newStreamsGroupCurrentAssignmentTombstoneRecord(groupId: string, memberId: string): StreamsGroupRecord {
  return { type: 'StreamsGroupCurrentMemberAssignment', key: { groupId, memberId }, value: null };
}

export function newStreamsGroupTopologyRecord(groupId: string, value: StreamsGroupTopologyValueData): StreamsGroupRecord {
  return { type: 'StreamsGroupTopology', key: { groupId }, value };
}

export function newStreamsGroupTopologyTombstoneRecord(groupId: string): StreamsGroupRecord {
  return { type: 'StreamsGroupTopology', key: { groupId }, value: null };
}

/** removeStreamsMember: the member's current and target assignments, then its metadata. */
export function removeStreamsMemberRecords(groupId: string, memberId: string): StreamsGroupRecord[] {
  return [
    newStreamsGroupCurrentAssignmentTombstoneRecord(groupId, memberId),
    newStreamsGroupTargetAssignmentTombstoneRecord(groupId, memberId),
    newStreamsGroupMemberTombstoneRecord(groupId, memberId),
  ];
}

/** StreamsGroup.createGroupTombstoneRecords */
export function streamsGroupTombstoneRecords(group: StreamsGroup): StreamsGroupRecord[] {
  const groupId = group.groupId;
  const memberIds = [...group.members.keys()];
  return [
    ...memberIds.map((id) => newStreamsGroupCurrentAssignmentTombstoneRecord(groupId, id)),
    ...memberIds.map((id) => newStreamsGroupTargetAssignmentTombstoneRecord(groupId, id)),
    newStreamsGroupTargetAssignmentMetadataTombstoneRecord(groupId),
    ...memberIds.map((id) => newStreamsGroupMemberTombstoneRecord(groupId, id)),
    newStreamsGroupEpochTombstoneRecord(groupId),
    newStreamsGroupTopologyTombstoneRecord(groupId),
  ];
}
