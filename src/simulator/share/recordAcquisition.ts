/**
 * SharePartition.acquire and what it calls: which fetched records a member acquires, in batches as Kafka 4.4
 * hands them out (whole log batches in BATCH_OPTIMIZED mode, exactly maxFetchRecords in RECORD_LIMIT mode),
 * up to the partition's record-lock limit, with fewer records at once as delivery counts approach the limit.
 */
import type { AcquisitionLockTimerTask } from './inFlightState';
import type { InFlightBatch } from './inFlightBatch';
import type { InFlightRecords } from './inFlightRecords';
import type { AcquiredRecords, FetchedBatch } from './fetchedData';

export type { AcquiredRecords } from './fetchedData';

/** ShareAcquireMode: how a ShareFetch counts its MaxRecords (share.acquire.mode on the client, 4.2+). */
export type ShareAcquireMode = 'batch_optimized' | 'record_limit';

/** ShareAcquiredRecords: the ranges acquired and how many records they hold. */
export interface ShareAcquiredRecords {
  acquiredRecords: AcquiredRecords[];
  count: number;
}

export const EMPTY_ACQUIRED: Readonly<ShareAcquiredRecords> = Object.freeze({ acquiredRecords: [], count: 0 });

/** What acquisition needs of its share partition: the tracked offsets, the group's limits and the lock timer. */
export interface AcquisitionContext {
  readonly records: InFlightRecords;
  maxDeliveryCount(): number;
  maxInFlightRecords(): number;
  dlqEnabled(): boolean;
  recordLockDurationMs(): number;
  /** An in-flight batch of this partition (its lock handler wired). */
  newBatch(memberId: string, firstOffset: number, lastOffset: number, lock: AcquisitionLockTimerTask | null): InFlightBatch;
  /** SharePartition.scheduleAcquisitionLockTimeout */
  scheduleLock(memberId: string, firstOffset: number, lastOffset: number): AcquisitionLockTimerTask;
}

/** SharePartition.throttleRecordsDeliveryLimit: from this delivery count on, records go out in smaller sets. */
export function throttleRecordsDeliveryLimit(maxDeliveryCount: number): number {
  return Math.max(2, Math.ceil(maxDeliveryCount / 2));
}

/**
 * SharePartition.acquire (before the read_committed filter): the records of `batches`, fetched from
 * `fetchOffset`, that `memberId` acquires now.
 */
export function acquireRecords(ctx: AcquisitionContext, memberId: string, mode: ShareAcquireMode, batchSize: number, maxFetchRecords: number, fetchOffset: number, batches: readonly FetchedBatch[]): ShareAcquiredRecords {
  const records = ctx.records;
  const lastBatch = batches[batches.length - 1];
  if (maxFetchRecords <= 0 || lastBatch === undefined || lastBatch.lastOffset < records.startOffset) {
    return EMPTY_ACQUIRED;
  }
  const recordLimit = mode === 'record_limit';
  const window = lastOffsetAndMaxRecords(ctx, fetchOffset, maxFetchRecords, lastBatch.lastOffset);
  const lastOffsetToAcquire = window.lastOffset;
  let maxRecordsToAcquire = window.maxRecords;
  if (maxRecordsToAcquire <= 0) {
    return EMPTY_ACQUIRED;
  }
  const firstBatchBase = batches[0].baseOffset;
  let baseOffset = firstBatchBase;
  records.maybeArchiveStaleBatches(fetchOffset, baseOffset);
  const floor = records.cachedState.floorEntry(baseOffset);
  if (floor === undefined) {
    baseOffset = Math.max(baseOffset, records.startOffset);
  } else if (floor.lastOffset >= baseOffset) {
    baseOffset = floor.firstOffset;
  }
  const overlapping = records.cachedState.subMap(Math.min(firstBatchBase, baseOffset), lastOffsetToAcquire);
  if (overlapping.length === 0) {
    return acquireNewBatchRecords(ctx, memberId, batches, recordLimit, baseOffset, lastOffsetToAcquire, batchSize, maxRecordsToAcquire);
  }
  const result: AcquiredRecords[] = [];
  let acquiredCount = 0;
  const throttleLimit = throttleRecordsDeliveryLimit(ctx.maxDeliveryCount());
  for (const batch of overlapping) {
    if (acquiredCount >= maxRecordsToAcquire) {
      break;
    }
    const fullMatch = batch.firstOffset >= firstBatchBase && batch.lastOffset <= lastOffsetToAcquire;
    const remaining = maxRecordsToAcquire - acquiredCount;
    const recordLimitSubset = recordLimit && batch.recordCount > remaining;
    const throttle = shouldThrottle(batch, firstBatchBase, lastOffsetToAcquire, throttleLimit);
    if (throttle && acquiredCount > 0) {
      // A batch near its delivery limit goes out in a fetch of its own.
      maxRecordsToAcquire = 0;
      break;
    }
    if (!fullMatch || batch.offsetState !== null || recordLimitSubset || throttle) {
      if (batch.offsetState === null) {
        if (batch.batchState !== 'AVAILABLE' || batch.batchHasOngoingStateTransition()) {
          continue;
        }
        batch.maybeInitializeOffsetStateUpdate();
      }
      const acquired = acquireSubsetBatchRecords(ctx, memberId, recordLimit, remaining, firstBatchBase, lastOffsetToAcquire, batch, result);
      acquiredCount += acquired;
      if (throttle && acquired > 0) {
        maxRecordsToAcquire = 0;
        break;
      }
      continue;
    }
    if (batch.batchState !== 'AVAILABLE' || batch.batchHasOngoingStateTransition()) {
      continue;
    }
    const updated = batch.tryUpdateBatchState('ACQUIRED', 'INCREASE', ctx.maxDeliveryCount(), memberId, ctx.dlqEnabled());
    if (updated === null || updated.state !== 'ACQUIRED') {
      continue;
    }
    batch.updateAcquisitionLockTimeout(ctx.scheduleLock(memberId, batch.firstOffset, batch.lastOffset));
    result.push({ firstOffset: batch.firstOffset, lastOffset: batch.lastOffset, deliveryCount: batch.batchDeliveryCount });
    acquiredCount += batch.recordCount;
  }
  const lastOverlapping = overlapping[overlapping.length - 1];
  if (acquiredCount < maxRecordsToAcquire && lastOverlapping.lastOffset < lastOffsetToAcquire) {
    const fresh = acquireNewBatchRecords(ctx, memberId, batches, recordLimit, lastOverlapping.lastOffset + 1, lastOffsetToAcquire, batchSize, maxRecordsToAcquire - acquiredCount);
    result.push(...fresh.acquiredRecords);
    acquiredCount += fresh.count;
  }
  return { acquiredRecords: result, count: acquiredCount };
}

