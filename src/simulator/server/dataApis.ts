/**
 * ListOffsets, Produce and Fetch over the simulated partition logs. Logs store record counts, so
 * Produce appends as many records as the batches hold and Fetch writes one generated record per
 * visible offset, as an uncompressed record batch v2.
 */
import { ByteReader, ByteWriter } from '../../kafka/protocol/wire';
import type { ScheduledTask } from '../clock';
import type { PartitionLog } from '../partitionLog';
import type { IsolationLevel } from '../transactionIndex';
import { expectEnd, type ApiDefinition, type RequestContext } from './context';
import { INVALID_TXN_STATE, NO_ERROR, NOT_LEADER_OR_FOLLOWER, OFFSET_OUT_OF_RANGE, UNKNOWN_TOPIC_OR_PARTITION } from './errorCodes';
import { readProducedBatches, RejectedBatches, type ProducedBatches } from './producedBatches';
import { encodeControlBatch, encodeRecordBatch, simulatedValue, type OutgoingRecord } from './recordBatch';
import { partitionEntry } from './transactions';

/** The log cannot take the records (here: its offsets would pass 2^53 - 1). */
const KAFKA_STORAGE_ERROR = 56;
const EARLIEST_TIMESTAMP = -2;
const LATEST_TIMESTAMP = -1;
/** Upper bound on records in one fetched partition, whatever partition_max_bytes allows. */
const MAX_RECORDS_PER_PARTITION = 500;
/** A generous estimate of one generated record's size in a batch, to honour partition_max_bytes. */
const RECORD_SIZE_ESTIMATE = 64;

function isolationOf(level: number): IsolationLevel {
  return level === 1 ? 'read_committed' : 'read_uncommitted';
}

/** The partition's log if this broker leads it, else the error code to answer with. */
function ledPartition(ctx: RequestContext, topic: string, partition: number): PartitionLog | number {
  const simTopic = ctx.server.simulation.cluster.topic(topic);
  const log = simTopic?.partitions[partition];
  if (!simTopic || !log) {
    return UNKNOWN_TOPIC_OR_PARTITION;
  }
  return simTopic.leaders[partition] === ctx.nodeId ? log : NOT_LEADER_OR_FOLLOWER;
}

// ------------------------------------------------------------------ ListOffsets

function listedOffset(log: PartitionLog, timestamp: number, isolation: IsolationLevel): number {
  if (timestamp === EARLIEST_TIMESTAMP) {
    return log.logStartOffset;
  }
  if (timestamp === LATEST_TIMESTAMP) {
    return isolation === 'read_committed' ? log.lastStableOffset : log.highWatermark;
  }
  return log.offsetForTimestamp(timestamp) ?? -1;
}

function listOffsets(r: ByteReader, ctx: RequestContext): Buffer {
  const v = ctx.apiVersion;
  r.int32(); // replica id
  const isolation = isolationOf(v >= 2 ? r.int8() : 0);
  const topics = r.array((t) => ({
    name: t.string(),
    partitions: t.array((p) => {
      const partition = p.int32();
      if (v >= 4) {
        p.int32(); // current leader epoch
      }
      return { partition, timestamp: p.int64() };
    }),
  }));
  expectEnd(r, 'ListOffsets');
  const w = new ByteWriter();
  if (v >= 2) {
    w.int32(0);
  }
  return w
    .array(topics, (tw, t) => {
      tw.string(t.name).array(t.partitions, (pw, p) => {
        const log = ledPartition(ctx, t.name, p.partition);
        const offset = typeof log === 'number' ? -1 : listedOffset(log, p.timestamp, isolation);
        // The logs keep no per-record timestamps, so the found record's timestamp is reported unknown.
        pw.int32(p.partition).int16(typeof log === 'number' ? log : NO_ERROR).int64(-1).int64(offset);
        if (v >= 4) {
          pw.int32(0);
        }
      });
    })
    .toBuffer();
}

// ------------------------------------------------------------------ Produce

interface ProduceResult {
  partition: number;
  error: number;
  baseOffset: number;
  logStartOffset: number;
}

/**
 * Transactional batches go through the engine's producer of their transactional id, and only to
 * partitions AddPartitionsToTxn added to the ongoing transaction (else INVALID_TXN_STATE, as a
 * broker that verifies transactions answers).
 */
function appendTransactional(ctx: RequestContext, transactionalId: string | null, topic: string, partition: number, produced: ProducedBatches): number {
  const owner = produced.transactional;
  if (transactionalId === null || owner === null) {
    return INVALID_TXN_STATE;
  }
  const txn = ctx.server.transactions.lookup(transactionalId, owner.producerId, owner.epoch);
  if (typeof txn === 'number') {
    return txn;
  }
  if (!txn.producer.inTransaction || !txn.partitions.has(partitionEntry(topic, partition))) {
    return INVALID_TXN_STATE;
  }
  txn.producer.send(topic, produced.records, partition);
  return NO_ERROR;
}

