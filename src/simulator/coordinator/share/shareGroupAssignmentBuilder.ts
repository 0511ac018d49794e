/**
 * Kafka 4.4's ShareGroupAssignmentBuilder: a share member takes its target assignment at once (no partition
 * waits for another member to revoke it), kept to the topics it still subscribes to.
 */
import { MemberState, type TopicMetadataImage, type TopicPartitionSets } from '../group/modern/consumer/types';
import type { ShareGroupMember } from './shareGroupMember';

/** filterAssignedPartitions: only the topics of the member's subscription that the image knows. */
function filterAssignedPartitions(partitions: TopicPartitionSets, member: ShareGroupMember, metadataImage: TopicMetadataImage): TopicPartitionSets {
  const subscribedIds = new Set([...member.subscribedTopicNames].flatMap((name) => metadataImage.topicByName(name)?.topicId ?? []));
  return new Map([...partitions].filter(([topicId]) => subscribedIds.has(topicId)));
}

export function buildShareMemberAssignment(
  member: ShareGroupMember, targetAssignmentEpoch: number, targetAssignment: TopicPartitionSets, hasSubscriptionChanged: boolean, metadataImage: TopicMetadataImage,
): ShareGroupMember {
  if (targetAssignmentEpoch !== member.memberEpoch) {
    return {
      ...member,
      state: MemberState.STABLE,
      assignedPartitions: filterAssignedPartitions(targetAssignment, member, metadataImage),
      memberEpoch: targetAssignmentEpoch,
      previousMemberEpoch: member.memberEpoch,
    };
  }
  if (hasSubscriptionChanged) {
    return { ...member, assignedPartitions: filterAssignedPartitions(targetAssignment, member, metadataImage) };
  }
  return member;
}
