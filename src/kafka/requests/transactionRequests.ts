/**
 * The transaction administration requests of Kafka's Admin client (KIP-664, what kafka-transactions.sh
 * sends), which kafkajs lacks: DescribeProducers to a partition's leader, ListTransactions to every
 * broker, FindCoordinator for transactional ids, DescribeTransactions to their coordinator, WriteTxnMarkers
 * (an admin's abort) to a partition's leader, and Metadata with each partition's replicas.
 */
import { ApiKeys } from '../../protocol/messages/apis';
import { DescribeProducersRequest } from '../../protocol/messages/describeProducersRequest';
import { DescribeProducersResponse } from '../../protocol/messages/describeProducersResponse';
import { DescribeTransactionsRequest } from '../../protocol/messages/describeTransactionsRequest';
import { DescribeTransactionsResponse } from '../../protocol/messages/describeTransactionsResponse';
import { FindCoordinatorRequest } from '../../protocol/messages/findCoordinatorRequest';
import { FindCoordinatorResponse } from '../../protocol/messages/findCoordinatorResponse';
import { ListTransactionsRequest } from '../../protocol/messages/listTransactionsRequest';
import { ListTransactionsResponse } from '../../protocol/messages/listTransactionsResponse';
import { MetadataRequest } from '../../protocol/messages/metadataRequest';
import { MetadataResponse } from '../../protocol/messages/metadataResponse';
import { WriteTxnMarkersRequest } from '../../protocol/messages/writeTxnMarkersRequest';
import { WriteTxnMarkersResponse } from '../../protocol/messages/writeTxnMarkersResponse';
import type { ProducerState, ReplicatedPartition, TransactionDescription, TransactionListFilter, TransactionStateName } from '../../model/transactions';
import { groupBy } from '../collections';
import { KafkaErrorCode } from '../kafkaErrors';
import { apiCall, exactNumber, requestSpec, type RequestSpec } from './apiCall';

/** FindCoordinator's key type of transactional ids (CoordinatorType.TRANSACTION). */
const TRANSACTION_COORDINATOR = 1;

const STATE_NAMES: ReadonlySet<string> = new Set<TransactionStateName>(['Empty', 'Ongoing', 'PrepareCommit', 'PrepareAbort', 'CompleteCommit', 'CompleteAbort', 'PrepareEpochFence', 'Dead']);

/** A state name as the broker spelled it, or Unknown for one this version does not know. */
export function transactionState(name: string): TransactionStateName {
  return STATE_NAMES.has(name) ? (name as TransactionStateName) : 'Unknown';
}

export interface PartitionProducersAnswer {
  topic: string;
  partition: number;
  errorCode: number;
  errorMessage: string | null;
  producers: ProducerState[];
}

/** DescribeProducers v0 (API 61) for the partitions one broker leads. */
export function describeProducersRequest(partitions: ReadonlyArray<{ topic: string; partition: number }>): RequestSpec<PartitionProducersAnswer[]> {
  const topics = [...groupBy(partitions, (p) => p.topic)].map(([name, list]) => ({ name, partitionIndexes: list.map((p) => p.partition) }));
  return requestSpec(ApiKeys.DescribeProducers, 0, 0, (version) =>
    apiCall(DescribeProducersRequest, DescribeProducersResponse, version, { topics }, (answer) =>
      answer.topics.flatMap((t) =>
        t.partitions.map((p) => ({
          topic: t.name,
          partition: p.partitionIndex,
          errorCode: p.errorCode,
          errorMessage: p.errorMessage,
          producers: p.activeProducers.map((s) => ({
            producerId: exactNumber(s.producerId, 'DescribeProducers producerId'),
            producerEpoch: s.producerEpoch,
            lastSequence: s.lastSequence,
            lastTimestamp: exactNumber(s.lastTimestamp, 'DescribeProducers lastTimestamp'),
            coordinatorEpoch: s.coordinatorEpoch,
            currentTxnStartOffset: exactNumber(s.currentTxnStartOffset, 'DescribeProducers currentTxnStartOffset'),
          })),
        })),
      ),
    ),
  );
}

export interface ListedTransaction {
  transactionalId: string;
  producerId: number;
  state: TransactionStateName;
}

/**
 * ListTransactions to one broker: the transactional ids it coordinates. v0 filters by state and
 * producer id; the duration filter needs v1 (KIP-994), so asking for it narrows the range.
 */
export function listTransactionsRequest(filter: TransactionListFilter): RequestSpec<ListedTransaction[]> {
  const minVersion = filter.durationMs === undefined ? 0 : 1;
  return requestSpec(ApiKeys.ListTransactions, minVersion, 1, (version) =>
    apiCall(
      ListTransactionsRequest,
      ListTransactionsResponse,
      version,
      { stateFilters: [...(filter.states ?? [])], producerIdFilters: (filter.producerIds ?? []).map(BigInt), durationFilter: BigInt(filter.durationMs ?? -1) },
      (answer) => {
        if (answer.errorCode !== 0) {
          throw new KafkaErrorCode(answer.errorCode, 'ListTransactions');
        }
        return answer.transactionStates.map((s) => ({ transactionalId: s.transactionalId, producerId: exactNumber(s.producerId, 'ListTransactions producerId'), state: transactionState(s.transactionState) }));
      },
    ),
  );
}

