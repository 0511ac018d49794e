/**
 * One group's lag samples as `LagSampleStore` keeps them: a column-major matrix (column 0 the sample times, then
 * committed and log end offset per partition; lag in time and commit times in their own matrices once given), rows
 * [head, tail) in use, oldest first, which grows by doubling, is thinned past its share of the store's budget and
 * hands out contiguous `subarray` views per partition.
 */
import type { TopicPartition } from '../model/types';

export interface PartitionSampleInput extends TopicPartition {
  committedOffset: number | null;
  logEndOffset: number | null;
  logStartOffset?: number | null;
  /** Age of the oldest unconsumed record (lagInTime.ts), when it was read for this sample. */
  lagInTimeMs?: number | null;
  /** When the group last committed this partition (the offset commit's timestamp), when the source knows it. */
  commitTime?: number | null;
  /** Whether a member owns the partition in the current assignment, when known. */
  owned?: boolean | null;
}

export interface LagSampleStoreOptions {
  /** Samples older than this (relative to the newest time recorded) are dropped. */
  retentionMs: number;
  /** Most samples kept per group. */
  maxSamples: number;
  /** Rows are kept this far apart: a sample closer than this to the row before the newest replaces the newest. */
  minIntervalMs: number;
  /** Estimated bytes over all groups: groups share 80% of it; past all of it the least recently recorded groups are dropped. */
  maxBytes: number;
  /**
   * Rows newer than this are never thinned (a group short of room drops its oldest row instead): the evaluation's
   * window keeps its resolution, and what a tight budget gives up is the older trend.
   */
  denseMs: number;
}

export const DEFAULT_LAG_SAMPLE_STORE_OPTIONS: Readonly<LagSampleStoreOptions> = {
  retentionMs: 60 * 60 * 1000,
  maxSamples: 120,
  minIntervalMs: 30 * 1000,
  maxBytes: 64 * 1024 * 1024,
  denseMs: 10 * 60 * 1000,
};

/**
 * One partition's samples, aligned with `GroupSeries.times`. The arrays are views into the store: read them before
 * the next `record`, do not keep them.
 */
export interface PartitionSeries extends TopicPartition {
  committed: Float64Array;
  logEnd: Float64Array;
  /** Null when no sample of this group carried a lag in time. */
  lagInTimeMs: Float32Array | null;
  /** Null when no sample of this group carried a commit time. */
  commitTimes: Float64Array | null;
  /** From the newest sample that had the partition. */
  logStartOffset: number | null;
  owned: boolean | null;
}

export interface GroupSeries {
  times: Float64Array;
  partitions: PartitionSeries[];
}

/** Bytes a group costs besides its typed arrays' contents (objects, maps, array headers), measured by bench/health.ts. */
const GROUP_OVERHEAD_BYTES = 600;
const PARTITION_OVERHEAD_BYTES = 160;
const INITIAL_CAPACITY = 4;
/** The fewest rows a group is shrunk to. */
const MIN_ROWS = 4;

interface PartitionSlot extends TopicPartition {
  /** Index among the group's partitions: its columns are 1 + 2 * column and 2 + 2 * column. */
  column: number;
  logStartOffset: number | null;
  owned: boolean | null;
}

function partitionKey(topic: string, partition: number): string {
  return `${partition}:${topic}`;
}

/** One group's samples: a matrix of `capacity` rows, rows [head, tail) in use, oldest first. */
export class GroupSamples {
  private capacity = INITIAL_CAPACITY;
  private head = 0;
  private tail = 0;
  private readonly slots = new Map<string, PartitionSlot>();
  private offsets = new Float64Array(INITIAL_CAPACITY);
  private lagInTime: Float32Array | null = null;
  private commitTimes: Float64Array | null = null;
  /** The slots of the previous `record`'s inputs, in their order: refreshes list partitions the same way each time. */
  private lastOrder: PartitionSlot[] = [];

  get size(): number {
    return this.tail - this.head;
  }

  get newestTime(): number {
    return this.size === 0 ? Number.NEGATIVE_INFINITY : this.offsets[this.tail - 1];
  }

  get bytes(): number {
    return GROUP_OVERHEAD_BYTES + this.slots.size * PARTITION_OVERHEAD_BYTES + this.offsets.byteLength
      + (this.lagInTime?.byteLength ?? 0) + (this.commitTimes?.byteLength ?? 0);
  }