function produce(r: ByteReader, ctx: RequestContext): Buffer | null {
  const v = ctx.apiVersion;
  const transactionalId = r.nullableString();
  const acks = r.int16();
  r.int32(); // timeout
  const topics = r.array((t) => ({ name: t.string(), partitions: t.array((p) => ({ partition: p.int32(), records: p.nullableBytes() ?? Buffer.alloc(0) })) }));
  expectEnd(r, 'Produce');
  const now = ctx.server.simulation.now;
  const results = topics.map((t) => ({
    name: t.name,
    partitions: t.partitions.map((p): ProduceResult => {
      const log = ledPartition(ctx, t.name, p.partition);
      if (typeof log === 'number') {
        return { partition: p.partition, error: log, baseOffset: -1, logStartOffset: -1 };
      }
      let produced: ProducedBatches;
      try {
        produced = readProducedBatches(p.records);
      } catch (error) {
        if (!(error instanceof RejectedBatches)) {
          throw error;
        }
        ctx.server.log(`Produce to ${t.name}-${p.partition} from ${ctx.clientId}: refused (${error.message})`);
        return { partition: p.partition, error: error.errorCode, baseOffset: -1, logStartOffset: -1 };
      }
      if (!Number.isSafeInteger(log.highWatermark + produced.records)) {
        // Offsets are exact only to 2^53 - 1: past it an append would be acknowledged and lost.
        ctx.server.log(`Produce to ${t.name}-${p.partition}: the log is at offset ${log.highWatermark}, the last the simulator can count to exactly`);
        return { partition: p.partition, error: KAFKA_STORAGE_ERROR, baseOffset: -1, logStartOffset: -1 };
      }
      if (produced.transactional) {
        const error = appendTransactional(ctx, transactionalId, t.name, p.partition, produced);
        return error === NO_ERROR ? { partition: p.partition, error, baseOffset: log.highWatermark - produced.records, logStartOffset: log.logStartOffset } : { partition: p.partition, error, baseOffset: -1, logStartOffset: -1 };
      }
      const baseOffset = log.append(produced.records, now);
      return { partition: p.partition, error: NO_ERROR, baseOffset, logStartOffset: log.logStartOffset };
    }),
  }));
  if (acks === 0) {
    return null;
  }
  const w = new ByteWriter().array(results, (tw, t) => {
    tw.string(t.name).array(t.partitions, (pw, p) => {
      pw.int32(p.partition).int16(p.error).int64(p.baseOffset);
      if (v >= 2) {
        pw.int64(-1); // log append time: topics use create time
      }
      if (v >= 5) {
        pw.int64(p.logStartOffset);
      }
    });
  });
  return w.int32(0).toBuffer();
}

// ------------------------------------------------------------------ Fetch

interface FetchPartitionRequest {
  partition: number;
  fetchOffset: number;
  maxBytes: number;
}

interface FetchRequest {
  maxWaitMs: number;
  isolation: IsolationLevel;
  topics: Array<{ name: string; partitions: FetchPartitionRequest[] }>;
}

function readFetch(r: ByteReader, v: number): FetchRequest {
  r.int32(); // replica id
  const maxWaitMs = r.int32();
  r.int32(); // min bytes: any record answers a held fetch
  if (v >= 3) {
    r.int32(); // max bytes
  }
  const isolation = isolationOf(v >= 4 ? r.int8() : 0);
  if (v >= 7) {
    r.int32(); // session id: sessions are not kept, every fetch is a full fetch
    r.int32(); // session epoch
  }
  const topics = r.array((t) => ({
    name: t.string(),
    partitions: t.array((p): FetchPartitionRequest => {
      const partition = p.int32();
      if (v >= 9) {
        p.int32(); // current leader epoch
      }
      const fetchOffset = p.int64();
      if (v >= 5) {
        p.int64(); // follower's log start offset
      }
      return { partition, fetchOffset, maxBytes: p.int32() };
    }),
  }));
  if (v >= 7) {
    r.array((t) => ({ topic: t.string(), partitions: t.array((p) => p.int32()) }));
  }
  if (v >= 11) {
    r.string(); // rack id
  }
  expectEnd(r, 'Fetch');
  return { maxWaitMs, isolation, topics };
}

/**
 * What a reader at `isolation` gets from `from`, as a broker sends it: the records it sees in data
 * batches (aborted ones a read_committed reader skips are left out, which a batch allows as gaps)
 * and every transaction marker as its control batch, in offset order, so clients move past the
 * markers. At most `limit` records, markers included.
 */
