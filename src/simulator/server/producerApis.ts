/**
 * The producer side of transactions (and idempotence): InitProducerId, AddPartitionsToTxn,
 * AddOffsetsToTxn, TxnOffsetCommit and EndTxn, as Transactions V1 clients send them (offsets are
 * added with AddOffsetsToTxn first). The records, markers and transactional offsets are the
 * engine's (see transactions.ts).
 *
 * Transactions V2 (KIP-890): ApiVersions finalizes transaction.version 2 (see apis.ts), so Kafka 4.x
 * clients send EndTxn v5, which bumps the epoch at every end and answers the new one, and TxnOffsetCommit
 * v5, which adds the group's offsets to the transaction by itself (no AddOffsetsToTxn); their Produce v12+
 * adds a partition by itself too (dataApis.ts). Older clients go on with V1 at the versions below v5.
 *
 * Where the versions stop, and why: TxnOffsetCommit v6 names topics by id, which is not served yet.
 * AddPartitionsToTxn v4+ is the broker-to-coordinator verification form (KIP-890), not a client's.
 * InitProducerId v6 is unstable in Kafka 4.4 (KIP-939 two-phase commit).
 */
import { errorCodeOf } from '../../protocol/errorCodes';
import { AddOffsetsToTxnRequest, type AddOffsetsToTxnRequestData } from '../../protocol/messages/addOffsetsToTxnRequest';
import { AddOffsetsToTxnResponse, type AddOffsetsToTxnResponseData } from '../../protocol/messages/addOffsetsToTxnResponse';
import { AddPartitionsToTxnRequest, type AddPartitionsToTxnRequestData } from '../../protocol/messages/addPartitionsToTxnRequest';
import { AddPartitionsToTxnResponse, type AddPartitionsToTxnResponseData } from '../../protocol/messages/addPartitionsToTxnResponse';
import { EndTxnRequest, type EndTxnRequestData } from '../../protocol/messages/endTxnRequest';
import { EndTxnResponse, type EndTxnResponseData } from '../../protocol/messages/endTxnResponse';
import { InitProducerIdRequest, type InitProducerIdRequestData } from '../../protocol/messages/initProducerIdRequest';
import { InitProducerIdResponse, type InitProducerIdResponseData } from '../../protocol/messages/initProducerIdResponse';
import { TxnOffsetCommitRequest, type TxnOffsetCommitRequestData } from '../../protocol/messages/txnOffsetCommitRequest';
import { TxnOffsetCommitResponse, type TxnOffsetCommitResponseData } from '../../protocol/messages/txnOffsetCommitResponse';
import type { OffsetCommitResponse } from '../common/requests';
import { defineApi, type ApiDefinition, type RequestContext } from './context';
import type { TransactionalProducer } from '../clients/producer/internals/transactionalProducer';
import { partitionEntry } from './transactions';

const NO_ERROR = 0;

function initProducerId(request: InitProducerIdRequestData, ctx: RequestContext): InitProducerIdResponseData {
  if (request.transactionalId === null) {
    // Idempotent only: Produce appends every batch, so the id only needs to be unique.
    return { throttleTimeMs: 0, errorCode: NO_ERROR, producerId: BigInt(ctx.server.allocateProducerId()), producerEpoch: 0 };
  }
  const txn = ctx.server.transactions.init(request.transactionalId, request.transactionTimeoutMs);
  if (typeof txn === 'number') {
    return { throttleTimeMs: 0, errorCode: txn, producerId: -1n, producerEpoch: -1 };
  }
  return { throttleTimeMs: 0, errorCode: NO_ERROR, producerId: BigInt(txn.producerId), producerEpoch: txn.producerEpoch };
}

/** The transaction a request names, or the error code Kafka answers a stale or unknown producer with. */
function lookup(ctx: RequestContext, transactionalId: string, producerId: bigint, epoch: number): TransactionalProducer | number {
  return ctx.server.transactions.lookup(transactionalId, Number(producerId), epoch);
}

function addPartitionsToTxn(request: AddPartitionsToTxnRequestData, ctx: RequestContext): AddPartitionsToTxnResponseData {
  const txn = lookup(ctx, request.v3AndBelowTransactionalId ?? '', request.v3AndBelowProducerId ?? -1n, request.v3AndBelowProducerEpoch ?? -1);
  const errorOf = (topic: string, partition: number): number => {
    if (typeof txn === 'number') {
      return txn;
    }
    if (ctx.server.simulation.cluster.topic(topic)?.partitions[partition] === undefined) {
      return errorCodeOf('UNKNOWN_TOPIC_OR_PARTITION');
    }
    ctx.server.transactions.ensureOngoing(txn);
    txn.addPartition(topic, partition);
    return NO_ERROR;
  };
  return {
    throttleTimeMs: 0,
    resultsByTopicV3AndBelow: (request.v3AndBelowTopics ?? []).map((t) => ({
      name: t.name,
      resultsByPartition: t.partitions.map((partitionIndex) => ({ partitionIndex, partitionErrorCode: errorOf(t.name, partitionIndex) })),
    })),
  };
}