/** SharePartition.lastOffsetAndMaxRecordsToAcquire: the record-lock limit, except for a fetch inside the in-flight window. */
function lastOffsetAndMaxRecords(ctx: AcquisitionContext, fetchOffset: number, maxFetchRecords: number, lastOffset: number): { lastOffset: number; maxRecords: number } {
  const records = ctx.records;
  let maxRecords = Math.min(maxFetchRecords, ctx.maxInFlightRecords() - records.numInFlightRecords());
  let lastOffsetToAcquire = lastOffset;
  if (maxRecords <= 0 && fetchOffset <= records.endOffset) {
    maxRecords = Math.min(maxFetchRecords, records.endOffset - fetchOffset + 1);
    lastOffsetToAcquire = Math.min(lastOffset, records.endOffset);
  }
  return { lastOffset: lastOffsetToAcquire, maxRecords };
}

/** SharePartition.acquireNewBatchRecords: records never delivered, tracked from now as new in-flight batches. */
function acquireNewBatchRecords(ctx: AcquisitionContext, memberId: string, batches: readonly FetchedBatch[], recordLimit: boolean, firstOffset: number, lastOffset: number, batchSize: number, maxFetchRecords: number): ShareAcquiredRecords {
  const records = ctx.records;
  let firstAcquired = firstOffset;
  if (records.cachedState.isEmpty() && records.endOffset > firstAcquired) {
    firstAcquired = records.endOffset;
  }
  let lastAcquired = lastOffset;
  if (maxFetchRecords < lastAcquired - firstAcquired + 1) {
    lastAcquired = lastOffsetOfBatchWith(batches, firstAcquired + maxFetchRecords - 1);
  }
  if (lastAcquired < firstAcquired) {
    return EMPTY_ACQUIRED;
  }
  const acquired = createBatches(ctx, memberId, batches, recordLimit, maxFetchRecords, firstAcquired, lastAcquired, batchSize);
  if (records.cachedState.first()?.firstOffset === firstAcquired) {
    records.startOffset = firstAcquired;
  }
  if (lastAcquired > records.endOffset) {
    records.endOffset = lastAcquired;
  }
  if (recordLimit) {
    lastAcquired = acquired[0].lastOffset;
  }
  return { acquiredRecords: acquired, count: lastAcquired - firstAcquired + 1 };
}

/** SharePartition.lastOffsetFromBatchWithRequestOffset: batch-optimized acquisition ends on a log batch's end. */
function lastOffsetOfBatchWith(batches: readonly FetchedBatch[], offset: number): number {
  let previous: FetchedBatch | undefined;
  for (const batch of batches) {
    if (offset < batch.baseOffset) {
      break;
    }
    previous = batch;
  }
  return previous !== undefined && offset <= previous.lastOffset ? previous.lastOffset : offset;
}

/**
 * SharePartition.createBatches: acquired ranges of at most `batchSize` records cut at log batch boundaries; in
 * RECORD_LIMIT mode one batch whose records past maxFetchRecords stay AVAILABLE.
 */