  /** Adds a row, or replaces the newest when `time` is within `minIntervalMs` of the row before it. False when `time` is older than the newest row. */
  record(time: number, inputs: readonly PartitionSampleInput[], options: LagSampleStoreOptions, shareBytes: number): boolean {
    if (this.size > 0 && time < this.newestTime) {
      return false;
    }
    const slots = this.resolveSlots(inputs);
    if (inputs.some((input) => input.lagInTimeMs != null) && this.lagInTime === null) {
      this.lagInTime = new Float32Array(this.capacity * this.slots.size).fill(Number.NaN);
    }
    if (inputs.some((input) => input.commitTime != null) && this.commitTimes === null) {
      this.commitTimes = new Float64Array(this.capacity * this.slots.size).fill(Number.NaN);
    }
    // The newest row always holds the newest sample; the one before it is where spacing is kept: a sample within
    // minIntervalMs of that one replaces the newest row. (Burrow instead keeps the replaced row's old time.)
    const replace = this.size >= 2 && time - this.offsets[this.tail - 2] < options.minIntervalMs;
    const row = replace ? this.tail - 1 : this.claimRow(time, inputs, options, shareBytes);
    this.writeRow(row, time, inputs, slots);
    return true;
  }

  /** Drops the rows older than `cutoff`; true when the group is left empty. */
  prune(cutoff: number): boolean {
    while (this.head < this.tail && this.offsets[this.head] < cutoff) {
      this.head++;
    }
    if (this.head === this.tail) {
      this.head = this.tail = 0;
    }
    return this.size === 0;
  }

  series(): GroupSeries {
    const c = this.capacity;
    const view = <T extends Float64Array | Float32Array>(array: T, column: number): T =>
      array.subarray(column * c + this.head, column * c + this.tail) as T;
    const partitions = [...this.slots.values()].map((slot): PartitionSeries => ({
      topic: slot.topic,
      partition: slot.partition,
      committed: view(this.offsets, 1 + 2 * slot.column),
      logEnd: view(this.offsets, 2 + 2 * slot.column),
      lagInTimeMs: this.lagInTime === null ? null : view(this.lagInTime, slot.column),
      commitTimes: this.commitTimes === null ? null : view(this.commitTimes, slot.column),
      logStartOffset: slot.logStartOffset,
      owned: slot.owned,
    }));
    return { times: view(this.offsets, 0), partitions };
  }

  /** Each input's slot, added when new; the previous call's order is tried first, sparing the map. */
  private resolveSlots(inputs: readonly PartitionSampleInput[]): PartitionSlot[] {
    const slots = inputs.map((input, i) => {
      const candidate = this.lastOrder[i];
      return candidate !== undefined && candidate.column >= 0 && candidate.partition === input.partition && candidate.topic === input.topic
        ? candidate : this.slotFor(input);
    });
    this.lastOrder = slots;
    return slots;
  }

  private slotFor(input: TopicPartition): PartitionSlot {
    const key = partitionKey(input.topic, input.partition);
    let slot = this.slots.get(key);
    if (slot === undefined) {
      slot = { topic: input.topic, partition: input.partition, column: this.slots.size, logStartOffset: null, owned: null };
      this.slots.set(key, slot);
      this.reshape(this.capacity, [...this.slots.values()]);
    }
    return slot;
  }

  /**
   * A free row at the end. Prunes by age; then, when the arrays are full or larger than the group's share of the
   * budget allows (`shareBytes`), makes room: at `maxSamples` rows by dropping the oldest row (the retention at
   * full resolution), below it by thinning the rows older than `denseMs` (every other one goes, so the hour stays
   * covered), or, with fewer than two such rows, by dropping the oldest; and resizes the arrays, growing by doubling
   * up to what the share allows.
   */
  private claimRow(time: number, inputs: readonly PartitionSampleInput[], options: LagSampleStoreOptions, shareBytes: number): number {
    this.prune(time - options.retentionMs);
    const limit = this.rowLimit(options, shareBytes);
    if (this.tail === this.capacity || this.capacity > limit) {
      const capacity = this.tail === this.capacity && this.capacity < limit ? Math.min(limit, this.capacity * 2) : Math.min(this.capacity, limit);
      while (this.size >= capacity) {
        if (capacity >= options.maxSamples) {
          this.head += this.size + 1 - capacity;
        } else {
          this.thin(time - options.denseMs);
        }
      }
      const incoming = new Set(inputs.map((input) => partitionKey(input.topic, input.partition)));
      this.reshape(capacity, this.liveSlots(incoming));
    }
    return this.tail++;
  }

  /** Rows this group may hold: what fits its share of the budget, but at least MIN_ROWS and at most maxSamples. */
  private rowLimit(options: LagSampleStoreOptions, shareBytes: number): number {
    const partitions = this.slots.size;
    const rowBytes = 8 * (1 + 2 * partitions) + (this.lagInTime === null ? 0 : 4 * partitions) + (this.commitTimes === null ? 0 : 8 * partitions);
    const fixed = GROUP_OVERHEAD_BYTES + partitions * PARTITION_OVERHEAD_BYTES;
    return Math.min(options.maxSamples, Math.max(MIN_ROWS, Math.floor((shareBytes - fixed) / rowBytes)));
  }

