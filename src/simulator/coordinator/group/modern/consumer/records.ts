/**
 * The consumer-group records of __consumer_offsets (GroupCoordinatorRecordHelpers of Kafka 4.4), as the
 * generated key/value types; a null value is a tombstone. The engine replays every record it writes
 * into its own state (as Kafka's coordinator does), so state and log cannot disagree.
 */
import type { TopicPartitions as CurrentTopicPartitions } from '../../../../../protocol/messages/consumerGroupCurrentMemberAssignmentValue';
import type { ConsumerGroupMember } from './consumerGroupMember';
import type { PartitionEpochs, TopicPartitionSets } from './types';

/** One record, tagged with its key's type; the type lives with the timeline's decoder of the same records. */
export type { ConsumerGroupRecord } from '../../../../../timeline/consumerGroupRecords';
import type { ConsumerGroupRecord } from '../../../../../timeline/consumerGroupRecords';

/** Where the engine appends the records it writes, in Kafka's order (the caller puts them in __consumer_offsets). */
export type ConsumerGroupRecordSink = (records: readonly ConsumerGroupRecord[]) => void;

function sortedTopicPartitions(partitions: TopicPartitionSets): Array<{ topicId: string; partitions: number[] }> {
  return [...partitions].map(([topicId, set]) => ({ topicId, partitions: [...set].sort((a, b) => a - b) }));
}

function withEpochs(partitions: PartitionEpochs): CurrentTopicPartitions[] {
  return [...partitions].map(([topicId, epochs]) => {
    const sorted = [...epochs].sort(([a], [b]) => a - b);
    return { topicId, partitions: sorted.map(([partition]) => partition), assignmentEpochs: sorted.map(([, epoch]) => epoch) };
  });
}

export function newConsumerGroupEpochRecord(groupId: string, epoch: number, metadataHash: bigint): ConsumerGroupRecord {
  return { type: 'ConsumerGroupMetadata', key: { groupId }, value: { epoch, metadataHash } };
}

export function newConsumerGroupEpochTombstoneRecord(groupId: string): ConsumerGroupRecord {
  return { type: 'ConsumerGroupMetadata', key: { groupId }, value: null };
}

export function newConsumerGroupMemberSubscriptionRecord(groupId: string, member: ConsumerGroupMember): ConsumerGroupRecord {
  return {
    type: 'ConsumerGroupMemberMetadata',
    key: { groupId, memberId: member.memberId },
    value: {
      instanceId: member.instanceId,
      rackId: member.rackId,
      clientId: member.clientId,
      clientHost: member.clientHost,
      subscribedTopicNames: [...member.subscribedTopicNames],
      subscribedTopicRegex: member.subscribedTopicRegex,
      rebalanceTimeoutMs: member.rebalanceTimeoutMs,
      serverAssignor: member.serverAssignorName,
      classicMemberMetadata: member.classicMemberMetadata === null ? null : {
        sessionTimeoutMs: member.classicMemberMetadata.sessionTimeoutMs,
        supportedProtocols: member.classicMemberMetadata.supportedProtocols.map(({ name, metadata }) => ({ name, metadata })),
      },
    },
  };
}

export function newConsumerGroupMemberSubscriptionTombstoneRecord(groupId: string, memberId: string): ConsumerGroupRecord {
  return { type: 'ConsumerGroupMemberMetadata', key: { groupId, memberId }, value: null };
}

export function newConsumerGroupTargetAssignmentRecord(groupId: string, memberId: string, partitions: TopicPartitionSets): ConsumerGroupRecord {
  return { type: 'ConsumerGroupTargetAssignmentMember', key: { groupId, memberId }, value: { topicPartitions: sortedTopicPartitions(partitions) } };
}

export function newConsumerGroupTargetAssignmentTombstoneRecord(groupId: string, memberId: string): ConsumerGroupRecord {
  return { type: 'ConsumerGroupTargetAssignmentMember', key: { groupId, memberId }, value: null };
}

export function newConsumerGroupTargetAssignmentEpochRecord(groupId: string, assignmentEpoch: number, assignmentTimestamp: number): ConsumerGroupRecord {
  return {
    type: 'ConsumerGroupTargetAssignmentMetadata',
    key: { groupId },
    value: { assignmentEpoch, assignmentTimestamp: BigInt(assignmentTimestamp) },
  };
}

export function newConsumerGroupTargetAssignmentEpochTombstoneRecord(groupId: string): ConsumerGroupRecord {
  return { type: 'ConsumerGroupTargetAssignmentMetadata', key: { groupId }, value: null };
}

export function newConsumerGroupCurrentAssignmentRecord(groupId: string, member: ConsumerGroupMember): ConsumerGroupRecord {
  return {
    type: 'ConsumerGroupCurrentMemberAssignment',
    key: { groupId, memberId: member.memberId },
    value: {
      memberEpoch: member.memberEpoch,
      previousMemberEpoch: member.previousMemberEpoch,
      state: member.state,
      assignedPartitions: withEpochs(member.assignedPartitions),
      partitionsPendingRevocation: withEpochs(member.partitionsPendingRevocation),
    },
  };
}

export function newConsumerGroupCurrentAssignmentTombstoneRecord(groupId: string, memberId: string): ConsumerGroupRecord {
  return { type: 'ConsumerGroupCurrentMemberAssignment', key: { groupId, memberId }, value: null };
}

export function newConsumerGroupRegularExpressionRecord(
  groupId: string,
  regex: string,
  topics: ReadonlySet<string>,
  version: bigint,
  timestamp: number,
): ConsumerGroupRecord {
  return {
    type: 'ConsumerGroupRegularExpression',
    key: { groupId, regularExpression: regex },
    value: { topics: [...topics].sort(), version, timestamp: BigInt(timestamp) },
  };
}

export function newConsumerGroupRegularExpressionTombstoneRecord(groupId: string, regex: string): ConsumerGroupRecord {
  return { type: 'ConsumerGroupRegularExpression', key: { groupId, regularExpression: regex }, value: null };
}
