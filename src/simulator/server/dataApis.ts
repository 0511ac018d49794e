/**
 * ListOffsets, Produce and Fetch over the simulated partition logs. Logs store record counts and a
 * time index, so Produce appends as many records as the batches hold, each with its producer
 * timestamp (CreateTime: the simulator has no topic configs, so no LogAppendTime), and Fetch
 * writes one generated record per visible offset, as an uncompressed record batch v2.
 */
import { errorCodeOf } from '../../protocol/errorCodes';
import { FetchRequest, type FetchPartition, type FetchRequestData } from '../../protocol/messages/fetchRequest';
import { FetchResponse, type FetchableTopicResponse, type FetchResponseData } from '../../protocol/messages/fetchResponse';
import { ListOffsetsRequest, type ListOffsetsPartition, type ListOffsetsRequestData } from '../../protocol/messages/listOffsetsRequest';
import { ListOffsetsResponse, type ListOffsetsPartitionResponse, type ListOffsetsResponseData } from '../../protocol/messages/listOffsetsResponse';
import { ProduceRequest, type ProduceRequestData } from '../../protocol/messages/produceRequest';
import { ProduceResponse, type PartitionProduceResponse, type ProduceResponseData } from '../../protocol/messages/produceResponse';
import type { ScheduledTask } from '../common/clock';
import type { SimTopic } from '../log/cluster';
import { encodeStoredBatches } from '../log/coordinatorRecordLog';
import type { PartitionLog } from '../log/partitionLog';
import type { IsolationLevel } from '../log/transactionIndex';
import { defineApi, type ApiDefinition, type RequestContext } from './context';
import { readBatches } from './logBatches';
import { readProducedBatches, RejectedBatches, type ProducedBatches } from './producedBatches';
import { ZERO_UUID } from './topicIds';

const NO_ERROR = 0;
const UNKNOWN_TOPIC_OR_PARTITION = errorCodeOf('UNKNOWN_TOPIC_OR_PARTITION');
const UNKNOWN_TOPIC_ID = errorCodeOf('UNKNOWN_TOPIC_ID');
const NOT_LEADER_OR_FOLLOWER = errorCodeOf('NOT_LEADER_OR_FOLLOWER');
const OFFSET_OUT_OF_RANGE = errorCodeOf('OFFSET_OUT_OF_RANGE');
const INVALID_TXN_STATE = errorCodeOf('INVALID_TXN_STATE');
/** The log cannot take the records (here: its offsets would pass 2^53 - 1). */
const KAFKA_STORAGE_ERROR = errorCodeOf('KAFKA_STORAGE_ERROR');

/** ListOffsets special timestamps (ListOffsetsRequest). */
const LATEST_TIMESTAMP = -1n;
const EARLIEST_TIMESTAMP = -2n;
const MAX_TIMESTAMP = -3n;
const EARLIEST_LOCAL_TIMESTAMP = -4n;
const LATEST_TIERED_TIMESTAMP = -5n;
const EARLIEST_PENDING_UPLOAD_TIMESTAMP = -6n;
/** RecordBatch.NO_TIMESTAMP. */
const NO_TIMESTAMP = -1n;
/** Upper bound on records in one fetched partition, whatever partition_max_bytes allows. */
const MAX_RECORDS_PER_PARTITION = 500;
/** A generous estimate of one generated record's size in a batch, to honour partition_max_bytes. */
const RECORD_SIZE_ESTIMATE = 64;

function isolationOf(level: number | undefined): IsolationLevel {
  return level === 1 ? 'read_committed' : 'read_uncommitted';
}

/** The topic a request names, by id from the versions that use topic ids (else by name); an error code when unknown. */
function namedTopic(ctx: RequestContext, byId: boolean, name: string | undefined, topicId: string | undefined): SimTopic | number {
  const cluster = ctx.server.simulation.cluster;
  if (byId) {
    return (topicId === undefined ? undefined : cluster.topicById(topicId)) ?? UNKNOWN_TOPIC_ID;
  }
  const topic = cluster.topic(name ?? '');
  return topic ?? UNKNOWN_TOPIC_OR_PARTITION;
}

/** The partition's log if this broker leads it, else the error code to answer with. */
export function ledPartition(ctx: RequestContext, topic: SimTopic | number, partition: number): PartitionLog | number {
  if (typeof topic === 'number') {
    return topic;
  }
  const log = topic.partitions[partition];
  if (!log) {
    return UNKNOWN_TOPIC_OR_PARTITION;
  }
  return topic.leaders[partition] === ctx.nodeId ? log : NOT_LEADER_OR_FOLLOWER;
}

