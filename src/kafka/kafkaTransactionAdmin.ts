/**
 * TransactionAdmin over a real cluster, on the source's connections (one pool and one login per broker),
 * sending what Kafka's Admin client sends for kafka-transactions.sh: ListTransactions to every broker,
 * FindCoordinator then DescribeTransactions per coordinator, DescribeProducers per partition leader,
 * Metadata for the replicas, and WriteTxnMarkers to the leader for an abort. Each call sends one request
 * per broker it needs, nothing is retried on its own, and a broker's refusal is reported in Kafka's words.
 */
import type {
  AbortTransactionSpec,
  PartitionProducers,
  ReplicatedPartition,
  TransactionAdmin,
  TransactionDescriptionResult,
  TransactionListFilter,
  TransactionListing,
} from '../model/transactions';
import { groupBy } from './collections';
import type { ClusterConnection } from './clusterConnection';
import { partitionKey } from './groupDetailMapper';
import { describeErrorCode } from './kafkaErrors';
import { sendRequest } from './kafkajsBridge';
import {
  abortMarkerRequest,
  describeProducersRequest,
  describeTransactionsRequest,
  findTransactionCoordinatorsRequest,
  listTransactionsRequest,
  topicReplicasRequest,
} from './requests/transactionRequests';

function errorText(code: number, message?: string | null): string {
  return message ? `${describeErrorCode(code)} (${message})` : describeErrorCode(code);
}

export class KafkaTransactionAdmin implements TransactionAdmin {
  constructor(private readonly connection: ClusterConnection) {}

  now(): number {
    return Date.now();
  }

  /** Every broker lists the transactional ids it coordinates; the answers are merged, as Admin.listTransactions does. */
  async listTransactions(filter: TransactionListFilter = {}): Promise<TransactionListing[]> {
    const topology = await this.connection.topology();
    const perBroker = await Promise.all(
      [...topology.brokers.keys()].map(async (nodeId) => {
        const listed = await this.connection.guard(async () => sendRequest(await this.connection.broker(nodeId), listTransactionsRequest(filter)));
        return listed.map((l) => ({ ...l, coordinatorId: nodeId }));
      }),
    );
    return perBroker.flat();
  }

  async describeTransactions(transactionalIds: readonly string[]): Promise<TransactionDescriptionResult[]> {
    const ids = [...new Set(transactionalIds)];
    if (ids.length === 0) {
      return [];
    }
    const results = new Map<string, TransactionDescriptionResult>();
    const found = await this.connection.guard(async () => sendRequest(await this.connection.anyBroker(), findTransactionCoordinatorsRequest(ids)));
    const byCoordinator = new Map<number, string[]>();
    for (const c of found) {
      if (c.errorCode !== 0) {
        results.set(c.key, { transactionalId: c.key, error: errorText(c.errorCode, c.errorMessage) });
      } else {
        byCoordinator.set(c.nodeId, [...(byCoordinator.get(c.nodeId) ?? []), c.key]);
      }
    }
    await Promise.all(
      [...byCoordinator].map(async ([nodeId, keys]) => {
        const answers = await this.connection.guard(async () => sendRequest(await this.connection.broker(nodeId), describeTransactionsRequest(keys)));
        for (const a of answers) {
          results.set(a.transactionalId, a.errorCode === 0 ? { transactionalId: a.transactionalId, description: { ...a.description, coordinatorId: nodeId } } : { transactionalId: a.transactionalId, error: errorText(a.errorCode) });
        }
      }),
    );
    return transactionalIds.map((id) => results.get(id) ?? { transactionalId: id, error: 'the coordinator did not answer for it' });
  }

  /** One DescribeProducers per partition leader; a partition without a leader or topic says why. */
  async describeProducers(partitions: ReadonlyArray<{ topic: string; partition: number }>): Promise<PartitionProducers[]> {
    const found = await this.connection.partitionLeaders([...new Set(partitions.map((p) => p.topic))]);
    const answers = new Map<string, PartitionProducers>();
    const led: Array<{ leader: number; tp: { topic: string; partition: number } }> = [];
    for (const tp of partitions) {
      const leader = found.leaders.get(partitionKey(tp));
      const topicError = found.topicErrors.get(tp.topic);
      if (topicError !== undefined || leader === undefined || leader < 0) {
        answers.set(partitionKey(tp), { ...tp, producers: [], error: topicError ?? (leader === undefined ? 'UNKNOWN_TOPIC_OR_PARTITION: no such partition' : 'LEADER_NOT_AVAILABLE: the partition has no leader') });
      } else {
        led.push({ leader, tp });
      }
    }
    await Promise.all(
      [...groupBy(led, (l) => l.leader)].map(async ([leader, list]) => {
        const answer = await this.connection.guard(async () => sendRequest(await this.connection.broker(leader), describeProducersRequest(list.map((l) => l.tp))));
        for (const a of answer) {
          answers.set(partitionKey(a), { topic: a.topic, partition: a.partition, producers: a.producers, ...(a.errorCode !== 0 ? { error: errorText(a.errorCode, a.errorMessage) } : {}) });
        }
      }),
    );
    return partitions.map((tp) => answers.get(partitionKey(tp)) ?? { ...tp, producers: [], error: 'the leader did not answer for it' });
  }

  async topicPartitions(topics?: readonly string[]): Promise<ReplicatedPartition[]> {
    const answer = await this.connection.guard(async () => sendRequest(await this.connection.anyBroker(), topicReplicasRequest(topics === undefined ? null : [...topics])));
    const [failed] = answer.topicErrors;
    if (failed) {
      throw new Error(`Topic ${failed.topic}: ${describeErrorCode(failed.errorCode)}`);
    }
    return answer.partitions;
  }

  async abortTransaction(spec: AbortTransactionSpec): Promise<{ error?: string }> {
    const found = await this.connection.partitionLeaders([spec.topic]);
    const leader = found.leaders.get(partitionKey(spec));
    if (leader === undefined || leader < 0) {
      return { error: found.topicErrors.get(spec.topic) ?? 'LEADER_NOT_AVAILABLE: the partition has no leader' };
    }
    const errorCode = await this.connection.guard(async () => sendRequest(await this.connection.broker(leader), abortMarkerRequest(spec)));
    return errorCode === 0 ? {} : { error: errorText(errorCode) };
  }
}
