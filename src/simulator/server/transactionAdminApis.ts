/**
 * The admin side of transactions (KIP-664, what kafka-transactions.sh sends): DescribeProducers to a
 * partition's leader, ListTransactions and DescribeTransactions to the transaction coordinators, and
 * WriteTxnMarkers, with which an admin aborts a hanging transaction at a partition's leader. The
 * answers come from the engine: each partition's producer state and each transactional id's producer.
 */
import { errorCodeOf } from '../../protocol/errorCodes';
import { DescribeProducersRequest, type DescribeProducersRequestData } from '../../protocol/messages/describeProducersRequest';
import { DescribeProducersResponse, type DescribeProducersResponseData, type PartitionResponse } from '../../protocol/messages/describeProducersResponse';
import { DescribeTransactionsRequest, type DescribeTransactionsRequestData } from '../../protocol/messages/describeTransactionsRequest';
import { DescribeTransactionsResponse, type DescribeTransactionsResponseData, type TransactionState as DescribedTransaction } from '../../protocol/messages/describeTransactionsResponse';
import { ListTransactionsRequest, type ListTransactionsRequestData } from '../../protocol/messages/listTransactionsRequest';
import { ListTransactionsResponse, type ListTransactionsResponseData } from '../../protocol/messages/listTransactionsResponse';
import { WriteTxnMarkersRequest, type WritableTxnMarker, type WriteTxnMarkersRequestData } from '../../protocol/messages/writeTxnMarkersRequest';
import { WriteTxnMarkersResponse, type WritableTxnMarkerResult, type WriteTxnMarkersResponseData } from '../../protocol/messages/writeTxnMarkersResponse';
import type { TransactionStateName } from '../../model/transactions';
import type { TransactionalProducer } from '../clients/producer/internals/transactionalProducer';
import { defineApi, type ApiDefinition, type RequestContext } from './context';
import { ledPartition } from './dataApis';

const NO_ERROR = 0;
const UNKNOWN_TOPIC_OR_PARTITION = errorCodeOf('UNKNOWN_TOPIC_OR_PARTITION');

/** The states ListTransactions filters on, by the names Kafka's TransactionState.fromName knows (case-sensitive). */
const TRANSACTION_STATE_NAMES: ReadonlySet<string> = new Set<TransactionStateName>(['Empty', 'Ongoing', 'PrepareCommit', 'PrepareAbort', 'CompleteCommit', 'CompleteAbort', 'PrepareEpochFence', 'Dead']);

/** True when this broker is the transaction coordinator of `transactionalId` (its __transaction_state partition's leader). */
function coordinatesTransaction(ctx: RequestContext, transactionalId: string): boolean {
  return ctx.server.simulation.cluster.coordinatorFor(transactionalId).nodeId === ctx.nodeId;
}

// ------------------------------------------------------------------ DescribeProducers

function describePartitionProducers(ctx: RequestContext, topicName: string, partitionIndex: number): PartitionResponse {
  const topic = ctx.server.simulation.cluster.topic(topicName) ?? UNKNOWN_TOPIC_OR_PARTITION;
  const log = ledPartition(ctx, topic, partitionIndex);
  if (typeof log === 'number') {
    return { partitionIndex, errorCode: log, errorMessage: null, activeProducers: [] };
  }
  return {
    partitionIndex,
    errorCode: NO_ERROR,
    errorMessage: null,
    activeProducers: log.activeProducers(ctx.server.simulation.clock.now).map((p) => ({
      producerId: BigInt(p.producerId),
      producerEpoch: p.producerEpoch,
      lastSequence: p.lastSequence,
      lastTimestamp: BigInt(p.lastTimestamp),
      coordinatorEpoch: p.coordinatorEpoch,
      currentTxnStartOffset: BigInt(p.currentTxnStartOffset),
    })),
  };
}

/** ReplicaManager.activeProducerState for each partition asked; a partition led elsewhere is NOT_LEADER_OR_FOLLOWER. */
function describeProducers(request: DescribeProducersRequestData, ctx: RequestContext): DescribeProducersResponseData {
  return {
    throttleTimeMs: 0,
    topics: request.topics.map((t) => ({ name: t.name, partitions: t.partitionIndexes.map((p) => describePartitionProducers(ctx, t.name, p)) })),
  };
}

// ------------------------------------------------------------------ ListTransactions

/** A v2 transactional id pattern as Java's Pattern.matcher(id).matches() reads it: the whole id. */
function compilePattern(pattern: string): RegExp | null {
  try {
    return new RegExp(`^(?:${pattern})$`, 'u');
  } catch {
    return null;
  }
}

/**
 * TransactionStateManager.listTransactionStates: the transactional ids this coordinator owns, without
 * Dead ones, filtered by producer id, by state (names it does not know come back in
 * unknownStateFilters), by duration (v1: running longer than the filter, measured from the start of
 * the current or last transaction) and by a transactional id pattern (v2).
 */
