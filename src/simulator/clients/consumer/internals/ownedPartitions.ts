/**
 * The partitions a simulated consumer owns with their fetch positions (the Java client's
 * SubscriptionState), and the fetch that advances them: positions move arithmetically, with no
 * per-record work.
 */
import type { TopicPartition } from '../../../../model/types';
import type { SimCluster } from '../../../log/cluster';
import type { ConsumerConfig } from '../consumerConfig';
import type { PartitionLog } from '../../../log/partitionLog';
import { TopicPartitionSet } from '../../../common/topicPartitionSet';

export interface OwnedPartition extends TopicPartition {
  log: PartitionLog;
  /** Next offset to fetch; -1 until the committed offset has been fetched. */
  position: number;
  lastCommitted: number;
  /** Being revoked (a consumer-protocol member commits before it lets go): no more fetches. */
  pendingRevocation?: boolean;
}

export class OwnedPartitions {
  list: OwnedPartition[] = [];
  private fetchCursor = 0;

  constructor(
    private readonly config: ConsumerConfig,
    private readonly cluster: SimCluster,
  ) {}

  get size(): number {
    return this.list.length;
  }

  get assignment(): TopicPartition[] {
    return this.list.map(({ topic, partition }) => ({ topic, partition }));
  }

  get positions(): Array<TopicPartition & { position: number }> {
    return this.list.map(({ topic, partition, position }) => ({ topic, partition, position }));
  }

  clear(): void {
    this.list = [];
  }

  remove(partitions: readonly TopicPartition[]): void {
    const gone = new TopicPartitionSet(partitions);
    this.list = this.list.filter((p) => !gone.has(p));
  }

  /** Takes the partition with no position yet; a partition of a topic that no longer exists is skipped. */
  add(tp: TopicPartition): void {
    const log = this.cluster.partition(tp.topic, tp.partition);
    if (log) {
      this.list.push({ topic: tp.topic, partition: tp.partition, log, position: -1, lastCommitted: -1 });
    }
  }

  /** Whether a position has moved past its last commit. */
  hasUncommittedPositions(): boolean {
    return this.list.some((p) => p.position >= 0 && p.position !== p.lastCommitted);
  }

  ownsUnpositioned(tp: TopicPartition): boolean {
    return this.list.some((p) => p.topic === tp.topic && p.partition === tp.partition && p.position < 0);
  }

  /** topic → partition → owned partition. */
  byTopic(): Map<string, Map<number, OwnedPartition>> {
    const owned = new Map<string, Map<number, OwnedPartition>>();
    for (const p of this.list) {
      let byPartition = owned.get(p.topic);
      if (!byPartition) {
        byPartition = new Map();
        owned.set(p.topic, byPartition);
      }
      byPartition.set(p.partition, p);
    }
    return owned;
  }

  /**
   * Takes up to max.poll.records from the owned partitions, round-robin; returns how many. Control
   * markers (and, read_committed, aborted batches) move the position without counting as records.
   */
  fetch(): number {
    const owned = this.list;
    const n = owned.length;
    let budget = this.config.maxPollRecords;
    let taken = 0;
    for (let i = 0; i < n && budget > 0; i++) {
      const p = owned[(this.fetchCursor + i) % n];
      if (p.position < 0 || p.pendingRevocation === true) {
        continue;
      }
      if (p.position < p.log.logStartOffset) {
        p.position = this.resetPosition(p.log);
      }
      const read = p.log.read(p.position, budget, this.config.isolationLevel);
      p.position = read.nextPosition;
      budget -= read.records;
      taken += read.records;
    }
    if (n > 0) {
      this.fetchCursor = (this.fetchCursor + 1) % n;
    }
    return taken;
  }

  /** ListOffsets(latest) answers the LSO to a read_committed consumer, the HW otherwise. */
  resetPosition(log: PartitionLog): number {
    if (this.config.autoOffsetReset === 'earliest') {
      return log.logStartOffset;
    }
    return this.config.isolationLevel === 'read_committed' ? log.lastStableOffset : log.highWatermark;
  }
}
