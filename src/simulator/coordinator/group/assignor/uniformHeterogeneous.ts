import type { CheckedGroup } from './groupSpec';
import { MemberAssignmentBalancer } from './memberAssignmentBalancer';
import { PartitionAssignorError, type WorkingAssignment } from './types';
import { compareUuids } from './uuid';

/** How often the balancing pass may sweep over the topics (Kafka's MAX_ITERATION_COUNT). */
const MAX_ITERATION_COUNT = 16;

/**
 * UniformHeterogeneousAssignmentBuilder (Kafka 4.4): members subscribe to different topics. Members keep their
 * current partitions of topics they still subscribe to; the unowned partitions go, topic by topic, to the least
 * loaded subscribers; then partitions move from the most to the least loaded subscribers of each topic until no
 * topic can improve the balance. Topics go in order of partitions per subscriber (most first), then fewer
 * subscribers, then topic id; members are numbered in GroupSpec.memberIds() order, which breaks the ties.
 */
class HeterogeneousBuilder {
  private readonly memberIds: string[];
  private readonly topicSubscribers = new Map<string, number[]>();
  private readonly targetAssignment = new Map<string, WorkingAssignment>();
  private readonly sizes: Int32Array;
  private readonly partitionOwners = new Map<string, Int32Array>();

  constructor(private readonly group: CheckedGroup) {
    this.memberIds = group.members.map((member) => member.memberId);
    this.sizes = new Int32Array(this.memberIds.length);
    group.members.forEach((member, memberIndex) => {
      for (const topicId of member.subscribedTopicIds) {
        if (group.numPartitions(topicId) === -1) {
          throw new PartitionAssignorError(`Members are subscribed to topic ${topicId} which doesn't exist in the topic metadata.`);
        }
        let subscribers = this.topicSubscribers.get(topicId);
        if (subscribers === undefined) {
          subscribers = [];
          this.topicSubscribers.set(topicId, subscribers);
        }
        subscribers.push(memberIndex);
      }
    });
    for (const topicId of this.topicSubscribers.keys()) {
      this.partitionOwners.set(topicId, new Int32Array(group.numPartitions(topicId)).fill(-1));
    }
  }

  build(): Map<string, WorkingAssignment> {
    if (this.topicSubscribers.size === 0) {
      return this.targetAssignment;
    }
    this.maybeRevokePartitions();
    this.assignRemainingPartitions(this.unassignedPartitions());
    this.balance();
    return this.targetAssignment;
  }

  private compareTopics = (a: string, b: string): number => {
    const aPartitions = this.group.numPartitions(a);
    const bPartitions = this.group.numPartitions(b);
    const aSubscribers = (this.topicSubscribers.get(a) as number[]).length;
    const bSubscribers = (this.topicSubscribers.get(b) as number[]).length;
    return Math.sign(bPartitions / bSubscribers - aPartitions / aSubscribers) ||
      aSubscribers - bSubscribers ||
      compareUuids(this.group.uuid(a), this.group.uuid(b));
  };

  private sortTopicIds(topicIds: Iterable<string>): string[] {
    return [...topicIds].sort(this.compareTopics);
  }

  /** Keeps each member's partitions of the topics it still subscribes to and drops the others. */
  private maybeRevokePartitions(): void {
    this.group.members.forEach((member, memberIndex) => {
      const assignment: WorkingAssignment = new Map();
      for (const { topicId, partitions } of member.assignment) {
        if (member.subscribed.has(topicId)) {
          this.sizes[memberIndex] += partitions.length;
          const owners = this.partitionOwners.get(topicId) as Int32Array;
          for (const partition of partitions) {
            owners[partition] = memberIndex;
          }
          assignment.set(topicId, new Set(partitions));
        }
      }
      this.targetAssignment.set(member.memberId, assignment);
    });
  }

  private unassignedPartitions(): Map<string, number[]> {
    const unassigned = new Map<string, number[]>();
    for (const [topicId, owners] of this.partitionOwners) {
      const free: number[] = [];
      owners.forEach((owner, partition) => {
        if (owner === -1) {
          free.push(partition);
        }
      });
      if (free.length > 0) {
        unassigned.set(topicId, free);
      }
    }
    return unassigned;
  }

