/**
 * ShareFetch (78) and ShareAcknowledge (79) at Kafka 4.4's versions (v1–v2), as KafkaApis and
 * SharePartitionManager answer them: the share session (epoch 0 opens, -1 closes and releases the member's
 * records), the acknowledgements first, then records acquired from each partition in the session's rotated
 * order up to MaxRecords, and a fetch with nothing to give parked until records are available, the wait
 * ends, or the connection closes (DelayedShareFetch).
 */
import { errorCodeOf } from '../../protocol/errorCodes';
import { ApiKeys } from '../../protocol/messages/apis';
import { ShareAcknowledgeRequest, type ShareAcknowledgeRequestData } from '../../protocol/messages/shareAcknowledgeRequest';
import { ShareAcknowledgeResponse, type ShareAcknowledgeResponseData } from '../../protocol/messages/shareAcknowledgeResponse';
import { ShareFetchRequest, type ShareFetchRequestData } from '../../protocol/messages/shareFetchRequest';
import { ShareFetchResponse, type NodeEndpoint, type PartitionData, type ShareFetchResponseData } from '../../protocol/messages/shareFetchResponse';
import { KafkaApiError } from '../common/errors';
import type { PartitionLog } from '../log/partitionLog';
import type { ShareAcquireMode } from '../share/recordAcquisition';
import type { SharePartition } from '../share/sharePartition';
import { FINAL_SHARE_SESSION_EPOCH, ShareSessionCache, type SharePartitionRef } from '../share/shareSessionCache';
import { defineApi, type ApiDefinition, type RequestContext } from './context';
import { waitForData } from './dataApis';
import { encodeAcquired, readFetchedShape } from './logBatches';
import { handleAcknowledgements, partitionError, type AcknowledgementOutcome, type RequestedAcknowledgements } from './shareAcknowledgementBatches';

/** A generous estimate of one generated record's size, to turn a partition's share of MaxBytes into records. */
const RECORD_SIZE_ESTIMATE = 64;
/** Upper bound on the offsets read from one partition for one fetch. */
const MAX_OFFSETS_READ = 5_000;
/** KafkaApis.isMemberIdValid */
const MAX_MEMBER_ID_LENGTH = 36;

type Failure = { errorCode: number; errorMessage: string | null };

function failureOf(error: unknown): Failure {
  return error instanceof KafkaApiError ? { errorCode: error.errorCode, errorMessage: error.message } : { errorCode: errorCodeOf('UNKNOWN_SERVER_ERROR'), errorMessage: String(error) };
}

function validMemberId(memberId: string | null): memberId is string {
  return memberId !== null && memberId.length > 0 && memberId.length <= MAX_MEMBER_ID_LENGTH;
}

/** One partition's answer, before the acknowledgement outcome joins it. */
interface FetchedSharePartition {
  ref: SharePartitionRef;
  failure: Failure | null;
  records: Uint8Array;
  acquired: { firstOffset: number; lastOffset: number; deliveryCount: number }[];
  leader: number;
}

function shareFetchError(failure: Failure): ShareFetchResponseData {
  return { throttleTimeMs: 0, errorCode: failure.errorCode, errorMessage: failure.errorMessage, acquisitionLockTimeoutMs: 0, responses: [], nodeEndpoints: [] };
}

// ------------------------------------------------------------------ acquisition

interface FetchPlan {
  ctx: RequestContext;
  groupId: string;
  memberId: string;
  mode: ShareAcquireMode;
  batchSize: number;
  maxRecords: number;
  maxBytes: number;
}

interface Candidate {
  ref: SharePartitionRef;
  topic: string;
  log: PartitionLog;
  sharePartition: SharePartition;
}

/**
 * DelayedShareFetch.tryComplete, one pass: records acquired from each partition that can give some, each read
 * from its next fetch offset within its share of MaxBytes, until MaxRecords are acquired.
 */
