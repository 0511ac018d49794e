/**
 * CurrentAssignmentBuilder of Kafka 4.4 (modern.consumer.CurrentAssignmentBuilder): the reconciliation
 * engine of the consumer group protocol. Given a member and its target assignment, it takes the next
 * step towards the target: revoke first (UNREVOKED_PARTITIONS, same epoch), then move to the target
 * epoch with the partitions that are free, waiting for the others (UNRELEASED_PARTITIONS), so no
 * partition is ever owned by two members.
 */
import type { ConsumerGroupHeartbeatRequestData } from '../../../../../protocol/messages/consumerGroupHeartbeatRequest';
import { withMemberEpoch, type ConsumerGroupMember } from './consumerGroupMember';
import { KafkaApiError, MemberState, type PartitionEpochs, type TopicMetadataImage, type TopicPartitionSets } from './types';

type OwnedTopicPartitions = ConsumerGroupHeartbeatRequestData['topicPartitions'];

/** The inputs of one reconciliation step, as the builder's with* methods set them. */
export interface ReconcileInput {
  metadataImage: TopicMetadataImage;
  targetAssignmentEpoch: number;
  targetAssignment: TopicPartitionSets;
  /** The subscription changed in this heartbeat: strip topics the member no longer subscribes to, even when stable. */
  hasSubscriptionChanged?: boolean;
  /** Regex → the topic names it resolved to. */
  resolvedRegularExpressions: ReadonlyMap<string, ReadonlySet<string>>;
  /** The epoch of the partition's current owner, or -1 when nobody owns it. */
  currentPartitionEpoch: (topicId: string, partition: number) => number;
  /** The partitions the member reported in this heartbeat; null when it did not send them. */
  ownedTopicPartitions: OwnedTopicPartitions;
}

/** The topic names the member subscribes to: its names and the topics its regex resolved to (an unresolved regex matches none). */
function subscribedTopicNames(member: ConsumerGroupMember, resolvedRegularExpressions: ReadonlyMap<string, ReadonlySet<string>>): Set<string> {
  const names = new Set(member.subscribedTopicNames);
  if (member.subscribedTopicRegex !== '') {
    for (const name of resolvedRegularExpressions.get(member.subscribedTopicRegex) ?? []) {
      names.add(name);
    }
  }
  return names;
}

/** The member's subscribed topic ids: its names and its resolved regex, those the image knows (TopicIds). */
export function subscribedTopicIds(
  member: ConsumerGroupMember,
  resolvedRegularExpressions: ReadonlyMap<string, ReadonlySet<string>>,
  metadataImage: TopicMetadataImage,
): Set<string> {
  const ids = new Set<string>();
  for (const name of subscribedTopicNames(member, resolvedRegularExpressions)) {
    const topic = metadataImage.topicByName(name);
    if (topic !== undefined) {
      ids.add(topic.topicId);
    }
  }
  return ids;
}

function ownsRevokedPartitions(owned: OwnedTopicPartitions, pendingRevocation: PartitionEpochs): boolean {
  if (owned === null) {
    return true;
  }
  return owned.some(({ topicId, partitions }) => {
    const pending = pendingRevocation.get(topicId);
    return pending !== undefined && partitions.some((partition) => pending.has(partition));
  });
}

function withAssignment(
  member: ConsumerGroupMember,
  state: MemberState,
  memberEpoch: number,
  assignedPartitions: PartitionEpochs,
  partitionsPendingRevocation: PartitionEpochs,
): ConsumerGroupMember {
  return { ...withMemberEpoch(member, memberEpoch), state, assignedPartitions, partitionsPendingRevocation };
}

/** updateCurrentAssignment: drops no-longer-subscribed topics without a full reconciliation. */
function updateCurrentAssignment(member: ConsumerGroupMember, input: ReconcileInput): ConsumerGroupMember {
  const subscribed = subscribedTopicIds(member, input.resolvedRegularExpressions, input.metadataImage);
  const assigned = member.assignedPartitions;
  let newAssigned: Map<string, ReadonlyMap<number, number>> | undefined;
  let newPending: Map<string, ReadonlyMap<number, number>> | undefined;
  // Kafka's TopicIds is empty when no name is subscribed, even if some names are not topics (yet).
  if (subscribedTopicNames(member, input.resolvedRegularExpressions).size === 0 && member.partitionsPendingRevocation.size === 0) {
    // Kafka makes a new (empty) map here, so the member counts as changed even when it had nothing.
    newAssigned = new Map();
    newPending = new Map(assigned);
  } else {
    for (const [topicId, partitions] of assigned) {
      if (!subscribed.has(topicId)) {
        newAssigned ??= new Map(assigned);
        newPending ??= new Map(member.partitionsPendingRevocation);
        newAssigned.delete(topicId);
        newPending.set(topicId, new Map([...(newPending.get(topicId) ?? []), ...partitions]));
      }
    }
  }
  if (newAssigned === undefined || newPending === undefined) {
    return member;
  }
  if (newPending.size > 0 && ownsRevokedPartitions(input.ownedTopicPartitions, newPending)) {
    return withAssignment(member, MemberState.UNREVOKED_PARTITIONS, member.memberEpoch, newAssigned, newPending);
  }
  // Removed partitions were already revoked: shrink the assignment and keep the state.
  return { ...withMemberEpoch(member, member.memberEpoch), assignedPartitions: newAssigned };
}