function createBatches(ctx: AcquisitionContext, memberId: string, batches: readonly FetchedBatch[], recordLimit: boolean, maxFetchRecords: number, firstAcquired: number, lastAcquired: number, batchSize: number): AcquiredRecords[] {
  const result: AcquiredRecords[] = [];
  let currentFirst = firstAcquired;
  if (!recordLimit && lastAcquired - firstAcquired + 1 > batchSize) {
    for (const batch of batches) {
      if (batch.baseOffset > lastAcquired) {
        break;
      }
      if (batch.baseOffset - currentFirst >= batchSize) {
        result.push({ firstOffset: currentFirst, lastOffset: batch.baseOffset - 1, deliveryCount: 1 });
        currentFirst = batch.baseOffset;
      }
    }
  }
  result.push({ firstOffset: currentFirst, lastOffset: lastAcquired, deliveryCount: 1 });
  const first = result[0];
  if (recordLimit && first.lastOffset - first.firstOffset + 1 > maxFetchRecords) {
    const inFlight = ctx.newBatch(memberId, first.firstOffset, first.lastOffset, null);
    const lastOffset = first.firstOffset + maxFetchRecords - 1;
    inFlight.initializeOffsetStateUpTo(lastOffset, ctx.recordLockDurationMs());
    ctx.records.findNextFetchOffset = true;
    ctx.records.cachedState.put(inFlight);
    return [{ ...first, lastOffset }];
  }
  for (const acquired of result) {
    ctx.records.cachedState.put(ctx.newBatch(memberId, acquired.firstOffset, acquired.lastOffset, ctx.scheduleLock(memberId, acquired.firstOffset, acquired.lastOffset)));
  }
  return result;
}

/** SharePartition.shouldThrottleRecordsDelivery: the batch's available records have reached the throttle limit. */
function shouldThrottle(batch: InFlightBatch, requestFirst: number, requestLast: number, throttleLimit: number): boolean {
  const offsets = batch.offsetState;
  if (offsets === null) {
    return batch.batchState === 'AVAILABLE' && !batch.batchHasOngoingStateTransition() && batch.batchDeliveryCount >= throttleLimit;
  }
  let max = 0;
  for (const [offset, state] of offsets) {
    if (offset >= requestFirst && offset <= requestLast && state.state === 'AVAILABLE' && !state.hasOngoingStateTransition()) {
      max = Math.max(max, state.deliveryCount);
    }
  }
  return max >= throttleLimit;
}

/**
 * SharePartition.acquireSubsetBatchRecords: offset by offset; a record on its last attempt goes alone, and past
 * the throttle limit each further delivery halves how many records go out together.
 */
function acquireSubsetBatchRecords(ctx: AcquisitionContext, memberId: string, recordLimit: boolean, maxFetchRecords: number, requestFirst: number, requestLast: number, batch: InFlightBatch, result: AcquiredRecords[]): number {
  const maxDeliveryCount = ctx.maxDeliveryCount();
  const throttleLimit = throttleRecordsDeliveryLimit(maxDeliveryCount);
  const offsets = batch.offsetState;
  const acquired: AcquiredRecords[] = [];
  let maxWhileThrottled = -1;
  for (const [offset, state] of offsets ?? []) {
    if (offset < requestFirst) {
      continue;
    }
    if (offset > requestLast) {
      break;
    }
    if (state.state !== 'AVAILABLE' || state.hasOngoingStateTransition()) {
      continue;
    }
    const deliveryCount = state.deliveryCount;
    if (maxDeliveryCount > 2 && deliveryCount === maxDeliveryCount - 1 && acquired.length > 0) {
      break; // on its last attempt: delivered alone in the next fetch
    }
    if (deliveryCount >= throttleLimit && maxWhileThrottled < 0) {
      maxWhileThrottled = Math.max(1, Math.floor((offsets?.size ?? 0) / 2 ** (deliveryCount - throttleLimit + 1)));
    }
    const updated = state.tryUpdateState('ACQUIRED', 'INCREASE', maxDeliveryCount, memberId, ctx.dlqEnabled());
    if (updated === null || updated.state !== 'ACQUIRED') {
      continue;
    }
    state.updateAcquisitionLockTimeoutTask(ctx.scheduleLock(memberId, offset, offset));
    acquired.push({ firstOffset: offset, lastOffset: offset, deliveryCount: state.deliveryCount });
    if (state.deliveryCount === maxDeliveryCount && maxDeliveryCount > 2) {
      break; // on its last attempt: delivered alone in this fetch
    }
    if ((recordLimit && acquired.length === maxFetchRecords) || acquired.length === maxWhileThrottled) {
      break;
    }
  }
  accumulateAcquiredRecords(result, acquired);
  return acquired.length;
}

/** ShareFetchUtils.accumulateAcquiredRecords: consecutive offsets with one delivery count become one range. */
export function accumulateAcquiredRecords(result: AcquiredRecords[], acquired: readonly AcquiredRecords[]): void {
  let current: AcquiredRecords | undefined;
  for (const next of acquired) {
    if (current !== undefined && next.firstOffset === current.lastOffset + 1 && next.deliveryCount === current.deliveryCount) {
      current.lastOffset = next.lastOffset;
      continue;
    }
    if (current !== undefined) {
      result.push(current);
    }
    current = { ...next };
  }
  if (current !== undefined) {
    result.push(current);
  }
}
