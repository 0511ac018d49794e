import type { AssignInput, AssignResult } from './types';
import { emptyAssignment, subscribedTopicsSorted, subscribersPerTopic } from './subscriptions';

/**
 * Kafka's RangeAssignor: per topic, the sorted subscribers each take ⌊P/C⌋ contiguous partitions and the first
 * P%C take one more. Kafka's rack-aware pre-pass only runs when consumer racks are set; this model has no racks,
 * so it is left out.
 */
export function assignRange(input: AssignInput): AssignResult {
  const assignment = emptyAssignment(input);
  const subscribers = subscribersPerTopic(input);
  for (const topic of subscribedTopicsSorted(input)) {
    const partitionCount = input.partitionsPerTopic[topic];
    const consumers = subscribers.get(topic) ?? [];
    const perConsumer = Math.floor(partitionCount / consumers.length);
    const withExtra = partitionCount % consumers.length;
    consumers.forEach((consumer, i) => {
      const start = perConsumer * i + Math.min(i, withExtra);
      const length = perConsumer + (i < withExtra ? 1 : 0);
      const target = assignment[consumer.memberId];
      for (let partition = start; partition < start + length; partition++) {
        target.push({ topic, partition });
      }
    });
  }
  return assignment;
}