function readBatches(log: PartitionLog, topic: string, partition: number, from: number, isolation: IsolationLevel, limit: number, now: number): Buffer {
  const end = isolation === 'read_committed' ? log.lastStableOffset : log.highWatermark;
  const batches: Buffer[] = [];
  let run: OutgoingRecord[] = [];
  const flush = (): void => {
    if (run.length > 0) {
      batches.push(encodeRecordBatch(run, now));
      run = [];
    }
  };
  let taken = 0;
  for (let offset = from; offset < end && taken < limit; offset++) {
    const marker = log.controlMarkerAt(offset);
    if (marker) {
      flush();
      batches.push(encodeControlBatch(offset, marker.producerId, marker.result, now));
      taken++;
    } else if (log.visibleRecords(offset, offset + 1, isolation) === 1) {
      run.push({ offset, value: simulatedValue(topic, partition, offset) });
      taken++;
    }
  }
  flush();
  return Buffer.concat(batches);
}

interface FetchedPartition {
  partition: number;
  error: number;
  log: PartitionLog | null;
  records: Buffer | null;
}

function readPartition(ctx: RequestContext, topic: string, request: FetchPartitionRequest, isolation: IsolationLevel): FetchedPartition {
  const log = ledPartition(ctx, topic, request.partition);
  if (typeof log === 'number') {
    return { partition: request.partition, error: log, log: null, records: null };
  }
  if (request.fetchOffset < log.logStartOffset || request.fetchOffset > log.highWatermark) {
    return { partition: request.partition, error: OFFSET_OUT_OF_RANGE, log, records: null };
  }
  const limit = Math.max(1, Math.min(MAX_RECORDS_PER_PARTITION, Math.floor(request.maxBytes / RECORD_SIZE_ESTIMATE)));
  return {
    partition: request.partition,
    error: NO_ERROR,
    log,
    records: readBatches(log, topic, request.partition, request.fetchOffset, isolation, limit, ctx.server.simulation.now),
  };
}

function readAll(ctx: RequestContext, request: FetchRequest): Array<{ name: string; partitions: FetchedPartition[] }> {
  return request.topics.map((t) => ({ name: t.name, partitions: t.partitions.map((p) => readPartition(ctx, t.name, p, request.isolation)) }));
}

/** True when the answer carries records or an error: it goes out at once rather than waiting for data. */
function worthAnswering(topics: Array<{ partitions: FetchedPartition[] }>): boolean {
  return topics.some((t) => t.partitions.some((p) => p.error !== NO_ERROR || (p.records !== null && p.records.length > 0)));
}

/**
 * Resolves at the first append to any of `logs`, after `maxWaitMs` of simulated time, or when the
 * connection closes, whichever comes first; then the waiter is gone from every log and the timer
 * from the clock, so a parked fetch holds nothing once it is answered or abandoned.
 */
function waitForData(ctx: RequestContext, logs: PartitionLog[], maxWaitMs: number): Promise<void> {
  const clock = ctx.server.simulation.clock;
  return new Promise((resolve) => {
    let done = false;
    let timer: ScheduledTask | null = null;
    let stopOnClose = (): void => undefined;
    const waiter = { onData: (): void => finish() };
    const finish = (): void => {
      if (done) {
        return;
      }
      done = true;
      clock.cancel(timer);
      stopOnClose();
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
    for (const log of logs) {
      log.waitForData(waiter);
    }
  });
}

async function fetch(r: ByteReader, ctx: RequestContext): Promise<Buffer> {
  const v = ctx.apiVersion;
  const request = readFetch(r, v);
  let topics = readAll(ctx, request);
  if (!worthAnswering(topics) && request.maxWaitMs > 0) {
    // Hold an empty answer like a broker does, or the client spins on empty fetches.
    const logs = topics.flatMap((t) => t.partitions.flatMap((p) => (p.log ? [p.log] : [])));
    await waitForData(ctx, logs, request.maxWaitMs);
    topics = readAll(ctx, request);
  }
  const w = new ByteWriter();
  if (v >= 1) {
    w.int32(0);
  }
  if (v >= 7) {
    w.int16(NO_ERROR).int32(0);
  }
  return w
    .array(topics, (tw, t) => {
      tw.string(t.name).array(t.partitions, (pw, p) => {
        pw.int32(p.partition).int16(p.error).int64(p.log?.highWatermark ?? -1);
        if (v >= 4) {
          pw.int64(p.log?.lastStableOffset ?? -1);
        }
        if (v >= 5) {
          pw.int64(p.log?.logStartOffset ?? -1);
        }
        if (v >= 4) {
          // Aborted records are left out of the batches themselves (markers are sent), so no aborted list is needed.
          pw.array([], () => undefined);
        }
        if (v >= 11) {
          pw.int32(-1);
        }
        pw.bytes(p.records ?? Buffer.alloc(0));
      });
    })
    .toBuffer();
}

export const DATA_APIS: readonly ApiDefinition[] = [
  { key: 0, name: 'Produce', minVersion: 3, maxVersion: 7, handle: produce },
  { key: 1, name: 'Fetch', minVersion: 4, maxVersion: 11, handle: fetch },
  { key: 2, name: 'ListOffsets', minVersion: 1, maxVersion: 5, handle: listOffsets },
];
