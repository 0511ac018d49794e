/**
 * A transactional producer (KafkaProducer with transactional.id) together with the part of the
 * transaction coordinator it needs: begin, produce to several partitions, sendOffsetsToTransaction,
 * then commit or abort, which writes a control marker to every partition in the transaction and
 * tells each group coordinator (WriteTxnMarkers). Transactions V2 (KIP-890): no AddOffsetsToTxn.
 *
 * It also keeps the coordinator's TransactionMetadata for its transactional id: the producer epoch,
 * transaction.timeout.ms, when the ongoing transaction started, the partitions added to it and how the
 * last one ended (what ListTransactions and DescribeTransactions report). A transaction open past its
 * timeout is aborted by the coordinator, which bumps the epoch and so fences the producer, as Kafka's
 * TransactionCoordinator.abortTimedOutTransactions does at each cleanup interval.
 */
import type { TopicPartition } from '../../../../model/types';
import type { TransactionDescription, TransactionStateName } from '../../../../model/transactions';
import type { ScheduledTask, VirtualClock } from '../../../common/clock';
import type { SimCluster } from '../../../log/cluster';
import type { KafkaErrorCode } from '../../../common/errors';
import type { GroupCoordinatorClient } from '../../groupCoordinatorClient';
import type { PartitionLog } from '../../../log/partitionLog';
import { forEachShare } from '../producer';
import type { OffsetCommitResponse } from '../../../common/requests';
import type { TransactionResult } from '../../../log/transactionIndex';

/** The epoch of the simulator's one transaction coordinator (the __transaction_state leader epoch of a fresh broker). */
export const COORDINATOR_EPOCH = 0;

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

/** Kafka's transaction.timeout.ms default (the producer's), and the broker's transaction.max.timeout.ms. */
export const DEFAULT_TRANSACTION_TIMEOUT_MS = 60_000;
export const MAX_TRANSACTION_TIMEOUT_MS = 900_000;
/** transaction.abort.timed.out.transaction.cleanup.interval.ms: how often the coordinator looks for timed-out transactions. */
export const TIMED_OUT_TRANSACTION_CHECK_MS = 10_000;

/** How the last transaction of a transactional id ended: Kafka's Empty, CompleteCommit and CompleteAbort. */
export type TransactionEnd = 'none' | 'commit' | 'abort';

