/**
 * Reads that the detail batches of one refresh round share (issue 19): the batches of a round ask the same
 * partitions' log ends and often the same committed offsets, so each answer is kept for a short while and a
 * later (or concurrent) batch takes it instead of asking the brokers again. Entries hold promises, so two
 * batches in flight share one request. Bounded in age (a later round reads afresh) and in size (oldest
 * entries go first), so a production cluster gets fewer requests and the client no unbounded memory.
 */
import type { TopicPartition } from '../model/types';
import type { ClusterConnection } from './clusterConnection';
import { groupBy } from './collections';
import type { KafkaLogger } from './connection';
import { mapWithConcurrency } from './coordinatorBatches';
import { partitionKey, type PartitionEnds } from './groupDetailMapper';
import { sendRequest } from './kafkajsBridge';
import { describeErrorCode } from './kafkaErrors';
import { fetchRequest, type FetchLimits } from './requests/fetchRequest';
import { readBatchFrames } from '../protocol/recordBatch';
import { EARLIEST_TIMESTAMP, LATEST_TIMESTAMP, MAX_TIMESTAMP, READ_COMMITTED, READ_UNCOMMITTED, type ListedOffset } from './requests/offsetRequests';
import type { NewestRecord } from '../health/lagInTime';

export interface AgingCacheLimits {
  /** How long an entry answers, from when it was asked. */
  maxAgeMs: number;
  /** Total weight kept (entries count 1 each unless `weigh` says more); the oldest go past it. */
  maxWeight: number;
}

export class AgingCache<V> {
  private readonly entries = new Map<string, { at: number; value: V; weight: number }>();
  private weight = 0;

  constructor(
    private readonly limits: AgingCacheLimits,
    private readonly clock: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get totalWeight(): number {
    return this.weight;
  }

  /** The value, unless missing or older than maxAgeMs (then dropped). */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) {
      return undefined;
    }
    if (this.clock() - entry.at > this.limits.maxAgeMs) {
      this.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: V, weight = 1): void {
    this.delete(key);
    this.entries.set(key, { at: this.clock(), value, weight });
    this.weight += weight;
    this.evict();
  }

  /** Sets a new weight for an entry still held (an answer's size known once it came). */
  reweigh(key: string, value: V, weight: number): void {
    const entry = this.entries.get(key);
    if (entry && entry.value === value) {
      this.weight += weight - entry.weight;
      entry.weight = weight;
      this.evict();
    }
  }

  /** Drops the oldest entries (Map keeps insertion order) until the weight fits; the newest always stays. */
  private evict(): void {
    for (const oldest of this.entries.keys()) {
      if (this.weight <= this.limits.maxWeight || this.entries.size <= 1) {
        break;
      }
      this.delete(oldest);
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (entry) {
      this.weight -= entry.weight;
      this.entries.delete(key);
    }
  }
}

/** How long log ends answer later batches: about one round of detail batches, much less than any refresh interval. */
export const LOG_ENDS_MAX_AGE_MS = 5000;
/** How long a read at a committed offset answers: records there do not change, so as long as the log ends. */
export const COMMITTED_READ_MAX_AGE_MS = 5000;
/** Partitions whose log ends are kept. */
const MAX_LOG_END_ENTRIES = 100_000;
/** Bytes of reads at committed offsets kept (each answer is at most COMMITTED_FETCH_LIMITS.maxBytesPerPartition). */
const MAX_COMMITTED_READ_BYTES = 32 * 1024 * 1024;
/** What an answer without records weighs: its entry. */
const EMPTY_READ_WEIGHT = 64;
/** How many Fetch rounds one load makes per partition: each at the lowest committed offset no read covers yet. */
export const MAX_COMMITTED_FETCH_ROUNDS = 8;
/** Small answers: a marker batch is under 100 bytes, and one data batch holds the record at the committed offset. */
const COMMITTED_FETCH_LIMITS: FetchLimits = { maxWaitMs: 0, maxBytes: 1024 * 1024, maxBytesPerPartition: 16 * 1024 };

/** One partition's log ends, or the errors that kept them from being read (attributed to its topic). */
interface LogEndRead {
  ends?: PartitionEnds;
  errors: string[];
}

export interface LogEnds {
  ends: Map<string, PartitionEnds>;
  /** Per topic, the failures to read its partitions' ends. */
  topicErrors: Map<string, string[]>;
}

type Connection = Pick<ClusterConnection, 'listOffsets' | 'broker' | 'errorText'>;

/**
 * ListOffsets (earliest, high watermark, last stable offset) and the small Fetch at committed offsets,
 * each answer shared by the batches of a round within its max age.
 */
export class SharedPartitionReads {
  private readonly logEnds: AgingCache<Promise<LogEndRead>>;
  private readonly committedReads: AgingCache<Promise<CommittedRead | undefined>>;
  private readonly newestRecords: AgingCache<Promise<NewestRecord | null>>;
  /** Per partition, the offsets of the kept reads (pruned as they age out). */
  private readonly readStarts = new Map<string, Set<number>>();

