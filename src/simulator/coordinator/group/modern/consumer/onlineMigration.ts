/**
 * The consumer-group side of KIP-848's online migration (Kafka 4.4's ConsumerGroup.fromClassicGroup and
 * createConsumerGroupRecords for an upgrade, ClassicGroup.fromConsumerGroup's reading of the consumer
 * group for a downgrade), over plain snapshots so the classic coordinator stays outside the engine.
 */
import { decodeSubscription } from '../../../../../protocol/consumerProtocol';
import { ConsumerGroup } from './consumerGroup';
import { newConsumerGroupMember, type ConsumerGroupMember } from './consumerGroupMember';
import * as recordsOf from './records';
import { KafkaApiError, MemberState, type ClassicMemberMetadata, type TopicMetadataImage, type TopicPartitionSets } from './types';

export interface NamedTopicPartition {
  topic: string;
  partition: number;
}

/** A member of a classic group as the conversions read and build it. */
export interface ClassicMemberSnapshot {
  memberId: string;
  instanceId: string | null;
  clientId: string;
  clientHost: string;
  rebalanceTimeoutMs: number;
  classicMemberMetadata: ClassicMemberMetadata;
  /** Its partitions: the last assignment of the classic group (upgrade), its target assignment (downgrade). */
  assignment: readonly NamedTopicPartition[];
}

/** A classic group converted to a consumer group, not yet registered: its state and the records that create it. */
export interface UpgradedGroup {
  group: ConsumerGroup;
  records: recordsOf.ConsumerGroupRecord[];
}

function byTopicId(partitions: readonly NamedTopicPartition[], image: TopicMetadataImage): Map<string, Set<number>> {
  const result = new Map<string, Set<number>>();
  for (const { topic, partition } of partitions) {
    const topicId = image.topicByName(topic)?.topicId;
    // A deleted topic has no id to convert to; Kafka's toTopicPartitionMap leaves it out.
    if (topicId !== undefined) {
      result.set(topicId, (result.get(topicId) ?? new Set()).add(partition));
    }
  }
  return result;
}

function withEpoch(partitions: TopicPartitionSets, epoch: number): Map<string, Map<number, number>> {
  return new Map([...partitions].map(([topicId, set]) => [topicId, new Map([...set].map((partition) => [partition, epoch]))]));
}

/**
 * ConsumerGroup.fromClassicGroup then createConsumerGroupRecords: every member keeps its partitions as
 * its target and current assignment, Stable at the classic generation, which becomes the group and
 * assignment epoch. The group is built by replaying the records, as the coordinator would load them.
 * A subscription that does not parse is GROUP_ID_NOT_FOUND, as Kafka answers.
 */
export function consumerGroupFromClassicGroup(
  groupId: string,
  generationId: number,
  protocolName: string,
  members: readonly ClassicMemberSnapshot[],
  image: TopicMetadataImage,
): UpgradedGroup {
  const converted: Array<{ member: ConsumerGroupMember; assignment: TopicPartitionSets }> = members.map((snapshot) => {
    const metadata = snapshot.classicMemberMetadata.supportedProtocols.find((protocol) => protocol.name === protocolName)?.metadata;
    let subscription;
    try {
      subscription = decodeSubscription(metadata ?? new Uint8Array(0));
    } catch {
      throw new KafkaApiError('GROUP_ID_NOT_FOUND',
        `Cannot upgrade the classic group ${groupId} to consumer group because the embedded consumer protocol is malformed.`);
    }
    const assignment = byTopicId(snapshot.assignment, image);
    const member: ConsumerGroupMember = {
      ...newConsumerGroupMember(snapshot.memberId),
      memberEpoch: generationId,
      previousMemberEpoch: generationId,
      state: MemberState.STABLE,
      instanceId: snapshot.instanceId,
      rackId: subscription.rackId,
      rebalanceTimeoutMs: snapshot.rebalanceTimeoutMs,
      clientId: snapshot.clientId,
      clientHost: snapshot.clientHost,
      subscribedTopicNames: [...new Set(subscription.topics)].sort(),
      assignedPartitions: withEpoch(assignment, generationId),
      classicMemberMetadata: snapshot.classicMemberMetadata,
    };
    return { member, assignment };
  });
  const records: recordsOf.ConsumerGroupRecord[] = [
    ...converted.map(({ member }) => recordsOf.newConsumerGroupMemberSubscriptionRecord(groupId, member)),
    recordsOf.newConsumerGroupEpochRecord(groupId, generationId, 0n),
    ...converted.map(({ member, assignment }) => recordsOf.newConsumerGroupTargetAssignmentRecord(groupId, member.memberId, assignment)),
    // Timestamp 0: the first heartbeat may compute the next target assignment at once.
    recordsOf.newConsumerGroupTargetAssignmentEpochRecord(groupId, generationId, 0),
    ...converted.map(({ member }) => recordsOf.newConsumerGroupCurrentAssignmentRecord(groupId, member)),
  ];
  const group = new ConsumerGroup(groupId);
  records.forEach((record) => group.replay(record));
  return { group, records };
}

/** A member's target assignment by topic name, sorted (what a classic group's member holds). */
export function namedTargetAssignment(group: ConsumerGroup, memberId: string, image: TopicMetadataImage): NamedTopicPartition[] {
  const assignment: NamedTopicPartition[] = [];
  for (const [topicId, partitions] of group.targetAssignmentOf(memberId)) {
    const topic = image.topicById(topicId)?.name;
    if (topic !== undefined) {
      [...partitions].sort((a, b) => a - b).forEach((partition) => assignment.push({ topic, partition }));
    }
  }
  return assignment;
}

/**
 * What ClassicGroup.fromConsumerGroup reads of the consumer group: every member but the leaving one,
 * each with its target assignment by topic name (the classic group starts Stable with it, then rebalances).
 */
export function classicMembersOfConsumerGroup(group: ConsumerGroup, leavingMemberId: string, image: TopicMetadataImage): ClassicMemberSnapshot[] {
  const snapshots: ClassicMemberSnapshot[] = [];
  for (const member of group.members.values()) {
    if (member.memberId === leavingMemberId || member.classicMemberMetadata === null) {
      continue;
    }
    const assignment = namedTargetAssignment(group, member.memberId, image);
    snapshots.push({
      memberId: member.memberId,
      instanceId: member.instanceId,
      clientId: member.clientId,
      clientHost: member.clientHost,
      rebalanceTimeoutMs: member.rebalanceTimeoutMs,
      classicMemberMetadata: member.classicMemberMetadata,
      assignment,
    });
  }
  return snapshots;
}