/** Called when the coordinator aborts a transaction past its timeout. */
export type TransactionTimeoutListener = (producer: TransactionalProducer) => void;

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
  private epoch = 0;
  private timeoutMs = DEFAULT_TRANSACTION_TIMEOUT_MS;
  private startTime = -1;
  private ended: TransactionEnd = 'none';
  /** The partitions the coordinator has in the ongoing transaction ("topic\0partition"), in the order added. */
  private readonly addedPartitions = new Map<string, TopicPartition>();
  /** Next sequence number per partition, for the engine's own writes (a wire client sends its own). */
  private readonly sequences = new Map<PartitionLog, number>();
  private timeoutTask: ScheduledTask | null = null;
  private timedOut = 0;
  /** Told when the coordinator aborts a transaction of this producer past its timeout. */
  onTimeout: TransactionTimeoutListener | null = null;

  constructor(
    readonly transactionalId: string,
    readonly producerId: number,
    private readonly env: TransactionalProducerEnvironment,
  ) {}

  get inTransaction(): boolean {
    return this.open;
  }

  get producerEpoch(): number {
    return this.epoch;
  }

  get transactionTimeoutMs(): number {
    return this.timeoutMs;
  }

  /** How the last transaction ended, when none is ongoing. */
  get lastEnd(): TransactionEnd {
    return this.ended;
  }

  /** Why the ongoing transaction can only abort (a failed TxnOffsetCommit), or null when it can commit. */
  get commitRefusal(): string | null {
    return this.offsetCommitError;
  }

  /** Transactions the coordinator aborted because they outlived transaction.timeout.ms. */
  get transactionsTimedOut(): number {
    return this.timedOut;
  }

  /** Kafka's TransactionState name for this transactional id (markers are written at once, so no Prepare* state is seen). */
  get state(): TransactionStateName {
    if (this.open) {
      return 'Ongoing';
    }
    return this.ended === 'commit' ? 'CompleteCommit' : this.ended === 'abort' ? 'CompleteAbort' : 'Empty';
  }

  /** When the ongoing (or, once ended, the last) transaction started; -1 before the first. */
  get transactionStartTimeMs(): number {
    return this.startTime;
  }

  /** DescribeTransactions' answer, from the coordinator `coordinatorId`. */
  describe(coordinatorId: number): TransactionDescription {
    return {
      transactionalId: this.transactionalId,
      coordinatorId,
      state: this.state,
      producerId: this.producerId,
      producerEpoch: this.epoch,
      transactionTimeoutMs: this.timeoutMs,
      transactionStartTimeMs: this.startTime,
      topicPartitions: [...this.addedPartitions.values()],
    };
  }

  /**
   * initTransactions() again (InitProducerId): the epoch moves on, fencing the previous instance, whose
   * open transaction is aborted; `timeoutMs` is the new instance's transaction.timeout.ms.
   */
  reinitialize(timeoutMs: number = this.timeoutMs): void {
    if (this.open) {
      this.abortTransaction();
    }
    this.epoch++;
    this.ended = 'none';
    this.sequences.clear();
    this.setTransactionTimeout(timeoutMs);
  }

  setTransactionTimeout(timeoutMs: number): void {
    if (!Number.isInteger(timeoutMs) || timeoutMs <= 0 || timeoutMs > MAX_TRANSACTION_TIMEOUT_MS) {
      throw new Error(`transaction.timeout.ms must be an integer in 1..${MAX_TRANSACTION_TIMEOUT_MS} (transaction.max.timeout.ms), got ${timeoutMs}`);
    }
    this.timeoutMs = timeoutMs;
  }

  /** Transactions V2: each EndTxn bumps the epoch; the empty abort of V2 records its end too. */
  bumpEpoch(end?: TransactionEnd): void {
    this.epoch++;
    this.sequences.clear();
    if (end !== undefined) {
      this.ended = end;
    }
  }

  /** AddPartitionsToTxn (or V2's implicit add): the coordinator now has the partition in the transaction. */
  addPartition(topic: string, partition: number): void {
    this.requireOpen('add a partition');
    const key = `${topic}\u0000${partition}`;
    if (!this.addedPartitions.has(key)) {
      this.addedPartitions.set(key, { topic, partition });
    }
  }

  /** True when the coordinator has the partition in the ongoing transaction. */
  hasPartition(topic: string, partition: number): boolean {
    return this.open && this.addedPartitions.has(`${topic}\u0000${partition}`);
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
    this.addedPartitions.clear();
    this.startTime = this.env.clock.now;
    this.scheduleTimeoutCheck();
  }

  /**
   * Appends `records` in the transaction: to one partition, or spread evenly over the topic's partitions.
   * `baseSequence` is a wire client's own sequence number for a one-partition batch; the engine numbers its own.
   */
  send(topicName: string, records: number, partition?: number, baseSequence?: number): void {
    this.requireOpen('send records');
    const topic = this.env.cluster.requireTopic(topicName);
    const now = this.env.clock.now;
    forEachShare(topic, records, partition, (log, share, index) => {
      const sequence = baseSequence ?? this.sequences.get(log) ?? 0;
      this.sequences.set(log, sequence + share);
      log.appendTransactional({ producerId: this.producerId, producerEpoch: this.epoch, baseSequence: sequence }, share, now);
      this.addPartition(topic.name, index);
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
        producerEpoch: this.epoch,
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
      log.writeControlMarker(this.producerId, result, now, this.epoch, COORDINATOR_EPOCH);
    }
    for (const groupId of this.groups) {
      this.env.coordinator.completeTransaction(groupId, this.producerId, result);
    }
    this.partitions.clear();
    this.groups.clear();
    this.addedPartitions.clear();
    this.open = false;
    this.ended = result === 'COMMIT' ? 'commit' : 'abort';
    this.env.clock.cancel(this.timeoutTask);
    this.timeoutTask = null;
  }

  /**
   * The coordinator's cleanup runs every TIMED_OUT_TRANSACTION_CHECK_MS and aborts a transaction whose
   * start + timeout is before now; the first run after the deadline is when this one would be found.
   */
  private scheduleTimeoutCheck(): void {
    this.env.clock.cancel(this.timeoutTask);
    const deadline = this.startTime + this.timeoutMs;
    const checkAt = (Math.floor(deadline / TIMED_OUT_TRANSACTION_CHECK_MS) + 1) * TIMED_OUT_TRANSACTION_CHECK_MS;
    const begun = this.transactionSeq;
    this.timeoutTask = this.env.clock.scheduleAt(checkAt, () => {
      this.timeoutTask = null;
      if (this.open && begun === this.transactionSeq) {
        // Fence the producer first (PrepareEpochFence), then abort with the bumped epoch.
        this.epoch++;
        this.sequences.clear();
        this.abortTransaction();
        this.timedOut++;
        this.onTimeout?.(this);
      }
    });
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
