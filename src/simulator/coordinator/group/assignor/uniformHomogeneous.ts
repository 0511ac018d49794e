import type { CheckedGroup } from './groupSpec';
import { hashSetCopyCapacity, javaHashIterationOrder } from './javaHashSet';
import { PartitionAssignorError, type WorkingAssignment } from './types';

interface TopicIdPartition {
  topicId: string;
  partition: number;
}

function asWorking(assignment: CheckedGroup['members'][number]['assignment']): WorkingAssignment {
  return new Map(assignment.map(({ topicId, partitions }) => [topicId, new Set(partitions)]));
}

/**
 * UniformHomogeneousAssignmentBuilder (Kafka 4.4): every member subscribes to the same topics. Each member keeps
 * its current partitions up to its quota (total / members, plus one for the first `total % members` members that
 * can use it), the partitions nobody owns and those taken from members over quota are then handed out in order
 * to the members under quota. Balance first, then stickiness.
 */
export function uniformHomogeneous(group: CheckedGroup): Map<string, WorkingAssignment> {
  const targetAssignment = new Map<string, WorkingAssignment>();
  // new HashSet<>(first member's subscribed topic ids): iterated in Uuid hash order.
  const firstSubscription = group.members[0].subscribedTopicIds;
  const subscribedTopicIds = javaHashIterationOrder(
    firstSubscription.map((topicId) => group.uuid(topicId).hash),
    hashSetCopyCapacity(firstSubscription.length),
  ).map((i) => firstSubscription[i]);
  const subscribed = new Set(subscribedTopicIds);
  if (subscribedTopicIds.length === 0) {
    return targetAssignment;
  }

  const unassignedPartitions: TopicIdPartition[] = [];
  let totalPartitionsCount = 0;
  for (const topicId of subscribedTopicIds) {
    const partitionCount = group.numPartitions(topicId);
    if (partitionCount === -1) {
      throw new PartitionAssignorError(`Members are subscribed to topic ${topicId} which doesn't exist in the topic metadata.`);
    }
    for (let partition = 0; partition < partitionCount; partition++) {
      if (!group.isPartitionAssigned(topicId, partition)) {
        unassignedPartitions.push({ topicId, partition });
      }
    }
    totalPartitionsCount += partitionCount;
  }

  const memberCount = group.members.length;
  const minimumMemberQuota = Math.trunc(totalPartitionsCount / memberCount);
  let remainingMembersToGetAnExtraPartition = totalPartitionsCount % memberCount;
  const unfilledMembers: Array<{ memberId: string; remainingQuota: number }> = [];

  // maybeRevokePartitions: keep what fits the quota, revoke the rest and anything no longer subscribed.
  group.members.forEach((member, memberIndex) => {
    const assignment = asWorking(member.assignment);
    let quota = minimumMemberQuota;
    let quotaHasExtraPartition = false;
    if (remainingMembersToGetAnExtraPartition > 0) {
      quota++;
      quotaHasExtraPartition = true;
    }
    for (const { topicId, partitions } of member.assignment) {
      if (!subscribed.has(topicId)) {
        assignment.delete(topicId);
      } else if (partitions.length <= quota) {
        quota -= partitions.length;
      } else {
        const kept = assignment.get(topicId) as Set<number>;
        for (const partition of partitions) {
          if (quota > 0) {
            quota--;
          } else {
            kept.delete(partition);
            if (kept.size === 0) {
              assignment.delete(topicId);
            }
            unassignedPartitions.push({ topicId, partition });
          }
        }
      }
    }
    // A member that cannot fill its extra slot from what it has leaves it to a later member while enough remain.
    if (quota > 0 && quotaHasExtraPartition && memberCount - memberIndex > remainingMembersToGetAnExtraPartition) {
      quota--;
      quotaHasExtraPartition = false;
    }
    if (quota > 0) {
      unfilledMembers.push({ memberId: member.memberId, remainingQuota: quota });
    }
    if (quotaHasExtraPartition) {
      remainingMembersToGetAnExtraPartition--;
    }
    targetAssignment.set(member.memberId, assignment);
  });

  // assignRemainingPartitions: hand the unassigned partitions out in order to the members under quota.
  let next = 0;
  for (const { memberId, remainingQuota } of unfilledMembers) {
    const assignment = targetAssignment.get(memberId) as WorkingAssignment;
    for (let i = 0; i < remainingQuota && next < unassignedPartitions.length; i++) {
      const { topicId, partition } = unassignedPartitions[next++];
      let partitions = assignment.get(topicId);
      if (partitions === undefined) {
        partitions = new Set();
        assignment.set(topicId, partitions);
      }
      partitions.add(partition);
    }
  }
  if (next < unassignedPartitions.length) {
    throw new PartitionAssignorError('Partitions were left unassigned');
  }
  return targetAssignment;
}
