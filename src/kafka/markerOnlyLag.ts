/**
 * Whether the lag of a committed position is transaction markers only. A transactional producer's
 * commit or abort appends one control record per partition after its data, so a consumer that has
 * read everything commits an offset pointing at the marker and the CLI's lag stays at 1, though
 * there is nothing left to read. A small Fetch at the committed offset tells: the batches up to the
 * end are all control batches, or not.
 */
import type { PartitionOffsets } from '../model/types';
import type { BatchFrame } from '../protocol/recordBatch';

/** Partitions lagging more than this are not checked: a run of markers this long is not what such lag is. */
export const MAX_CHECKED_LAG = 16;

/** Where the group's consumers stop reading: the LSO for read_committed, else the high watermark. */
export function readableEnd(row: PartitionOffsets, readCommitted: boolean): number | null {
  return (readCommitted ? row.lastStableOffset : row.logEndOffset) ?? null;
}

/** The rows worth a Fetch: committed, and a little behind their readable end. */
export function markerCandidates(rows: readonly PartitionOffsets[], readCommitted: boolean): PartitionOffsets[] {
  return rows.filter((row) => {
    const end = readableEnd(row, readCommitted);
    const lag = row.committedOffset !== null && end !== null ? end - row.committedOffset : 0;
    return lag > 0 && lag <= MAX_CHECKED_LAG;
  });
}

/**
 * True when every batch holding offsets in [from, end) is a control batch; false when a data batch
 * does; undefined when the batches fetched stop before `end` (not enough to tell). Offsets no batch
 * holds (removed by compaction) hold nothing to read.
 */
export function onlyMarkersBetween(frames: readonly BatchFrame[], from: number, end: number): boolean | undefined {
  // Batch offsets are int64 (bigint); the rows' offsets are exact numbers, so compare as bigint.
  let next = BigInt(from);
  const until = BigInt(end);
  for (const { header } of frames) {
    if (header.lastOffset < next) {
      continue;
    }
    if (header.baseOffset >= until) {
      return true;
    }
    if (!header.control) {
      return false;
    }
    next = header.lastOffset + 1n;
    if (next >= until) {
      return true;
    }
  }
  return undefined;
}
