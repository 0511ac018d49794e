/**
 * Kafka 4.4's TargetAssignmentBuilder.ShareTargetAssignmentBuilder: runs SimpleAssignor over the share group's
 * members (with the updated member swapped in), only over the partitions whose share state is initialized
 * (withTopicAssignablePartitionsMap), and returns the records of what changed: one ShareGroupTargetAssignmentMember
 * per member whose target changed, in the order Kafka's member HashMap iterates, then the
 * ShareGroupTargetAssignmentMetadata of the new epoch.
 */
import { javaHashMapKeyOrder } from '../../common/javaHashOrder';
import { assign, type GroupSpec, type MemberSpec, type SubscriptionType, type TopicMetadata } from '../group/assignor/index';
import { inUuidHashOrder, targetAssignmentRecords } from '../group/modern/targetAssignmentBuilder';
import type { TopicMetadataImage, TopicPartitionSets } from '../group/modern/consumer/types';
import { newShareGroupTargetAssignmentMetadataRecord, newShareGroupTargetAssignmentRecord, type ShareGroupRecord } from './records';
import type { ShareGroup } from './shareGroup';
import type { ShareGroupMember } from './shareGroupMember';

export interface ShareTargetAssignmentInput {
  group: ShareGroup;
  groupEpoch: number;
  subscriptionType: SubscriptionType;
  metadataImage: TopicMetadataImage;
  /** The member as this heartbeat updated it (absent when nothing but the group changed). */
  updatedMember?: ShareGroupMember;
  /** The partitions the assignor may hand out: those whose share state is initialized. */
  assignablePartitions: TopicPartitionSets;
  timestamp: number;
}

export interface ShareTargetAssignmentResult {
  records: ShareGroupRecord[];
  targetAssignment: Map<string, TopicPartitionSets>;
}

function assignedTopics(assignment: TopicPartitionSets): Array<{ topicId: string; partitions: number[] }> {
  return inUuidHashOrder(assignment.keys()).map((topicId) => ({ topicId, partitions: [...(assignment.get(topicId) ?? [])].sort((a, b) => a - b) }));
}

/** TopicIds over the member's subscribed names: the ids of the topics the image knows, in the names' HashSet order. */
function subscribedTopicIds(member: ShareGroupMember, metadataImage: TopicMetadataImage): string[] {
  const names = [...member.subscribedTopicNames].filter((name) => metadataImage.topicByName(name) !== undefined);
  return javaHashMapKeyOrder(names).map((index) => metadataImage.topicByName(names[index])?.topicId ?? '');
}

export function buildShareTargetAssignment(input: ShareTargetAssignmentInput): ShareTargetAssignmentResult {
  const { group, metadataImage } = input;
  const members = new Map(group.members);
  if (input.updatedMember !== undefined) {
    members.set(input.updatedMember.memberId, input.updatedMember);
  }
  const memberIds = [...members.keys()];
  const topicsInUse = new Set<string>();
  const specs: MemberSpec[] = [...members.values()].map((member) => {
    const subscribed = subscribedTopicIds(member, metadataImage);
    subscribed.forEach((topicId) => topicsInUse.add(topicId));
    return {
      memberId: member.memberId,
      rackId: member.rackId ?? undefined,
      subscribedTopicIds: subscribed,
      assignment: assignedTopics(group.targetAssignmentOf(member.memberId)).filter(({ topicId }) => metadataImage.topicById(topicId) !== undefined),
    };
  });
  const topics: TopicMetadata[] = [...topicsInUse].map((topicId) => ({ topicId, numPartitions: metadataImage.topicById(topicId)?.numPartitions ?? 0 }));
  const spec: GroupSpec = { members: specs, subscriptionType: input.subscriptionType, topicPartitionAllowedMap: assignedTopics(input.assignablePartitions) };
  const computed = assign('simple', spec, topics);

  const result = targetAssignmentRecords(memberIds, computed, group.targetAssignment, (memberId, next) => newShareGroupTargetAssignmentRecord(group.groupId, memberId, next));
  result.records.push(newShareGroupTargetAssignmentMetadataRecord(group.groupId, input.groupEpoch, input.timestamp));
  return result;
}
