/**
 * The record batches GroupMetadataManager builds for membership changes of a KIP-848 group (removing,
 * replacing a static member, dropping and resolving regexes), the group's metadata hash, its preferred
 * assignor and the target assignment step: pure functions of the group, so the handler stays the
 * sequence of Kafka's consumerGroupHeartbeat.
 */
import { errorMessage } from '../../../../../protocol/errors';
import { assign, subscriptionTypeOf, type GroupAssignment, type GroupSpec, type TopicMetadata } from '../../assignor/index';
import { computePreferredServerAssignor, type ConsumerGroup } from './consumerGroup';
import type { ConsumerGroupMember } from './consumerGroupMember';
import { subscribedTopicIds } from './currentAssignmentBuilder';
import * as recordsOf from './records';
import { buildTargetAssignment, computeMetadataHash, resolvedTopics, type TargetAssignmentResult } from '../targetAssignmentBuilder';
import { compileTopicRegex, resolveTopicRegex } from '../../../../common/topicRegex';
import { KafkaApiError, type TopicMetadataImage, type TopicPartitionSets } from './types';

type ServerAssignor = 'uniform' | 'range';

/** The assignor seam: Kafka's server assignors by default; tests may prepare results, as Kafka's MockPartitionAssignor does. */
export type PartitionAssignor = (name: ServerAssignor, groupSpec: GroupSpec, topics: readonly TopicMetadata[]) => GroupAssignment;

/** removeMember: the member's current assignment, target assignment and subscription tombstones. */
export function removeMemberRecords(groupId: string, memberId: string): recordsOf.ConsumerGroupRecord[] {
  return [
    recordsOf.newConsumerGroupCurrentAssignmentTombstoneRecord(groupId, memberId),
    recordsOf.newConsumerGroupTargetAssignmentTombstoneRecord(groupId, memberId),
    recordsOf.newConsumerGroupMemberSubscriptionTombstoneRecord(groupId, memberId),
  ];
}

/** ConsumerGroup.createGroupTombstoneRecords, in its order: current assignments, targets, target epoch, members, regexes, epoch. */
export function groupTombstoneRecords(group: ConsumerGroup): recordsOf.ConsumerGroupRecord[] {
  const groupId = group.groupId;
  const memberIds = [...group.members.keys()];
  return [
    ...memberIds.map((memberId) => recordsOf.newConsumerGroupCurrentAssignmentTombstoneRecord(groupId, memberId)),
    ...memberIds.map((memberId) => recordsOf.newConsumerGroupTargetAssignmentTombstoneRecord(groupId, memberId)),
    recordsOf.newConsumerGroupTargetAssignmentEpochTombstoneRecord(groupId),
    ...memberIds.map((memberId) => recordsOf.newConsumerGroupMemberSubscriptionTombstoneRecord(groupId, memberId)),
    ...[...group.resolvedRegularExpressions.keys()].map((regex) => recordsOf.newConsumerGroupRegularExpressionTombstoneRecord(groupId, regex)),
    recordsOf.newConsumerGroupEpochTombstoneRecord(groupId),
  ];
}

/** replaceMember: the old static member's tombstones, then the new one with the old one's target and assignment. */
export function replaceMemberRecords(group: ConsumerGroup, oldMember: ConsumerGroupMember, newMember: ConsumerGroupMember): recordsOf.ConsumerGroupRecord[] {
  return [
    ...removeMemberRecords(group.groupId, oldMember.memberId),
    recordsOf.newConsumerGroupMemberSubscriptionRecord(group.groupId, newMember),
    recordsOf.newConsumerGroupTargetAssignmentRecord(group.groupId, newMember.memberId, group.targetAssignmentOf(oldMember.memberId)),
    recordsOf.newConsumerGroupCurrentAssignmentRecord(group.groupId, newMember),
  ];
}

/** maybeDeleteResolvedRegularExpressions: a tombstone for a resolved regex that no remaining member uses. */
export function unusedRegexTombstones(group: ConsumerGroup, regex: string, leavingMemberIds: ReadonlyArray<string | undefined>): recordsOf.ConsumerGroupRecord[] {
  if (regex === '' || !group.resolvedRegularExpressions.has(regex)) {
    return [];
  }
  const stillUsed = [...group.members.values()].some((other) => !leavingMemberIds.includes(other.memberId) && other.subscribedTopicRegex === regex);
  return stillUsed ? [] : [recordsOf.newConsumerGroupRegularExpressionTombstoneRecord(group.groupId, regex)];
}