// ------------------------------------------------------------------ ListOffsets

/**
 * What a broker's log answers (UnifiedLog.fetchOffsetByTimestamp, then Partition's cap at the last
 * fetchable offset): earliest and latest with no timestamp, MAX_TIMESTAMP the first record with the
 * largest timestamp, a timestamp the first record at or after it, with its own timestamp. The
 * simulator has no tiered storage: the local log is the whole log, and nothing is tiered or pending upload.
 */
function listedOffset(log: PartitionLog, target: bigint, isolation: IsolationLevel): { offset: bigint; timestamp: bigint } {
  const lastFetchable = isolation === 'read_committed' ? log.lastStableOffset : log.highWatermark;
  switch (target) {
    case EARLIEST_TIMESTAMP:
    case EARLIEST_LOCAL_TIMESTAMP:
      return { offset: BigInt(log.logStartOffset), timestamp: NO_TIMESTAMP };
    case LATEST_TIMESTAMP:
      return { offset: BigInt(lastFetchable), timestamp: NO_TIMESTAMP };
    case LATEST_TIERED_TIMESTAMP:
    case EARLIEST_PENDING_UPLOAD_TIMESTAMP:
      return { offset: -1n, timestamp: NO_TIMESTAMP };
    default: {
      const found = target === MAX_TIMESTAMP ? log.maxTimestampAndOffset() : log.timestampAndOffsetFor(Number(target));
      return found !== null && found.offset < lastFetchable ? { offset: BigInt(found.offset), timestamp: BigInt(found.timestamp) } : { offset: -1n, timestamp: NO_TIMESTAMP };
    }
  }
}

function listPartition(ctx: RequestContext, topic: string, p: ListOffsetsPartition, isolation: IsolationLevel): ListOffsetsPartitionResponse {
  const log = ledPartition(ctx, namedTopic(ctx, false, topic, undefined), p.partitionIndex);
  const found = typeof log === 'number' ? { offset: -1n, timestamp: NO_TIMESTAMP } : listedOffset(log, p.timestamp, isolation);
  return {
    partitionIndex: p.partitionIndex,
    errorCode: typeof log === 'number' ? log : NO_ERROR,
    timestamp: found.timestamp,
    offset: found.offset,
    // Partitions never move, so every leader epoch is 0.
    ...(ctx.apiVersion >= 4 ? { leaderEpoch: typeof log === 'number' ? -1 : 0 } : {}),
  };
}

function listOffsets(request: ListOffsetsRequestData, ctx: RequestContext): ListOffsetsResponseData {
  const isolation = isolationOf(request.isolationLevel);
  return {
    throttleTimeMs: 0,
    topics: request.topics.map((t) => ({ name: t.name, partitions: t.partitions.map((p) => listPartition(ctx, t.name, p, isolation)) })),
  };
}

// ------------------------------------------------------------------ Produce

/** Produce v12+ comes from a Transactions V2 client (KIP-890): the leader adds the partition to its transaction. */
const TRANSACTIONS_V2_PRODUCE_VERSION = 12;

/**
 * Transactional batches go through the engine's producer of their transactional id. From a V1 client
 * (Produce below v12) only to partitions AddPartitionsToTxn added to the ongoing transaction (else
 * INVALID_TXN_STATE, as a broker that verifies transactions answers); from a V2 client the partition
 * is added here, starting the transaction if none is ongoing, as the leader's implicit add does.
 */
function appendTransactional(ctx: RequestContext, transactionalId: string | null, topic: string, partition: number, produced: ProducedBatches): number {
  const owner = produced.producer;
  if (transactionalId === null || owner === null) {
    return INVALID_TXN_STATE;
  }
  const txn = ctx.server.transactions.lookup(transactionalId, owner.producerId, owner.producerEpoch);
  if (typeof txn === 'number') {
    return txn;
  }
  if (ctx.apiVersion >= TRANSACTIONS_V2_PRODUCE_VERSION) {
    ctx.server.transactions.ensureOngoing(txn);
    txn.addPartition(topic, partition);
  }
  if (!txn.hasPartition(topic, partition)) {
    return INVALID_TXN_STATE;
  }
  txn.send(topic, produced.records, partition, owner.baseSequence);
  return NO_ERROR;
}

