/**
 * ConsumerGroup of Kafka 4.4 (modern.consumer.ConsumerGroup): the state a KIP-848 group's records build.
 * It only changes through replay(record), as Kafka's coordinator rebuilds its groups from
 * __consumer_offsets, and it keeps the indexes the coordinator needs: static members, the inverted
 * target assignment and the epoch of each owned partition (a partition owned twice is refused).
 */
import { javaHashMapKeyOrder } from '../../../../common/javaHashOrder';
import { newConsumerGroupMember, isReconciledTo, useClassicProtocol, type ConsumerGroupMember } from './consumerGroupMember';
import type { ConsumerGroupRecord } from './records';
import { MemberState, type PartitionEpochs, type TopicPartitionSets } from './types';

/** ConsumerGroup.ConsumerGroupState, with the names ListGroups and ConsumerGroupDescribe print. */
export type ConsumerGroupState = 'Empty' | 'Assigning' | 'Reconciling' | 'Stable' | 'Dead';

/** ResolvedRegularExpression: the topic names a regex matched, when and against which metadata version. */
export interface ResolvedRegularExpression {
  topics: ReadonlySet<string>;
  version: bigint;
  timestamp: number;
}

function toPartitionEpochs(topics: ReadonlyArray<{ topicId: string; partitions: number[]; assignmentEpochs?: number[] | null }>, epoch: number): PartitionEpochs {
  return new Map(topics.map(({ topicId, partitions, assignmentEpochs }) => [
    topicId,
    new Map(partitions.map((partition, index) => [partition, assignmentEpochs?.[index] ?? epoch])),
  ]));
}

/**
 * computePreferredServerAssignor: the server assignor most members name (ties go to the one Kafka's
 * HashMap of counts iterates first), or undefined when none names one.
 */
export function computePreferredServerAssignor(members: Iterable<ConsumerGroupMember>): string | undefined {
  const counts = new Map<string, number>();
  for (const member of members) {
    if (member.serverAssignorName !== null) {
      counts.set(member.serverAssignorName, (counts.get(member.serverAssignorName) ?? 0) + 1);
    }
  }
  const names = [...counts.keys()];
  let best: string | undefined;
  for (const index of javaHashMapKeyOrder(names)) {
    if (best === undefined || (counts.get(names[index]) ?? 0) > (counts.get(best) ?? 0)) {
      best = names[index];
    }
  }
  return best;
}

export class ConsumerGroup {
  /**
   * A new group starts at group epoch 1 with an empty target assignment at epoch 1 (KAFKA-20268, Kafka 4.3), so
   * its first bump, the first member's join, gives epoch 2: epoch 0 stays the joining member's.
   */
  groupEpoch = 1;
  metadataHash = 0n;
  assignmentEpoch = 1;
  assignmentTimestamp = 0;
  state: ConsumerGroupState = 'Empty';
  /** Whether the next heartbeat must recompute the metadata hash (a subscribed topic changed). */
  metadataRefreshRequested = false;
  readonly members = new Map<string, ConsumerGroupMember>();
  /** instanceId → memberId */
  readonly staticMembers = new Map<string, string>();
  readonly targetAssignment = new Map<string, TopicPartitionSets>();
  /** topicId → partition → memberId of the target assignment. */
  readonly invertedTargetAssignment = new Map<string, Map<number, string>>();
  /** topicId → partition → epoch of the member that owns it (assigned or pending revocation). */
  private readonly partitionEpochs = new Map<string, Map<number, number>>();
  readonly resolvedRegularExpressions = new Map<string, ResolvedRegularExpression>();

  constructor(readonly groupId: string) {}

  member(memberId: string): ConsumerGroupMember | undefined {
    return this.members.get(memberId);
  }

  staticMember(instanceId: string): ConsumerGroupMember | undefined {
    const memberId = this.staticMembers.get(instanceId);
    return memberId === undefined ? undefined : this.members.get(memberId);
  }

  /** currentPartitionEpoch: the epoch of the partition's owner, or -1 when no member owns it. */
  currentPartitionEpoch(topicId: string, partition: number): number {
    return this.partitionEpochs.get(topicId)?.get(partition) ?? -1;
  }

  targetAssignmentOf(memberId: string): TopicPartitionSets {
    return this.targetAssignment.get(memberId) ?? new Map();
  }

