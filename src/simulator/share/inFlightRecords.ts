/**
 * The offsets a share partition tracks (SharePartition's cachedState, startOffset, endOffset and
 * deliveryCompleteCount) and what moves them: the start offset past delivery-complete records, the log start
 * offset, archiving. SharePartition acquires and acknowledges records through it.
 */
import { CachedState } from './cachedState';
import type { InFlightBatch } from './inFlightBatch';
import type { InFlightState } from './inFlightState';
import { isStateTerminal, type RecordState } from './recordState';

/** One row of the delivery view: a run of offsets in one state. */
export interface InFlightRange {
  firstOffset: number;
  lastOffset: number;
  state: RecordState;
  /** The member holding the records while ACQUIRED, else "". */
  memberId: string;
  deliveryCount: number;
  /** When the acquisition lock expires (simulator clock), null when no lock is held. */
  lockExpiresAtMs: number | null;
}

export class InFlightRecords {
  readonly cachedState = new CachedState();
  /** The earliest offset not yet delivery-complete (SharePartition.startOffset). */
  startOffset = 0;
  /** The last offset ever acquired, or the start offset when nothing is in flight. */
  endOffset = 0;
  /** Terminal (ACKNOWLEDGED or ARCHIVED) records at or past the start offset (KIP-1226's lag). */
  deliveryCompleteCount = 0;
  /** Set when a record before the end became AVAILABLE again, so nextFetchOffset must look for it. */
  findNextFetchOffset = false;

  /** Records from the start offset to the end offset, when any are in flight. */
  numInFlightRecords(): number {
    return this.cachedState.isEmpty() ? 0 : this.endOffset - this.startOffset + 1;
  }

  /** The records of [first, last] counted from the start offset. */
  numInFlightRecordsInBatch(first: number, last: number): number {
    return last >= this.startOffset ? last - Math.max(this.startOffset, first) + 1 : 0;
  }

  /** SharePartition.nextFetchOffset: the first AVAILABLE record, else the offset after the end. */
  nextFetchOffset(): number {
    const lastBatch = this.cachedState.last();
    const nothingInFlight = lastBatch === undefined || this.startOffset > lastBatch.lastOffset;
    if (!this.findNextFetchOffset) {
      return nothingInFlight ? this.endOffset : this.endOffset + 1;
    }
    if (nothingInFlight) {
      this.findNextFetchOffset = false;
      return this.endOffset;
    }
    for (const batch of this.cachedState.values()) {
      const offsets = batch.offsetState;
      if (offsets === null) {
        if (batch.batchState === 'AVAILABLE' && !batch.batchHasOngoingStateTransition()) {
          return batch.firstOffset;
        }
        continue;
      }
      for (const [offset, state] of offsets) {
        if (state.state === 'AVAILABLE' && !state.hasOngoingStateTransition()) {
          return offset;
        }
      }
    }
    this.findNextFetchOffset = false;
    return this.endOffset + 1;
  }

  /** SharePartition.checkForStartOffsetWithinBatch */
  startOffsetWithinBatch(first: number, last: number): boolean {
    return first < this.startOffset && last >= this.startOffset;
  }