  constructor(
    private readonly connection: Connection,
    private readonly options: { concurrency: number; logger: KafkaLogger; clock?: () => number },
  ) {
    this.logEnds = new AgingCache({ maxAgeMs: LOG_ENDS_MAX_AGE_MS, maxWeight: MAX_LOG_END_ENTRIES }, options.clock);
    this.committedReads = new AgingCache({ maxAgeMs: COMMITTED_READ_MAX_AGE_MS, maxWeight: MAX_COMMITTED_READ_BYTES }, options.clock);
    this.newestRecords = new AgingCache({ maxAgeMs: LOG_ENDS_MAX_AGE_MS, maxWeight: MAX_LOG_END_ENTRIES }, options.clock);
  }

  /**
   * The newest record (offset and timestamp of the largest timestamp, ListOffsets MAX_TIMESTAMP, KIP-734) of
   * each partition, keyed by partitionKey: kept like the log ends, the others in one ListOffsets per leader.
   * A partition is left out when unknown: a broker before ListOffsets v7 (not asked), an error, an empty log.
   */
  async newestRecordsOf(partitions: readonly TopicPartition[], leaders: ReadonlyMap<string, number>): Promise<Map<string, NewestRecord>> {
    const missing = partitions.filter((p) => !this.newestRecords.get(partitionKey(p)));
    if (missing.length > 0) {
      const read = this.listNewest(missing, leaders);
      for (const p of missing) {
        const key = partitionKey(p);
        const entry = read.then((byKey) => byKey.get(key) ?? null);
        this.newestRecords.set(key, entry);
        entry.catch(() => this.newestRecords.delete(key));
      }
    }
    const result = new Map<string, NewestRecord>();
    await Promise.all(partitions.map(async (p) => {
      const newest = await (this.newestRecords.get(partitionKey(p)) ?? null);
      if (newest) {
        result.set(partitionKey(p), newest);
      }
    }));
    return result;
  }

  private async listNewest(partitions: readonly TopicPartition[], leaders: ReadonlyMap<string, number>): Promise<Map<string, NewestRecord>> {
    const listed = await this.connection.listOffsets(partitions, leaders, [{ isolationLevel: READ_UNCOMMITTED, timestamp: MAX_TIMESTAMP }]);
    for (const { leader, error } of listed.failures) {
      this.options.logger.debug(`Newest record timestamps from broker ${leader}: ${error}`);
    }
    // An empty log answers offset -1, timestamp -1: no newest record.
    return new Map(listed.answers[0]
      .filter((o) => o.errorCode === 0 && o.offset >= 0)
      .map((o) => [partitionKey(o), { offset: o.offset, timestamp: o.timestamp >= 0 ? o.timestamp : null }]));
  }

  /** Log ends of the partitions: the ones read within LOG_ENDS_MAX_AGE_MS as they were, the others in one ListOffsets per leader. */
  async partitionEnds(partitions: readonly TopicPartition[], leaders: ReadonlyMap<string, number>): Promise<LogEnds> {
    const missing = partitions.filter((p) => !this.logEnds.get(partitionKey(p)));
    if (missing.length > 0) {
      const read = this.listEnds(missing, leaders);
      for (const p of missing) {
        const key = partitionKey(p);
        const entry = read.then((byKey) => byKey.get(key) ?? { errors: [] });
        this.logEnds.set(key, entry);
        // A connection failure is not kept: the load fails, and the next one asks again.
        entry.catch(() => this.logEnds.delete(key));
      }
    }
    const reads = await Promise.all(partitions.map((p) => this.logEnds.get(partitionKey(p)) ?? Promise.resolve<LogEndRead>({ errors: [] })));
    const result: LogEnds = { ends: new Map(), topicErrors: new Map() };
    partitions.forEach((p, i) => {
      const { ends, errors } = reads[i];
      if (ends) {
        result.ends.set(partitionKey(p), ends);
      }
      if (errors.length > 0) {
        const known = result.topicErrors.get(p.topic) ?? [];
        result.topicErrors.set(p.topic, [...known, ...errors.filter((e) => !known.includes(e))]);
      }
    });
    return result;
  }

