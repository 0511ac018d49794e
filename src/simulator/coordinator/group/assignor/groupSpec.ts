import { javaHashMapKeyOrder } from '../../../common/javaHashOrder';
import {
  PartitionAssignorError,
  type AssignedTopic,
  type GroupSpec,
  type MemberSpec,
  type SubscriptionType,
  type TopicMetadata,
} from './types';
import { parseUuid, type KafkaUuid } from './uuid';

/** A member as the assignors read it, after its input was checked. */
export interface SpecMember {
  memberId: string;
  instanceId?: string;
  /** Canonical topic ids (see KafkaUuid.text), in the input's order. */
  subscribedTopicIds: readonly string[];
  subscribed: ReadonlySet<string>;
  assignment: readonly AssignedTopic[];
}

/**
 * The checked GroupSpec and SubscribedTopicDescriber together: members in the order GroupSpec.memberIds()
 * iterates them (the HashMap the coordinator fills), the inverted current assignment behind
 * isPartitionAssigned, and the topics' partition counts.
 */
export interface CheckedGroup {
  members: readonly SpecMember[];
  subscriptionType: SubscriptionType;
  /** SubscribedTopicDescriber.numPartitions: -1 for a topic that is not in the metadata. */
  numPartitions(topicId: string): number;
  /** The Uuid of a subscribed topic id, for its hashCode and compareTo. */
  uuid(topicId: string): KafkaUuid;
  /** GroupSpec.isPartitionAssigned: whether some member's current assignment holds the partition. */
  isPartitionAssigned(topicId: string, partition: number): boolean;
  /** GroupSpec.isPartitionAssignable: in the topicPartitionAllowedMap, or any partition when there is none. */
  isPartitionAssignable(topicId: string, partition: number): boolean;
}

/**
 * Kafka's GroupType as the checks need it: in a share group (KIP-932) several members may hold one partition, and
 * only its spec may carry a topicPartitionAllowedMap.
 */
export type AssignorGroupType = 'consumer' | 'share';

function isPartitionNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 0x7fffffff;
}

function checkTopics(topics: readonly TopicMetadata[], canonicalId: (text: string) => string): Map<string, number> {
  if (!Array.isArray(topics)) {
    throw new PartitionAssignorError('The topic metadata must be a list of topics');
  }
  const partitionCounts = new Map<string, number>();
  for (const topic of topics) {
    const topicId = canonicalId(topic.topicId);
    if (partitionCounts.has(topicId)) {
      throw new PartitionAssignorError(`Topic ${topic.topicId} appears twice in the topic metadata`);
    }
    if (!isPartitionNumber(topic.numPartitions)) {
      throw new PartitionAssignorError(`Topic ${topic.topicId} has an invalid partition count ${String(topic.numPartitions)}`);
    }
    partitionCounts.set(topicId, topic.numPartitions);
  }
  return partitionCounts;
}

function checkMember(
  member: MemberSpec,
  partitionCounts: Map<string, number>,
  owners: Map<string, Map<number, string>>,
  canonicalId: (text: string) => string,
  groupType: AssignorGroupType,
): SpecMember {
  if (typeof member.memberId !== 'string' || member.memberId === '') {
    throw new PartitionAssignorError('Every member needs a non-empty member id');
  }
  const where = `Member ${member.memberId}`;
  if (!Array.isArray(member.subscribedTopicIds)) {
    throw new PartitionAssignorError(`${where} has no list of subscribed topic ids`);
  }
  const subscribed = new Set<string>();
  for (const text of member.subscribedTopicIds) {
    const topicId = canonicalId(text);
    if (subscribed.has(topicId)) {
      throw new PartitionAssignorError(`${where} subscribes to topic ${topicId} twice`);
    }
    subscribed.add(topicId);
  }
  const assignment = member.assignment ?? [];
  if (!Array.isArray(assignment)) {
    throw new PartitionAssignorError(`${where} has an assignment that is not a list of topics`);
  }
  const assignedTopics = new Set<string>();
  const canonicalAssignment: AssignedTopic[] = [];
  for (const { topicId: text, partitions } of assignment) {
    const topicId = canonicalId(text);
    if (assignedTopics.has(topicId)) {
      throw new PartitionAssignorError(`${where} lists topic ${topicId} twice in its assignment`);
    }
    assignedTopics.add(topicId);
    if (!Array.isArray(partitions)) {
      throw new PartitionAssignorError(`${where} has no list of partitions for topic ${topicId}`);
    }
    const partitionCount = partitionCounts.get(topicId);
    const topicOwners = owners.get(topicId) ?? new Map<number, string>();
    owners.set(topicId, topicOwners);
    for (const partition of partitions) {
      if (!isPartitionNumber(partition) || (partitionCount !== undefined && partition >= partitionCount)) {
        throw new PartitionAssignorError(`${where} is assigned partition ${String(partition)} of topic ${topicId}, which does not exist`);
      }
      const owner = topicOwners.get(partition);
      if (owner === member.memberId) {
        throw new PartitionAssignorError(`${where} lists partition ${partition} of topic ${topicId} twice`);
      }
      // Share groups share partitions: only a consumer group's partition has at most one owner.
      if (owner !== undefined && groupType === 'consumer') {
        throw new PartitionAssignorError(`Partition ${partition} of topic ${topicId} is assigned to both ${owner} and ${member.memberId}`);
      }
      topicOwners.set(partition, member.memberId);
    }
    canonicalAssignment.push({ topicId, partitions });
  }
  return {
    memberId: member.memberId,
    instanceId: member.instanceId ?? undefined,
    subscribedTopicIds: [...subscribed],
    subscribed,
    assignment: canonicalAssignment,
  };
}

