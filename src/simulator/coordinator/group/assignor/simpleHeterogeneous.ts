/**
 * Kafka 4.4's SimpleHeterogeneousAssignmentBuilder: the share-group (KIP-932) target assignment when members
 * subscribe to different topics. Each topic is balanced on its own among its subscribers
 * (TopicAssignmentPartialBuilder), in the order the group's HashSet of subscribed topic ids iterates.
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

/** One topic's share of the work: the partitions it may assign and its subscribers (member indices, ascending). */
interface TopicToAssign {
  topicId: string;
  targetPartitions: number[];
  subscribedMembers: number[];
}

/** TopicAssignmentPartialBuilder.build(): the four steps for one topic, partitions and members as indices. */
function assignTopic(group: CheckedGroup, assignments: SimpleGroupAssignment, topic: TopicToAssign): void {
  const { topicId, targetPartitions, subscribedMembers } = topic;
  const numGroupMembers = group.members.length;
  const desiredSharing = desiredSharingOf(subscribedMembers.length, targetPartitions.length);
  // Only subscribers want partitions of the topic: everybody else's desired count stays 0.
  const desiredCount = new Array<number>(numGroupMembers).fill(0);
  desiredAssignmentCounts(desiredSharing, targetPartitions.length, subscribedMembers.length)
    .forEach((count, i) => { desiredCount[subscribedMembers[i]] = count; });

  const finalAssignmentByPartition = new JavaHashMap<number, JavaHashSet<number>>(integerHash, assignorHelpersTableSize(targetPartitions.length));
  const finalAssignmentByMember = new JavaHashMap<number, JavaHashSet<number>>(integerHash, assignorHelpersTableSize(subscribedMembers.length));
  const newSet = (): JavaHashSet<number> => new JavaHashSet<number>(integerHash);

  // revokeUnassignablePartitions: take in every current holder of the topic's partitions, subscribed or not
  // (the topic comes from the group's subscriptions, so Kafka's "topic no longer subscribed" branch never runs;
  // a holder that does not subscribe has a desired count of 0 and loses them all next).
  group.members.forEach(({ assignment }, memberIndex) => {
    const held = assignment.find((assigned) => assigned.topicId === topicId);
    for (const partition of held?.partitions ?? []) {
      finalAssignmentByPartition.computeIfAbsent(partition, newSet).add(memberIndex);
      finalAssignmentByMember.computeIfAbsent(memberIndex, newSet).add(partition);
    }
  });

  // revokeOverfilledMembers: each keeps the last of its partitions in its set's iteration order.
  for (const [memberIndex, assignedPartitions] of finalAssignmentByMember.entries()) {
    const desired = desiredCount[memberIndex];
    for (const partition of assignedPartitions.values()) {
      if (assignedPartitions.size <= desired) {
        break;
      }
      finalAssignmentByPartition.get(partition)?.delete(memberIndex);
      assignedPartitions.delete(partition);
      assignments.newAssignment(memberIndex).get(topicId)?.delete(partition);
    }
  }

  // revokeOversharedPartitions: a partition held by more than desiredSharing members loses the first ones.
  for (const [partition, assignedMembers] of finalAssignmentByPartition.entries()) {
    let assignedMemberCount = assignedMembers.size;
    if (assignedMemberCount > desiredSharing) {
      for (const memberIndex of assignedMembers.values()) {
        if (assignments.newAssignment(memberIndex).get(topicId)?.delete(partition) === true) {
          assignedMemberCount--;
          assignedMembers.delete(memberIndex);
          finalAssignmentByMember.get(memberIndex)?.delete(partition);
        }
        if (assignedMemberCount <= desiredSharing) {
          break;
        }
      }
    }
  }

  // Partitions nobody holds join the map, their member sets sized for the subscribers.
  const subscriberTableSize = assignorHelpersTableSize(subscribedMembers.length);
  for (const partition of targetPartitions) {
    finalAssignmentByPartition.computeIfAbsent(partition, () => new JavaHashSet<number>(integerHash, subscriberTableSize));
  }

  // assignRemainingPartitions, with the subscribers short of their desired count (a set sized for all members:
  // it iterates the indices ascending).
  const unfilledMembers = new JavaHashSet<number>(integerHash, assignorHelpersTableSize(numGroupMembers));
  for (const memberIndex of subscribedMembers) {
    if ((finalAssignmentByMember.get(memberIndex)?.size ?? 0) < desiredCount[memberIndex]) {
      unfilledMembers.add(memberIndex);
    }
  }
  assignRemainingPartitions(finalAssignmentByPartition.entries(), unfilledMembers, desiredSharing,
    (memberIndex) => desiredCount[memberIndex],
    (memberIndex, partition) => {
      const memberAssignment = assignments.newAssignment(memberIndex);
      memberAssignment.set(topicId, (memberAssignment.get(topicId) ?? new Set<number>()).add(partition));
      const memberPartitions = finalAssignmentByMember.computeIfAbsent(memberIndex, newSet);
      memberPartitions.add(partition);
      return memberPartitions.size;
    });
}

export function simpleHeterogeneous(group: CheckedGroup): Map<string, WorkingAssignment> {
  // The group's subscribed topic ids: a HashSet<Uuid> filled member by member, which decides the topics' order.
  const subscribedTopicIds = new JavaHashSet<string>((topicId) => group.uuid(topicId).hash);
  const subscribedMembersByTopic = new Map<string, number[]>();
  group.members.forEach((member, memberIndex) => {
    for (const topicId of member.subscribedTopicIds) {
      subscribedTopicIds.add(topicId);
      const subscribers = subscribedMembersByTopic.get(topicId) ?? [];
      subscribers.push(memberIndex);
      subscribedMembersByTopic.set(topicId, subscribers);
    }
  });
  const topicIds = subscribedTopicIds.values();
  if (topicIds.length === 0) {
    return new Map();
  }
  // computeTargetPartitions: every topic's assignable partitions (share state initialized), before any assigning.
  const topics: TopicToAssign[] = topicIds.map((topicId) => {
    const numPartitions = numPartitionsOfSubscribed(group, topicId);
    const targetPartitions: number[] = [];
    for (let partition = 0; partition < numPartitions; partition++) {
      if (group.isPartitionAssignable(topicId, partition)) {
        targetPartitions.push(partition);
      }
    }
    return { topicId, targetPartitions, subscribedMembers: subscribedMembersByTopic.get(topicId) ?? [] };
  });
  const assignments = new SimpleGroupAssignment(group);
  for (const topic of topics) {
    assignTopic(group, assignments, topic);
  }
  return assignments.result();
}
