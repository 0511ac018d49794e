/**
 * TransactionAdmin over the simulator: what Kafka's Admin client reads and writes for transactions
 * (listTransactions, describeTransactions, describeProducers, abortTransaction), answered from the
 * engine as the simulator's brokers answer those requests on the wire.
 */
import type {
  AbortTransactionSpec,
  PartitionProducers,
  ReplicatedPartition,
  TransactionAdmin,
  TransactionDescriptionResult,
  TransactionListFilter,
  TransactionListing,
} from '../../model/transactions';
import type { Simulation } from '../simulation';

export class SimTransactionAdmin implements TransactionAdmin {
  constructor(private readonly simulation: Simulation) {}

  now(): number {
    return this.simulation.now;
  }

  private coordinatorOf(transactionalId: string): number {
    return this.simulation.cluster.coordinatorFor(transactionalId).nodeId;
  }

  /** Every broker's listing merged, as Admin.listTransactions merges them. */
  listTransactions(filter: TransactionListFilter = {}): Promise<TransactionListing[]> {
    const now = this.simulation.now;
    const listings = this.simulation
      .listTransactionalProducers()
      .filter(
        (p) =>
          (filter.states === undefined || filter.states.length === 0 || filter.states.includes(p.state)) &&
          (filter.producerIds === undefined || filter.producerIds.length === 0 || filter.producerIds.includes(p.producerId)) &&
          (filter.durationMs === undefined || now - p.transactionStartTimeMs > filter.durationMs),
      )
      .map((p) => ({ transactionalId: p.transactionalId, coordinatorId: this.coordinatorOf(p.transactionalId), producerId: p.producerId, state: p.state }));
    return Promise.resolve(listings);
  }

  describeTransactions(transactionalIds: readonly string[]): Promise<TransactionDescriptionResult[]> {
    return Promise.resolve(
      transactionalIds.map((transactionalId) => {
        const producer = transactionalId === '' ? undefined : this.simulation.findTransactionalProducer(transactionalId);
        return producer
          ? { transactionalId, description: producer.describe(this.coordinatorOf(transactionalId)) }
          : { transactionalId, error: transactionalId === '' ? 'INVALID_REQUEST: a transactional id is not empty' : `TRANSACTIONAL_ID_NOT_FOUND: no transaction coordinator knows transactional id ${transactionalId}` };
      }),
    );
  }

  describeProducers(partitions: ReadonlyArray<{ topic: string; partition: number }>): Promise<PartitionProducers[]> {
    const now = this.simulation.now;
    return Promise.resolve(
      partitions.map(({ topic, partition }) => {
        const log = this.simulation.cluster.partition(topic, partition);
        return log
          ? { topic, partition, producers: log.activeProducers(now) }
          : { topic, partition, producers: [], error: 'UNKNOWN_TOPIC_OR_PARTITION: This server does not host this topic-partition.' };
      }),
    );
  }

  topicPartitions(topics?: readonly string[]): Promise<ReplicatedPartition[]> {
    const cluster = this.simulation.cluster;
    const named = topics === undefined ? cluster.userTopics() : topics.map((name) => cluster.topic(name));
    const missing = topics?.filter((_, i) => named[i] === undefined) ?? [];
    if (missing.length > 0) {
      return Promise.reject(new Error(`UNKNOWN_TOPIC_OR_PARTITION: no topic ${missing.join(', ')}`));
    }
    return Promise.resolve(named.flatMap((topic) => (topic ? topic.partitions.map((_, partition) => ({ topic: topic.name, partition, replicas: [topic.leaders[partition]] })) : [])));
  }

  abortTransaction(spec: AbortTransactionSpec): Promise<{ error?: string }> {
    const errorCode = this.simulation.writeTxnMarker({ producerId: spec.producerId, producerEpoch: spec.producerEpoch, coordinatorEpoch: spec.coordinatorEpoch, result: 'ABORT' }, spec.topic, spec.partition);
    return Promise.resolve(errorCode === 'NONE' ? {} : { error: errorCode });
  }
}