/** The topicPartitionAllowedMap as sets of partitions per canonical topic id; undefined when every partition is assignable. */
function checkAllowedPartitions(
  allowed: GroupSpec['topicPartitionAllowedMap'],
  groupType: AssignorGroupType,
  canonicalId: (text: string) => string,
): Map<string, Set<number>> | undefined {
  if (allowed === undefined || allowed === null) {
    return undefined;
  }
  if (groupType !== 'share') {
    throw new PartitionAssignorError('Only a share group spec can limit the assignable partitions (topicPartitionAllowedMap)');
  }
  if (!Array.isArray(allowed)) {
    throw new PartitionAssignorError('The topicPartitionAllowedMap must be a list of topics');
  }
  const result = new Map<string, Set<number>>();
  for (const { topicId: text, partitions } of allowed) {
    const topicId = canonicalId(text);
    if (result.has(topicId)) {
      throw new PartitionAssignorError(`Topic ${topicId} appears twice in the topicPartitionAllowedMap`);
    }
    if (!Array.isArray(partitions) || !partitions.every(isPartitionNumber)) {
      throw new PartitionAssignorError(`Topic ${topicId} has an invalid list of assignable partitions`);
    }
    result.set(topicId, new Set(partitions));
  }
  return result;
}

/**
 * Checks a GroupSpec and topic metadata, with every topic id in its canonical text from here on (a clear error for anything Kafka's coordinator could not have built:
 * duplicate members or topics, malformed topic ids, partitions that do not exist or, in a consumer group, have two
 * owners) and orders the members as GroupSpecImpl.memberIds() iterates them.
 */
export function checkGroup(groupSpec: GroupSpec, topics: readonly TopicMetadata[], groupType: AssignorGroupType = 'consumer'): CheckedGroup {
  if (groupSpec.subscriptionType !== 'HOMOGENEOUS' && groupSpec.subscriptionType !== 'HETEROGENEOUS') {
    throw new PartitionAssignorError(`Unknown subscription type ${String(groupSpec.subscriptionType)}`);
  }
  if (!Array.isArray(groupSpec.members)) {
    throw new PartitionAssignorError('The group spec must list its members');
  }
  // Topic ids repeat across members: parse each text once.
  const uuids = new Map<string, KafkaUuid>();
  const uuidOf = (text: string): KafkaUuid => {
    let uuid = uuids.get(text);
    if (uuid === undefined) {
      uuid = parseUuid(text);
      uuids.set(text, uuid);
    }
    return uuid;
  };
  const canonicalId = (text: string): string => uuidOf(text).text;
  const partitionCounts = checkTopics(topics, canonicalId);
  const allowedPartitions = checkAllowedPartitions(groupSpec.topicPartitionAllowedMap, groupType, canonicalId);
  const owners = new Map<string, Map<number, string>>();
  const seen = new Set<string>();
  const inputOrder = groupSpec.members.map((member) => {
    const checked = checkMember(member, partitionCounts, owners, canonicalId, groupType);
    if (seen.has(checked.memberId)) {
      throw new PartitionAssignorError(`Member ${checked.memberId} appears twice in the group spec`);
    }
    seen.add(checked.memberId);
    return checked;
  });
  const members = javaHashMapKeyOrder(inputOrder.map((member) => member.memberId)).map((i) => inputOrder[i]);
  return {
    members,
    subscriptionType: groupSpec.subscriptionType,
    numPartitions: (topicId) => partitionCounts.get(topicId) ?? -1,
    uuid: uuidOf,
    isPartitionAssigned: (topicId, partition) => owners.get(topicId)?.has(partition) ?? false,
    isPartitionAssignable: (topicId, partition) => allowedPartitions === undefined || (allowedPartitions.get(topicId)?.has(partition) ?? false),
  };
}

/**
 * ModernGroup.subscriptionType: HOMOGENEOUS when every topic any member subscribes to has every member as a
 * subscriber (or nobody subscribes to anything), HETEROGENEOUS otherwise.
 */
export function subscriptionTypeOf(members: ReadonlyArray<Pick<MemberSpec, 'subscribedTopicIds'>>): SubscriptionType {
  const subscriberCounts = new Map<string, number>();
  for (const member of members) {
    for (const topicId of new Set(member.subscribedTopicIds)) {
      subscriberCounts.set(topicId, (subscriberCounts.get(topicId) ?? 0) + 1);
    }
  }
  for (const count of subscriberCounts.values()) {
    if (count !== members.length) {
      return 'HETEROGENEOUS';
    }
  }
  return 'HOMOGENEOUS';
}
