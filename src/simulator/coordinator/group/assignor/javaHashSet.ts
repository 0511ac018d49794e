/**
 * Iteration order of a java.util.HashSet / HashMap built with a given initial capacity, for the places where the
 * server assignors let that order decide ties. `../../assignors/javaHashOrder` covers default-constructed maps of
 * member ids; here the capacity is a parameter, because `new HashSet<>(collection)` sizes its table from the
 * collection (JDK 17: max(size / .75f + 1, 16), rounded up to a power of two) and so iterates differently.
 * Entries iterate by bucket (spread hash & (capacity - 1)), within a bucket in insertion order; resizing keeps
 * that relative order. A bucket Java turns into a tree (9+ keys in a table of 64+) keeps insertion order here.
 */

const TREEIFY_THRESHOLD = 8;
const MIN_TREEIFY_CAPACITY = 64;
const MAXIMUM_CAPACITY = 1 << 30;

/** HashMap.tableSizeFor: the smallest power of two at least `capacity` (1 for 0). */
export function tableSizeFor(capacity: number): number {
  let size = 1;
  while (size < capacity && size < MAXIMUM_CAPACITY) {
    size *= 2;
  }
  return size;
}

/** The table size of `new HashSet<>(collection)` on JDK 17 for a collection of `size` elements. */
export function hashSetCopyCapacity(size: number): number {
  return tableSizeFor(Math.max(Math.trunc(Math.fround(size / Math.fround(0.75))) + 1, 16));
}

/** HashMap.hash(): the hashCode with its high half folded into the low half. */
function spread(hashCode: number): number {
  return (hashCode ^ (hashCode >>> 16)) | 0;
}

/**
 * The order in which Java iterates distinct keys with these hash codes, put in array order into a HashMap whose
 * table starts at `capacity` (a power of two; 16 is the default constructor's). Returns indices into `hashCodes`.
 */
export function javaHashIterationOrder(hashCodes: readonly number[], capacity = 16): number[] {
  let tableSize = capacity;
  const hashes = hashCodes.map(spread);
  let chainLengths = new Map<number, number>();
  const resize = (inserted: number): void => {
    tableSize *= 2;
    chainLengths = new Map();
    for (let i = 0; i < inserted; i++) {
      const bucket = hashes[i] & (tableSize - 1);
      chainLengths.set(bucket, (chainLengths.get(bucket) ?? 0) + 1);
    }
  };
  hashes.forEach((hash, i) => {
    const bucket = hash & (tableSize - 1);
    const chain = (chainLengths.get(bucket) ?? 0) + 1;
    chainLengths.set(bucket, chain);
    if (chain > TREEIFY_THRESHOLD && tableSize < MIN_TREEIFY_CAPACITY) {
      resize(i + 1);
    }
    if (i + 1 > Math.floor(tableSize * 0.75)) {
      resize(i + 1);
    }
  });
  const mask = tableSize - 1;
  return hashes.map((_, i) => i).sort((a, b) => (hashes[a] & mask) - (hashes[b] & mask) || a - b);
}