function addOffsetsToTxn(request: AddOffsetsToTxnRequestData, ctx: RequestContext): AddOffsetsToTxnResponseData {
  // The group id needs nothing here: its offsets follow in TxnOffsetCommit.
  const txn = lookup(ctx, request.transactionalId, request.producerId, request.producerEpoch);
  if (typeof txn !== 'number') {
    ctx.server.transactions.ensureOngoing(txn);
  }
  return { throttleTimeMs: 0, errorCode: typeof txn === 'number' ? txn : NO_ERROR };
}

/** The first version of Transactions V2 (KIP-890) for EndTxn and TxnOffsetCommit. */
const TRANSACTIONS_V2_VERSION = 5;

async function txnOffsetCommit(request: TxnOffsetCommitRequestData, ctx: RequestContext): Promise<TxnOffsetCommitResponseData> {
  const txn = lookup(ctx, request.transactionalId, request.producerId, request.producerEpoch);
  if (typeof txn !== 'number' && ctx.apiVersion >= TRANSACTIONS_V2_VERSION) {
    // V2: the coordinator adds the group's offsets partition to the transaction itself.
    ctx.server.transactions.ensureOngoing(txn);
  }
  const errors = new Map<string, number>();
  if (typeof txn !== 'number' && txn.inTransaction) {
    const offsets = request.topics.flatMap((t) => t.partitions.map((p) => ({ topic: t.name ?? '', partition: p.partitionIndex, offset: Number(p.committedOffset) })));
    // v0-2 name no member, so the coordinator checks no generation (Kafka does the same); v3+ (KIP-447) do.
    const group = { groupId: request.groupId, generationId: request.generationIdOrMemberEpoch ?? -1, memberId: request.memberId ?? '', groupInstanceId: request.groupInstanceId ?? null };
    const response = await new Promise<OffsetCommitResponse>((resolve) => txn.sendOffsetsToTransaction(offsets, group, resolve));
    for (const t of response.topics) {
      for (const p of t.partitions) {
        errors.set(partitionEntry(t.name, p.partition), errorCodeOf(p.errorCode));
      }
    }
  }
  const fallback = typeof txn === 'number' ? txn : txn.inTransaction ? NO_ERROR : errorCodeOf('INVALID_TXN_STATE');
  return {
    throttleTimeMs: 0,
    topics: request.topics.map((t) => ({
      name: t.name ?? '',
      partitions: t.partitions.map((p) => ({ partitionIndex: p.partitionIndex, errorCode: errors.get(partitionEntry(t.name ?? '', p.partitionIndex)) ?? fallback })),
    })),
  };
}

function endTxn(request: EndTxnRequestData, ctx: RequestContext): EndTxnResponseData {
  if (ctx.apiVersion >= TRANSACTIONS_V2_VERSION) {
    const result = ctx.server.transactions.endV2(request.transactionalId, Number(request.producerId), request.producerEpoch, request.committed);
    return { throttleTimeMs: 0, errorCode: result.errorCode, producerId: BigInt(result.producerId), producerEpoch: result.producerEpoch };
  }
  const txn = lookup(ctx, request.transactionalId, request.producerId, request.producerEpoch);
  return { throttleTimeMs: 0, errorCode: typeof txn === 'number' ? txn : ctx.server.transactions.end(txn, request.committed) };
}

export const PRODUCER_APIS: readonly ApiDefinition[] = [
  defineApi({ key: 22, name: 'InitProducerId', minVersion: 0, maxVersion: 5, request: InitProducerIdRequest, response: InitProducerIdResponse, handle: initProducerId }),
  defineApi({ key: 24, name: 'AddPartitionsToTxn', minVersion: 0, maxVersion: 3, request: AddPartitionsToTxnRequest, response: AddPartitionsToTxnResponse, handle: addPartitionsToTxn }),
  defineApi({ key: 25, name: 'AddOffsetsToTxn', minVersion: 0, maxVersion: 4, request: AddOffsetsToTxnRequest, response: AddOffsetsToTxnResponse, handle: addOffsetsToTxn }),
  defineApi({ key: 26, name: 'EndTxn', minVersion: 0, maxVersion: 5, request: EndTxnRequest, response: EndTxnResponse, handle: endTxn }),
  defineApi({ key: 28, name: 'TxnOffsetCommit', minVersion: 0, maxVersion: 5, request: TxnOffsetCommitRequest, response: TxnOffsetCommitResponse, handle: txnOffsetCommit }),
];
