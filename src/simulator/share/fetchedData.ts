/**
 * What a share fetch read from the log for one partition (FetchPartitionData: its batches and, for
 * read_committed, the aborted transactions), and SharePartition's filter that archives the records of aborted
 * transactions a read_committed share group acquired, so they are never delivered.
 */

/** ShareFetchResponseData.AcquiredRecords: a range a member acquired, with its delivery count. */
export interface AcquiredRecords {
  firstOffset: number;
  lastOffset: number;
  deliveryCount: number;
}

/** A log batch as acquisition sees it: its offsets and whether a transaction wrote it. */
export interface FetchedBatch {
  baseOffset: number;
  lastOffset: number;
  /** The transactional producer that wrote it, else null. */
  producerId: number | null;
  /** A control batch: the COMMIT or ABORT marker that ended producerId's transaction. */
  controlType: 'COMMIT' | 'ABORT' | null;
}

/** FetchResponseData.AbortedTransaction */
export interface AbortedTransaction {
  producerId: number;
  firstOffset: number;
}

/** SharePartition.fetchAbortedTransactionRecordBatches: the data batches of aborted transactions, in log order. */
export function abortedTransactionBatches(batches: readonly FetchedBatch[], abortedTransactions: readonly AbortedTransaction[]): FetchedBatch[] {
  const ordered = [...abortedTransactions].sort((a, b) => a.firstOffset - b.firstOffset);
  let next = 0;
  const abortedProducers = new Set<number>();
  const aborted: FetchedBatch[] = [];
  for (const batch of batches) {
    if (batch.producerId === null) {
      continue;
    }
    while (next < ordered.length && ordered[next].firstOffset <= batch.lastOffset) {
      abortedProducers.add(ordered[next].producerId);
      next++;
    }
    if (batch.controlType === 'ABORT') {
      abortedProducers.delete(batch.producerId);
    } else if (batch.controlType === null && abortedProducers.has(batch.producerId)) {
      aborted.push(batch);
    }
  }
  return aborted;
}

/** SharePartition.filterRecordBatchesFromAcquiredRecords: the acquired ranges with the aborted batches cut out. */
export function withoutBatches(acquired: readonly AcquiredRecords[], batchesToRemove: readonly FetchedBatch[]): AcquiredRecords[] {
  if (batchesToRemove.length === 0) {
    return [...acquired];
  }
  const result: AcquiredRecords[] = [];
  let removeAt = 0;
  for (const range of acquired) {
    let first = range.firstOffset;
    const last = range.lastOffset;
    while (first <= last) {
      while (removeAt < batchesToRemove.length && batchesToRemove[removeAt].lastOffset < first) {
        removeAt++;
      }
      const remove = batchesToRemove[removeAt];
      if (remove === undefined || remove.baseOffset > last) {
        result.push({ firstOffset: first, lastOffset: last, deliveryCount: range.deliveryCount });
        break;
      }
      if (remove.baseOffset > first) {
        result.push({ firstOffset: first, lastOffset: remove.baseOffset - 1, deliveryCount: range.deliveryCount });
      }
      first = remove.lastOffset + 1;
    }
  }
  return result;
}
