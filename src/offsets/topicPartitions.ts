/** Small helpers for topic-partition keyed data, with Kafka's own spelling and ordering. */
import { compareTopicPartitions, type TopicPartition } from '../model/types';

export { compareTopicPartitions };

/** Java's TopicPartition.toString(): "topic-partition", the form every CLI message uses. */
export function formatTopicPartition(tp: TopicPartition): string {
  return `${tp.topic}-${tp.partition}`;
}

/** A map keyed by (topic, partition) without string-encoding the pair. */
export class PartitionMap<V> {
  private readonly byTopic = new Map<string, Map<number, V>>();

  get(topic: string, partition: number): V | undefined {
    return this.byTopic.get(topic)?.get(partition);
  }

  has(topic: string, partition: number): boolean {
    return this.byTopic.get(topic)?.has(partition) ?? false;
  }

  set(topic: string, partition: number, value: V): void {
    let partitions = this.byTopic.get(topic);
    if (!partitions) {
      partitions = new Map();
      this.byTopic.set(topic, partitions);
    }
    partitions.set(partition, value);
  }

  /** Entries sorted by topic then partition. */
  sortedEntries(): Array<[TopicPartition, V]> {
    const entries: Array<[TopicPartition, V]> = [];
    for (const [topic, partitions] of this.byTopic) {
      for (const [partition, value] of partitions) {
        entries.push([{ topic, partition }, value]);
      }
    }
    return entries.sort((a, b) => compareTopicPartitions(a[0], b[0]));
  }
}

/** Java's String.split(literal): trailing empty strings are dropped, and "" splits to [""]. */
export function javaSplit(text: string, separator: string): string[] {
  if (!text.includes(separator)) {
    return [text];
  }
  const parts = text.split(separator);
  while (parts.length > 0 && parts[parts.length - 1] === '') {
    parts.pop();
  }
  return parts;
}

const JAVA_INT_MAX = 2 ** 31 - 1;

/** Integer.parseInt: optional sign, ASCII digits, no surrounding blanks, 32-bit range. Null when Java would throw. */
export function parseJavaInt(text: string): number | null {
  if (!/^[+-]?\d+$/.test(text)) {
    return null;
  }
  const value = Number(text);
  return value >= -JAVA_INT_MAX - 1 && value <= JAVA_INT_MAX ? value : null;
}

/** A whole number that a Java long holds and a JS number represents exactly. */
export function parseSafeInteger(text: string): number | null {
  if (!/^[+-]?\d+$/.test(text)) {
    return null;
  }
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : null;
}

const JAVA_LONG_MIN = -(2n ** 63n);
const JAVA_LONG_MAX = 2n ** 63n - 1n;

/** Long.parseLong: optional sign, ASCII digits, the 64-bit range, exactly (as a bigint). Null when Java would throw. */
export function parseJavaLong(text: string): bigint | null {
  if (!/^[+-]?\d+$/.test(text)) {
    return null;
  }
  const value = BigInt(text);
  return value >= JAVA_LONG_MIN && value <= JAVA_LONG_MAX ? value : null;
}

const LEGAL_TOPIC = /^[a-zA-Z0-9._-]+$/;

/** Kafka's topic name rule (Topic.validate): 1 to 249 of [a-zA-Z0-9._-], and not "." or "..". */
export function topicNameProblem(topic: string): string | null {
  if (topic === '') {
    return 'the topic name is empty';
  }
  if (topic === '.' || topic === '..') {
    return `topic name '${topic}' is not allowed`;
  }
  if (topic.length > 249) {
    return `topic name '${topic.slice(0, 20)}…' is longer than 249 characters`;
  }
  if (!LEGAL_TOPIC.test(topic)) {
    return `topic name '${topic}' contains characters other than ASCII alphanumerics, '.', '_' and '-'`;
  }
  return null;
}