function listTransactions(request: ListTransactionsRequestData, ctx: RequestContext): ListTransactionsResponseData {
  const unknownStateFilters = request.stateFilters.filter((s) => !TRANSACTION_STATE_NAMES.has(s));
  const states = new Set(request.stateFilters.filter((s) => TRANSACTION_STATE_NAMES.has(s)));
  const producerIds = new Set(request.producerIdFilters.map(Number));
  const durationFilter = Number(request.durationFilter ?? -1n);
  const patternText = request.transactionalIdPattern ?? null;
  const pattern = patternText === null || patternText === '' ? null : compilePattern(patternText);
  if (patternText !== null && patternText !== '' && pattern === null) {
    return { throttleTimeMs: 0, errorCode: errorCodeOf('INVALID_REGULAR_EXPRESSION'), unknownStateFilters, transactionStates: [] };
  }
  const now = ctx.server.simulation.clock.now;
  const included = (producer: TransactionalProducer): boolean =>
    coordinatesTransaction(ctx, producer.transactionalId) &&
    (producerIds.size === 0 || producerIds.has(producer.producerId)) &&
    (states.size === 0 || states.has(producer.state)) &&
    (durationFilter < 0 || now - producer.transactionStartTimeMs > durationFilter) &&
    (pattern === null || pattern.test(producer.transactionalId));
  return {
    throttleTimeMs: 0,
    errorCode: NO_ERROR,
    unknownStateFilters,
    transactionStates: ctx.server.simulation
      .listTransactionalProducers()
      .filter(included)
      .map((p) => ({ transactionalId: p.transactionalId, producerId: BigInt(p.producerId), transactionState: p.state })),
  };
}

// ------------------------------------------------------------------ DescribeTransactions

function describeOne(ctx: RequestContext, transactionalId: string): DescribedTransaction {
  const missing = (errorCode: number): DescribedTransaction => ({
    errorCode, transactionalId, transactionState: '', transactionTimeoutMs: 0, transactionStartTimeMs: -1n, producerId: -1n, producerEpoch: -1, topics: [],
  });
  if (transactionalId === '') {
    return missing(errorCodeOf('INVALID_REQUEST'));
  }
  if (!coordinatesTransaction(ctx, transactionalId)) {
    return missing(errorCodeOf('NOT_COORDINATOR'));
  }
  const producer = ctx.server.simulation.findTransactionalProducer(transactionalId);
  if (!producer) {
    return missing(errorCodeOf('TRANSACTIONAL_ID_NOT_FOUND'));
  }
  const described = producer.describe(ctx.nodeId);
  const topics = new Map<string, number[]>();
  for (const { topic, partition } of described.topicPartitions) {
    topics.set(topic, [...(topics.get(topic) ?? []), partition]);
  }
  return {
    errorCode: NO_ERROR,
    transactionalId,
    transactionState: described.state,
    transactionTimeoutMs: described.transactionTimeoutMs,
    transactionStartTimeMs: BigInt(described.transactionStartTimeMs),
    producerId: BigInt(described.producerId),
    producerEpoch: described.producerEpoch,
    topics: [...topics].map(([topic, partitions]) => ({ topic, partitions })),
  };
}

/** TransactionCoordinator.handleDescribeTransactions for each id. */
function describeTransactions(request: DescribeTransactionsRequestData, ctx: RequestContext): DescribeTransactionsResponseData {
  return { throttleTimeMs: 0, transactionStates: request.transactionalIds.map((id) => describeOne(ctx, id)) };
}

// ------------------------------------------------------------------ WriteTxnMarkers

/** One marker on one partition at this broker: its leader appends it (Simulation.writeTxnMarker). */
function writeMarker(ctx: RequestContext, marker: WritableTxnMarker, topicName: string, partition: number): number {
  const topic = ctx.server.simulation.cluster.topic(topicName) ?? UNKNOWN_TOPIC_OR_PARTITION;
  const log = ledPartition(ctx, topic, partition);
  if (typeof log === 'number') {
    return log;
  }
  const result = marker.transactionResult ? 'COMMIT' : 'ABORT';
  const producerId = Number(marker.producerId);
  const errorCode = ctx.server.simulation.writeTxnMarker({ producerId, producerEpoch: marker.producerEpoch, coordinatorEpoch: marker.coordinatorEpoch, result }, topicName, partition);
  ctx.server.log(`WriteTxnMarkers from ${ctx.clientId}: ${result} marker for producer ${producerId} (epoch ${marker.producerEpoch}) on ${topicName}-${partition}: ${errorCode}`);
  return errorCodeOf(errorCode);
}

function writeTxnMarkers(request: WriteTxnMarkersRequestData, ctx: RequestContext): WriteTxnMarkersResponseData {
  return {
    markers: request.markers.map(
      (marker): WritableTxnMarkerResult => ({
        producerId: marker.producerId,
        topics: marker.topics.map((t) => ({ name: t.name, partitions: t.partitionIndexes.map((partitionIndex) => ({ partitionIndex, errorCode: writeMarker(ctx, marker, t.name, partitionIndex) })) })),
      }),
    ),
  };
}

export const TRANSACTION_ADMIN_APIS: readonly ApiDefinition[] = [
  defineApi({ key: 27, name: 'WriteTxnMarkers', minVersion: 1, maxVersion: 2, request: WriteTxnMarkersRequest, response: WriteTxnMarkersResponse, handle: writeTxnMarkers }),
  defineApi({ key: 61, name: 'DescribeProducers', minVersion: 0, maxVersion: 0, request: DescribeProducersRequest, response: DescribeProducersResponse, handle: describeProducers }),
  defineApi({ key: 65, name: 'DescribeTransactions', minVersion: 0, maxVersion: 0, request: DescribeTransactionsRequest, response: DescribeTransactionsResponse, handle: describeTransactions }),
  defineApi({ key: 66, name: 'ListTransactions', minVersion: 0, maxVersion: 2, request: ListTransactionsRequest, response: ListTransactionsResponse, handle: listTransactions }),
];
