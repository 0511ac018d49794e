/**
 * The transactional side of one partition log: which producers have an open transaction here (for
 * the last stable offset), where the control markers sit, and which ranges aborted transactions
 * left behind (Kafka's aborted-transaction index). Ranges are whole batches, so they never overlap.
 */

export type TransactionResult = 'COMMIT' | 'ABORT';
export type IsolationLevel = 'read_uncommitted' | 'read_committed';

/** Offsets [start, end) that a reader skips. */
interface HiddenRange {
  start: number;
  end: number;
}

interface OpenTransaction {
  firstOffset: number;
  /** The producer's batches in this transaction, in offset order. */
  batches: HiddenRange[];
}

/** A COMMIT or ABORT control record: whose transaction it ended, at which producer epoch. */
export interface ControlMarker {
  producerId: number;
  producerEpoch: number;
  result: TransactionResult;
}

/** What a fetch from `position` returns: how many records the application sees and the next position. */
export interface ReadResult {
  records: number;
  nextPosition: number;
}

/** Index of the first range whose end is after `offset`. */
function firstEndingAfter(ranges: HiddenRange[], offset: number): number {
  let lo = 0;
  let hi = ranges.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ranges[mid].end > offset) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return lo;
}

function insertSorted(ranges: HiddenRange[], range: HiddenRange): void {
  const at = firstEndingAfter(ranges, range.start);
  ranges.splice(at, 0, range);
}

export class TransactionIndex {
  private readonly open = new Map<number, OpenTransaction>();
  /** Control markers only: what a read_uncommitted reader skips. */
  private readonly markers: HiddenRange[] = [];
  /** Markers and aborted batches: what a read_committed reader skips. */
  private readonly notCommitted: HiddenRange[] = [];
  /** Marker offset → what it ended and whose transaction it was (what a Fetch returns as a control batch). */
  private readonly markerResults = new Map<number, ControlMarker>();
  private abortedCount = 0;

  /** Number of aborted transactions recorded (the aborted-transaction index size). */
  get abortedTransactions(): number {
    return this.abortedCount;
  }

  /** First offset of the earliest open transaction, or null when none is open. */
  firstUnstableOffset(): number | null {
    let first: number | null = null;
    for (const txn of this.open.values()) {
      if (first === null || txn.firstOffset < first) {
        first = txn.firstOffset;
      }
    }
    return first;
  }

  recordBatch(producerId: number, start: number, end: number): void {
    let txn = this.open.get(producerId);
    if (!txn) {
      txn = { firstOffset: start, batches: [] };
      this.open.set(producerId, txn);
    }
    txn.batches.push({ start, end });
  }

  /** True when `producerId` has a transaction open on this partition. */
  hasOpenTransaction(producerId: number): boolean {
    return this.open.has(producerId);
  }

  /**
   * Records the marker at `offset` and closes the producer's transaction. A marker for a producer with
   * none open here is written all the same, as a broker writes what WriteTxnMarkers asks (an admin's
   * abort, then the coordinator's own marker); it ends nothing.
   */
  recordMarker(marker: ControlMarker, offset: number): void {
    const { producerId, result } = marker;
    const txn = this.open.get(producerId);
    this.open.delete(producerId);
    if (txn && result === 'ABORT') {
      this.abortedCount++;
      for (const batch of txn.batches) {
        insertSorted(this.notCommitted, batch);
      }
    }
    // Markers are written at the log end, so they arrive in offset order.
    this.markers.push({ start: offset, end: offset + 1 });
    this.notCommitted.push({ start: offset, end: offset + 1 });
    this.markerResults.set(offset, marker);
  }

  /** The control marker at `offset`, if one is there. */
  markerAt(offset: number): ControlMarker | undefined {
    return this.markerResults.get(offset);
  }

  /**
   * Reads from `position` up to `end` (exclusive), returning at most `maxRecords` records the
   * application sees. Skipped markers (and, read_committed, aborted batches) still move the position.
   */
  read(position: number, end: number, maxRecords: number, isolation: IsolationLevel): ReadResult {
    const hidden = isolation === 'read_committed' ? this.notCommitted : this.markers;
    let next = firstEndingAfter(hidden, position);
    let cur = position;
    let records = 0;
    // Like the Java consumer, stop right after the last record returned: skipping what follows it
    // waits for the next fetch.
    while (cur < end && records < maxRecords) {
      const range = next < hidden.length ? hidden[next] : null;
      if (range && range.start <= cur) {
        cur = Math.min(range.end, end);
        next++;
        continue;
      }
      const visibleEnd = range ? Math.min(range.start, end) : end;
      const take = Math.min(visibleEnd - cur, maxRecords - records);
      cur += take;
      records += take;
    }
    return { records, nextPosition: cur };
  }

  /** Drops ranges wholly below `offset` (retention moved the log start past them). */
  truncateBefore(offset: number): void {
    for (const ranges of [this.markers, this.notCommitted]) {
      const drop = firstEndingAfter(ranges, offset);
      if (drop > 0) {
        ranges.splice(0, drop);
      }
    }
    for (const markerOffset of this.markerResults.keys()) {
      if (markerOffset < offset) {
        this.markerResults.delete(markerOffset);
      }
    }
  }
}
