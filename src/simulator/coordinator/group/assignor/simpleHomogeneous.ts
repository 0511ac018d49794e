/**
 * Kafka 4.4's SimpleHomogeneousAssignmentBuilder: the share-group (KIP-932) target assignment when every member
 * subscribes to the same topics. Balance first (each member within one of the others, each partition shared by
 * desiredSharing members), then stickiness (members keep what they hold where balance allows).
 */
import type { CheckedGroup } from './groupSpec';
import {
  assignorHelpersTableSize,
  assignRemainingPartitions,
  desiredAssignmentCounts,
  desiredSharingOf,
  integerHash,
  JavaHashMap,
  JavaHashSet,
  numPartitionsOfSubscribed,
  SimpleGroupAssignment,
} from './simpleAssignment';
import type { WorkingAssignment } from './types';

/** A TopicIdPartition as a map key: `topicId:partition` (base64 topic ids hold no colon). */
type TopicIdPartitionKey = string;

function splitKey(key: TopicIdPartitionKey): [string, number] {
  const colon = key.lastIndexOf(':');
  return [key.slice(0, colon), Number(key.slice(colon + 1))];
}

export function simpleHomogeneous(group: CheckedGroup): Map<string, WorkingAssignment> {
  const memberIds = group.members;
  // Every member subscribes to the same set: Kafka reads the first member's, in its iteration order.
  const subscribedTopicIds = memberIds[0].subscribedTopicIds;
  if (subscribedTopicIds.length === 0) {
    return new Map();
  }
  const subscribed = memberIds[0].subscribed;
  const numGroupMembers = memberIds.length;

  // TopicIdPartition is a record: its hashCode is 31 * topicId.hashCode() + partitionId.
  const topicIdPartitionHash = (key: TopicIdPartitionKey): number => {
    const [topicId, partition] = splitKey(key);
    return (Math.imul(31, group.uuid(topicId).hash) + partition) | 0;
  };

  // computeTargetPartitions: the subscribed topics' partitions the group may assign (share state initialized).
  const targetPartitions: TopicIdPartitionKey[] = [];
  for (const topicId of subscribedTopicIds) {
    const numPartitions = numPartitionsOfSubscribed(group, topicId);
    for (let partition = 0; partition < numPartitions; partition++) {
      if (group.isPartitionAssignable(topicId, partition)) {
        targetPartitions.push(`${topicId}:${partition}`);
      }
    }
  }
  const desiredSharing = desiredSharingOf(numGroupMembers, targetPartitions.length);
  const desiredAssignmentCount = desiredAssignmentCounts(desiredSharing, targetPartitions.length, numGroupMembers);

  const assignments = new SimpleGroupAssignment(group);
  const finalAssignmentByPartition = new JavaHashMap<TopicIdPartitionKey, JavaHashSet<number>>(
    topicIdPartitionHash, assignorHelpersTableSize(targetPartitions.length));
  const finalAssignmentByMember = new Map<number, JavaHashSet<TopicIdPartitionKey>>();
  const memberFinalAssignment = (memberIndex: number): JavaHashSet<TopicIdPartitionKey> => {
    let partitions = finalAssignmentByMember.get(memberIndex);
    if (partitions === undefined) {
      partitions = new JavaHashSet<TopicIdPartitionKey>(topicIdPartitionHash);
      finalAssignmentByMember.set(memberIndex, partitions);
    }
    return partitions;
  };
  // Member indices below the table size: both sets iterate ascending.
  const unfilledMembers = new JavaHashSet<number>(integerHash, assignorHelpersTableSize(numGroupMembers));
  const overfilledMembers = new JavaHashSet<number>(integerHash, assignorHelpersTableSize(numGroupMembers));

  // revokeUnassignablePartitions: take in the current assignment of subscribed topics, drop other topics, and
  // sort the members into unfilled and overfilled.
  group.members.forEach(({ assignment }, memberIndex) => {
    let memberAssignedPartitions = 0;
    const desired = desiredAssignmentCount[memberIndex];
    for (const { topicId, partitions } of assignment) {
      if (subscribed.has(topicId)) {
        for (const partition of partitions) {
          const key = `${topicId}:${partition}`;
          memberAssignedPartitions++;
          finalAssignmentByPartition.computeIfAbsent(key, () => new JavaHashSet<number>(integerHash)).add(memberIndex);
          memberFinalAssignment(memberIndex).add(key);
          if (memberAssignedPartitions >= desired) {
            // Kafka copies the assignment here (an overfilled member loses partitions next).
            assignments.newAssignment(memberIndex);
          }
        }
      } else {
        assignments.newAssignment(memberIndex).delete(topicId);
      }
    }
    if (memberAssignedPartitions < desired) {
      unfilledMembers.add(memberIndex);
    } else if (memberAssignedPartitions > desired) {
      overfilledMembers.add(memberIndex);
    }
  });

  // revokeOverfilledMembers: each keeps the last of its partitions in its set's iteration order.
  for (const memberIndex of overfilledMembers.values()) {
    const desired = desiredAssignmentCount[memberIndex];
    const memberPartitions = memberFinalAssignment(memberIndex);
    if (memberPartitions.size > desired) {
      for (const key of memberPartitions.values()) {
        const [topicId, partition] = splitKey(key);
        assignments.newAssignment(memberIndex).get(topicId)?.delete(partition);
        finalAssignmentByPartition.get(key)?.delete(memberIndex);
        memberPartitions.delete(key);
        if (memberPartitions.size === desired) {
          break;
        }
      }
    }
  }

  // revokeOversharedPartitions: a partition held by more than desiredSharing members loses the first ones.
  for (const [key, assignedMembers] of finalAssignmentByPartition.entries()) {
    let assignedMemberCount = assignedMembers.size;
    if (assignedMemberCount > desiredSharing) {
      const [topicId, partition] = splitKey(key);
      for (const memberIndex of assignedMembers.values()) {
        if (assignments.newAssignment(memberIndex).get(topicId)?.delete(partition) === true) {
          assignedMemberCount--;
          assignedMembers.delete(memberIndex);
          memberFinalAssignment(memberIndex).delete(key);
          unfilledMembers.add(memberIndex);
        }
        if (assignedMemberCount <= desiredSharing) {
          break;
        }
      }
    }
  }

  // Partitions nobody holds join the map (after the held ones, in the table's order).
  for (const key of targetPartitions) {
    finalAssignmentByPartition.computeIfAbsent(key, () => new JavaHashSet<number>(integerHash));
  }

  if (unfilledMembers.size > 0) {
    assignRemainingPartitions(finalAssignmentByPartition.entries(), unfilledMembers, desiredSharing,
      (memberIndex) => desiredAssignmentCount[memberIndex],
      (memberIndex, key) => {
        const [topicId, partition] = splitKey(key);
        const memberAssignment = assignments.newAssignment(memberIndex);
        const partitions = memberAssignment.get(topicId) ?? new Set<number>();
        memberAssignment.set(topicId, partitions.add(partition));
        const memberPartitions = memberFinalAssignment(memberIndex);
        memberPartitions.add(key);
        return memberPartitions.size;
      });
  }
  return assignments.result();
}
