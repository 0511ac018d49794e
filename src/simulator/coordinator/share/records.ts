/**
 * The share-group records of `__consumer_offsets` as Kafka 4.4's GroupCoordinatorRecordHelpers writes them
 * (record types 10–15, value version 0); a null value is a tombstone. Subscribed topic names are sorted, as
 * Kafka sorts them; partitions ascending.
 */
import type { ShareGroupRecord } from '../../../timeline/shareGroupRecords';
import type { TopicPartitionSets } from '../group/modern/consumer/types';
import type { ShareGroup } from './shareGroup';
import type { ShareGroupMember } from './shareGroupMember';
import type { InitMap } from './shareStatePartitions';

export type { ShareGroupRecord } from '../../../timeline/shareGroupRecords';

function topicPartitions(partitions: TopicPartitionSets): Array<{ topicId: string; partitions: number[] }> {
  return [...partitions].map(([topicId, set]) => ({ topicId, partitions: [...set].sort((a, b) => a - b) }));
}

function topicPartitionsInfo(initMap: InitMap): Array<{ topicId: string; topicName: string; partitions: number[] }> {
  return [...initMap].map(([topicId, value]) => ({ topicId, topicName: value.name, partitions: [...value.partitions].sort((a, b) => a - b) }));
}

export function newShareGroupMemberSubscriptionRecord(groupId: string, member: ShareGroupMember): ShareGroupRecord {
  return {
    type: 'ShareGroupMemberMetadata',
    key: { groupId, memberId: member.memberId },
    value: { rackId: member.rackId, clientId: member.clientId, clientHost: member.clientHost, subscribedTopicNames: [...member.subscribedTopicNames].sort() },
  };
}

export function newShareGroupMemberSubscriptionTombstoneRecord(groupId: string, memberId: string): ShareGroupRecord {
  return { type: 'ShareGroupMemberMetadata', key: { groupId, memberId }, value: null };
}

export function newShareGroupEpochRecord(groupId: string, epoch: number, metadataHash: bigint): ShareGroupRecord {
  return { type: 'ShareGroupMetadata', key: { groupId }, value: { epoch, metadataHash } };
}

export function newShareGroupEpochTombstoneRecord(groupId: string): ShareGroupRecord {
  return { type: 'ShareGroupMetadata', key: { groupId }, value: null };
}

export function newShareGroupTargetAssignmentRecord(groupId: string, memberId: string, partitions: TopicPartitionSets): ShareGroupRecord {
  return { type: 'ShareGroupTargetAssignmentMember', key: { groupId, memberId }, value: { topicPartitions: topicPartitions(partitions) } };
}

export function newShareGroupTargetAssignmentTombstoneRecord(groupId: string, memberId: string): ShareGroupRecord {
  return { type: 'ShareGroupTargetAssignmentMember', key: { groupId, memberId }, value: null };
}

export function newShareGroupTargetAssignmentMetadataRecord(groupId: string, assignmentEpoch: number, assignmentTimestamp: number): ShareGroupRecord {
  return { type: 'ShareGroupTargetAssignmentMetadata', key: { groupId }, value: { assignmentEpoch, assignmentTimestamp: BigInt(assignmentTimestamp) } };
}

export function newShareGroupTargetAssignmentMetadataTombstoneRecord(groupId: string): ShareGroupRecord {
  return { type: 'ShareGroupTargetAssignmentMetadata', key: { groupId }, value: null };
}

export function newShareGroupCurrentAssignmentRecord(groupId: string, member: ShareGroupMember): ShareGroupRecord {
  return {
    type: 'ShareGroupCurrentMemberAssignment',
    key: { groupId, memberId: member.memberId },
    value: { memberEpoch: member.memberEpoch, previousMemberEpoch: member.previousMemberEpoch, state: member.state, assignedPartitions: topicPartitions(member.assignedPartitions) },
  };
}

export function newShareGroupCurrentAssignmentTombstoneRecord(groupId: string, memberId: string): ShareGroupRecord {
  return { type: 'ShareGroupCurrentMemberAssignment', key: { groupId, memberId }, value: null };
}

/** newShareGroupStatePartitionMetadataRecord: deleting topics by id with their names. */
export function newShareGroupStatePartitionMetadataRecord(groupId: string, initializing: InitMap, initialized: InitMap, deleting: ReadonlyMap<string, string>): ShareGroupRecord {
  return {
    type: 'ShareGroupStatePartitionMetadata',
    key: { groupId },
    value: {
      initializingTopics: topicPartitionsInfo(initializing),
      initializedTopics: topicPartitionsInfo(initialized),
      deletingTopics: [...deleting].map(([topicId, topicName]) => ({ topicId, topicName })),
    },
  };
}

export function newShareGroupStatePartitionMetadataTombstoneRecord(groupId: string): ShareGroupRecord {
  return { type: 'ShareGroupStatePartitionMetadata', key: { groupId }, value: null };
}

/** ShareGroup.createGroupTombstoneRecords */
export function shareGroupTombstoneRecords(group: ShareGroup): ShareGroupRecord[] {
  const groupId = group.groupId;
  const memberIds = [...group.members.keys()];
  return [
    ...memberIds.map((id) => newShareGroupCurrentAssignmentTombstoneRecord(groupId, id)),
    ...memberIds.map((id) => newShareGroupTargetAssignmentTombstoneRecord(groupId, id)),
    newShareGroupTargetAssignmentMetadataTombstoneRecord(groupId),
    ...memberIds.map((id) => newShareGroupMemberSubscriptionTombstoneRecord(groupId, id)),
    newShareGroupStatePartitionMetadataTombstoneRecord(groupId),
    newShareGroupEpochTombstoneRecord(groupId),
  ];
}