function acquireOnce(plan: FetchPlan, candidates: readonly Candidate[]): Map<Candidate, FetchedSharePartition> {
  const now = plan.ctx.server.simulation.now;
  const isolation = plan.ctx.server.simulation.shares.settings(plan.groupId).isolationLevel;
  const results = new Map<Candidate, FetchedSharePartition>();
  const acquirable = candidates.filter((candidate) => candidate.sharePartition.canAcquireRecords());
  // PartitionMaxBytesStrategy UNIFORM: MaxBytes shared evenly among the partitions fetched.
  const offsetsPerPartition = Math.max(1, Math.min(MAX_OFFSETS_READ, Math.floor(plan.maxBytes / Math.max(1, acquirable.length) / RECORD_SIZE_ESTIMATE)));
  let remaining = plan.maxRecords;
  for (const candidate of acquirable) {
    if (remaining <= 0) {
      break;
    }
    const { log, sharePartition } = candidate;
    if (sharePartition.nextFetchOffset() < log.logStartOffset) {
      // OFFSET_OUT_OF_RANGE on the read: the share partition moves up to the log start offset and reads again.
      sharePartition.updateCacheAndOffsets(log.logStartOffset);
    }
    const fetchOffset = sharePartition.nextFetchOffset();
    const shape = readFetchedShape(log, fetchOffset, isolation, offsetsPerPartition);
    if (shape.batches.length === 0) {
      continue;
    }
    const acquired = sharePartition.acquire(plan.memberId, plan.mode, plan.batchSize, remaining, fetchOffset, shape.batches, isolation === 'read_committed' ? shape.abortedTransactions : null);
    if (acquired.count === 0) {
      continue;
    }
    remaining -= acquired.count;
    results.set(candidate, {
      ref: candidate.ref, failure: null, leader: plan.ctx.nodeId,
      records: encodeAcquired(log, candidate.topic, candidate.ref.partition, acquired.acquiredRecords, isolation, now),
      acquired: acquired.acquiredRecords.map((range) => ({ ...range })),
    });
  }
  return results;
}

/** SharePartitionManager.fetchMessages and DelayedShareFetch: each partition's answer, in the rotated order. */
async function fetchMessages(plan: FetchPlan, partitions: readonly SharePartitionRef[], sessionEpoch: number, maxWaitMs: number): Promise<FetchedSharePartition[]> {
  const { ctx, groupId } = plan;
  const simulation = ctx.server.simulation;
  // PartitionRotateStrategy ROUND_ROBIN: the session epoch picks where this fetch starts.
  const start = partitions.length === 0 ? 0 : Math.max(0, sessionEpoch) % partitions.length;
  const rotated = [...partitions.slice(start), ...partitions.slice(0, start)];
  const answers = new Map<SharePartitionRef, FetchedSharePartition>();
  const candidates: Candidate[] = [];
  const empty = (ref: SharePartitionRef, failure: Failure | null, leader = -1): FetchedSharePartition => ({ ref, failure, records: new Uint8Array(0), acquired: [], leader });
  for (const ref of rotated) {
    const topic = simulation.cluster.topicById(ref.topicId);
    const log = topic?.partitions[ref.partition];
    if (topic === undefined) {
      answers.set(ref, empty(ref, partitionError('UNKNOWN_TOPIC_ID')));
    } else if (log === undefined) {
      answers.set(ref, empty(ref, partitionError('UNKNOWN_TOPIC_OR_PARTITION')));
    } else if (topic.leaders[ref.partition] !== ctx.nodeId) {
      answers.set(ref, empty(ref, partitionError('NOT_LEADER_OR_FOLLOWER'), topic.leaders[ref.partition]));
    } else if (plan.maxRecords > 0 && plan.maxBytes > 0) {
      try {
        candidates.push({ ref, topic: topic.name, log, sharePartition: simulation.shares.sharePartition(groupId, ref.topicId, ref.partition) });
      } catch (error) {
        answers.set(ref, empty(ref, failureOf(error)));
      }
    }
  }
  if (candidates.length > 0) {
    const deadline = simulation.now + Math.max(0, maxWaitMs);
    let closed = false;
    const stopOnClose = ctx.onConnectionClose(() => {
      closed = true;
    });
    let acquired = acquireOnce(plan, candidates);
    // Parked while nothing was acquired and no partition failed, as a DelayedShareFetch waits for minBytes.
    while (acquired.size === 0 && answers.size === 0 && simulation.now < deadline && !closed) {
      // Woken by an append to a partition or by records given back (released, lock expired, start offset moved).
      const refs = candidates.map((candidate) => ({ groupId, topicId: candidate.ref.topicId, partition: candidate.ref.partition }));
      await waitForData(ctx, candidates.map((candidate) => candidate.log), deadline - simulation.now, (wake) => simulation.shares.waitForStateChange(refs, wake));
      acquired = closed ? acquired : acquireOnce(plan, candidates.filter((candidate) => !candidate.sharePartition.isFenced));
    }
    stopOnClose();
    for (const candidate of candidates) {
      answers.set(candidate.ref, acquired.get(candidate) ?? empty(candidate.ref, null));
    }
  }
  return rotated.filter((ref) => answers.has(ref)).map((ref) => answers.get(ref) as FetchedSharePartition);
}

