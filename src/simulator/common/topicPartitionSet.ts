import type { TopicPartition } from '../../model/types';

/** A set of topic partitions without string keys (topic → partition numbers); rebalances build many of them. */
export class TopicPartitionSet {
  private readonly byTopic = new Map<string, Set<number>>();

  constructor(partitions: Iterable<TopicPartition> = []) {
    for (const tp of partitions) {
      this.add(tp);
    }
  }

  add(tp: TopicPartition): void {
    let set = this.byTopic.get(tp.topic);
    if (!set) {
      set = new Set();
      this.byTopic.set(tp.topic, set);
    }
    set.add(tp.partition);
  }

  has(tp: TopicPartition): boolean {
    return this.byTopic.get(tp.topic)?.has(tp.partition) ?? false;
  }
}

/** The partitions of `a` that are not in `b`, in `a`'s order. */
export function partitionsMinus<T extends TopicPartition>(a: readonly T[], b: readonly TopicPartition[]): T[] {
  if (a.length === 0) {
    return [];
  }
  if (b.length === 0) {
    return a.slice();
  }
  const drop = new TopicPartitionSet(b);
  return a.filter((tp) => !drop.has(tp));
}