function failedProduce(index: number, errorCode: number): PartitionProduceResponse {
  return { index, errorCode, baseOffset: -1n, logAppendTimeMs: -1n, logStartOffset: -1n };
}

function producePartition(ctx: RequestContext, transactionalId: string | null, topic: SimTopic | number, index: number, records: Uint8Array | null): PartitionProduceResponse {
  const log = ledPartition(ctx, topic, index);
  if (typeof log === 'number' || typeof topic === 'number') {
    return failedProduce(index, typeof log === 'number' ? log : UNKNOWN_TOPIC_OR_PARTITION);
  }
  let produced: ProducedBatches;
  try {
    produced = readProducedBatches(records ?? new Uint8Array(0));
  } catch (error) {
    if (!(error instanceof RejectedBatches)) {
      throw error;
    }
    ctx.server.log(`Produce to ${topic.name}-${index} from ${ctx.clientId}: refused (${error.message})`);
    return failedProduce(index, error.errorCode);
  }
  if (!Number.isSafeInteger(log.highWatermark + produced.records)) {
    // Offsets are exact only to 2^53 - 1: past it an append would be acknowledged and lost.
    ctx.server.log(`Produce to ${topic.name}-${index}: the log is at offset ${log.highWatermark}, the last the simulator can count to exactly`);
    return failedProduce(index, KAFKA_STORAGE_ERROR);
  }
  if (produced.transactional) {
    const error = appendTransactional(ctx, transactionalId, topic.name, index, produced);
    return error === NO_ERROR
      ? { index, errorCode: error, baseOffset: BigInt(log.highWatermark - produced.records), logAppendTimeMs: -1n, logStartOffset: BigInt(log.logStartOffset) }
      : failedProduce(index, error);
  }
  const baseOffset = log.appendStamped(produced.timestamps, produced.producer ?? undefined);
  // logAppendTimeMs -1: the topic uses CreateTime.
  return { index, errorCode: NO_ERROR, baseOffset: BigInt(baseOffset), logAppendTimeMs: -1n, logStartOffset: BigInt(log.logStartOffset) };
}

function produce(request: ProduceRequestData, ctx: RequestContext): ProduceResponseData | null {
  // v13 (KIP-516) names topics by id.
  const byId = ctx.apiVersion >= 13;
  const responses = request.topicData.map((t) => {
    const topic = namedTopic(ctx, byId, t.name, t.topicId);
    return {
      ...(byId ? { topicId: t.topicId ?? ZERO_UUID } : { name: t.name ?? '' }),
      partitionResponses: t.partitionData.map((p) => producePartition(ctx, request.transactionalId, topic, p.index, p.records)),
    };
  });
  return request.acks === 0 ? null : { responses, throttleTimeMs: 0 };
}

// ------------------------------------------------------------------ Fetch

interface FetchedPartition {
  partition: number;
  error: number;
  log: PartitionLog | null;
  records: Buffer | null;
}

interface FetchedTopic {
  name?: string;
  topicId?: string;
  partitions: FetchedPartition[];
}

function readPartition(ctx: RequestContext, topic: SimTopic | number, request: FetchPartition, isolation: IsolationLevel): FetchedPartition {
  const log = ledPartition(ctx, topic, request.partition);
  if (typeof log === 'number' || typeof topic === 'number') {
    return { partition: request.partition, error: typeof log === 'number' ? log : UNKNOWN_TOPIC_OR_PARTITION, log: null, records: null };
  }
  const fetchOffset = Number(request.fetchOffset);
  if (fetchOffset < log.logStartOffset || fetchOffset > log.highWatermark) {
    return { partition: request.partition, error: OFFSET_OUT_OF_RANGE, log, records: null };
  }
  const limit = Math.max(1, Math.min(MAX_RECORDS_PER_PARTITION, Math.floor(request.partitionMaxBytes / RECORD_SIZE_ESTIMATE)));
  if (log.storedRecords !== null) {
    return { partition: request.partition, error: NO_ERROR, log, records: encodeStoredBatches(log.storedRecords.read(fetchOffset, isolation, limit)) };
  }
  return { partition: request.partition, error: NO_ERROR, log, records: readBatches(log, topic.name, request.partition, fetchOffset, isolation, limit, ctx.server.simulation.now) };
}