// ------------------------------------------------------------------ ShareFetch

function requestedAcknowledgements(topics: ShareFetchRequestData['topics'] | ShareAcknowledgeRequestData['topics']): RequestedAcknowledgements[] {
  return topics.flatMap((topic) => topic.partitions.map((p) => ({ topicId: topic.topicId, partition: p.partitionIndex, batches: p.acknowledgementBatches })));
}

function renewAckProblems(request: ShareFetchRequestData): string {
  const problems = [
    request.maxBytes !== 0 ? 'maxBytes must be set to 0, ' : '',
    request.minBytes !== 0 ? 'minBytes must be set to 0, ' : '',
    request.maxRecords !== 0 ? 'maxRecords must be set to 0, ' : '',
    request.maxWaitMs !== 0 ? 'maxWaitMs must be set to 0, ' : '',
  ].join('');
  return problems === '' ? '' : `${problems}if isRenewAck is true.`;
}

/** The response's partitions by topic, each fetch answer joined by its acknowledgement outcome (KafkaApis.handleShareFetchRequest). */
function shareFetchResponse(ctx: RequestContext, fetched: readonly FetchedSharePartition[], acks: readonly AcknowledgementOutcome[], lockMs: number): ShareFetchResponseData {
  const byTopic = new Map<string, PartitionData[]>();
  const entries = new Map<string, PartitionData>();
  const nodeEndpoints = new Map<number, NodeEndpoint>();
  const add = (topicId: string, data: PartitionData): void => {
    const list = byTopic.get(topicId) ?? [];
    list.push(data);
    byTopic.set(topicId, list);
    entries.set(JSON.stringify([topicId, data.partitionIndex]), data);
  };
  for (const answer of fetched) {
    const notLeader = answer.failure?.errorCode === errorCodeOf('NOT_LEADER_OR_FOLLOWER');
    if (notLeader) {
      const endpoint = ctx.server.endpoints().find((e) => e.nodeId === answer.leader);
      if (endpoint !== undefined) {
        nodeEndpoints.set(endpoint.nodeId, { nodeId: endpoint.nodeId, host: endpoint.host, port: endpoint.port, rack: null });
      }
    }
    add(answer.ref.topicId, {
      partitionIndex: answer.ref.partition,
      errorCode: answer.failure?.errorCode ?? 0,
      errorMessage: answer.failure?.errorMessage ?? null,
      acknowledgeErrorCode: 0,
      acknowledgeErrorMessage: null,
      // Partitions never move: every leader epoch is 0. The leader is named where the client must go elsewhere.
      currentLeader: notLeader ? { leaderId: answer.leader, leaderEpoch: 0 } : { leaderId: -1, leaderEpoch: -1 },
      records: answer.records,
      acquiredRecords: answer.acquired.map((range) => ({ firstOffset: BigInt(range.firstOffset), lastOffset: BigInt(range.lastOffset), deliveryCount: range.deliveryCount })),
    });
  }
  for (const ack of acks) {
    const entry = entries.get(JSON.stringify([ack.topicId, ack.partition]));
    if (entry !== undefined) {
      entry.acknowledgeErrorCode = ack.errorCode;
      entry.acknowledgeErrorMessage = ack.errorMessage;
    } else {
      add(ack.topicId, {
        partitionIndex: ack.partition, errorCode: 0, errorMessage: null, acknowledgeErrorCode: ack.errorCode, acknowledgeErrorMessage: ack.errorMessage,
        currentLeader: { leaderId: -1, leaderEpoch: -1 }, records: new Uint8Array(0), acquiredRecords: [],
      });
    }
  }
  return {
    throttleTimeMs: 0, errorCode: 0, errorMessage: null, acquisitionLockTimeoutMs: lockMs,
    responses: [...byTopic].map(([topicId, partitions]) => ({ topicId, partitions })),
    nodeEndpoints: [...nodeEndpoints.values()],
  };
}