export interface FoundCoordinator {
  key: string;
  nodeId: number;
  errorCode: number;
  errorMessage: string | null;
}

/** FindCoordinator v4+ (KIP-699, many keys at once) for transactional ids. */
export function findTransactionCoordinatorsRequest(transactionalIds: readonly string[]): RequestSpec<FoundCoordinator[]> {
  return requestSpec(ApiKeys.FindCoordinator, 4, 6, (version) =>
    apiCall(FindCoordinatorRequest, FindCoordinatorResponse, version, { keyType: TRANSACTION_COORDINATOR, coordinatorKeys: [...transactionalIds] }, (answer) =>
      (answer.coordinators ?? []).map((c) => ({ key: c.key, nodeId: c.nodeId, errorCode: c.errorCode, errorMessage: c.errorMessage })),
    ),
  );
}

export interface DescribedTransactionAnswer {
  transactionalId: string;
  errorCode: number;
  description: Omit<TransactionDescription, 'coordinatorId'>;
}

/** DescribeTransactions v0 (API 65) to the ids' coordinator. */
export function describeTransactionsRequest(transactionalIds: readonly string[]): RequestSpec<DescribedTransactionAnswer[]> {
  return requestSpec(ApiKeys.DescribeTransactions, 0, 0, (version) =>
    apiCall(DescribeTransactionsRequest, DescribeTransactionsResponse, version, { transactionalIds: [...transactionalIds] }, (answer) =>
      answer.transactionStates.map((s) => ({
        transactionalId: s.transactionalId,
        errorCode: s.errorCode,
        description: {
          transactionalId: s.transactionalId,
          state: transactionState(s.transactionState),
          producerId: exactNumber(s.producerId, 'DescribeTransactions producerId'),
          producerEpoch: s.producerEpoch,
          transactionTimeoutMs: s.transactionTimeoutMs,
          transactionStartTimeMs: exactNumber(s.transactionStartTimeMs, 'DescribeTransactions transactionStartTimeMs'),
          topicPartitions: s.topics.flatMap((t) => t.partitions.map((partition) => ({ topic: t.topic, partition }))),
        },
      })),
    ),
  );
}

/**
 * WriteTxnMarkers v1 with one ABORT marker, as Admin.abortTransaction sends it to the partition's
 * leader; v2's transaction-version field is the coordinator's, which an admin's abort does not claim.
 */
export function abortMarkerRequest(spec: { topic: string; partition: number; producerId: number; producerEpoch: number; coordinatorEpoch: number }): RequestSpec<number> {
  return requestSpec(ApiKeys.WriteTxnMarkers, 1, 1, (version) =>
    apiCall(
      WriteTxnMarkersRequest,
      WriteTxnMarkersResponse,
      version,
      {
        markers: [
          { producerId: BigInt(spec.producerId), producerEpoch: spec.producerEpoch, transactionResult: false, coordinatorEpoch: spec.coordinatorEpoch, topics: [{ name: spec.topic, partitionIndexes: [spec.partition] }] },
        ],
      },
      (answer) => answer.markers[0]?.topics[0]?.partitions[0]?.errorCode ?? -1,
    ),
  );
}

/** Metadata with every partition's replicas: of the named topics, or of every topic but the internal ones. */
export function topicReplicasRequest(topics: readonly string[] | null): RequestSpec<{ partitions: ReplicatedPartition[]; topicErrors: Array<{ topic: string; errorCode: number }> }> {
  return requestSpec(ApiKeys.Metadata, 6, 13, (version) =>
    apiCall(MetadataRequest, MetadataResponse, version, { topics: topics === null ? null : topics.map((name) => ({ name })), allowAutoTopicCreation: false }, (answer) => {
      if ((answer.errorCode ?? 0) !== 0) {
        throw new KafkaErrorCode(answer.errorCode ?? 0, 'Metadata');
      }
      const named = answer.topics.filter((t) => t.name !== null && (topics !== null || !t.isInternal));
      return {
        partitions: named
          .filter((t) => t.errorCode === 0)
          .flatMap((t) => t.partitions.map((p) => ({ topic: t.name ?? '', partition: p.partitionIndex, replicas: [...p.replicaNodes] })))
          .sort((a, b) => (a.topic === b.topic ? a.partition - b.partition : a.topic < b.topic ? -1 : 1)),
        topicErrors: named.filter((t) => t.errorCode !== 0).map((t) => ({ topic: t.name ?? '', errorCode: t.errorCode })),
      };
    }),
  );
}
