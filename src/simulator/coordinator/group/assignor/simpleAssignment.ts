/**
 * What Kafka 4.4's SimpleHomogeneousAssignmentBuilder and SimpleHeterogeneousAssignmentBuilder share: the Java
 * collections whose iteration order decides which member keeps or gets a partition, AssignorHelpers' sizing and
 * deep copy, the members' old and new assignments, and assignRemainingPartitions' walk over the unfilled members.
 */
import { JavaHashOrder } from '../../../common/javaHashOrder';
import type { CheckedGroup } from './groupSpec';
import { tableSizeFor } from './javaHashSet';
import { PartitionAssignorError, type AssignedTopic, type WorkingAssignment } from './types';

/** Integer.hashCode(): the value itself. */
export const integerHash = (value: number): number => value;

/** A java.util.HashSet: its elements in Java's iteration order. */
export class JavaHashSet<K> {
  private readonly order: JavaHashOrder<K>;

  constructor(private readonly hashOf: (key: K) => number, tableSize = 16) {
    this.order = new JavaHashOrder<K>(tableSize);
  }

  get size(): number {
    return this.order.size;
  }

  has(key: K): boolean {
    return this.order.has(key);
  }

  add(key: K): void {
    this.order.add(key, this.hashOf(key));
  }

  /** Set.remove: whether the key was there. */
  delete(key: K): boolean {
    const present = this.order.has(key);
    this.order.delete(key);
    return present;
  }

  /**
   * The elements in iteration order. The builders only remove the element an iterator just returned and add
   * nothing to a set while iterating it, so walking this snapshot is walking Java's iterator.
   */
  values(): K[] {
    return this.order.keys();
  }
}

/** A java.util.HashMap the builders fill with computeIfAbsent only: its entries in Java's iteration order. */
export class JavaHashMap<K, V> {
  private readonly keyOrder: JavaHashOrder<K>;
  private readonly valuesByKey = new Map<K, V>();

  constructor(private readonly hashOf: (key: K) => number, tableSize = 16) {
    this.keyOrder = new JavaHashOrder<K>(tableSize);
  }

  get(key: K): V | undefined {
    return this.valuesByKey.get(key);
  }

  computeIfAbsent(key: K, create: () => V): V {
    // Also for a present key: computeIfAbsent may resize first.
    this.keyOrder.addByComputeIfAbsent(key, this.hashOf(key));
    let value = this.valuesByKey.get(key);
    if (value === undefined) {
      value = create();
      this.valuesByKey.set(key, value);
    }
    return value;
  }

  /** The entries in iteration order; as with JavaHashSet.values, a snapshot is what the builders' loops see. */
  entries(): Array<[K, V]> {
    return this.keyOrder.keys().map((key) => [key, this.valuesByKey.get(key) as V]);
  }
}

/** The table of AssignorHelpers.newHashMap / newHashSet(n): a capacity of (int) ((n + 1) / 0.75f + 1.0f), in floats. */
export function assignorHelpersTableSize(numMappings: number): number {
  return tableSizeFor(Math.trunc(Math.fround(Math.fround(Math.fround(numMappings + 1) / 0.75) + 1)));
}

/** AssignorHelpers.deepCopyAssignment: a mutable copy the builder may change (contents only matter from here on). */
export function deepCopyAssignment(assignment: readonly AssignedTopic[]): WorkingAssignment {
  return new Map(assignment.map(({ topicId, partitions }) => [topicId, new Set(partitions)]));
}

/** SubscribedTopicDescriber.numPartitions, with the PartitionAssignorException both builders throw for a missing topic. */
export function numPartitionsOfSubscribed(group: CheckedGroup, topicId: string): number {
  const numPartitions = group.numPartitions(topicId);
  if (numPartitions === -1) {
    throw new PartitionAssignorError(`Members are subscribed to topic ${topicId} which doesn't exist in the topic metadata.`);
  }
  return numPartitions;
}

/**
 * oldGroupAssignment and newGroupAssignment, members as indices into memberIds: the old one is each member's
 * current assignment, never changed; a member gets a new one (a deep copy of its old) on the first change.
 * oldGroupAssignment is a HashMap<Integer, ...> sized for all members, so the builders walk it by index, ascending.
 */
