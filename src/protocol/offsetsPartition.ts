/** The internal topic of group metadata and committed offsets (Kafka's Topic.GROUP_METADATA_TOPIC_NAME). */
export const OFFSETS_TOPIC = '__consumer_offsets';

/** Java's String.hashCode over UTF-16 code units, with 32-bit wrap-around. */
export function javaStringHashCode(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) {
    h = (Math.imul(31, h) + s.charCodeAt(i)) | 0;
  }
  return h;
}

/**
 * The `__consumer_offsets` partition that holds a group, as Kafka computes it
 * (`Utils.abs(groupId.hashCode()) % partitionCount`, where abs(MIN_VALUE) is 0).
 * The group's coordinator is the leader of that partition.
 */
export function offsetsPartitionFor(groupId: string, partitionCount = 50): number {
  if (!Number.isInteger(partitionCount) || partitionCount <= 0) {
    throw new RangeError(`partitionCount must be a positive integer, not ${partitionCount}`);
  }
  const h = javaStringHashCode(groupId);
  const abs = h === -2147483648 ? 0 : Math.abs(h);
  return abs % partitionCount;
}
