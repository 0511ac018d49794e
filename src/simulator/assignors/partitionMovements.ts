import { javaStringHashCode } from '../../protocol/offsetsPartition';
import { JavaHashOrder, javaTopicPartitionHash } from '../common/javaHashOrder';
import type { PartitionSpace } from './partitionSpace';

interface Movement {
  src: number;
  dst: number;
}

/**
 * Port of AbstractStickyAssignor.PartitionMovements: the net moves made while balancing, per topic and
 * (source, destination) member pair. When a partition of a topic would move back along a pair that already
 * carried one the other way, the earlier one is moved back instead, so no topic flows both ways between two
 * members. Which partition that is comes from Java's HashSet<TopicPartition> order, emulated here.
 */
export class PartitionMovements {
  private readonly movements = new Map<number, Movement>();
  private readonly byTopic = new Map<number, Map<number, JavaHashOrder<number>>>();
  private readonly topicHashes: Int32Array;

  constructor(private readonly space: PartitionSpace, private readonly memberCount: number) {
    this.topicHashes = Int32Array.from(space.topics, (topic) => javaStringHashCode(topic));
  }

  private pairKey(src: number, dst: number): number {
    return src * this.memberCount + dst;
  }

  private removeRecord(partition: number): Movement {
    const movement = this.movements.get(partition) as Movement;
    this.movements.delete(partition);
    const topic = this.space.topicOf(partition);
    const forTopic = this.byTopic.get(topic) as Map<number, JavaHashOrder<number>>;
    const key = this.pairKey(movement.src, movement.dst);
    const set = forTopic.get(key) as JavaHashOrder<number>;
    set.delete(partition);
    if (set.size === 0) {
      forTopic.delete(key);
    }
    if (forTopic.size === 0) {
      this.byTopic.delete(topic);
    }
    return movement;
  }

  private addRecord(partition: number, movement: Movement): void {
    this.movements.set(partition, movement);
    const topic = this.space.topicOf(partition);
    let forTopic = this.byTopic.get(topic);
    if (forTopic === undefined) {
      forTopic = new Map();
      this.byTopic.set(topic, forTopic);
    }
    const key = this.pairKey(movement.src, movement.dst);
    let set = forTopic.get(key);
    if (set === undefined) {
      set = new JavaHashOrder<number>();
      forTopic.set(key, set);
    }
    set.add(partition, javaTopicPartitionHash(this.topicHashes[topic], this.space.partitionOf(partition)));
  }

  movePartition(partition: number, oldConsumer: number, newConsumer: number): void {
    if (this.movements.has(partition)) {
      const existing = this.removeRecord(partition);
      if (existing.src !== newConsumer) {
        this.addRecord(partition, { src: existing.src, dst: newConsumer });
      }
    } else {
      this.addRecord(partition, { src: oldConsumer, dst: newConsumer });
    }
  }

  actualPartitionToMove(partition: number, oldConsumer: number, newConsumer: number): number {
    const forTopic = this.byTopic.get(this.space.topicOf(partition));
    if (forTopic === undefined) {
      return partition;
    }
    const previous = this.movements.get(partition);
    const source = previous === undefined ? oldConsumer : previous.src;
    const reverse = forTopic.get(this.pairKey(newConsumer, source));
    return reverse === undefined ? partition : (reverse.first() as number);
  }
}