  /**
   * SharePartition.maybeUpdateCachedStateAndOffsets: moves the start offset past the delivery-complete records
   * at its head and drops the batches it passed. True when anything moved.
   */
  maybeUpdateCachedStateAndOffsets(): boolean {
    if (!this.canMoveStartOffset()) {
      return false;
    }
    const { lastAcknowledgedOffset, numTerminalRecords } = this.findLastOffsetAcknowledged();
    if (lastAcknowledgedOffset === -1) {
      return false;
    }
    const lastCached = this.cachedState.last();
    if (lastCached !== undefined && lastAcknowledgedOffset === lastCached.lastOffset) {
      this.startOffset = lastCached.lastOffset + 1;
      this.endOffset = lastCached.lastOffset + 1;
      this.cachedState.clear();
      this.deliveryCompleteCount = 0;
      return true;
    }
    const first = this.cachedState.first();
    const entry = this.cachedState.floorEntry(lastAcknowledgedOffset);
    if (first === undefined || entry === undefined) {
      return false;
    }
    let lastKeyToRemove: number;
    if (lastAcknowledgedOffset === entry.lastOffset) {
      const higher = this.cachedState.higherKey(lastAcknowledgedOffset);
      if (higher !== undefined && higher > this.startOffset) {
        this.startOffset = higher;
      }
      lastKeyToRemove = entry.firstOffset;
    } else {
      if (lastAcknowledgedOffset + 1 > this.startOffset) {
        this.startOffset = lastAcknowledgedOffset + 1;
      }
      lastKeyToRemove = entry.firstOffset === first.firstOffset ? -1 : (this.cachedState.lowerKey(entry.firstOffset) ?? -1);
    }
    this.deliveryCompleteCount -= numTerminalRecords;
    if (lastKeyToRemove !== -1) {
      this.cachedState.removeRange(first.firstOffset, lastKeyToRemove);
    }
    return true;
  }

  /**
   * SharePartition.updateCacheAndOffsets: the log start offset passed the start offset (retention or
   * DeleteRecords); the AVAILABLE records below it are archived and the start offset jumps to it.
   */
  updateCacheAndOffsets(logStartOffset: number): void {
    if (logStartOffset <= this.startOffset) {
      return;
    }
    if (this.cachedState.isEmpty()) {
      this.startOffset = logStartOffset;
      this.endOffset = logStartOffset;
      this.deliveryCompleteCount = 0;
      return;
    }
    const removed = this.countTerminalRecordsBelow(logStartOffset);
    if (this.archiveRecords(this.startOffset, logStartOffset, this.cachedState.values(), 'AVAILABLE', false)) {
      this.findNextFetchOffset = true;
    }
    this.startOffset = logStartOffset;
    this.deliveryCompleteCount -= removed;
    if (this.endOffset < this.startOffset) {
      this.endOffset = this.startOffset;
    }
  }

  /**
   * SharePartition.archiveRecords: archives the records of [startOffset, endOffset) still in `initialState`,
   * splitting a batch the range covers only in part. True when any record was archived.
   */
  archiveRecords(startOffset: number, endOffset: number, batches: readonly InFlightBatch[], initialState: RecordState, countAsComplete: boolean): boolean {
    let archived = false;
    for (const batch of batches) {
      if (batch.firstOffset >= endOffset) {
        break;
      }
      const fullMatch = batch.firstOffset >= startOffset && batch.lastOffset <= endOffset - 1;
      if (fullMatch && batch.offsetState === null) {
        if (batch.batchState === initialState) {
          batch.archiveBatch();
          if (countAsComplete) {
            this.deliveryCompleteCount += batch.recordCount;
          }
          archived = true;
        }
        continue;
      }
      if (batch.offsetState === null) {
        if (batch.batchState !== initialState) {
          continue;
        }
        batch.maybeInitializeOffsetStateUpdate();
      }
      for (const [offset, state] of batch.offsetState ?? []) {
        if (offset < startOffset) {
          continue;
        }
        if (offset > endOffset - 1) {
          break;
        }
        if (state.state === initialState) {
          state.archive();
          if (countAsComplete) {
            this.deliveryCompleteCount++;
          }
          archived = true;
        }
      }
    }
    return archived;
  }

  /** SharePartition.maybeArchiveStaleBatches: records below a fetch's first batch were compacted or deleted away. */
  maybeArchiveStaleBatches(fetchOffset: number, baseOffset: number): void {
    if (this.cachedState.isEmpty() || fetchOffset >= baseOffset) {
      return;
    }
    let floorOffset = fetchOffset;
    const floor = this.cachedState.floorEntry(fetchOffset);
    if (floor !== undefined && floor.lastOffset >= fetchOffset) {
      floorOffset = floor.firstOffset;
    }
    const stale = this.cachedState.subMap(floorOffset, baseOffset - 1);
    if (stale.length > 0 && this.archiveRecords(fetchOffset, baseOffset, stale, 'AVAILABLE', true)) {
      this.findNextFetchOffset = true;
    }
  }

