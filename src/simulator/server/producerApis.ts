/**
 * The producer side of transactions (and idempotence): InitProducerId, AddPartitionsToTxn,
 * AddOffsetsToTxn, TxnOffsetCommit and EndTxn, in the non-flexible versions kafkajs and the Java
 * client negotiate down to (Transactions V1: offsets are added with AddOffsetsToTxn first). The
 * records, markers and transactional offsets are the engine's (see transactions.ts).
 */
import { ByteReader, ByteWriter } from '../../kafka/protocol/wire';
import type { OffsetCommitResponse } from '../protocol';
import { expectEnd, type ApiDefinition, type RequestContext } from './context';
import { INVALID_TXN_STATE, NO_ERROR, UNKNOWN_TOPIC_OR_PARTITION, wireErrorCode } from './errorCodes';
import { partitionEntry, type ClientTransaction } from './transactions';

function initProducerId(r: ByteReader, ctx: RequestContext): Buffer {
  const transactionalId = r.nullableString();
  r.int32(); // transaction timeout: transactions here end when the client ends them
  expectEnd(r, 'InitProducerId');
  const w = new ByteWriter().int32(0);
  if (transactionalId === null) {
    // Idempotent only: Produce appends every batch, so the id only needs to be unique.
    return w.int16(NO_ERROR).int64(ctx.server.allocateProducerId()).int16(0).toBuffer();
  }
  const txn = ctx.server.transactions.init(transactionalId);
  return w.int16(NO_ERROR).int64(txn.producer.producerId).int16(txn.epoch).toBuffer();
}

/** transactional_id, producer_id, producer_epoch: the prefix of every transaction request. */
function readProducer(r: ByteReader, ctx: RequestContext): ClientTransaction | number {
  const transactionalId = r.string();
  const producerId = r.int64();
  const epoch = r.int16();
  return ctx.server.transactions.lookup(transactionalId, producerId, epoch);
}

function addPartitionsToTxn(r: ByteReader, ctx: RequestContext): Buffer {
  const txn = readProducer(r, ctx);
  const topics = r.array((t) => ({ name: t.string(), partitions: t.array((p) => p.int32()) }));
  expectEnd(r, 'AddPartitionsToTxn');
  const errorOf = (topic: string, partition: number): number => {
    if (typeof txn === 'number') {
      return txn;
    }
    const exists = ctx.server.simulation.cluster.topic(topic)?.partitions[partition] !== undefined;
    if (!exists) {
      return UNKNOWN_TOPIC_OR_PARTITION;
    }
    ctx.server.transactions.ensureOngoing(txn);
    txn.partitions.add(partitionEntry(topic, partition));
    return NO_ERROR;
  };
  return new ByteWriter()
    .int32(0)
    .array(topics, (tw, t) => tw.string(t.name).array(t.partitions, (pw, partition) => pw.int32(partition).int16(errorOf(t.name, partition))))
    .toBuffer();
}

function addOffsetsToTxn(r: ByteReader, ctx: RequestContext): Buffer {
  const txn = readProducer(r, ctx);
  r.string(); // group id: its offsets follow in TxnOffsetCommit
  expectEnd(r, 'AddOffsetsToTxn');
  if (typeof txn !== 'number') {
    ctx.server.transactions.ensureOngoing(txn);
  }
  return new ByteWriter().int32(0).int16(typeof txn === 'number' ? txn : NO_ERROR).toBuffer();
}

async function txnOffsetCommit(r: ByteReader, ctx: RequestContext): Promise<Buffer> {
  const v = ctx.apiVersion;
  const transactionalId = r.string();
  const groupId = r.string();
  const producerId = r.int64();
  const epoch = r.int16();
  const topics = r.array((t) => ({
    name: t.string(),
    partitions: t.array((p) => {
      const partition = p.int32();
      const offset = p.int64();
      if (v >= 2) {
        p.int32(); // committed leader epoch
      }
      p.nullableString(); // metadata: the engine keeps offsets only
      return { partition, offset };
    }),
  }));
  expectEnd(r, 'TxnOffsetCommit');
  const txn = ctx.server.transactions.lookup(transactionalId, producerId, epoch);
  const errors = new Map<string, number>();
  if (typeof txn !== 'number' && txn.producer.inTransaction) {
    const offsets = topics.flatMap((t) => t.partitions.map((p) => ({ topic: t.name, partition: p.partition, offset: p.offset })));
    // v0-2 name no member: the coordinator checks no generation (Kafka does the same).
    const response = await new Promise<OffsetCommitResponse>((resolve) =>
      txn.producer.sendOffsetsToTransaction(offsets, { groupId, generationId: -1, memberId: '', groupInstanceId: null }, resolve),
    );
    for (const t of response.topics) {
      for (const p of t.partitions) {
        errors.set(partitionEntry(t.name, p.partition), wireErrorCode(p.errorCode));
      }
    }
  }
  const fallback = typeof txn === 'number' ? txn : txn.producer.inTransaction ? NO_ERROR : INVALID_TXN_STATE;
  return new ByteWriter()
    .int32(0)
    .array(topics, (tw, t) =>
      tw.string(t.name).array(t.partitions, (pw, p) => pw.int32(p.partition).int16(errors.get(partitionEntry(t.name, p.partition)) ?? fallback)),
    )
    .toBuffer();
}

function endTxn(r: ByteReader, ctx: RequestContext): Buffer {
  const txn = readProducer(r, ctx);
  const commit = r.int8() !== 0;
  expectEnd(r, 'EndTxn');
  const error = typeof txn === 'number' ? txn : ctx.server.transactions.end(txn, commit);
  return new ByteWriter().int32(0).int16(error).toBuffer();
}

export const PRODUCER_APIS: readonly ApiDefinition[] = [
  { key: 22, name: 'InitProducerId', minVersion: 0, maxVersion: 1, handle: initProducerId },
  { key: 24, name: 'AddPartitionsToTxn', minVersion: 0, maxVersion: 2, handle: addPartitionsToTxn },
  { key: 25, name: 'AddOffsetsToTxn', minVersion: 0, maxVersion: 2, handle: addOffsetsToTxn },
  { key: 26, name: 'EndTxn', minVersion: 0, maxVersion: 2, handle: endTxn },
  { key: 28, name: 'TxnOffsetCommit', minVersion: 0, maxVersion: 2, handle: txnOffsetCommit },
];