  /** The regexes members subscribe with, and how many members use each. */
  subscribedRegularExpressions(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const member of this.members.values()) {
      if (member.subscribedTopicRegex !== '') {
        counts.set(member.subscribedTopicRegex, (counts.get(member.subscribedTopicRegex) ?? 0) + 1);
      }
    }
    return counts;
  }

  /** The topic names any member subscribes to, by name or through a resolved regex. */
  subscribedTopicNames(): Set<string> {
    const names = new Set<string>();
    for (const member of this.members.values()) {
      member.subscribedTopicNames.forEach((name) => names.add(name));
      if (member.subscribedTopicRegex !== '') {
        this.resolvedRegularExpressions.get(member.subscribedTopicRegex)?.topics.forEach((name) => names.add(name));
      }
    }
    return names;
  }

  /** numClassicProtocolMembers: the members that joined with JoinGroup. */
  numClassicProtocolMembers(): number {
    return [...this.members.values()].filter(useClassicProtocol).length;
  }

  /**
   * supportsClassicProtocols: a JoinGroup of the consumer protocol type is accepted by an empty group when
   * it names a protocol, otherwise when one of its protocols is supported by every classic member.
   */
  supportsClassicProtocols(protocolType: string, protocolNames: readonly string[]): boolean {
    if (protocolType !== 'consumer') {
      return false;
    }
    if (this.members.size === 0) {
      return protocolNames.length > 0;
    }
    const classicMembers = [...this.members.values()].filter(useClassicProtocol);
    return protocolNames.some((name) => classicMembers.every((member) => member.classicMemberMetadata?.supportedProtocols.some((p) => p.name === name)));
  }

  /** allMembersUseClassicProtocolExcept: this member of the consumer protocol is the only one. */
  allMembersUseClassicProtocolExcept(memberId: string): boolean {
    const member = this.members.get(memberId);
    return member !== undefined && !useClassicProtocol(member) && this.numClassicProtocolMembers() === this.members.size - 1;
  }

  /** waitingOnUnreleasedPartition: a partition of the member's target is still owned by another member. */
  waitingOnUnreleasedPartition(member: ConsumerGroupMember): boolean {
    if (member.state !== MemberState.UNRELEASED_PARTITIONS) {
      return false;
    }
    for (const [topicId, partitions] of this.targetAssignmentOf(member.memberId)) {
      const assigned = member.assignedPartitions.get(topicId);
      for (const partition of partitions) {
        if (assigned?.has(partition) !== true && this.currentPartitionEpoch(topicId, partition) !== -1) {
          return true;
        }
      }
    }
    return false;
  }

  replay(record: ConsumerGroupRecord): void {
    switch (record.type) {
      case 'ConsumerGroupMetadata':
        if (record.value === null) {
          this.state = 'Dead';
          return;
        }
        this.groupEpoch = record.value.epoch;
        this.metadataHash = record.value.metadataHash ?? 0n;
        break;
      case 'ConsumerGroupMemberMetadata': {
        const { memberId } = record.key;
        if (record.value === null) {
          this.removeMember(memberId);
          break;
        }
        const old = this.members.get(memberId) ?? newConsumerGroupMember(memberId);
        const value = record.value;
        this.updateMember({
          ...old,
          instanceId: value.instanceId,
          rackId: value.rackId,
          clientId: value.clientId,
          clientHost: value.clientHost,
          subscribedTopicNames: [...value.subscribedTopicNames].sort(),
          subscribedTopicRegex: value.subscribedTopicRegex ?? '',
          rebalanceTimeoutMs: value.rebalanceTimeoutMs,
          serverAssignorName: value.serverAssignor,
          classicMemberMetadata: value.classicMemberMetadata ?? null,
        });
        break;
      }
      case 'ConsumerGroupTargetAssignmentMember':
        this.setTargetAssignment(record.key.memberId, record.value === null
          ? undefined
          : new Map(record.value.topicPartitions.map(({ topicId, partitions }) => [topicId, new Set(partitions)])));
        break;
      case 'ConsumerGroupTargetAssignmentMetadata':
        this.assignmentEpoch = record.value?.assignmentEpoch ?? -1;
        this.assignmentTimestamp = Number(record.value?.assignmentTimestamp ?? 0n);
        break;
      case 'ConsumerGroupCurrentMemberAssignment': {
        const member = this.members.get(record.key.memberId);
        if (member === undefined) {
          throw new Error(`ConsumerGroupCurrentMemberAssignment for ${record.key.memberId}, who is not a member of ${this.groupId}`);
        }
        const value = record.value;
        this.updateMember(value === null
          ? { ...member, memberEpoch: -1, previousMemberEpoch: -1, state: MemberState.STABLE, assignedPartitions: new Map(), partitionsPendingRevocation: new Map() }
          : {
            ...member,
            memberEpoch: value.memberEpoch,
            previousMemberEpoch: value.previousMemberEpoch,
            state: value.state in MemberState ? value.state : MemberState.UNKNOWN,
            assignedPartitions: toPartitionEpochs(value.assignedPartitions, value.memberEpoch),
            partitionsPendingRevocation: toPartitionEpochs(value.partitionsPendingRevocation, value.memberEpoch),
          });
        break;
      }
      case 'ConsumerGroupRegularExpression':
        if (record.value === null) {
          this.resolvedRegularExpressions.delete(record.key.regularExpression);
        } else {
          this.resolvedRegularExpressions.set(record.key.regularExpression, {
            topics: new Set(record.value.topics),
            version: record.value.version,
            timestamp: Number(record.value.timestamp),
          });
        }
        break;
    }
    this.maybeUpdateGroupState();
  }

  private updateMember(member: ConsumerGroupMember): void {
    const old = this.members.get(member.memberId);
    if (old !== undefined) {
      this.removePartitionEpochs(old);
      if (old.instanceId !== null && this.staticMembers.get(old.instanceId) === old.memberId) {
        this.staticMembers.delete(old.instanceId);
      }
    }
    this.addPartitionEpochs(member);
    this.members.set(member.memberId, member);
    if (member.instanceId !== null) {
      this.staticMembers.set(member.instanceId, member.memberId);
    }
  }

  private removeMember(memberId: string): void {
    const old = this.members.get(memberId);
    if (old === undefined) {
      return;
    }
    this.removePartitionEpochs(old);
    if (old.instanceId !== null && this.staticMembers.get(old.instanceId) === memberId) {
      this.staticMembers.delete(old.instanceId);
    }
    this.members.delete(memberId);
  }

  private setTargetAssignment(memberId: string, assignment: TopicPartitionSets | undefined): void {
    for (const [topicId, partitions] of this.targetAssignment.get(memberId) ?? []) {
      const inverted = this.invertedTargetAssignment.get(topicId);
      partitions.forEach((partition) => {
        if (inverted?.get(partition) === memberId) {
          inverted.delete(partition);
        }
      });
    }
    if (assignment === undefined) {
      this.targetAssignment.delete(memberId);
      return;
    }
    this.targetAssignment.set(memberId, assignment);
    for (const [topicId, partitions] of assignment) {
      const inverted = this.invertedTargetAssignment.get(topicId) ?? new Map<number, string>();
      this.invertedTargetAssignment.set(topicId, inverted);
      partitions.forEach((partition) => inverted.set(partition, memberId));
    }
  }

  private addPartitionEpochs(member: ConsumerGroupMember): void {
    for (const owned of [member.assignedPartitions, member.partitionsPendingRevocation]) {
      for (const [topicId, partitions] of owned) {
        const epochs = this.partitionEpochs.get(topicId) ?? new Map<number, number>();
        this.partitionEpochs.set(topicId, epochs);
        for (const partition of partitions.keys()) {
          if (epochs.has(partition)) {
            throw new Error(`Cannot set the epoch of ${topicId}-${partition} to ${member.memberEpoch} because the partition is still owned at epoch ${epochs.get(partition)}`);
          }
          epochs.set(partition, member.memberEpoch);
        }
      }
    }
  }

  private removePartitionEpochs(member: ConsumerGroupMember): void {
    for (const owned of [member.assignedPartitions, member.partitionsPendingRevocation]) {
      for (const [topicId, partitions] of owned) {
        const epochs = this.partitionEpochs.get(topicId);
        for (const partition of partitions.keys()) {
          epochs?.delete(partition);
        }
      }
    }
  }

  /** maybeUpdateGroupState, exactly as Kafka's. */
  private maybeUpdateGroupState(): void {
    if (this.state === 'Dead') {
      return;
    }
    if (this.members.size === 0) {
      this.state = 'Empty';
    } else if (this.groupEpoch > this.assignmentEpoch) {
      this.state = 'Assigning';
    } else {
      this.state = [...this.members.values()].every((member) => isReconciledTo(member, this.assignmentEpoch)) ? 'Stable' : 'Reconciling';
    }
  }
}