async function shareFetch(request: ShareFetchRequestData, ctx: RequestContext): Promise<ShareFetchResponseData> {
  const simulation = ctx.server.simulation;
  const manager = simulation.shares;
  const groupId = request.groupId;
  if (groupId === null) {
    return shareFetchError({ errorCode: errorCodeOf('INVALID_REQUEST'), errorMessage: 'Invalid group id in the request.' });
  }
  const memberId = request.memberId;
  if (!validMemberId(memberId)) {
    return shareFetchError({ errorCode: errorCodeOf('INVALID_REQUEST'), errorMessage: 'Invalid member id in the request.' });
  }
  const renewAck = ctx.apiVersion >= 2 && request.isRenewAck === true;
  if (renewAck && renewAckProblems(request) !== '') {
    return shareFetchError({ errorCode: errorCodeOf('INVALID_REQUEST'), errorMessage: renewAckProblems(request) });
  }
  const acknowledgements = requestedAcknowledgements(request.topics).filter((p) => p.batches.length > 0);
  const fetchData = request.topics.flatMap((topic) => topic.partitions.map((p) => ({ topicId: topic.topicId, partition: p.partitionIndex })));
  const forgotten = request.forgottenTopicsData.flatMap((topic) => topic.partitions.map((partition) => ({ topicId: topic.topicId, partition })));
  let context;
  try {
    context = manager.newContext(ctx.nodeId, groupId, memberId, request.shareSessionEpoch, fetchData, forgotten, acknowledgements.length > 0, (listener) => ctx.onConnectionClose(listener));
  } catch (error) {
    const failure = failureOf(error);
    if (failure.errorCode === errorCodeOf('SHARE_SESSION_LIMIT_REACHED')) {
      // createIdleShareFetchTimerTask: the client hears of the limit after its MaxWaitMs, not in a tight loop.
      await waitForData(ctx, [], Math.max(0, request.maxWaitMs));
    }
    return shareFetchError(failure);
  }
  const acks = acknowledgements.length > 0 ? handleAcknowledgements(ctx, manager, groupId, memberId, acknowledgements, ctx.apiVersion === 2, renewAck) : [];
  const mode: ShareAcquireMode = ctx.apiVersion >= 2 && request.shareAcquireMode === 1 ? 'record_limit' : 'batch_optimized';
  const fetched = renewAck ? [] : await fetchMessages(
    { ctx, groupId, memberId, mode, batchSize: request.batchSize, maxRecords: request.maxRecords, maxBytes: request.maxBytes },
    context.partitions, request.shareSessionEpoch, request.maxWaitMs,
  );
  // A later request of the session answers only for partitions with records or errors; one that returned records goes last.
  const answered = context.kind === 'subsequent' ? fetched.filter((answer) => answer.failure !== null || answer.records.length > 0 || answer.acquired.length > 0) : fetched;
  if (context.kind === 'subsequent' && context.session !== null) {
    for (const answer of answered.filter((a) => a.records.length > 0 || a.acquired.length > 0)) {
      ShareSessionCache.moveToEnd(context.session, answer.ref);
    }
  }
  if (request.shareSessionEpoch === FINAL_SHARE_SESSION_EPOCH) {
    releaseSession(ctx, groupId, memberId);
  }
  return shareFetchResponse(ctx, answered, acks, simulation.shares.settings(groupId).recordLockDurationMs);
}