  private async listEnds(partitions: readonly TopicPartition[], leaders: ReadonlyMap<string, number>): Promise<Map<string, LogEndRead>> {
    const listed = await this.connection.listOffsets(partitions, leaders, [
      { isolationLevel: READ_UNCOMMITTED, timestamp: EARLIEST_TIMESTAMP },
      { isolationLevel: READ_UNCOMMITTED, timestamp: LATEST_TIMESTAMP },
      { isolationLevel: READ_COMMITTED, timestamp: LATEST_TIMESTAMP },
    ]);
    const index = (list: ListedOffset[]) => new Map(list.filter((o) => o.errorCode === 0).map((o) => [partitionKey(o), o.offset]));
    const [earliest, latest, stable] = listed.answers.map(index);
    const reads = new Map<string, LogEndRead>();
    const readOf = (p: TopicPartition): LogEndRead => {
      const key = partitionKey(p);
      const known = reads.get(key) ?? { errors: [] };
      reads.set(key, known);
      return known;
    };
    for (const p of partitions) {
      const key = partitionKey(p);
      if (latest.has(key) || earliest.has(key) || stable.has(key)) {
        readOf(p).ends = { logStartOffset: earliest.get(key) ?? null, highWatermark: latest.get(key) ?? null, lastStableOffset: stable.get(key) ?? null };
      }
    }
    for (const failed of listed.answers[1].filter((o) => o.errorCode !== 0)) {
      readOf(failed).errors.push(`Log end offset of ${failed.topic}-${failed.partition}: ${describeErrorCode(failed.errorCode)}`);
    }
    for (const { leader, partitions: parts, error } of listed.failures) {
      parts.forEach((p) => readOf(p).errors.push(`Log offsets from broker ${leader}: ${error}`));
    }
    return reads;
  }

  /**
   * The record bytes for each position, keyed `partitionKey@offset`. One Fetch answer at offset X holds the
   * batches from X on (up to maxBytesPerPartition), so it answers every offset it covers: per partition,
   * the lowest offset no kept read covers is fetched, then the next one still uncovered, in at most
   * MAX_COMMITTED_FETCH_ROUNDS rounds per load (one small Fetch per leader and topic each, with bounded
   * concurrency). Reads are kept COMMITTED_READ_MAX_AGE_MS for the round's other batches; a failed one is
   * logged and kept as no answer, so they do not repeat it.
   */
  async fetchAt(
    positions: ReadonlyArray<{ row: TopicPartition; offset: number }>,
    leaders: ReadonlyMap<string, number>,
    topicIds: ReadonlyMap<string, string>,
  ): Promise<Map<string, Uint8Array>> {
    const wanted = new Map<string, { tp: TopicPartition; offsets: Set<number> }>();
    for (const { row, offset } of positions) {
      const key = partitionKey(row);
      if (leaders.has(key)) {
        const entry = wanted.get(key) ?? { tp: { topic: row.topic, partition: row.partition }, offsets: new Set<number>() };
        entry.offsets.add(offset);
        wanted.set(key, entry);
      }
    }
    this.forgetAgedReadStarts();
    const fetched = new Map<string, Uint8Array>();
    const asked = new Set<string>();
    let pending = [...wanted.values()].map(({ tp, offsets }) => ({ tp, offsets: [...offsets].sort((a, b) => a - b) }));
    for (let round = 0; ; round++) {
      const left = await Promise.all(pending.map(async ({ tp, offsets }) => ({ tp, offsets: await this.answerFromKept(tp, offsets, fetched) })));
      // An offset read this load and still unanswered failed: not asked again.
      pending = left.map(({ tp, offsets }) => ({ tp, offsets: offsets.filter((o) => !asked.has(`${partitionKey(tp)}@${o}`)) })).filter((p) => p.offsets.length > 0);
      if (pending.length === 0 || round >= MAX_COMMITTED_FETCH_ROUNDS) {
        break; // bounded: offsets past these rounds go without the extra read
      }
      const reads = pending.map(({ tp, offsets }) => ({ ...tp, offset: offsets[0] }));
      reads.forEach((r) => asked.add(`${partitionKey(r)}@${r.offset}`));
      await this.read(reads, leaders, topicIds);
    }
    return fetched;
  }

