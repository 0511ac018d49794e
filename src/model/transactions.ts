/**
 * Transactions as Kafka's admin API reports them (KIP-664, what kafka-transactions.sh prints), the same
 * shapes from a real cluster and from the simulator: a partition's producers (DescribeProducers), the
 * transaction coordinators' listing (ListTransactions) and one transaction's state (DescribeTransactions).
 */

/** One producer's state on one partition: DescribeProducersResponse's ProducerState. */
export interface ProducerState {
  producerId: number;
  producerEpoch: number;
  /** Last sequence number the partition accepted from this producer, -1 when none. */
  lastSequence: number;
  /** Timestamp (ms) of the producer's last write to the partition, -1 when unknown. */
  lastTimestamp: number;
  /** Epoch of the transaction coordinator that wrote the producer's last marker here, -1 when none. */
  coordinatorEpoch: number;
  /** First offset of the producer's open transaction on this partition, -1 when none is open: what holds the LSO. */
  currentTxnStartOffset: number;
}

/** Kafka's TransactionState names, as ListTransactions and DescribeTransactions spell them. */
export type TransactionStateName =
  | 'Empty'
  | 'Ongoing'
  | 'PrepareCommit'
  | 'PrepareAbort'
  | 'CompleteCommit'
  | 'CompleteAbort'
  | 'PrepareEpochFence'
  | 'Dead'
  | 'Unknown';

/** One row of ListTransactions: `kafka-transactions.sh list`. */
export interface TransactionListing {
  transactionalId: string;
  /** Broker id of the transaction coordinator that answered. */
  coordinatorId: number;
  producerId: number;
  state: TransactionStateName;
}

/** DescribeTransactions' TransactionState: `kafka-transactions.sh describe`. */
export interface TransactionDescription {
  transactionalId: string;
  coordinatorId: number;
  state: TransactionStateName;
  producerId: number;
  producerEpoch: number;
  transactionTimeoutMs: number;
  /** When the ongoing transaction started (ms), -1 when none is ongoing. */
  transactionStartTimeMs: number;
  /** The partitions added to the ongoing transaction. */
  topicPartitions: Array<{ topic: string; partition: number }>;
}

/** One partition's producers as its leader reports them, or why it would not (`ERROR_NAME: message`). */
export interface PartitionProducers {
  topic: string;
  partition: number;
  producers: ProducerState[];
  error?: string;
}

/** DescribeTransactions for one transactional id: its state, or why there is none (TRANSACTIONAL_ID_NOT_FOUND, ...). */
export interface TransactionDescriptionResult {
  transactionalId: string;
  description?: TransactionDescription;
  error?: string;
}

/** Admin.abortTransaction's AbortTransactionSpec: the ABORT marker WriteTxnMarkers writes at the partition's leader. */
export interface AbortTransactionSpec {
  topic: string;
  partition: number;
  producerId: number;
  producerEpoch: number;
  coordinatorEpoch: number;
}

/** A topic partition and the brokers holding its replicas (find-hanging --broker-id searches those). */
export interface ReplicatedPartition {
  topic: string;
  partition: number;
  replicas: number[];
}

/** ListTransactions' filters (kafka-transactions.sh list); absent means no filter. */
export interface TransactionListFilter {
  states?: readonly TransactionStateName[];
  producerIds?: readonly number[];
  /** Only transactions running longer than this (ListTransactions v1, KIP-994). */
  durationMs?: number;
}

/**
 * The transaction administration of Kafka's Admin client (KIP-664), over either source: what the
 * Transactions view, Find Hanging Transactions and Abort Transaction need.
 */
export interface TransactionAdmin {
  /** The source's clock (ms): the simulation's virtual time, or the wall clock. */
  now(): number;
  /** ListTransactions on every broker, merged. */
  listTransactions(filter?: TransactionListFilter): Promise<TransactionListing[]>;
  /** DescribeTransactions at each id's coordinator. */
  describeTransactions(transactionalIds: readonly string[]): Promise<TransactionDescriptionResult[]>;
  /** DescribeProducers at each partition's leader, in the order asked. */
  describeProducers(partitions: ReadonlyArray<{ topic: string; partition: number }>): Promise<PartitionProducers[]>;
  /** The partitions of `topics` (every topic when absent), with their replicas. */
  topicPartitions(topics?: readonly string[]): Promise<ReplicatedPartition[]>;
  /** WriteTxnMarkers: an ABORT marker for the spec's producer on its partition; the broker's refusal as `error`. */
  abortTransaction(spec: AbortTransactionSpec): Promise<{ error?: string }>;
}
