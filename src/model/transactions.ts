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
