/**
 * The lag samples the tree takes, kept in memory per group for the evaluation and the trend: for each sample time,
 * each partition's committed offset, log end offset and (when read) lag in time. Bounded three ways: by age
 * (`retentionMs`, an hour by default), by count per group (`maxSamples`; rows are kept `minIntervalMs` apart, as
 * Burrow's `min-distance` does, so a 5 s refresh keeps about one row per 30 s plus the newest sample), and by
 * an estimate of the bytes held over all groups (`maxBytes`). Under that budget each group may fill an equal share
 * of 80% of it: a group past its share is thinned (every other sample older than `denseMs`, the evaluation's window,
 * goes) rather than dropped, so its recent samples stay dense and the older ones still reach back; the groups
 * recorded least recently are dropped whole only when even the smallest arrays do not fit.
 *
 * One group's samples are a few typed arrays however many it holds (`groupSamples.ts`); unknown values are NaN.
 */
import type { PartitionOffsets } from '../model/types';
import { DEFAULT_LAG_SAMPLE_STORE_OPTIONS, GroupSamples, type GroupSeries, type LagSampleStoreOptions, type PartitionSampleInput } from './groupSamples';

export {
  DEFAULT_LAG_SAMPLE_STORE_OPTIONS, type GroupSeries, type LagSampleStoreOptions, type PartitionSampleInput, type PartitionSeries,
} from './groupSamples';

/** The part of `maxBytes` the groups' shares add up to. */
const BUDGET_SHARE = 0.8;

/**
 * One refresh's sample from the partitions the tree loaded (`GroupDetail.offsets`): ownership from `ownerMemberId`
 * (unknown when the source did not say), lag in time when it was read.
 */
export function sampleFromOffsets(offsets: readonly PartitionOffsets[]): PartitionSampleInput[] {
  return offsets.map((p) => ({
    topic: p.topic, partition: p.partition, committedOffset: p.committedOffset, logEndOffset: p.logEndOffset,
    logStartOffset: p.logStartOffset, lagInTimeMs: p.lagInTimeMs ?? null,
    owned: p.ownerMemberId === undefined ? null : p.ownerMemberId !== null,
  }));
}

/** The store key of one group of one cluster. */
export function groupKey(clusterId: string, groupId: string): string {
  return `${clusterId}\u0000${groupId}`;
}

export class LagSampleStore {
  readonly options: Readonly<LagSampleStoreOptions>;
  /** In order of last `record`, oldest first: the eviction order. */
  private readonly groups = new Map<string, GroupSamples>();
  private bytesHeld = 0;

  constructor(options: Partial<LagSampleStoreOptions> = {}) {
    this.options = { ...DEFAULT_LAG_SAMPLE_STORE_OPTIONS, ...options };
    for (const [name, value] of Object.entries(this.options)) {
      if (!Number.isFinite(value) || value < 0 || (name === 'maxSamples' && (!Number.isInteger(value) || value < 2))) {
        throw new RangeError(`LagSampleStore: ${name} must be ${name === 'maxSamples' ? 'an integer of at least 2' : 'a finite number ≥ 0'}, not ${value}`);
      }
    }
  }

  /** Groups held. */
  get size(): number {
    return this.groups.size;
  }

  /** The estimate `maxBytes` bounds. */
  get bytes(): number {
    return this.bytesHeld;
  }

  /**
   * Records one sample of a group's partitions taken at `time` (epoch ms). A partition missing from `partitions` is
   * unknown (NaN) in this sample. Returns false, keeping nothing, when `time` is older than the group's newest sample.
   */
  record(key: string, time: number, partitions: readonly PartitionSampleInput[]): boolean {
    if (!Number.isFinite(time)) {
      throw new RangeError(`LagSampleStore.record: time must be a finite number of milliseconds, not ${time}`);
    }
    const samples = this.groups.get(key) ?? new GroupSamples();
    const before = this.groups.has(key) ? samples.bytes : 0;
    // Each group may fill an equal share of 80% of the budget; the rest is headroom while groups shrink to a
    // smaller share (on their next sample) after others arrive, so eviction is the last resort.
    const groups = this.groups.size + (this.groups.has(key) ? 0 : 1);
    const recorded = samples.record(time, partitions, this.options, (BUDGET_SHARE * this.options.maxBytes) / groups);
    this.groups.delete(key);
    this.groups.set(key, samples);
    this.bytesHeld += samples.bytes - before;
    this.evictOverBudget(key);
    return recorded;
  }

  /** The group's samples, oldest first; undefined when none are held. */
  series(key: string): GroupSeries | undefined {
    const samples = this.groups.get(key);
    return samples === undefined || samples.size === 0 ? undefined : samples.series();
  }

  /** Number of samples held for the group. */
  sampleCount(key: string): number {
    return this.groups.get(key)?.size ?? 0;
  }

  has(key: string): boolean {
    return this.groups.has(key);
  }

  keys(): IterableIterator<string> {
    return this.groups.keys();
  }

  forget(key: string): void {
    const samples = this.groups.get(key);
    if (samples !== undefined) {
      this.bytesHeld -= samples.bytes;
      this.groups.delete(key);
    }
  }

  /** Drops every sample older than `now - retentionMs`, and the groups left with none (a group that vanished). */
  sweep(now: number): void {
    for (const [key, samples] of this.groups) {
      const before = samples.bytes;
      if (samples.prune(now - this.options.retentionMs)) {
        this.forget(key);
      } else {
        this.bytesHeld += samples.bytes - before;
      }
    }
  }

  private evictOverBudget(keep: string): void {
    for (const key of this.groups.keys()) {
      if (this.bytesHeld <= this.options.maxBytes) {
        return;
      }
      if (key !== keep) {
        this.forget(key);
      }
    }
  }
}
