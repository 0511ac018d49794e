/**
 * Reads `__consumer_offsets` without joining a group: it assigns itself the partitions that hold
 * the watched groups (offsetsPartitionFor), reads each from its log start and then tails it with
 * long-polling Fetch requests to the partition leaders, and feeds every record to an
 * OffsetsTopicEventLog. Only partitions some watcher needs are fetched; a partition that stops
 * being needed keeps its position, so watching it again resumes where reading stopped.
 *
 * The broker side is behind OffsetsTopicTransport, so the bookkeeping is testable without one.
 */
import type { Unsubscribe } from '../model/clusterSource';
import type { RebalanceEvent } from '../model/types';
import { OffsetsTopicEventLog } from '../timeline/offsetsTopicEventLog';
import type { KafkaLogger } from './connection';
import { OFFSETS_TOPIC, offsetsPartitionFor } from '../protocol/offsetsPartition';
import { errorMessage } from '../protocol/errors';
import { decodeRecordBatch, readControlMarker, scanBatchFrames, type BatchRecord } from '../protocol/recordBatch';
import { describeErrorCode, OFFSET_OUT_OF_RANGE } from './kafkaErrors';
import { OffsetsTopicNames } from './offsetsTopicNames';
import { isAccessErrorCode, OffsetsTopicAccessError, type OffsetsTopicTransport } from './offsetsTopicTransport';
import { exactNumber } from './requests/apiCall';
import type { FetchLimits } from './requests/fetchRequest';

export { OFFSETS_TOPIC };

export interface OffsetsTopicReaderOptions {
  logger: KafkaLogger;
  /** Called after a read that added events to watched groups, with those groups. */
  onEvents?(groupIds: string[]): void;
  limits?: Partial<FetchLimits>;
  /** First pause after a failed read; it doubles up to maxRetryBackoffMs. */
  retryBackoffMs?: number;
  maxRetryBackoffMs?: number;
}

/** Told once when the topic turns out to be unreadable. */
export type UnavailableListener = (reason: string) => void;

export interface ReadSummary {
  /** Partitions fetched this round. */
  fetched: number[];
  /** Records decoded (control batches excluded). */
  records: number;
  /** Groups that got new events, watched or not. */
  groupsWithEvents: string[];
  /** Partition-level problems this round, one line each; the partitions are retried. */
  failures: string[];
  /** True when every wanted partition was read up to its high watermark. */
  caughtUp: boolean;
  /** True when `__consumer_offsets` does not exist yet (no group has used a coordinator). */
  topicMissing: boolean;
}

export const DEFAULT_FETCH_LIMITS: FetchLimits = { maxWaitMs: 500, maxBytes: 4 * 1024 * 1024, maxBytesPerPartition: 1024 * 1024 };

export class OffsetsTopicReader {
  private readonly log: OffsetsTopicEventLog;
  private readonly topicNames: OffsetsTopicNames;
  private readonly limits: FetchLimits;
  private readonly groupWatchers = new Map<string, Set<UnavailableListener>>();
  private readonly allWatchers = new Set<UnavailableListener>();
  /** Next offset to fetch per partition; absent until the log start is known. */
  private readonly positions = new Map<number, number>();
  private readonly highWatermarks = new Map<number, number>();
  private leaders: number[] | null = null;
  private unavailableReason: string | null = null;
  private running: Promise<void> | null = null;
  private disposed = false;
  private wake: (() => void) | null = null;

  constructor(private readonly transport: OffsetsTopicTransport, private readonly options: OffsetsTopicReaderOptions) {
    this.topicNames = new OffsetsTopicNames(transport, options.logger);
    this.log = new OffsetsTopicEventLog((topicId) => this.topicNames.name(topicId));
    this.limits = { ...DEFAULT_FETCH_LIMITS, ...options.limits };
    for (const [name, value] of Object.entries(this.limits)) {
      if (!Number.isInteger(value) || value <= 0) {
        throw new RangeError(`Fetch limit ${name} must be a positive integer, got ${value}`);
      }
    }
  }

  /** Why the topic cannot be read, once a read was refused; null otherwise. */
  get unavailable(): string | null {
    return this.unavailableReason;
  }

  /** Events read so far for a group, oldest first. */
  events(groupId: string): RebalanceEvent[] {
    return this.log.events(groupId);
  }

