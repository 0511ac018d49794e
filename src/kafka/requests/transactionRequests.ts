/**
 * The admin requests behind `kafka-transactions.sh` (KIP-664) that name what holds a partition's last
 * stable offset: DescribeProducers to the partition leader, ListTransactions to each broker (every broker
 * coordinates some transactional ids), FindCoordinator for a transactional id and DescribeTransactions to
 * its coordinator. Answers are mapped to the model's shapes (src/model/transactions.ts).
 */
import type { ProducerState, TransactionDescription, TransactionListing, TransactionStateName } from '../../model/transactions';
import { ApiKeys } from '../../protocol/messages/apis';
import { DescribeProducersRequest } from '../../protocol/messages/describeProducersRequest';
import { DescribeProducersResponse } from '../../protocol/messages/describeProducersResponse';
import { DescribeTransactionsRequest } from '../../protocol/messages/describeTransactionsRequest';
import { DescribeTransactionsResponse } from '../../protocol/messages/describeTransactionsResponse';
import { FindCoordinatorRequest } from '../../protocol/messages/findCoordinatorRequest';
import { FindCoordinatorResponse } from '../../protocol/messages/findCoordinatorResponse';
import { ListTransactionsRequest } from '../../protocol/messages/listTransactionsRequest';
import { ListTransactionsResponse } from '../../protocol/messages/listTransactionsResponse';
import type { TopicPartition } from '../../model/types';
import { groupBy } from '../collections';
import { apiCall, exactNumber, requestSpec, type RequestSpec } from './apiCall';

/** One partition's answer to DescribeProducers. */
export interface PartitionProducers extends TopicPartition {
  errorCode: number;
  errorMessage: string | null;
  producers: ProducerState[];
}

/** DescribeProducers v0 (API 61) for partitions led by one broker, as DescribeProducersHandler batches them. */
export function describeProducersRequest(partitions: readonly TopicPartition[]): RequestSpec<PartitionProducers[]> {
  const topics = [...groupBy(partitions, (p) => p.topic)].map(([name, parts]) => ({ name, partitionIndexes: parts.map((p) => p.partition) }));
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

const STATE_NAMES: readonly TransactionStateName[] = ['Empty', 'Ongoing', 'PrepareCommit', 'PrepareAbort', 'CompleteCommit', 'CompleteAbort', 'PrepareEpochFence', 'Dead'];

/** Kafka's TransactionState.fromName: a name this client does not know is Unknown, as in the admin client. */
export function transactionStateName(name: string): TransactionStateName {
  return STATE_NAMES.find((s) => s === name) ?? 'Unknown';
}

export interface ListedTransactions {
  errorCode: number;
  transactions: TransactionListing[];
}

/** ListTransactions v0..v2 (API 66) to one broker, filtered by producer ids (`kafka-transactions.sh list`). */
export function listTransactionsRequest(coordinatorId: number, producerIds: readonly number[]): RequestSpec<ListedTransactions> {
  return requestSpec(ApiKeys.ListTransactions, 0, 2, (version) =>
    apiCall(
      ListTransactionsRequest,
      ListTransactionsResponse,
      version,
      { stateFilters: [], producerIdFilters: producerIds.map(BigInt), durationFilter: -1n, transactionalIdPattern: null },
      (answer) => ({
        errorCode: answer.errorCode,
        transactions: answer.transactionStates.map((t) => ({
          transactionalId: t.transactionalId,
          coordinatorId,
          producerId: exactNumber(t.producerId, 'ListTransactions producerId'),
          state: transactionStateName(t.transactionState),
        })),
      }),
    ),
  );
}

export interface DescribedTransaction {
  errorCode: number;
  transactionalId: string;
  description: TransactionDescription;
}

/** DescribeTransactions v0 (API 65) to the transactional ids' coordinator. */
export function describeTransactionsRequest(coordinatorId: number, transactionalIds: readonly string[]): RequestSpec<DescribedTransaction[]> {
  return requestSpec(ApiKeys.DescribeTransactions, 0, 0, (version) =>
    apiCall(DescribeTransactionsRequest, DescribeTransactionsResponse, version, { transactionalIds: [...transactionalIds] }, (answer) =>
      answer.transactionStates.map((t) => ({
        errorCode: t.errorCode,
        transactionalId: t.transactionalId,
        description: {
          transactionalId: t.transactionalId,
          coordinatorId,
          state: transactionStateName(t.transactionState),
          producerId: exactNumber(t.producerId, 'DescribeTransactions producerId'),
          producerEpoch: t.producerEpoch,
          transactionTimeoutMs: t.transactionTimeoutMs,
          transactionStartTimeMs: exactNumber(t.transactionStartTimeMs, 'DescribeTransactions transactionStartTimeMs'),
          topicPartitions: t.topics.flatMap((d) => d.partitions.map((partition) => ({ topic: d.topic, partition }))),
        },
      })),
    ),
  );
}

/** FindCoordinator's key type for a transactional id (CoordinatorType.TRANSACTION). */
export const TRANSACTION_KEY_TYPE = 1;

export interface FoundCoordinator {
  key: string;
  nodeId: number;
  errorCode: number;
  errorMessage: string | null;
}

/**
 * FindCoordinator v4..v6 for transactional ids, all in one request (KIP-699). Brokers before v4 (Kafka 3.0)
 * are refused as unsupported: DescribeProducers itself needs Kafka 2.8.
 */
export function findTransactionCoordinatorRequest(transactionalIds: readonly string[]): RequestSpec<FoundCoordinator[]> {
  return requestSpec(ApiKeys.FindCoordinator, 4, 6, (version) =>
    apiCall(FindCoordinatorRequest, FindCoordinatorResponse, version, { keyType: TRANSACTION_KEY_TYPE, coordinatorKeys: [...transactionalIds] }, (answer) =>
      (answer.coordinators ?? []).map((c) => ({ key: c.key, nodeId: c.nodeId, errorCode: c.errorCode, errorMessage: c.errorMessage })),
    ),
  );
}
