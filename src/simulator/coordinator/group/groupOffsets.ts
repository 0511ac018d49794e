/** The committed offsets a group holds, whatever its type: topic → partition → committed offset. */
import type { CommittedOffset } from './group';

export abstract class GroupOffsets {
  readonly offsets = new Map<string, Map<number, CommittedOffset>>();

  committed(topic: string, partition: number): CommittedOffset | undefined {
    return this.offsets.get(topic)?.get(partition);
  }

  commit(topic: string, partition: number, value: CommittedOffset): void {
    let partitions = this.offsets.get(topic);
    if (!partitions) {
      partitions = new Map();
      this.offsets.set(topic, partitions);
    }
    partitions.set(partition, value);
  }

  deleteOffset(topic: string, partition: number): boolean {
    const partitions = this.offsets.get(topic);
    if (!partitions || !partitions.delete(partition)) {
      return false;
    }
    if (partitions.size === 0) {
      this.offsets.delete(topic);
    }
    return true;
  }

  hasOffsets(): boolean {
    return this.offsets.size > 0;
  }
}
