/**
 * Record batches out of a simulated log, as a broker's read returns them: the generated records of visible
 * offsets in uncompressed v2 batches, one batch per run of consecutive records, and each transaction marker
 * as its control batch. Fetch sends them as read; ShareFetch first sees their shape (which offsets, which
 * transactions) to acquire records, then sends the acquired ones.
 */
import { encodeControlBatch, encodeRecordBatch, type NewRecord } from '../../protocol/recordBatch';
import type { PartitionLog } from '../log/partitionLog';
import type { IsolationLevel } from '../log/transactionIndex';
import type { AbortedTransaction, AcquiredRecords, FetchedBatch } from '../share/fetchedData';
import { COORDINATOR_EPOCH } from '../clients/producer/internals/transactionalProducer';

/** The deterministic value of a simulated record: where it sits. */
export function simulatedValue(topic: string, partition: number, offset: number): Buffer {
  return Buffer.from(`${topic}/${partition}@${offset}`, 'utf8');
}

/** Collects records into runs of consecutive offsets, each run one batch, and control batches between them. */
class BatchWriter {
  readonly batches: Uint8Array[] = [];
  private runBase = -1;
  private runBaseTimestamp = 0n;
  private run: NewRecord[] = [];

  constructor(private readonly log: PartitionLog, private readonly topic: string, private readonly partition: number, private readonly now: bigint) {}

  /** A data record; one that does not follow the run's last offset starts a new batch. */
  record(offset: number): void {
    if (this.run.length > 0 && this.runBase + this.run.length !== offset) {
      this.flush();
    }
    // Each record carries the timestamp it was stored with (the producer's CreateTime), as a broker's do.
    const stored = this.log.timestampAt(offset);
    const timestamp = stored === null ? this.now : BigInt(stored);
    if (this.run.length === 0) {
      this.runBase = offset;
      this.runBaseTimestamp = timestamp;
    }
    this.run.push({ offsetDelta: offset - this.runBase, timestampDelta: timestamp - this.runBaseTimestamp, value: simulatedValue(this.topic, this.partition, offset) });
  }

  marker(offset: number, producerId: number, producerEpoch: number, result: 'COMMIT' | 'ABORT'): void {
    this.flush();
    this.batches.push(encodeControlBatch({ offset: BigInt(offset), producerId: BigInt(producerId), producerEpoch, type: result, coordinatorEpoch: COORDINATOR_EPOCH, timestamp: this.now }));
  }

  bytes(): Buffer {
    this.flush();
    return Buffer.concat(this.batches);
  }

  private flush(): void {
    if (this.run.length > 0) {
      this.batches.push(encodeRecordBatch({ baseOffset: BigInt(this.runBase), baseTimestamp: this.runBaseTimestamp, records: this.run }));
      this.run = [];
    }
  }
}

/**
 * What a reader at `isolation` gets from `from`: the records it sees in data batches (aborted ones a
 * read_committed reader skips are left out, which a batch allows as gaps) and every transaction marker as its
 * control batch, in offset order, so clients move past the markers. At most `limit` records, markers included.
 */
export function readBatches(log: PartitionLog, topic: string, partition: number, from: number, isolation: IsolationLevel, limit: number, now: number): Buffer {
  const end = isolation === 'read_committed' ? log.lastStableOffset : log.highWatermark;
  const writer = new BatchWriter(log, topic, partition, BigInt(now));
  let taken = 0;
  for (let offset = from; offset < end && taken < limit; offset++) {
    const marker = log.controlMarkerAt(offset);
    if (marker) {
      writer.marker(offset, marker.producerId, marker.producerEpoch, marker.result);
      taken++;
    } else if (log.visibleRecords(offset, offset + 1, isolation) === 1) {
      writer.record(offset);
      taken++;
    }
  }
  return writer.bytes();
}

/** The shape of a share fetch's read: its batches, and the aborted transactions a read_committed group archives. */
export interface FetchedShape {
  batches: FetchedBatch[];
  abortedTransactions: AbortedTransaction[];
}

/**
 * The batches a share partition acquires from, read from `from` (at most `limit` offsets): runs of data records,
 * markers, and for read_committed each run of aborted records as a batch of its own transaction, listed as
 * aborted so the share partition archives it (Kafka reads them and archives them rather than deliver them).
 */
export function readFetchedShape(log: PartitionLog, from: number, isolation: IsolationLevel, limit: number): FetchedShape {
  const end = isolation === 'read_committed' ? log.lastStableOffset : log.highWatermark;
  const batches: FetchedBatch[] = [];
  const abortedTransactions: AbortedTransaction[] = [];
  // Aborted runs have no producer id here; each gets its own, below any real one.
  let nextAbortedProducer = -2;
  let current: FetchedBatch | null = null;
  // A run of records also ends where the log's next stored batch starts, as a broker's batches do.
  let boundary: number | null = null;
  const extend = (offset: number, producerId: number | null): void => {
    if (current !== null && current.controlType === null && current.lastOffset + 1 === offset && (current.producerId === null) === (producerId === null) && offset !== boundary) {
      current.lastOffset = offset;
      return;
    }
    boundary = log.nextBatchStart(offset);
    current = { baseOffset: offset, lastOffset: offset, producerId, controlType: null };
    batches.push(current);
    if (producerId !== null) {
      abortedTransactions.push({ producerId, firstOffset: offset });
    }
  };
  for (let offset = Math.max(from, log.logStartOffset); offset < end && offset - from < limit; offset++) {
    const marker = log.controlMarkerAt(offset);
    if (marker) {
      current = { baseOffset: offset, lastOffset: offset, producerId: marker.producerId, controlType: marker.result };
      batches.push(current);
    } else if (log.visibleRecords(offset, offset + 1, isolation) === 1) {
      extend(offset, null);
    } else {
      const prev: FetchedBatch | null = current;
      extend(offset, prev !== null && prev.producerId !== null && prev.controlType === null ? prev.producerId : nextAbortedProducer--);
    }
  }
  return { batches, abortedTransactions };
}

/**
 * The batches of the acquired ranges (ShareFetchUtils slices the log's batches to them): their records, each
 * with its stored timestamp, and the control batches of markers among them, which the client acknowledges as
 * GAP since no record of its own sits at their offsets.
 */
export function encodeAcquired(log: PartitionLog, topic: string, partition: number, acquired: readonly AcquiredRecords[], isolation: IsolationLevel, now: number): Buffer {
  const writer = new BatchWriter(log, topic, partition, BigInt(now));
  for (const range of acquired) {
    for (let offset = range.firstOffset; offset <= range.lastOffset; offset++) {
      const marker = log.controlMarkerAt(offset);
      if (marker !== undefined) {
        writer.marker(offset, marker.producerId, marker.producerEpoch, marker.result);
      } else if (log.visibleRecords(offset, offset + 1, isolation) === 1) {
        writer.record(offset);
      }
    }
  }
  return writer.bytes();
}