/** computeNextAssignment: the next step towards the target assignment. */
function computeNextAssignment(member: ConsumerGroupMember, memberEpoch: number, input: ReconcileInput): ConsumerGroupMember {
  const subscribed = subscribedTopicIds(member, input.resolvedRegularExpressions, input.metadataImage);
  let hasUnreleasedPartitions = false;
  const newAssigned = new Map<string, Map<number, number>>();
  const newPendingRevocation = new Map<string, Map<number, number>>();
  const newPendingAssignment = new Map<string, number[]>();
  const allTopicIds = new Set([...input.targetAssignment.keys(), ...member.assignedPartitions.keys()]);
  for (const topicId of allTopicIds) {
    // A topic the member no longer subscribes to has an empty target.
    const target = subscribed.has(topicId) ? input.targetAssignment.get(topicId) ?? new Set<number>() : new Set<number>();
    const current = member.assignedPartitions.get(topicId) ?? new Map<number, number>();
    // New assigned = previous assigned ∩ target; pending revocation = previous assigned − new assigned.
    const assigned = new Map([...current].filter(([partition]) => target.has(partition)));
    const pendingRevocation = new Map([...current].filter(([partition]) => !assigned.has(partition)));
    // Pending assignment = target − new assigned − unreleased (owned by another member; a partition this
    // member itself still has pending revocation is not unreleased).
    const ownPending = member.partitionsPendingRevocation.get(topicId);
    const pendingAssignment: number[] = [];
    for (const partition of target) {
      if (assigned.has(partition)) {
        continue;
      }
      if (input.currentPartitionEpoch(topicId, partition) !== -1 && !(ownPending?.has(partition) ?? false)) {
        hasUnreleasedPartitions = true;
      } else {
        pendingAssignment.push(partition);
      }
    }
    if (assigned.size > 0) {
      newAssigned.set(topicId, assigned);
    }
    if (pendingRevocation.size > 0) {
      newPendingRevocation.set(topicId, pendingRevocation);
    }
    if (pendingAssignment.length > 0) {
      newPendingAssignment.set(topicId, pendingAssignment);
    }
  }

  if (newPendingRevocation.size > 0 && ownsRevokedPartitions(input.ownedTopicPartitions, newPendingRevocation)) {
    // Revoke first: the member stays at its epoch until it acknowledges the revocation.
    return withAssignment(member, MemberState.UNREVOKED_PARTITIONS, memberEpoch, newAssigned, newPendingRevocation);
  }
  if (newPendingAssignment.size > 0) {
    for (const [topicId, partitions] of newPendingAssignment) {
      const topicEpochs = newAssigned.get(topicId) ?? new Map<number, number>();
      newAssigned.set(topicId, topicEpochs);
      for (const partition of partitions) {
        topicEpochs.set(partition, input.targetAssignmentEpoch);
      }
    }
  }
  const state = hasUnreleasedPartitions ? MemberState.UNRELEASED_PARTITIONS : MemberState.STABLE;
  return withAssignment(member, state, input.targetAssignmentEpoch, newAssigned, new Map());
}

/** CurrentAssignmentBuilder.build(): the member's next state, or the same member when it cannot progress. */
export function reconcileMember(member: ConsumerGroupMember, input: ReconcileInput): ConsumerGroupMember {
  switch (member.state) {
    case MemberState.STABLE:
      if (member.memberEpoch !== input.targetAssignmentEpoch) {
        return computeNextAssignment(member, member.memberEpoch, input);
      }
      return input.hasSubscriptionChanged === true ? updateCurrentAssignment(member, input) : member;
    case MemberState.UNREVOKED_PARTITIONS:
      if (ownsRevokedPartitions(input.ownedTopicPartitions, member.partitionsPendingRevocation)) {
        return input.hasSubscriptionChanged === true ? updateCurrentAssignment(member, input) : member;
      }
      return computeNextAssignment(member, member.memberEpoch, input);
    case MemberState.UNRELEASED_PARTITIONS:
      return computeNextAssignment(member, member.memberEpoch, input);
    case MemberState.UNKNOWN:
      if (input.ownedTopicPartitions === null || input.ownedTopicPartitions.length > 0) {
        throw new KafkaApiError('FENCED_MEMBER_EPOCH', 'The consumer group member is in a unknown state. '
          + 'The member must abandon all its partitions and rejoin.');
      }
      return computeNextAssignment(member, input.targetAssignmentEpoch, input);
  }
}