function releaseSession(ctx: RequestContext, groupId: string, memberId: string): void {
  try {
    ctx.server.simulation.shares.releaseSession(ctx.nodeId, groupId, memberId);
  } catch (error) {
    ctx.server.log(`Releasing share session of ${memberId} in ${groupId} for client ${ctx.clientId} failed: ${failureOf(error).errorMessage ?? ''}`);
  }
}

// ------------------------------------------------------------------ ShareAcknowledge

function shareAcknowledgeError(failure: Failure): ShareAcknowledgeResponseData {
  return { throttleTimeMs: 0, errorCode: failure.errorCode, errorMessage: failure.errorMessage, acquisitionLockTimeoutMs: 0, responses: [], nodeEndpoints: [] };
}

function shareAcknowledge(request: ShareAcknowledgeRequestData, ctx: RequestContext): ShareAcknowledgeResponseData {
  const simulation = ctx.server.simulation;
  const groupId = request.groupId;
  if (groupId === null) {
    return shareAcknowledgeError({ errorCode: errorCodeOf('INVALID_REQUEST'), errorMessage: 'Invalid group id in the request.' });
  }
  const memberId = request.memberId;
  if (!validMemberId(memberId)) {
    return shareAcknowledgeError({ errorCode: errorCodeOf('INVALID_REQUEST'), errorMessage: 'Invalid member id in the request.' });
  }
  try {
    simulation.shares.acknowledgeSessionUpdate(ctx.nodeId, groupId, memberId, request.shareSessionEpoch);
  } catch (error) {
    return shareAcknowledgeError(failureOf(error));
  }
  const renewAck = ctx.apiVersion >= 2 && request.isRenewAck === true;
  const acks = handleAcknowledgements(ctx, simulation.shares, groupId, memberId, requestedAcknowledgements(request.topics), ctx.apiVersion === 2, renewAck);
  if (request.shareSessionEpoch === FINAL_SHARE_SESSION_EPOCH) {
    releaseSession(ctx, groupId, memberId);
  }
  const byTopic = new Map<string, ShareAcknowledgeResponseData['responses'][number]['partitions']>();
  for (const ack of acks) {
    const list = byTopic.get(ack.topicId) ?? [];
    list.push({ partitionIndex: ack.partition, errorCode: ack.errorCode, errorMessage: ack.errorMessage, currentLeader: { leaderId: -1, leaderEpoch: -1 } });
    byTopic.set(ack.topicId, list);
  }
  return {
    throttleTimeMs: 0, errorCode: 0, errorMessage: null,
    ...(ctx.apiVersion >= 2 ? { acquisitionLockTimeoutMs: simulation.shares.settings(groupId).recordLockDurationMs } : {}),
    responses: [...byTopic].map(([topicId, partitions]) => ({ topicId, partitions })),
    nodeEndpoints: [],
  };
}

export const SHARE_FETCH_APIS: readonly ApiDefinition[] = [
  defineApi({ key: ApiKeys.ShareFetch, name: 'ShareFetch', minVersion: 1, maxVersion: 2, request: ShareFetchRequest, response: ShareFetchResponse, handle: shareFetch }),
  defineApi({ key: ApiKeys.ShareAcknowledge, name: 'ShareAcknowledge', minVersion: 1, maxVersion: 2, request: ShareAcknowledgeRequest, response: ShareAcknowledgeResponse, handle: shareAcknowledge }),
];