/** ConsumerGroup.targetAssignment(memberId, instanceId): a new static member inherits its predecessor's target. */
export function targetAssignmentOf(group: ConsumerGroup, member: ConsumerGroupMember): TopicPartitionSets {
  const own = group.targetAssignment.get(member.memberId);
  if (own !== undefined) {
    return own;
  }
  const previous = member.instanceId === null ? undefined : group.staticMembers.get(member.instanceId);
  return previous === undefined ? new Map() : group.targetAssignmentOf(previous);
}

/** The metadata hash of what these members subscribe to, by name or through the given regex resolutions. */
export function metadataHashOf(
  group: ConsumerGroup,
  members: Iterable<ConsumerGroupMember>,
  image: TopicMetadataImage,
  resolved: ReadonlyMap<string, ReadonlySet<string>> = resolvedTopics(group),
): bigint {
  const names = new Set<string>();
  for (const member of members) {
    member.subscribedTopicNames.forEach((name) => names.add(name));
    resolved.get(member.subscribedTopicRegex)?.forEach((name) => names.add(name));
  }
  return computeMetadataHash(names, image);
}

/** The group's assignor: the one most members name when the broker offers it, else the broker's default (the first). */
export function preferredServerAssignor(members: Iterable<ConsumerGroupMember>, assignors: readonly ServerAssignor[]): ServerAssignor {
  const preferred = computePreferredServerAssignor(members);
  return assignors.find((name) => name === preferred) ?? assignors[0];
}

export interface TargetAssignmentStep {
  group: ConsumerGroup;
  groupEpoch: number;
  /** Every member after this heartbeat: the updated one in, a replaced static member out. */
  members: ReadonlyMap<string, ConsumerGroupMember>;
  updatedMember?: ConsumerGroupMember;
  replacedMemberId?: string;
  timestamp: number;
  assignors: readonly ServerAssignor[];
  metadataImage: TopicMetadataImage;
  assignor?: PartitionAssignor;
}

/** updateTargetAssignment: the new target with its records; an assignor failure is UNKNOWN_SERVER_ERROR, as in Kafka. */
export function computeTargetAssignment(step: TargetAssignmentStep): TargetAssignmentResult {
  const resolved = resolvedTopics(step.group);
  const subscriptionType = subscriptionTypeOf([...step.members.values()].map((member) => ({
    subscribedTopicIds: [...subscribedTopicIds(member, resolved, step.metadataImage)],
  })));
  try {
    return buildTargetAssignment({
      group: step.group,
      groupEpoch: step.groupEpoch,
      assignorName: preferredServerAssignor(step.members.values(), step.assignors),
      subscriptionType,
      metadataImage: step.metadataImage,
      updatedMember: step.updatedMember,
      removedMemberIds: step.replacedMemberId === undefined ? [] : [step.replacedMemberId],
      timestamp: step.timestamp,
      assignor: step.assignor ?? assign,
    });
  } catch (error) {
    const message = errorMessage(error);
    throw new KafkaApiError('UNKNOWN_SERVER_ERROR', `Failed to compute a new target assignment for epoch ${step.groupEpoch}: ${message}`);
  }
}

/**
 * The result of resolving the group's regexes against the topics (Kafka's asynchronous resolver, run
 * here as a timer task): a ConsumerGroupRegularExpression record per regex whose topics changed and,
 * when any did, the group epoch bumped with the new metadata hash. Empty when nothing changed.
 */
export function resolveRegularExpressionRecords(
  group: ConsumerGroup,
  image: TopicMetadataImage,
  metadataVersion: bigint,
  now: number,
): recordsOf.ConsumerGroupRecord[] {
  const records: recordsOf.ConsumerGroupRecord[] = [];
  const topicNames = [...image.topicNames()];
  const resolved = resolvedTopics(group);
  for (const regex of group.subscribedRegularExpressions().keys()) {
    const topics = resolveTopicRegex(compileTopicRegex(regex), topicNames);
    const previous = resolved.get(regex);
    if (previous === undefined || previous.size !== topics.size || [...topics].some((topic) => !previous.has(topic))) {
      records.push(recordsOf.newConsumerGroupRegularExpressionRecord(group.groupId, regex, topics, metadataVersion, now));
      resolved.set(regex, topics);
    }
  }
  if (records.length > 0) {
    const metadataHash = metadataHashOf(group, group.members.values(), image, resolved);
    records.push(recordsOf.newConsumerGroupEpochRecord(group.groupId, group.groupEpoch + 1, metadataHash));
  }
  return records;
}