  /**
   * The group's generation as its last group-metadata record says, but only while the group's
   * partition is being read and was read up to its high watermark: otherwise it may be stale.
   */
  generation(groupId: string): number | undefined {
    const partitions = this.leaders?.length;
    if (partitions === undefined || (this.allWatchers.size === 0 && !this.groupWatchers.has(groupId))) {
      return undefined;
    }
    const partition = offsetsPartitionFor(groupId, partitions);
    const position = this.positions.get(partition);
    const highWatermark = this.highWatermarks.get(partition);
    if (position === undefined || highWatermark === undefined || position < highWatermark) {
      return undefined;
    }
    return this.log.generation(groupId);
  }

  /** Next offset to read of a partition, once its log start is known. */
  position(partition: number): number | undefined {
    return this.positions.get(partition);
  }

  /** Reads the group's partition until the returned function is called. */
  watchGroup(groupId: string, onUnavailable: UnavailableListener): Unsubscribe {
    if (!groupId) {
      throw new Error('watchGroup needs a group id');
    }
    const watchers = this.groupWatchers.get(groupId) ?? new Set<UnavailableListener>();
    this.groupWatchers.set(groupId, watchers);
    return this.addWatcher(watchers, onUnavailable, () => {
      if (watchers.size === 0) {
        this.groupWatchers.delete(groupId);
      }
    });
  }

  /** Reads every partition (every group's history) until the returned function is called. */
  watchAll(onUnavailable: UnavailableListener): Unsubscribe {
    return this.addWatcher(this.allWatchers, onUnavailable, () => undefined);
  }

  /** Starts the background read loop (idempotent); it runs until dispose or an access error. */
  start(): void {
    if (!this.running && !this.disposed) {
      this.running = this.loop().finally(() => {
        this.running = null;
      });
    }
  }

  /**
   * Stops reading. Resolves when the loop has ended, which may wait for an in-flight long poll:
   * callers can close the connections first so that it ends at once.
   */
  dispose(): Promise<void> {
    this.disposed = true;
    this.groupWatchers.clear();
    this.allWatchers.clear();
    this.wakeUp();
    return this.running ?? Promise.resolve();
  }

  /**
   * One round: find the leaders when unknown, look up log starts of newly wanted partitions,
   * fetch every wanted partition once (one request per leader) and ingest what came back.
   * Throws when the cluster cannot be asked at all; an access error instead marks the reader
   * unavailable and tells the watchers.
   */
  async readOnce(): Promise<ReadSummary> {
    const summary: ReadSummary = { fetched: [], records: 0, groupsWithEvents: [], failures: [], caughtUp: true, topicMissing: false };
    if (this.disposed || this.unavailableReason !== null) {
      return summary;
    }
    try {
      this.leaders ??= await this.transport.partitionLeaders();
    } catch (error) {
      if (error instanceof OffsetsTopicAccessError) {
        this.markUnavailable(error.message);
        return summary;
      }
      throw error;
    }
    if (this.leaders === null) {
      summary.topicMissing = true;
      summary.caughtUp = false;
      return summary;
    }
    const byLeader = new Map<number, number[]>();
    for (const partition of this.wantedPartitions(this.leaders.length)) {
      const leader = this.leaders[partition];
      if (leader < 0) {
        summary.failures.push(`${OFFSETS_TOPIC}-${partition} has no leader`);
        continue;
      }
      byLeader.set(leader, [...(byLeader.get(leader) ?? []), partition]);
    }
    const groupsWithEvents = new Set<string>();
    await Promise.all([...byLeader].map(([leader, partitions]) => this.readFromLeader(leader, partitions, summary, groupsWithEvents)));
    if (summary.failures.length > 0) {
      this.leaders = null; // most partition errors mean leadership moved
      summary.caughtUp = false;
    }
    summary.fetched.sort((a, b) => a - b);
    summary.groupsWithEvents = [...groupsWithEvents].sort();
    const watched = summary.groupsWithEvents.filter((g) => this.allWatchers.size > 0 || this.groupWatchers.has(g));
    if (watched.length > 0 && !this.disposed) {
      this.options.onEvents?.(watched);
    }
    return summary;
  }

  private addWatcher(into: Set<UnavailableListener>, onUnavailable: UnavailableListener, cleanup: () => void): Unsubscribe {
    if (this.disposed) {
      throw new Error(`the ${OFFSETS_TOPIC} reader is disposed`);
    }
    // A distinct function per call, so the same listener can be registered twice and removed once.
    const watcher: UnavailableListener = (reason) => onUnavailable(reason);
    into.add(watcher);
    const reason = this.unavailableReason;
    if (reason !== null) {
      queueMicrotask(() => onUnavailable(reason));
    }
    this.wakeUp();
    return () => {
      into.delete(watcher);
      cleanup();
    };
  }