  /** Drops the index entries of reads aged out or evicted, once the index outgrows the reads kept. */
  private forgetAgedReadStarts(): void {
    let indexed = 0;
    this.readStarts.forEach((starts) => (indexed += starts.size));
    if (indexed <= this.committedReads.size) {
      return;
    }
    for (const [key, starts] of this.readStarts) {
      for (const from of starts) {
        if (!this.committedReads.get(`${key}@${from}`)) {
          starts.delete(from);
        }
      }
      if (starts.size === 0) {
        this.readStarts.delete(key);
      }
    }
  }

  /** Fills `fetched` for the offsets of `tp` that a kept read covers; returns the others. */
  private async answerFromKept(tp: TopicPartition, offsets: readonly number[], fetched: Map<string, Uint8Array>): Promise<number[]> {
    const key = partitionKey(tp);
    const starts = this.readStarts.get(key);
    const kept: CommittedRead[] = [];
    for (const from of starts ?? []) {
      const read = this.committedReads.get(`${key}@${from}`);
      if (!read) {
        starts?.delete(from);
        continue;
      }
      const answer = await read;
      if (answer) {
        kept.push(answer);
      }
    }
    if (starts?.size === 0) {
      this.readStarts.delete(key);
    }
    return offsets.filter((offset) => {
      const cover = kept.find((r) => r.from <= offset && offset <= r.through);
      if (cover) {
        fetched.set(`${key}@${offset}`, cover.bytes);
      }
      return !cover;
    });
  }

  /** One Fetch per leader and topic at the positions (one per partition), kept as they are asked. */
  private async read(positions: ReadonlyArray<TopicPartition & { offset: number }>, leaders: ReadonlyMap<string, number>, topicIds: ReadonlyMap<string, string>): Promise<void> {
    const answers = new Map<string, (read: CommittedRead | undefined) => void>();
    // A batch in flight at once may have asked the same offset since: its read is awaited, not repeated.
    const toRead = positions.filter((p) => !this.committedReads.get(`${partitionKey(p)}@${p.offset}`));
    for (const p of toRead) {
      const key = partitionKey(p);
      const at = `${key}@${p.offset}`;
      const read = new Promise<CommittedRead | undefined>((resolve) => answers.set(at, resolve));
      this.committedReads.set(at, read, EMPTY_READ_WEIGHT);
      this.readStarts.set(key, (this.readStarts.get(key) ?? new Set()).add(p.offset));
    }
    const requests = groupBy(toRead, (p) => `${leaders.get(partitionKey(p))}\u0000${p.topic}`);
    await mapWithConcurrency([...requests.values()], this.options.concurrency, async (batch) => {
      const { topic } = batch[0];
      const offsetOf = new Map(batch.map((p) => [p.partition, p.offset]));
      try {
        const broker = await this.connection.broker(leaders.get(partitionKey(batch[0])) as number);
        const target = { topic, topicId: topicIds.get(topic) ?? null };
        const request = fetchRequest(target, batch.map((p) => ({ partition: p.partition, fetchOffset: p.offset })), COMMITTED_FETCH_LIMITS);
        for (const answer of (await sendRequest(broker, request)).partitions) {
          const from = offsetOf.get(answer.partition);
          if (answer.errorCode === 0 && answer.records && from !== undefined) {
            const at = `${partitionKey(answer)}@${from}`;
            const read: CommittedRead = { from, through: coveredThrough(answer.records, from), bytes: answer.records };
            const entry = this.committedReads.get(at);
            if (entry) {
              this.committedReads.reweigh(at, entry, Math.max(EMPTY_READ_WEIGHT, answer.records.byteLength));
            }
            answers.get(at)?.(read);
          }
        }
      } catch (err) {
        this.options.logger.debug(`Fetch at committed offsets of ${topic}: ${this.connection.errorText(err)}`);
      } finally {
        batch.forEach((p) => answers.get(`${partitionKey(p)}@${p.offset}`)?.(undefined)); // no effect on the ones answered
      }
    });
  }
}

/** A Fetch answer at `from`: its bytes answer every offset from `from` through `through`. */
interface CommittedRead {
  from: number;
  through: number;
  bytes: Uint8Array;
}

/**
 * The last offset of the last whole batch in the bytes, at least `from` (the answer then covers its own
 * offset only, as when it was asked alone): a batch the broker cut at max bytes does not count.
 */
function coveredThrough(bytes: Uint8Array, from: number): number {
  try {
    const whole = readBatchFrames(bytes).filter((f) => f.complete);
    const last = whole.length > 0 ? Number(whole[whole.length - 1].header.lastOffset) : from;
    return Math.max(from, last);
  } catch {
    return from;
  }
}