function readAll(ctx: RequestContext, request: FetchRequestData): FetchedTopic[] {
  // v13 (KIP-516) names topics by id. Sessions are not kept: every fetch is a full fetch (session id 0).
  const byId = ctx.apiVersion >= 13;
  const isolation = isolationOf(request.isolationLevel);
  return request.topics.map((t) => {
    const topic = namedTopic(ctx, byId, t.topic, t.topicId);
    return { ...(byId ? { topicId: t.topicId ?? ZERO_UUID } : { name: t.topic ?? '' }), partitions: t.partitions.map((p) => readPartition(ctx, topic, p, isolation)) };
  });
}

/** True when the answer carries records or an error: it goes out at once rather than waiting for data. */
function worthAnswering(topics: FetchedTopic[]): boolean {
  return topics.some((t) => t.partitions.some((p) => p.error !== NO_ERROR || (p.records !== null && p.records.length > 0)));
}

/**
 * Resolves at the first append to any of `logs`, at `watch`'s wake-up (a share fetch's partitions giving
 * records back), after `maxWaitMs` of simulated time, or when the connection closes, whichever comes
 * first; then the waiter is gone from every log, `watch` is unregistered and the timer gone from the
 * clock, so a parked fetch holds nothing once it is answered or abandoned.
 */
export function waitForData(ctx: RequestContext, logs: readonly PartitionLog[], maxWaitMs: number, watch?: (wake: () => void) => () => void): Promise<void> {
  const clock = ctx.server.simulation.clock;
  return new Promise((resolve) => {
    let done = false;
    let timer: ScheduledTask | null = null;
    let stopOnClose = (): void => undefined;
    let stopWatching = (): void => undefined;
    const waiter = { onData: (): void => finish() };
    const finish = (): void => {
      if (done) {
        return;
      }
      done = true;
      clock.cancel(timer);
      stopOnClose();
      stopWatching();
      for (const log of logs) {
        log.stopWaiting(waiter);
      }
      resolve();
    };
    stopOnClose = ctx.onConnectionClose(finish);
    if (done) {
      return;
    }
    timer = clock.schedule(maxWaitMs, finish);
    stopWatching = watch?.(finish) ?? stopWatching;
    for (const log of logs) {
      log.waitForData(waiter);
    }
  });
}

function fetchedToWire(t: FetchedTopic): FetchableTopicResponse {
  return {
    ...(t.topicId !== undefined ? { topicId: t.topicId } : { topic: t.name ?? '' }),
    partitions: t.partitions.map((p) => ({
      partitionIndex: p.partition,
      errorCode: p.error,
      highWatermark: BigInt(p.log?.highWatermark ?? -1),
      lastStableOffset: BigInt(p.log?.lastStableOffset ?? -1),
      logStartOffset: BigInt(p.log?.logStartOffset ?? -1),
      // Aborted records are left out of the batches themselves (markers are sent), so no aborted list is needed.
      abortedTransactions: [],
      records: p.records ?? new Uint8Array(0),
    })),
  };
}

async function fetch(request: FetchRequestData, ctx: RequestContext): Promise<FetchResponseData> {
  let topics = readAll(ctx, request);
  if (!worthAnswering(topics) && request.maxWaitMs > 0) {
    // Hold an empty answer like a broker does, or the client spins on empty fetches.
    const logs = topics.flatMap((t) => t.partitions.flatMap((p) => (p.log ? [p.log] : [])));
    await waitForData(ctx, logs, request.maxWaitMs);
    topics = readAll(ctx, request);
  }
  return { throttleTimeMs: 0, errorCode: NO_ERROR, sessionId: 0, responses: topics.map(fetchedToWire) };
}

/** Produce stops nowhere below Kafka 4.4's v13 (v12 marks a Transactions V2 client, v13 names topics by id). */
export const DATA_APIS: readonly ApiDefinition[] = [
  defineApi({ key: 0, name: 'Produce', minVersion: 3, maxVersion: 13, request: ProduceRequest, response: ProduceResponse, handle: produce }),
  defineApi({ key: 1, name: 'Fetch', minVersion: 4, maxVersion: 18, request: FetchRequest, response: FetchResponse, handle: fetch }),
  defineApi({ key: 2, name: 'ListOffsets', minVersion: 1, maxVersion: 11, request: ListOffsetsRequest, response: ListOffsetsResponse, handle: listOffsets }),
];
