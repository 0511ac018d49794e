/**
 * The general builder's TreeSet of members ordered by (assigned partition count, member id). Members are stored
 * under the count they had when added, as the TreeSet is (callers remove a member before its count changes and
 * add it back after). Buckets per count hold a bitset over member-id ranks, so first/last/ordered scans and
 * updates stay cheap for thousands of members and a million partitions.
 */
export class SizeOrderedMembers {
  private readonly words: number;
  private readonly buckets = new Map<number, { bits: Uint32Array; count: number }>();
  private readonly spareBuckets: Array<{ bits: Uint32Array; count: number }> = [];
  /** Counts that have a non-empty bucket, ascending. */
  private readonly sizes: number[] = [];
  private readonly storedSize: Int32Array;

  /**
   * @param rankOf member index → rank of its id in Java String order
   * @param memberOfRank rank → member index
   */
  constructor(private readonly rankOf: Int32Array, private readonly memberOfRank: Int32Array) {
    this.words = Math.ceil(rankOf.length / 32) || 1;
    this.storedSize = new Int32Array(rankOf.length).fill(-1);
  }

  has(member: number): boolean {
    return this.storedSize[member] >= 0;
  }

  add(member: number, size: number): void {
    if (this.has(member)) {
      return;
    }
    let bucket = this.buckets.get(size);
    if (bucket === undefined) {
      bucket = this.spareBuckets.pop() ?? { bits: new Uint32Array(this.words), count: 0 };
      this.buckets.set(size, bucket);
      this.sizes.splice(this.insertionPoint(size), 0, size);
    }
    const rank = this.rankOf[member];
    bucket.bits[rank >>> 5] |= 1 << (rank & 31);
    bucket.count++;
    this.storedSize[member] = size;
  }

  remove(member: number): void {
    const size = this.storedSize[member];
    if (size < 0) {
      return;
    }
    const bucket = this.buckets.get(size) as { bits: Uint32Array; count: number };
    const rank = this.rankOf[member];
    bucket.bits[rank >>> 5] &= ~(1 << (rank & 31));
    bucket.count--;
    this.storedSize[member] = -1;
    if (bucket.count === 0) {
      this.buckets.delete(size);
      this.spareBuckets.push(bucket);
      this.sizes.splice(this.insertionPoint(size), 1);
    }
  }

  /** Moves a member to a new count (TreeSet remove + add around a change). */
  update(member: number, size: number): void {
    this.remove(member);
    this.add(member, size);
  }

  first(): number {
    return this.scan(() => true);
  }

  last(): number {
    if (this.sizes.length === 0) {
      return -1;
    }
    const bits = (this.buckets.get(this.sizes[this.sizes.length - 1]) as { bits: Uint32Array }).bits;
    for (let w = this.words - 1; w >= 0; w--) {
      if (bits[w] !== 0) {
        return this.memberOfRank[(w << 5) + 31 - Math.clz32(bits[w])];
      }
    }
    return -1;
  }

  /** The first member in order for which `accept` is true, or -1. */
  scan(accept: (member: number) => boolean): number {
    for (const size of this.sizes) {
      const bits = (this.buckets.get(size) as { bits: Uint32Array }).bits;
      for (let w = 0; w < this.words; w++) {
        let word = bits[w];
        while (word !== 0) {
          const low = word & -word;
          const member = this.memberOfRank[(w << 5) + 31 - Math.clz32(low)];
          if (accept(member)) {
            return member;
          }
          word ^= low;
        }
      }
    }
    return -1;
  }

  private insertionPoint(size: number): number {
    let low = 0;
    let high = this.sizes.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.sizes[mid] < size) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return low;
  }
}