  private wantedPartitions(partitionCount: number): number[] {
    if (this.allWatchers.size > 0) {
      return Array.from({ length: partitionCount }, (_, i) => i);
    }
    return [...new Set([...this.groupWatchers.keys()].map((g) => offsetsPartitionFor(g, partitionCount)))].sort((a, b) => a - b);
  }

  private async readFromLeader(leader: number, partitions: number[], summary: ReadSummary, groupsWithEvents: Set<string>): Promise<void> {
    const unpositioned = partitions.filter((p) => !this.positions.has(p));
    if (unpositioned.length > 0) {
      for (const answer of await this.transport.earliestOffsets(leader, unpositioned)) {
        if (answer.errorCode === 0) {
          this.positions.set(answer.partition, answer.offset);
        } else {
          this.partitionError(answer.partition, answer.errorCode, 'ListOffsets', summary);
        }
      }
    }
    const positions = partitions.flatMap((partition) => {
      const fetchOffset = this.positions.get(partition);
      return fetchOffset === undefined ? [] : [{ partition, fetchOffset }];
    });
    if (positions.length === 0 || this.unavailableReason !== null) {
      return;
    }
    const result = await this.transport.fetch(leader, positions, this.limits);
    if (this.disposed) {
      return;
    }
    if (result.errorCode !== 0) {
      summary.failures.push(`Fetch from broker ${leader}: ${describeErrorCode(result.errorCode)}`);
      return;
    }
    for (const answer of result.partitions) {
      if (answer.topic !== OFFSETS_TOPIC || !positions.some((p) => p.partition === answer.partition)) {
        summary.failures.push(`broker ${leader} answered for ${answer.topic}-${answer.partition}, which was not asked for`);
        continue;
      }
      if (answer.errorCode !== 0) {
        this.partitionError(answer.partition, answer.errorCode, 'Fetch', summary);
        continue;
      }
      summary.fetched.push(answer.partition);
      const next = await this.ingest(leader, answer.partition, answer.records, summary, groupsWithEvents);
      this.highWatermarks.set(answer.partition, answer.highWatermark);
      if (next < answer.highWatermark) {
        summary.caughtUp = false;
      }
    }
  }

  /**
   * Ingests the partition's complete batches past its position; returns the new position. A batch
   * that cannot be read is reported once (partition and offset) and skipped, so the position always
   * moves past what was fetched; a broker that answers only batches before the position stops the
   * reader instead of being asked the same thing forever.
   */
  private async ingest(leader: number, partition: number, records: Uint8Array | null, summary: ReadSummary, groupsWithEvents: Set<string>): Promise<number> {
    const from = this.positions.get(partition) ?? 0;
    let next = from;
    const skip = (offset: bigint, reason: string): void => {
      this.options.logger.warn(`Skipped an unreadable record batch of ${OFFSETS_TOPIC}-${partition} at offset ${offset}: ${reason}`);
    };
    const scan = records === null || records.length === 0 ? { frames: [] } : scanBatchFrames(records);
    for (const frame of scan.frames) {
      const { baseOffset, lastOffset, control } = frame.header;
      // A fetch starts at the batch holding the fetch offset, so its first records may be old.
      if (frame.bytes === null || lastOffset < BigInt(next)) {
        continue;
      }
      let after: number;
      try {
        after = exactNumber(lastOffset + 1n, `record batch at offset ${baseOffset}`);
      } catch (error) {
        skip(baseOffset, errorMessage(error));
        break; // nothing past it can be positioned exactly
      }
      let batchRecords: BatchRecord[] = [];
      try {
        batchRecords = decodeRecordBatch(frame.bytes).records;
      } catch (error) {
        skip(baseOffset, errorMessage(error));
      }
      next = after;
      // TxnOffsetCommit writes transactional batches; their producer's marker is a control batch.
      const transactional = frame.header.transactional && frame.header.producerId >= 0n
        ? { partition, producerId: Number(frame.header.producerId), producerEpoch: frame.header.producerEpoch }
        : undefined;
      for (const record of batchRecords) {
        if (record.offset < BigInt(from)) {
          continue;
        }
        if (control) {
          try {
            if (transactional !== undefined) {
              const marker = readControlMarker(record);
              for (const event of this.log.ingestMarker(transactional, marker.type, exactNumber(record.timestamp, `timestamp at offset ${record.offset}`))) {
                groupsWithEvents.add(event.groupId);
              }
            }
          } catch (error) {
            this.options.logger.warn(`Skipped the transaction marker at ${OFFSETS_TOPIC}-${partition} offset ${record.offset}: ${errorMessage(error)}`);
          }
          continue;
        }
        summary.records++;
        try {
          for (const event of this.log.ingest(record.key, record.value, exactNumber(record.timestamp, `timestamp at offset ${record.offset}`), transactional)) {
            groupsWithEvents.add(event.groupId);
          }
        } catch (error) {
          const reason = errorMessage(error);
          this.options.logger.warn(`Skipped ${OFFSETS_TOPIC}-${partition} offset ${record.offset}: ${reason}`);
        }
      }
      // One batch is one coordinator operation: its KIP-848 records make events together.
      const unnamed = this.log.unnamedTopicIds();
      if (unnamed.length > 0) {
        await this.topicNames.learn(leader, unnamed);
      }
      for (const event of this.log.endBatch()) {
        groupsWithEvents.add(event.groupId);
      }
    }
    if (scan.broken && scan.broken.baseOffset >= BigInt(next) && scan.broken.baseOffset < BigInt(Number.MAX_SAFE_INTEGER)) {
      // Its extent is unknown: step past its first offset, the only one known to be in it.
      skip(scan.broken.baseOffset, scan.broken.reason);
      next = Number(scan.broken.baseOffset) + 1;
    }
    if (next === from && records !== null && records.length > 0 && scan.frames.some((f) => f.complete)) {
      this.markUnavailable(`broker answered only batches before offset ${from} of ${OFFSETS_TOPIC}-${partition}; reading it again would not move`);
    }
    this.positions.set(partition, next);
    return next;
  }

