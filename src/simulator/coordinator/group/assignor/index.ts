/**
 * The coordinator's server-side assignors, org.apache.kafka.coordinator.group.assignor: UniformAssignor
 * (homogeneous and heterogeneous builders) and RangeAssignor for consumer groups, SimpleAssignor (its two
 * builders) for share groups, over a GroupSpec.
 */
import { checkGroup, subscriptionTypeOf } from './groupSpec';
import { rangeAssign } from './range';
import { simpleHeterogeneous } from './simpleHeterogeneous';
import { simpleHomogeneous } from './simpleHomogeneous';
import {
  PartitionAssignorError,
  type GroupAssignment,
  type GroupSpec,
  type ConsumerGroupAssignorName,
  type ServerAssignorName,
  type ShareGroupAssignorName,
  type TopicMetadata,
  type WorkingAssignment,
} from './types';
import { uniformHeterogeneous } from './uniformHeterogeneous';
import { uniformHomogeneous } from './uniformHomogeneous';

export { subscriptionTypeOf };
export { PartitionAssignorError };
export type {
  AssignedTopic, ConsumerGroupAssignorName, GroupAssignment, GroupSpec, MemberSpec, ServerAssignorName, ShareGroupAssignorName, SubscriptionType, TopicMetadata,
} from './types';

/** The consumer-group assignors (`group.consumer.assignors`). */
export const SERVER_ASSIGNORS: readonly ConsumerGroupAssignorName[] = ['uniform', 'range'];

/** The share-group assignors (`group.share.assignors`). */
export const SHARE_GROUP_ASSIGNORS: readonly ShareGroupAssignorName[] = ['simple'];

function isShareGroupAssignor(name: ServerAssignorName): name is ShareGroupAssignorName {
  return (SHARE_GROUP_ASSIGNORS as readonly string[]).includes(name);
}

/**
 * The target assignment of a KIP-848 consumer group or a KIP-932 share group, computed as Kafka 4.4's group
 * coordinator computes it with its built-in server assignor `name` (UniformAssignor or SimpleAssignor, which pick
 * the homogeneous or heterogeneous builder by the group's subscription type, or RangeAssignor). Only `simple`
 * lets several members hold one partition and reads the spec's topicPartitionAllowedMap. Every member of the spec is in the result, partitions
 * ascending, topic ids in their canonical text (as Kafka's Uuid.toString() prints them); topics a member gets nothing of are left out. A bad input throws a PartitionAssignorError that says
 * what is wrong, as do the cases where Kafka's assignors throw (a subscribed topic missing from the metadata).
 */
export function assign(name: ServerAssignorName, groupSpec: GroupSpec, topics: readonly TopicMetadata[]): GroupAssignment {
  const shareGroup = isShareGroupAssignor(name);
  if (!shareGroup && !(SERVER_ASSIGNORS as readonly string[]).includes(name)) {
    throw new PartitionAssignorError(`Unknown server assignor "${String(name)}"; Kafka 4.4 has ${[...SERVER_ASSIGNORS, ...SHARE_GROUP_ASSIGNORS].join(', ')}`);
  }
  const group = checkGroup(groupSpec, topics, shareGroup ? 'share' : 'consumer');
  const homogeneous = group.subscriptionType === 'HOMOGENEOUS';
  let computed: Map<string, WorkingAssignment>;
  if (group.members.length === 0) {
    computed = new Map();
  } else if (shareGroup) {
    computed = homogeneous ? simpleHomogeneous(group) : simpleHeterogeneous(group);
  } else if (name === 'uniform') {
    computed = homogeneous ? uniformHomogeneous(group) : uniformHeterogeneous(group);
  } else {
    computed = rangeAssign(group);
  }
  const result: GroupAssignment = new Map();
  for (const member of group.members) {
    const topicsOfMember = new Map<string, number[]>();
    for (const [topicId, partitions] of computed.get(member.memberId) ?? []) {
      if (partitions.size > 0) {
        topicsOfMember.set(topicId, [...partitions].sort((a, b) => a - b));
      }
    }
    result.set(member.memberId, topicsOfMember);
  }
  return result;
}
