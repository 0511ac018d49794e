/**
 * SharePartition.cachedState: the in-flight batches keyed by first offset, with the NavigableMap look-ups the
 * share partition uses (floorEntry, subMap, higherKey, lowerKey). Batches never overlap, so a sorted array serves.
 */
import type { InFlightBatch } from './inFlightBatch';

export class CachedState {
  private batches: InFlightBatch[] = [];

  get size(): number {
    return this.batches.length;
  }

  isEmpty(): boolean {
    return this.batches.length === 0;
  }

  values(): readonly InFlightBatch[] {
    return this.batches;
  }

  first(): InFlightBatch | undefined {
    return this.batches[0];
  }

  last(): InFlightBatch | undefined {
    return this.batches[this.batches.length - 1];
  }

  put(batch: InFlightBatch): void {
    const at = this.indexAfter(batch.firstOffset);
    if (at > 0 && this.batches[at - 1].firstOffset === batch.firstOffset) {
      this.batches[at - 1] = batch;
    } else {
      this.batches.splice(at, 0, batch);
    }
  }

  /** The batch with the greatest first offset <= offset. */
  floorEntry(offset: number): InFlightBatch | undefined {
    const at = this.indexAfter(offset);
    return at > 0 ? this.batches[at - 1] : undefined;
  }

  /** The batches whose first offset is in [from, to], both inclusive. */
  subMap(from: number, to: number): InFlightBatch[] {
    return this.batches.slice(this.indexAfter(from - 1), this.indexAfter(to));
  }

  /** The batches whose first offset is < to (headMap(to, false)). */
  headMap(to: number): InFlightBatch[] {
    return this.batches.slice(0, this.indexAfter(to - 1));
  }

  higherKey(offset: number): number | undefined {
    return this.batches[this.indexAfter(offset)]?.firstOffset;
  }

  lowerKey(offset: number): number | undefined {
    const at = this.indexAfter(offset - 1);
    return at > 0 ? this.batches[at - 1].firstOffset : undefined;
  }

  /** Removes the batches whose first offset is in [from, to]. */
  removeRange(from: number, to: number): void {
    this.batches.splice(this.indexAfter(from - 1), this.indexAfter(to) - this.indexAfter(from - 1));
  }

  clear(): void {
    this.batches = [];
  }

  /** Index of the first batch whose first offset is > offset. */
  private indexAfter(offset: number): number {
    let lo = 0;
    let hi = this.batches.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.batches[mid].firstOffset <= offset) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
