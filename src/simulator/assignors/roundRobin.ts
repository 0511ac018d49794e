import type { AssignInput, AssignResult } from './types';
import { compareMembersStaticFirst } from './memberOrder';
import { emptyAssignment, subscribedTopicsSorted } from './subscriptions';

/** First entry of the ascending `positions` that is ≥ `from`, wrapping to the first entry (a circular scan). */
function nextSubscribedPosition(positions: number[], from: number): number {
  let low = 0;
  let high = positions.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (positions[mid] < from) {
      low = mid + 1;
    } else {
      high = mid;
    }
  }
  return low < positions.length ? positions[low] : positions[0];
}

/**
 * Kafka's RoundRobinAssignor: every partition of every subscribed topic (topics in sorted order, then partition
 * number) goes to the next member of a circular iterator over the sorted members, skipping members that do not
 * subscribe to the partition's topic. The skip uses a binary search over each topic's subscriber positions, which
 * lands on the same member as Kafka's one-by-one scan.
 */
export function assignRoundRobin(input: AssignInput): AssignResult {
  const assignment = emptyAssignment(input);
  const members = [...input.members].sort(compareMembersStaticFirst);
  const memberTopics = members.map((member) => new Set(member.topics));
  let cursor = 0;
  for (const topic of subscribedTopicsSorted(input)) {
    const positions: number[] = [];
    memberTopics.forEach((topics, position) => {
      if (topics.has(topic)) {
        positions.push(position);
      }
    });
    for (let partition = 0; partition < input.partitionsPerTopic[topic]; partition++) {
      const position = nextSubscribedPosition(positions, cursor);
      assignment[members[position].memberId].push({ topic, partition });
      cursor = (position + 1) % members.length;
    }
  }
  return assignment;
}
