/**
 * A transactional producer (KafkaProducer with transactional.id) together with the part of the
 * transaction coordinator it needs: begin, produce to several partitions, sendOffsetsToTransaction,
 * then commit or abort, which writes a control marker to every partition in the transaction and
 * tells each group coordinator (WriteTxnMarkers). Transactions V2 (KIP-890): no AddOffsetsToTxn.
 */
import type { TopicPartition } from '../../../../model/types';
import type { VirtualClock } from '../../../common/clock';
import type { SimCluster } from '../../../log/cluster';
import type { KafkaErrorCode } from '../../../common/errors';
import type { GroupCoordinatorClient } from '../../groupCoordinatorClient';
import type { PartitionLog } from '../../../log/partitionLog';
import { forEachShare } from '../producer';
import type { OffsetCommitResponse } from '../../../common/requests';
import type { TransactionResult } from '../../../log/transactionIndex';

export interface TransactionalProducerEnvironment {
  clock: VirtualClock;
  cluster: SimCluster;
  coordinator: GroupCoordinatorClient;
}

/** consumer.groupMetadata(): what TxnOffsetCommit carries so the coordinator can fence zombies. */
export interface ConsumerGroupMetadata {
  groupId: string;
  generationId: number;
  memberId: string;
  groupInstanceId: string | null;
}

export interface TransactionOffset extends TopicPartition {
  offset: number;
}

export class TransactionalProducer {
  private open = false;
  /** Bumped at each begin, so a late TxnOffsetCommit response cannot taint the next transaction. */
  private transactionSeq = 0;
  private readonly partitions = new Set<PartitionLog>();
  private readonly groups = new Set<string>();
  /** A TxnOffsetCommit error makes the transaction abortable only (Kafka's abortable error state). */
  private offsetCommitError: string | null = null;
  private committed = 0;
  private aborted = 0;

  constructor(
    readonly transactionalId: string,
    readonly producerId: number,
    private readonly env: TransactionalProducerEnvironment,
  ) {}

  get inTransaction(): boolean {
    return this.open;
  }

  get transactionsCommitted(): number {
    return this.committed;
  }

  get transactionsAborted(): number {
    return this.aborted;
  }

  beginTransaction(): void {
    if (this.open) {
      throw new Error(`Producer "${this.transactionalId}" already has a transaction in progress`);
    }
    this.open = true;
    this.transactionSeq++;
    this.offsetCommitError = null;
  }

  /** Appends `records` in the transaction: to one partition, or spread evenly over the topic's partitions. */
  send(topicName: string, records: number, partition?: number): void {
    this.requireOpen('send records');
    const topic = this.env.cluster.requireTopic(topicName);
    const now = this.env.clock.now;
    forEachShare(topic, records, partition, (log, share) => {
      log.appendTransactional(this.producerId, share, now);
      this.partitions.add(log);
    });
  }

  /** TxnOffsetCommit: the offsets stay pending in the group until this transaction ends. */
  sendOffsetsToTransaction(offsets: readonly TransactionOffset[], group: ConsumerGroupMetadata, onResponse?: (response: OffsetCommitResponse) => void): void {
    this.requireOpen('send offsets');
    if (offsets.length === 0) {
      onResponse?.({ topics: [] });
      return;
    }
    const byTopic = new Map<string, Array<{ partition: number; offset: number }>>();
    for (const { topic, partition, offset } of offsets) {
      if (!Number.isInteger(offset) || offset < 0) {
        throw new Error(`Offset for ${topic}-${partition} must be a non-negative integer, got ${offset}`);
      }
      const list = byTopic.get(topic) ?? [];
      list.push({ partition, offset });
      byTopic.set(topic, list);
    }
    this.groups.add(group.groupId);
    const sentIn = this.transactionSeq;
    this.env.coordinator.txnOffsetCommit(
      {
        transactionalId: this.transactionalId,
        producerId: this.producerId,
        groupId: group.groupId,
        generationId: group.generationId,
        memberId: group.memberId,
        groupInstanceId: group.groupInstanceId,
        topics: [...byTopic].map(([name, partitions]) => ({ name, partitions })),
      },
      (response) => {
        this.onOffsetCommitResponse(response, sentIn);
        onResponse?.(response);
      },
    );
  }

  /** Writes COMMIT markers and materializes the offsets sent in this transaction. */
  commitTransaction(): void {
    this.requireOpen('commit');
    if (this.offsetCommitError) {
      throw new Error(`Producer "${this.transactionalId}" cannot commit: ${this.offsetCommitError}; abort the transaction`);
    }
    this.end('COMMIT');
    this.committed++;
  }

  /** Writes ABORT markers; offsets sent in this transaction are discarded. */
  abortTransaction(): void {
    this.requireOpen('abort');
    this.end('ABORT');
    this.aborted++;
  }

  private end(result: TransactionResult): void {
    const now = this.env.clock.now;
    for (const log of this.partitions) {
      log.writeControlMarker(this.producerId, result, now);
    }
    for (const groupId of this.groups) {
      this.env.coordinator.completeTransaction(groupId, this.producerId, result);
    }
    this.partitions.clear();
    this.groups.clear();
    this.open = false;
  }

  private onOffsetCommitResponse(response: OffsetCommitResponse, sentIn: number): void {
    const failed: Array<[string, KafkaErrorCode]> = response.topics.flatMap((t) =>
      t.partitions.filter((p) => p.errorCode !== 'NONE').map((p): [string, KafkaErrorCode] => [`${t.name}-${p.partition}`, p.errorCode]),
    );
    if (failed.length > 0 && this.open && sentIn === this.transactionSeq) {
      this.offsetCommitError = `TxnOffsetCommit failed (${failed.map(([tp, code]) => `${tp}: ${code}`).join(', ')})`;
    }
  }

  private requireOpen(action: string): void {
    if (!this.open) {
      throw new Error(`Producer "${this.transactionalId}" cannot ${action}: no transaction in progress (call beginTransaction first)`);
    }
  }
}