export class SimpleGroupAssignment {
  private readonly newAssignments = new Map<number, WorkingAssignment>();

  constructor(private readonly group: CheckedGroup) {}

  /** The member's new assignment, made from its old one if it has none yet. */
  newAssignment(memberIndex: number): WorkingAssignment {
    let assignment = this.newAssignments.get(memberIndex);
    if (assignment === undefined) {
      assignment = deepCopyAssignment(this.group.members[memberIndex].assignment);
      this.newAssignments.set(memberIndex, assignment);
    }
    return assignment;
  }

  /** build()'s last step: each member's new assignment, or its old one when nothing changed. */
  result(): Map<string, WorkingAssignment> {
    return new Map(this.group.members.map((member, memberIndex) => [
      member.memberId,
      this.newAssignments.get(memberIndex) ?? deepCopyAssignment(member.assignment),
    ]));
  }
}

/** How assignRemainingPartitions hands one more partition to a member; returns the member's new partition count. */
export type GivePartition<P> = (memberIndex: number, partition: P) => number;

/**
 * assignRemainingPartitions: one pass over the partitions (finalAssignmentByPartition's order); each one short
 * of desiredSharing takes the next unfilled members that do not hold it yet, the member iterator running on
 * across partitions and starting over at the end of the set, until a full turn gives nothing. A member leaves
 * the set once it has its desired count. Kafka's own `membersAssigned` is not updated here, as in Kafka.
 */
export function assignRemainingPartitions<P>(
  partitions: ReadonlyArray<[P, JavaHashSet<number>]>,
  unfilledMembers: JavaHashSet<number>,
  desiredSharing: number,
  desiredAssignmentCount: (memberIndex: number) => number,
  give: GivePartition<P>,
): void {
  let turn = unfilledMembers.values();
  let next = 0;
  let partitionAssignedForThisIterator = false;
  for (const [partition, membersAssigned] of partitions) {
    let assignmentsToMake = desiredSharing - membersAssigned.size;
    while (assignmentsToMake > 0) {
      if (next >= turn.length) {
        if (!partitionAssignedForThisIterator) {
          break;
        }
        turn = unfilledMembers.values();
        next = 0;
        partitionAssignedForThisIterator = false;
      }
      if (next >= turn.length) {
        // Every unfilled member filled up while this partition still wants members (members count held partitions
        // that are no longer assignable towards their quota): Kafka's iterator.next() throws
        // NoSuchElementException here, and the coordinator fails the assignment.
        throw new PartitionAssignorError('SimpleAssignor ran out of unfilled members while a partition still wanted more (Kafka 4.4 throws java.util.NoSuchElementException)');
      }
      const memberIndex = turn[next++];
      if (!membersAssigned.has(memberIndex)) {
        const assignedCount = give(memberIndex, partition);
        assignmentsToMake--;
        partitionAssignedForThisIterator = true;
        if (assignedCount >= desiredAssignmentCount(memberIndex)) {
          unfilledMembers.delete(memberIndex);
        }
      }
    }
    if (unfilledMembers.size === 0) {
      break;
    }
  }
}

/**
 * desiredAssignmentCount: members in order, each gets ceil(precise * (i + 1)) - ceil(precise * i) of the
 * desiredSharing * numTargetPartitions assignments, in doubles as Java computes them.
 */
export function desiredAssignmentCounts(desiredSharing: number, numTargetPartitions: number, numMembers: number): number[] {
  const precise = (desiredSharing * numTargetPartitions) / numMembers;
  return Array.from({ length: numMembers }, (_, i) => Math.ceil(precise * (i + 1)) - Math.ceil(precise * i));
}

/** desiredSharing: how many members each partition wants, ceil(members / partitions), 0 without partitions. */
export function desiredSharingOf(numMembers: number, numTargetPartitions: number): number {
  return numTargetPartitions === 0 ? 0 : Math.trunc((numMembers + numTargetPartitions - 1) / numTargetPartitions);
}
