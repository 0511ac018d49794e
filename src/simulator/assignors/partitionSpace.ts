import type { TopicPartition } from '../../model/types';
import { compareJavaStrings } from './memberOrder';

/**
 * Numbers every partition of the assigned topics 0..size-1 in (topic, partition) order, topics in Java String
 * order, so the sticky assignors can work on integer ids and typed arrays instead of TopicPartition objects.
 */
export class PartitionSpace {
  readonly topics: string[];
  readonly size: number;
  private readonly topicIndex = new Map<string, number>();
  private readonly offsets: Int32Array;
  private readonly topicOfId: Int32Array;
  /** Owned lists run topic by topic, so the last lookup is usually the next one too. */
  private lastTopic: string | undefined;
  private lastTopicIndex = -1;

  constructor(partitionsPerTopic: Record<string, number>, topics: Iterable<string>) {
    this.topics = [...new Set(topics)].filter((topic) => (partitionsPerTopic[topic] ?? 0) > 0).sort(compareJavaStrings);
    this.offsets = new Int32Array(this.topics.length + 1);
    this.topics.forEach((topic, i) => {
      this.topicIndex.set(topic, i);
      this.offsets[i + 1] = this.offsets[i] + partitionsPerTopic[topic];
    });
    this.size = this.offsets[this.topics.length];
    this.topicOfId = new Int32Array(this.size);
    for (let t = 0; t < this.topics.length; t++) {
      this.topicOfId.fill(t, this.offsets[t], this.offsets[t + 1]);
    }
  }

  /** Index of `topic` in `topics`, or -1 when it is not one of the assigned topics. */
  indexOfTopic(topic: string): number {
    if (topic !== this.lastTopic) {
      this.lastTopic = topic;
      this.lastTopicIndex = this.topicIndex.get(topic) ?? -1;
    }
    return this.lastTopicIndex;
  }

  partitionCount(topicIndex: number): number {
    return this.offsets[topicIndex + 1] - this.offsets[topicIndex];
  }

  firstId(topicIndex: number): number {
    return this.offsets[topicIndex];
  }

  /** The id of a partition, or -1 when its topic is not assigned here. */
  idOf(tp: TopicPartition): number {
    const t = this.indexOfTopic(tp.topic);
    if (t < 0) {
      return -1;
    }
    if (tp.partition >= this.partitionCount(t)) {
      throw new Error(`Partition ${tp.topic}-${tp.partition} does not exist: the topic has ${this.partitionCount(t)} partitions`);
    }
    return this.offsets[t] + tp.partition;
  }

  topicOf(id: number): number {
    return this.topicOfId[id];
  }

  partitionOf(id: number): number {
    return id - this.offsets[this.topicOfId[id]];
  }

  toTopicPartition(id: number): TopicPartition {
    const t = this.topicOfId[id];
    return { topic: this.topics[t], partition: id - this.offsets[t] };
  }
}