  private assignRemainingPartitions(unassigned: Map<string, number[]>): void {
    const balancer = new MemberAssignmentBalancer(this.sizes);
    for (const topicId of this.sortTopicIds(unassigned.keys())) {
      balancer.initialize(this.topicSubscribers.get(topicId) as number[]);
      for (const partition of unassigned.get(topicId) as number[]) {
        this.assignPartition(topicId, partition, balancer.nextLeastLoadedMember());
      }
    }
  }

  /** Sweeps the topics with two or more subscribers until a whole sweep moves nothing (at most 16 sweeps). */
  private balance(): void {
    const topicIds = [...this.topicSubscribers.keys()].filter((topicId) => (this.topicSubscribers.get(topicId) as number[]).length >= 2);
    if (topicIds.length === 0) {
      return;
    }
    const sortedTopicIds = this.sortTopicIds(topicIds);
    const balancer = new MemberAssignmentBalancer(this.sizes);
    let lastRebalanceTopicIndex = -1;
    for (let i = 0; i < MAX_ITERATION_COUNT; i++) {
      for (let topicIndex = 0; topicIndex < sortedTopicIds.length; topicIndex++) {
        if (topicIndex === lastRebalanceTopicIndex) {
          return;
        }
        const reassigned = this.balanceTopic(sortedTopicIds[topicIndex], balancer);
        if (reassigned > 0 || lastRebalanceTopicIndex === -1) {
          lastRebalanceTopicIndex = topicIndex;
        }
      }
    }
  }

  /** Moves partitions of one topic from its most to its least loaded subscribers; returns how many moved. */
  private balanceTopic(topicId: string, balancer: MemberAssignmentBalancer): number {
    let reassigned = 0;
    const owners = this.partitionOwners.get(topicId) as Int32Array;
    if (balancer.initialize(this.topicSubscribers.get(topicId) as number[]) <= 1) {
      return reassigned;
    }
    // The topic's partitions grouped by owner; each owner gives from the end of its group.
    const partitions = Array.from(owners, (_, partition) => partition).sort((a, b) => owners[a] - owners[b] || a - b);
    const start = new Map<number, number>();
    const end = new Map<number, number>();
    partitions.forEach((partition, i) => {
      const owner = owners[partition];
      if (!start.has(owner)) {
        start.set(owner, i);
      }
      end.set(owner, i + 1);
    });
    while (!balancer.isBalanced()) {
      for (;;) {
        const mostLoaded = balancer.nextMostLoadedMember();
        if (mostLoaded === -1) {
          return reassigned;
        }
        const ownedEnd = end.get(mostLoaded);
        if (ownedEnd !== undefined && ownedEnd - (start.get(mostLoaded) as number) > 0) {
          const partition = partitions[ownedEnd - 1];
          end.set(mostLoaded, ownedEnd - 1);
          const leastLoaded = balancer.nextLeastLoadedMember();
          if (balancer.isBalanced()) {
            return reassigned;
          }
          this.assignPartition(topicId, partition, leastLoaded);
          reassigned++;
          break;
        }
        balancer.excludeMostLoadedMember();
      }
    }
    return reassigned;
  }

  private assignPartition(topicId: string, partition: number, memberIndex: number): void {
    const owners = this.partitionOwners.get(topicId) as Int32Array;
    const oldOwner = owners[partition];
    if (oldOwner !== -1) {
      const assignment = this.targetAssignment.get(this.memberIds[oldOwner]) as WorkingAssignment;
      const partitions = assignment.get(topicId);
      if (partitions !== undefined) {
        partitions.delete(partition);
        if (partitions.size === 0) {
          assignment.delete(topicId);
        }
      }
      this.sizes[oldOwner]--;
    }
    const assignment = this.targetAssignment.get(this.memberIds[memberIndex]) as WorkingAssignment;
    let partitions = assignment.get(topicId);
    if (partitions === undefined) {
      partitions = new Set();
      assignment.set(topicId, partitions);
    }
    partitions.add(partition);
    owners[partition] = memberIndex;
    this.sizes[memberIndex]++;
  }
}

export function uniformHeterogeneous(group: CheckedGroup): Map<string, WorkingAssignment> {
  return new HeterogeneousBuilder(group).build();
}
