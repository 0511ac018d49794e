import type { CheckedGroup, SpecMember } from './groupSpec';
import { PartitionAssignorError, type WorkingAssignment } from './types';

/** RangeAssignor.TopicMetadata: how a topic's partitions are cut into consecutive ranges for its subscribers. */
class TopicRanges {
  private minQuota = -1;
  private extraPartitions = -1;
  private nextRange = 0;

  constructor(readonly topicId: string, readonly numPartitions: number, public numMembers: number) {}

  /** addPartitionsToAssignment: the next subscriber's range, one longer for the first `numPartitions % numMembers`. */
  addNextRange(assignment: WorkingAssignment): void {
    if (this.minQuota === -1) {
      this.minQuota = Math.trunc(this.numPartitions / this.numMembers);
      this.extraPartitions = this.numPartitions % this.numMembers;
    }
    const start = this.nextRange;
    let quota = this.minQuota;
    if (this.extraPartitions > 0) {
      quota++;
      this.extraPartitions--;
    }
    const end = Math.min(start + quota, this.numPartitions);
    this.nextRange = end;
    if (start < end) {
      const range = new Set<number>();
      for (let partition = start; partition < end; partition++) {
        range.add(partition);
      }
      assignment.set(this.topicId, range);
    }
  }
}

function compareJavaStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** RangeAssignor.sortMemberIds: static members by instance id first, then the others by member id. */
function sortMembers(members: readonly SpecMember[]): SpecMember[] {
  return [...members].sort((a, b) => {
    if (a.instanceId !== undefined && b.instanceId !== undefined) {
      return compareJavaStrings(a.instanceId, b.instanceId);
    }
    if (a.instanceId !== undefined) {
      return -1;
    }
    return b.instanceId !== undefined ? 1 : compareJavaStrings(a.memberId, b.memberId);
  });
}

function partitionCount(group: CheckedGroup, topicId: string): number {
  const numPartitions = group.numPartitions(topicId);
  if (numPartitions === -1) {
    throw new PartitionAssignorError('Member is subscribed to a non-existent topic');
  }
  return numPartitions;
}

/**
 * Kafka 4.4's server-side RangeAssignor: for each topic, its subscribers in sorted order get consecutive ranges
 * of partitions, the first `partitions % subscribers` one partition more. Members subscribed to the same topics
 * with equal partition counts so get the same partition numbers of each (co-partitioning). It computes the
 * ranges afresh every time: the current assignment plays no part.
 */
export function rangeAssign(group: CheckedGroup): Map<string, WorkingAssignment> {
  const targetAssignment = new Map<string, WorkingAssignment>();
  if (group.members.length === 0) {
    return targetAssignment;
  }
  const members = sortMembers(group.members);
  const topics = new Map<string, TopicRanges>();
  if (group.subscriptionType === 'HOMOGENEOUS') {
    for (const topicId of members[0].subscribedTopicIds) {
      topics.set(topicId, new TopicRanges(topicId, partitionCount(group, topicId), members.length));
    }
    for (const member of members) {
      const assignment: WorkingAssignment = new Map();
      for (const topic of topics.values()) {
        topic.addNextRange(assignment);
      }
      targetAssignment.set(member.memberId, assignment);
    }
    return targetAssignment;
  }
  for (const member of members) {
    for (const topicId of member.subscribedTopicIds) {
      let topic = topics.get(topicId);
      if (topic === undefined) {
        topic = new TopicRanges(topicId, partitionCount(group, topicId), 0);
        topics.set(topicId, topic);
      }
      topic.numMembers++;
    }
  }
  for (const member of members) {
    const assignment: WorkingAssignment = new Map();
    for (const topicId of member.subscribedTopicIds) {
      (topics.get(topicId) as TopicRanges).addNextRange(assignment);
    }
    targetAssignment.set(member.memberId, assignment);
  }
  return targetAssignment;
}
