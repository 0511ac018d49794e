import type { VirtualClock, ScheduledTask } from '../../common/clock';
import type { SimTopic } from '../../log/cluster';
import type { PartitionLog } from '../../log/partitionLog';

export interface ProducerConfig {
  recordsPerSecond: number;
  /** Stops after this long; runs until stopped when omitted. */
  durationMs?: number;
  /** How often the producer flushes; records are appended in batches, not one by one. Default 1000. */
  flushIntervalMs?: number;
  /** Records per batch before the sticky partitioner moves to the next partition. Default 100. */
  recordsPerBatch?: number;
}

/**
 * A producer with Kafka's sticky-partitioner behaviour: each flush appends full batches to one
 * partition after another, so an hour at thousands of records per second costs a few thousand appends.
 */
export class SimulatedProducer {
  private task: ScheduledTask | null = null;
  private carry = 0;
  private nextPartition = 0;
  private stopAt = Infinity;
  private produced = 0;
  private readonly flushIntervalMs: number;
  private readonly recordsPerBatch: number;

  constructor(
    readonly handle: string,
    readonly topic: SimTopic,
    private readonly config: ProducerConfig,
    private readonly clock: VirtualClock,
  ) {
    if (!(config.recordsPerSecond > 0) || !Number.isFinite(config.recordsPerSecond)) {
      throw new Error(`recordsPerSecond must be a positive number, got ${config.recordsPerSecond}`);
    }
    if (config.durationMs !== undefined && !(config.durationMs > 0)) {
      throw new Error(`durationMs must be a positive number of milliseconds, got ${config.durationMs}`);
    }
    this.flushIntervalMs = config.flushIntervalMs ?? 1000;
    this.recordsPerBatch = config.recordsPerBatch ?? 100;
    this.nextPartition = 0;
  }

  get running(): boolean {
    return this.task !== null;
  }

  get recordsProduced(): number {
    return this.produced;
  }

  start(): void {
    if (this.task) {
      return;
    }
    this.stopAt = this.config.durationMs !== undefined ? this.clock.now + this.config.durationMs : Infinity;
    this.task = this.clock.schedule(this.flushIntervalMs, () => this.flush());
  }

  stop(): void {
    this.clock.cancel(this.task);
    this.task = null;
  }

  private flush(): void {
    this.carry += (this.config.recordsPerSecond * this.flushIntervalMs) / 1000;
    let count = Math.floor(this.carry);
    this.carry -= count;
    const partitions = this.topic.partitions;
    const now = this.clock.now;
    while (count > 0) {
      const batch = Math.min(count, this.recordsPerBatch);
      partitions[this.nextPartition].append(batch, now);
      this.nextPartition = (this.nextPartition + 1) % partitions.length;
      count -= batch;
      this.produced += batch;
    }
    if (now + this.flushIntervalMs > this.stopAt) {
      this.task = null;
      return;
    }
    this.task = this.clock.schedule(this.flushIntervalMs, () => this.flush());
  }
}

/** Appends `records` at once: to one partition, or spread evenly over all of them. */
export function produceRecords(topic: SimTopic, records: number, timestamp: number, partition?: number): void {
  forEachShare(topic, records, partition, (log, share) => log.append(share, timestamp));
}

/** Splits `records` over one partition, or evenly over the topic's partitions, with clear errors for bad input. */
export function forEachShare(topic: SimTopic, records: number, partition: number | undefined, write: (log: PartitionLog, share: number, partition: number) => void): void {
  if (!Number.isInteger(records) || records < 1) {
    throw new Error(`records must be a positive integer, got ${records}`);
  }
  if (partition !== undefined) {
    const log = topic.partitions[partition];
    if (!log) {
      throw new Error(`Topic "${topic.name}" has no partition ${partition} (it has ${topic.partitions.length})`);
    }
    write(log, records, partition);
    return;
  }
  const n = topic.partitions.length;
  topic.partitions.forEach((log, p) => {
    const share = Math.floor(records / n) + (p < records % n ? 1 : 0);
    if (share > 0) {
      write(log, share, p);
    }
  });
}
