/**
 * Offsets a transactional producer sent with TxnOffsetCommit: pending per group and producerId,
 * invisible to OffsetFetch until the COMMIT marker materializes them, dropped by ABORT
 * (OffsetMetadataManager.replay / replayEndTransactionMarker).
 */
import type { CommittedOffset } from './group';
import type { TransactionResult } from '../../log/transactionIndex';

/** A pending offset and its place in `__consumer_offsets`, which decides whether it still wins at commit. */
export interface PendingOffset extends CommittedOffset {
  recordOffset: number;
}

export interface PendingPartition {
  topic: string;
  partition: number;
  producerId: number;
  value: PendingOffset;
}

type ByPartition = Map<string, Map<number, PendingOffset>>;

function flatten(producerId: number, topics: ByPartition): PendingPartition[] {
  const out: PendingPartition[] = [];
  for (const [topic, partitions] of topics) {
    for (const [partition, value] of partitions) {
      out.push({ topic, partition, producerId, value });
    }
  }
  return out;
}

export class PendingTransactionalOffsets {
  /** groupId → producerId → topic → partition → pending offset. */
  private readonly groups = new Map<string, Map<number, ByPartition>>();

  add(groupId: string, producerId: number, topic: string, partition: number, value: PendingOffset): void {
    let producers = this.groups.get(groupId);
    if (!producers) {
      producers = new Map();
      this.groups.set(groupId, producers);
    }
    let topics = producers.get(producerId);
    if (!topics) {
      topics = new Map();
      producers.set(producerId, topics);
    }
    let partitions = topics.get(topic);
    if (!partitions) {
      partitions = new Map();
      topics.set(topic, partitions);
    }
    partitions.set(partition, value);
  }

  hasGroup(groupId: string): boolean {
    return this.groups.has(groupId);
  }

  /** Whether any producer has a pending offset for this partition (a stable OffsetFetch must wait). */
  isPending(groupId: string, topic: string, partition: number): boolean {
    const producers = this.groups.get(groupId);
    if (!producers) {
      return false;
    }
    for (const topics of producers.values()) {
      if (topics.get(topic)?.has(partition)) {
        return true;
      }
    }
    return false;
  }

  /** Every pending offset of a group, for the views. */
  list(groupId: string): PendingPartition[] {
    return [...(this.groups.get(groupId) ?? [])].flatMap(([producerId, topics]) => flatten(producerId, topics));
  }

  /**
   * Removes the producer's pending offsets for one group: how many were staged, and the ones the caller
   * materializes (all on COMMIT, none on ABORT).
   */
  take(groupId: string, producerId: number, result: TransactionResult): { staged: number; materialized: PendingPartition[] } {
    const producers = this.groups.get(groupId);
    const topics = producers?.get(producerId);
    if (!producers || !topics) {
      return { staged: 0, materialized: [] };
    }
    producers.delete(producerId);
    if (producers.size === 0) {
      this.groups.delete(groupId);
    }
    const staged = flatten(producerId, topics);
    return { staged: staged.length, materialized: result === 'ABORT' ? [] : staged };
  }

  /** The groups holding offsets `producerId` sent in a transaction still open. */
  groupsOf(producerId: number): string[] {
    return [...this.groups].filter(([, producers]) => producers.has(producerId)).map(([groupId]) => groupId);
  }

  /** Forgets a deleted group's pending offsets. */
  deleteGroup(groupId: string): void {
    this.groups.delete(groupId);
  }
}