  private partitionError(partition: number, errorCode: number, request: string, summary: ReadSummary): void {
    if (isAccessErrorCode(errorCode)) {
      this.markUnavailable(`${request} of ${OFFSETS_TOPIC}: ${describeErrorCode(errorCode)}`);
      return;
    }
    if (errorCode === OFFSET_OUT_OF_RANGE) {
      // Retention or compaction moved the log start past the position: start over from it.
      this.positions.delete(partition);
    }
    summary.failures.push(`${request} of ${OFFSETS_TOPIC}-${partition}: ${describeErrorCode(errorCode)}`);
  }

  private markUnavailable(reason: string): void {
    if (this.unavailableReason !== null) {
      return;
    }
    this.unavailableReason = reason;
    this.options.logger.warn(`Cannot read ${OFFSETS_TOPIC} (${reason}); rebalance timelines fall back to polling`);
    const watchers = [...this.allWatchers, ...[...this.groupWatchers.values()].flatMap((set) => [...set])];
    for (const watcher of watchers) {
      watcher(reason);
    }
  }

  private async loop(): Promise<void> {
    const baseBackoff = this.options.retryBackoffMs ?? 1000;
    const maxBackoff = this.options.maxRetryBackoffMs ?? 30000;
    let backoff = baseBackoff;
    while (!this.disposed && this.unavailableReason === null) {
      if (this.allWatchers.size === 0 && this.groupWatchers.size === 0) {
        await this.pause(null);
        continue;
      }
      let failed: string | null = null;
      try {
        const summary = await this.readOnce();
        failed = summary.failures.length > 0 ? summary.failures.join('; ') : null;
        if (summary.topicMissing) {
          // Normal on a new cluster: the first group to find its coordinator creates the topic.
          this.options.logger.debug(`${OFFSETS_TOPIC} does not exist yet; looking again in ${baseBackoff} ms`);
          await this.pause(baseBackoff);
          continue;
        }
      } catch (error) {
        this.leaders = null;
        failed = errorMessage(error);
      }
      if (this.disposed) {
        break;
      }
      if (failed === null) {
        backoff = baseBackoff;
        continue;
      }
      this.options.logger.warn(`Reading ${OFFSETS_TOPIC} failed, retrying in ${backoff} ms: ${failed}`);
      await this.pause(backoff);
      backoff = Math.min(backoff * 2, maxBackoff);
    }
  }

  /** Waits `ms` (null: until woken), or less when a watcher is added or the reader disposed. */
  private pause(ms: number | null): Promise<void> {
    return new Promise((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const done = (): void => {
        clearTimeout(timer);
        if (this.wake === done) {
          this.wake = null;
        }
        resolve();
      };
      if (ms !== null) {
        timer = setTimeout(done, ms);
      }
      this.wake = done;
    });
  }

  private wakeUp(): void {
    this.wake?.();
  }
}