  /**
   * Drops, in place, every other row of those older than `denseFrom` (the oldest stays), or the oldest row when fewer
   * than two are older: at least one row goes.
   */
  private thin(denseFrom: number): void {
    const c = this.capacity;
    let older = 0;
    while (this.head + older < this.tail && this.offsets[this.head + older] < denseFrom) {
      older++;
    }
    if (older < 2) {
      this.head++;
      return;
    }
    const kept: number[] = [];
    for (let row = this.head; row < this.tail; row++) {
      if (row - this.head >= older || (row - this.head) % 2 === 0) {
        kept.push(row);
      }
    }
    const compact = (array: Float64Array | Float32Array | null): void => {
      for (let column = 0; array !== null && column < array.length / c; column++) {
        // kept[k] >= head + k and ascending, so copying forward never overwrites a row still to be read.
        kept.forEach((row, k) => {
          array[column * c + this.head + k] = array[column * c + row];
        });
      }
    };
    compact(this.offsets);
    compact(this.lagInTime);
    compact(this.commitTimes);
    this.tail = this.head + kept.length;
  }

  private writeRow(row: number, time: number, inputs: readonly PartitionSampleInput[], slots: readonly PartitionSlot[]): void {
    const c = this.capacity;
    this.offsets[row] = time;
    for (let column = 0; column < this.slots.size; column++) {
      this.offsets[(1 + 2 * column) * c + row] = Number.NaN;
      this.offsets[(2 + 2 * column) * c + row] = Number.NaN;
      if (this.lagInTime !== null) {
        this.lagInTime[column * c + row] = Number.NaN;
      }
      if (this.commitTimes !== null) {
        this.commitTimes[column * c + row] = Number.NaN;
      }
    }
    inputs.forEach((input, i) => {
      const slot = slots[i];
      this.offsets[(1 + 2 * slot.column) * c + row] = input.committedOffset ?? Number.NaN;
      this.offsets[(2 + 2 * slot.column) * c + row] = input.logEndOffset ?? Number.NaN;
      if (this.lagInTime !== null) {
        this.lagInTime[slot.column * c + row] = input.lagInTimeMs ?? Number.NaN;
      }
      if (this.commitTimes !== null) {
        this.commitTimes[slot.column * c + row] = input.commitTime ?? Number.NaN;
      }
      slot.logStartOffset = input.logStartOffset ?? null;
      slot.owned = input.owned ?? null;
    });
  }

  /** The partitions in `incoming`, or with a known committed or log end offset in some live row. */
  private liveSlots(incoming: ReadonlySet<string>): PartitionSlot[] {
    const c = this.capacity;
    return [...this.slots.values()].filter((slot) => {
      if (incoming.has(partitionKey(slot.topic, slot.partition))) {
        return true;
      }
      for (let row = this.head; row < this.tail; row++) {
        if (!Number.isNaN(this.offsets[(1 + 2 * slot.column) * c + row]) || !Number.isNaN(this.offsets[(2 + 2 * slot.column) * c + row])) {
          return true;
        }
      }
      return false;
    });
  }

  /** Copies the live rows to the top of new arrays of `capacity` rows, keeping only `kept` partitions. */
  private reshape(capacity: number, kept: PartitionSlot[]): void {
    const oldCapacity = this.capacity;
    const rows = this.tail - this.head;
    const move = <T extends Float64Array | Float32Array>(from: T, columns: number, make: (n: number) => T, mapColumn: (column: number) => number | undefined): T => {
      const to = make(capacity * columns);
      to.fill(Number.NaN);
      for (let column = 0; column < columns; column++) {
        const source = mapColumn(column);
        if (source !== undefined) {
          to.set(from.subarray(source * oldCapacity + this.head, source * oldCapacity + this.tail), column * capacity);
        }
      }
      return to;
    };
    const previous = kept.map((slot) => slot.column);
    const existing = (column: number | undefined, limit: number): number | undefined =>
      column !== undefined && column < limit ? column : undefined;
    const oldPartitions = (this.offsets.length / oldCapacity - 1) / 2;
    this.offsets = move(this.offsets, 1 + 2 * kept.length, (n) => new Float64Array(n), (column) => {
      if (column === 0) {
        return 0;
      }
      const source = existing(previous[(column - 1) >> 1], oldPartitions);
      return source === undefined ? undefined : 1 + 2 * source + ((column - 1) & 1);
    });
    const oldSideColumns = (array: Float32Array | Float64Array | null): number => (array === null ? 0 : array.length / oldCapacity);
    if (this.lagInTime !== null) {
      const limit = oldSideColumns(this.lagInTime);
      this.lagInTime = move(this.lagInTime, kept.length, (n) => new Float32Array(n), (column) => existing(previous[column], limit));
    }
    if (this.commitTimes !== null) {
      const limit = oldSideColumns(this.commitTimes);
      this.commitTimes = move(this.commitTimes, kept.length, (n) => new Float64Array(n), (column) => existing(previous[column], limit));
    }
    for (const slot of this.slots.values()) {
      slot.column = -1;
    }
    this.slots.clear();
    kept.forEach((slot, column) => {
      slot.column = column;
      this.slots.set(partitionKey(slot.topic, slot.partition), slot);
    });
    this.capacity = capacity;
    this.head = 0;
    this.tail = rows;
  }
}

