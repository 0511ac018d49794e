import { javaStringHashCode } from '../../protocol/offsetsPartition';

/** java.util.HashMap.hash(): the key's hashCode with its high half folded into the low half. */
function spread(hashCode: number): number {
  return (hashCode ^ (hashCode >>> 16)) | 0;
}

/** org.apache.kafka.common.TopicPartition.hashCode(). */
export function javaTopicPartitionHash(topicHash: number, partition: number): number {
  return (Math.imul(31, 31 + partition) + topicHash) | 0;
}

const TREEIFY_THRESHOLD = 8;
const MIN_TREEIFY_CAPACITY = 64;

/**
 * The iteration order of a java.util.HashMap / HashSet (default-constructed unless a table size is given), for the few places where Kafka's
 * assignors let that order decide an outcome. Entries iterate by bucket (hash & (capacity - 1)), and within a
 * bucket in insertion order; the table doubles past 0.75 load or, while smaller than 64, when a chain grows past 8.
 * Removal never shrinks the table. A chain that Java would turn into a tree (8+ colliding keys in a table of 64+)
 * keeps insertion order here; with real member ids and partitions that does not happen in practice.
 */
export class JavaHashOrder<K> {
  private capacity: number;
  /** Within a bucket keys iterate by `seq`: put appends (counting up), computeIfAbsent prepends (counting down). */
  private sequence = 0;
  private headSequence = 0;
  private readonly entries = new Map<K, { hash: number; seq: number }>();
  private readonly chainLengths = new Map<number, number>();

  /** `tableSize`: the table a `new HashMap<>(initialCapacity)` starts with (a power of two; 16 by default). */
  constructor(tableSize = 16) {
    this.capacity = tableSize;
  }

  get size(): number {
    return this.entries.size;
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  /** Adds `key` (whose Java hashCode is `hashCode`) unless present, as HashMap.put / HashSet.add do. */
  add(key: K, hashCode: number): void {
    if (this.entries.has(key)) {
      return;
    }
    const hash = spread(hashCode);
    this.entries.set(key, { hash, seq: this.sequence++ });
    const bucket = hash & (this.capacity - 1);
    const chain = (this.chainLengths.get(bucket) ?? 0) + 1;
    this.chainLengths.set(bucket, chain);
    if (chain > TREEIFY_THRESHOLD && this.capacity < MIN_TREEIFY_CAPACITY) {
      this.resize();
    }
    if (this.entries.size > this.capacity * 0.75) {
      this.resize();
    }
  }

  /**
   * Adds `key` unless present, as HashMap.computeIfAbsent does, which differs from put: it resizes first, when the
   * map is already past its threshold (even if the key is there), puts a new key at the head of its bucket, and
   * treeifies (here: grows a table under 64) once the bucket held 7 keys.
   */
  addByComputeIfAbsent(key: K, hashCode: number): void {
    if (this.entries.size > this.capacity * 0.75) {
      this.resize();
    }
    if (this.entries.has(key)) {
      return;
    }
    const hash = spread(hashCode);
    this.headSequence--;
    this.entries.set(key, { hash, seq: this.headSequence });
    const bucket = hash & (this.capacity - 1);
    const chain = (this.chainLengths.get(bucket) ?? 0) + 1;
    this.chainLengths.set(bucket, chain);
    if (chain >= TREEIFY_THRESHOLD && this.capacity < MIN_TREEIFY_CAPACITY) {
      this.resize();
    }
  }

  delete(key: K): void {
    const entry = this.entries.get(key);
    if (entry === undefined) {
      return;
    }
    this.entries.delete(key);
    const bucket = entry.hash & (this.capacity - 1);
    this.chainLengths.set(bucket, (this.chainLengths.get(bucket) ?? 1) - 1);
  }

  /** All keys in Java's iteration order. */
  keys(): K[] {
    const mask = this.capacity - 1;
    return [...this.entries.entries()]
      .sort((a, b) => (a[1].hash & mask) - (b[1].hash & mask) || a[1].seq - b[1].seq)
      .map(([key]) => key);
  }

  /** The key an iterator returns first, or undefined when empty. */
  first(): K | undefined {
    const mask = this.capacity - 1;
    let best: K | undefined;
    let bestBucket = Infinity;
    let bestSeq = Infinity;
    for (const [key, { hash, seq }] of this.entries) {
      const bucket = hash & mask;
      if (bucket < bestBucket || (bucket === bestBucket && seq < bestSeq)) {
        best = key;
        bestBucket = bucket;
        bestSeq = seq;
      }
    }
    return best;
  }

  private resize(): void {
    this.capacity *= 2;
    this.chainLengths.clear();
    const mask = this.capacity - 1;
    for (const { hash } of this.entries.values()) {
      this.chainLengths.set(hash & mask, (this.chainLengths.get(hash & mask) ?? 0) + 1);
    }
  }
}

/** Iteration order of a HashMap<String, …> filled with `keys` in the given order (as the leader fills subscriptions). */
export function javaHashMapKeyOrder(keys: readonly string[]): number[] {
  const order = new JavaHashOrder<number>();
  keys.forEach((key, index) => order.add(index, javaStringHashCode(key)));
  return order.keys();
}
