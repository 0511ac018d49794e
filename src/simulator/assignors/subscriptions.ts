import type { AssignInput, AssignResult, AssignorMember } from './types';
import { compareJavaStrings, compareMembersStaticFirst } from './memberOrder';

/**
 * Topics that members subscribe to and that exist in the metadata (AbstractPartitionAssignor skips a subscribed
 * topic it has no metadata for), sorted in Java String order.
 */
export function subscribedTopicsSorted(input: AssignInput): string[] {
  const topics = new Set<string>();
  for (const member of input.members) {
    for (const topic of member.topics) {
      if (Object.prototype.hasOwnProperty.call(input.partitionsPerTopic, topic)) {
        topics.add(topic);
      }
    }
  }
  return [...topics].sort(compareJavaStrings);
}

/** topic → its subscribers in MemberInfo order (static first by instance id, then member id). */
export function subscribersPerTopic(input: AssignInput): Map<string, AssignorMember[]> {
  const byTopic = new Map<string, AssignorMember[]>();
  for (const member of [...input.members].sort(compareMembersStaticFirst)) {
    for (const topic of new Set(member.topics)) {
      let list = byTopic.get(topic);
      if (list === undefined) {
        list = [];
        byTopic.set(topic, list);
      }
      list.push(member);
    }
  }
  return byTopic;
}

/** An assignment with every member present and nothing assigned yet. */
export function emptyAssignment(input: AssignInput): AssignResult {
  const result: AssignResult = {};
  for (const member of input.members) {
    result[member.memberId] = [];
  }
  return result;
}
