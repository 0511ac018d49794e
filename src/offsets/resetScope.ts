/**
 * Which partitions a reset touches, as ConsumerGroupCommand.getPartitionsToReset decides:
 * --all-topics = the partitions the group has committed offsets for; --topic t = every partition of t;
 * --topic t:0,1 = exactly those.
 */
import type { TopicPartition } from '../model/types';
import type { ResetScope } from './resetRequest';
import { formatTopicPartition, PartitionMap, topicNameProblem } from './topicPartitions';

export type PartitionCounts = Readonly<Record<string, number>> | ReadonlyMap<string, number>;

export type ScopeResolution = { ok: true; partitions: TopicPartition[] } | { ok: false; error: string };

function partitionCount(counts: PartitionCounts, topic: string): number | undefined {
  if (counts instanceof Map) {
    return counts.get(topic);
  }
  const record = counts as Readonly<Record<string, number>>;
  return Object.prototype.hasOwnProperty.call(record, topic) ? record[topic] : undefined;
}

/**
 * The partitions in scope, in the CLI's list order (explicit `t:p` partitions first, then whole topics).
 * A whole topic named twice is merged (describeTopics dedups names), but one partition named twice, or named
 * explicitly and through its whole topic, fails: the CLI's Collectors.toMap throws "Duplicate key t-0".
 */
export function resolveScopePartitions(
  scope: ResetScope,
  committed: Iterable<TopicPartition>,
  partitionsPerTopic: PartitionCounts,
): ScopeResolution {
  if (scope.kind === 'all-topics') {
    const seen = new PartitionMap<true>();
    const partitions: TopicPartition[] = [];
    for (const { topic, partition } of committed) {
      if (!seen.has(topic, partition)) {
        seen.set(topic, partition, true);
        partitions.push({ topic, partition });
      }
    }
    return { ok: true, partitions };
  }
  if (scope.topics.length === 0) {
    return { ok: false, error: 'One of the reset scopes should be defined: --all-topics, --topic.' };
  }
  const explicit: TopicPartition[] = [];
  const wholeTopics: string[] = [];
  for (const selection of scope.topics) {
    const problem = topicNameProblem(selection.topic);
    if (problem) {
      return { ok: false, error: `Invalid topic '${selection.topic}': ${problem}` };
    }
    if (!selection.partitions) {
      if (!wholeTopics.includes(selection.topic)) {
        wholeTopics.push(selection.topic);
      }
      continue;
    }
    if (selection.partitions.length === 0) {
      return { ok: false, error: `Invalid topic arg '${selection.topic}:', expected topic name and partitions` };
    }
    for (const partition of selection.partitions) {
      if (!Number.isInteger(partition) || partition < 0 || partition > 2 ** 31 - 1) {
        return { ok: false, error: `Invalid partition '${partition}' specified for topic '${selection.topic}'` };
      }
      explicit.push({ topic: selection.topic, partition });
    }
  }
  const partitions = [...explicit];
  for (const topic of wholeTopics) {
    const count = partitionCount(partitionsPerTopic, topic);
    if (count === undefined) {
      // The CLI's describeTopics fails the whole command with UNKNOWN_TOPIC_OR_PARTITION's message.
      return {
        ok: false,
        error: `Topic '${topic}' does not exist (kafka-consumer-groups.sh: "Executing consumer group command failed due to This server does not host this topic-partition.")`,
      };
    }
    for (let partition = 0; partition < count; partition++) {
      partitions.push({ topic, partition });
    }
  }
  const seen = new PartitionMap<true>();
  for (const tp of partitions) {
    if (seen.has(tp.topic, tp.partition)) {
      return {
        ok: false,
        error: `Partition ${formatTopicPartition(tp)} is selected more than once (kafka-consumer-groups.sh fails with "Duplicate key ${formatTopicPartition(tp)}")`,
      };
    }
    seen.set(tp.topic, tp.partition, true);
  }
  return { ok: true, partitions };
}