  /** The delivery view's rows: consecutive offsets in the same state, owner, count and lock merged. */
  inFlightRanges(): InFlightRange[] {
    const ranges: InFlightRange[] = [];
    const push = (first: number, last: number, state: InFlightState): void => {
      if (last < this.startOffset) {
        return;
      }
      const lock = state.acquisitionLockTimeoutTask;
      const row: InFlightRange = {
        firstOffset: Math.max(first, this.startOffset),
        lastOffset: last,
        state: state.state,
        memberId: state.memberId,
        deliveryCount: state.deliveryCount,
        lockExpiresAtMs: lock === null ? null : lock.expirationMs,
      };
      const previous = ranges[ranges.length - 1];
      if (previous !== undefined && previous.lastOffset + 1 === row.firstOffset && previous.state === row.state
        && previous.memberId === row.memberId && previous.deliveryCount === row.deliveryCount && previous.lockExpiresAtMs === row.lockExpiresAtMs) {
        previous.lastOffset = row.lastOffset;
      } else {
        ranges.push(row);
      }
    };
    for (const batch of this.cachedState.values()) {
      const offsets = batch.offsetState;
      if (offsets === null) {
        push(batch.firstOffset, batch.lastOffset, batch.inFlightState());
      } else {
        for (const [offset, state] of offsets) {
          push(offset, offset, state);
        }
      }
    }
    return ranges;
  }

  private canMoveStartOffset(): boolean {
    const entry = this.cachedState.floorEntry(this.startOffset);
    if (entry === undefined) {
      return false;
    }
    const state = entry.offsetState === null ? entry.inFlightState() : entry.offsetState.get(this.startOffset);
    return state !== undefined && !state.hasOngoingStateTransition() && isStateTerminal(state.state);
  }

  /** SharePartition.findLastOffsetAcknowledgedAndMetadata: the end of the run of terminal records at the head. */
  private findLastOffsetAcknowledged(): { lastAcknowledgedOffset: number; numTerminalRecords: number } {
    let lastAcknowledgedOffset = -1;
    let numTerminalRecords = 0;
    for (const batch of this.cachedState.values()) {
      const offsets = batch.offsetState;
      if (offsets === null) {
        if (batch.batchHasOngoingStateTransition() || !isStateTerminal(batch.batchState)) {
          return { lastAcknowledgedOffset, numTerminalRecords };
        }
        lastAcknowledgedOffset = batch.lastOffset;
        numTerminalRecords += this.numInFlightRecordsInBatch(batch.firstOffset, batch.lastOffset);
        continue;
      }
      for (const [offset, state] of offsets) {
        if (state.hasOngoingStateTransition() || !isStateTerminal(state.state)) {
          return { lastAcknowledgedOffset, numTerminalRecords };
        }
        lastAcknowledgedOffset = offset;
        if (offset >= this.startOffset) {
          numTerminalRecords++;
        }
      }
    }
    return { lastAcknowledgedOffset, numTerminalRecords };
  }

  /** SharePartition.countTerminalRecordsUpToNewLSO */
  private countTerminalRecordsBelow(newLogStartOffset: number): number {
    let count = 0;
    for (const batch of this.cachedState.headMap(newLogStartOffset)) {
      if (batch.lastOffset < this.startOffset) {
        continue;
      }
      const offsets = batch.offsetState;
      if (offsets === null) {
        const first = Math.max(this.startOffset, batch.firstOffset);
        const last = Math.min(newLogStartOffset - 1, batch.lastOffset);
        if (isStateTerminal(batch.batchState) && first <= last) {
          count += last - first + 1;
        }
        continue;
      }
      for (const [offset, state] of offsets) {
        if (offset >= this.startOffset && offset < newLogStartOffset && isStateTerminal(state.state)) {
          count++;
        }
      }
    }
    return count;
  }
}
