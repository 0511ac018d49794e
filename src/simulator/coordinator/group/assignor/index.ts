/**
 * The coordinator's server-side assignors, org.apache.kafka.coordinator.group.assignor: UniformAssignor
 * (homogeneous and heterogeneous builders) and RangeAssignor, over a GroupSpec.
 */
import { checkGroup, subscriptionTypeOf } from './groupSpec';
import { rangeAssign } from './range';
import {
  PartitionAssignorError,
  type GroupAssignment,
  type GroupSpec,
  type ServerAssignorName,
  type TopicMetadata,
  type WorkingAssignment,
} from './types';
import { uniformHeterogeneous } from './uniformHeterogeneous';
import { uniformHomogeneous } from './uniformHomogeneous';

export { subscriptionTypeOf };
export { PartitionAssignorError };
export type { AssignedTopic, GroupAssignment, GroupSpec, MemberSpec, ServerAssignorName, SubscriptionType, TopicMetadata } from './types';

export const SERVER_ASSIGNORS: readonly ServerAssignorName[] = ['uniform', 'range'];

/**
 * The target assignment of a KIP-848 consumer group, computed as Kafka 4.4's group coordinator computes it with
 * its built-in server assignor `name` (UniformAssignor, which picks the homogeneous or heterogeneous builder by
 * the group's subscription type, or RangeAssignor). Every member of the spec is in the result, partitions
 * ascending, topic ids in their canonical text (as Kafka's Uuid.toString() prints them); topics a member gets nothing of are left out. A bad input throws a PartitionAssignorError that says
 * what is wrong, as do the cases where Kafka's assignors throw (a subscribed topic missing from the metadata).
 */
export function assign(name: ServerAssignorName, groupSpec: GroupSpec, topics: readonly TopicMetadata[]): GroupAssignment {
  if (!SERVER_ASSIGNORS.includes(name)) {
    throw new PartitionAssignorError(`Unknown server assignor "${String(name)}"; Kafka 4.4 has ${SERVER_ASSIGNORS.join(', ')}`);
  }
  const group = checkGroup(groupSpec, topics);
  let computed: Map<string, WorkingAssignment>;
  if (group.members.length === 0) {
    computed = new Map();
  } else if (name === 'uniform') {
    computed = group.subscriptionType === 'HOMOGENEOUS' ? uniformHomogeneous(group) : uniformHeterogeneous(group);
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
