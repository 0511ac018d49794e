/**
 * What one partition remembers of each producer that wrote to it, as Kafka's ProducerStateManager does:
 * its epoch, the last sequence it wrote, when it last wrote, the coordinator epoch of its last marker,
 * and the first offset of its open transaction. DescribeProducers reads it (kafka-transactions.sh
 * describe-producers, find-hanging); the open transactions' first offsets are what hold the LSO.
 */
import type { ProducerState } from '../../model/transactions';

/** Who wrote a batch: its producer id and epoch, and its base sequence (-1 when the producer is not idempotent). */
export interface BatchProducer {
  producerId: number;
  producerEpoch: number;
  baseSequence: number;
}

/** Kafka's producer.id.expiration.ms default: a producer that has not written for a day is forgotten. */
export const PRODUCER_ID_EXPIRATION_MS = 86_400_000;

interface ProducerEntry {
  producerEpoch: number;
  lastSequence: number;
  lastTimestamp: number;
  coordinatorEpoch: number;
  currentTxnFirstOffset: number;
}

export class ProducerStateTable {
  private readonly entries = new Map<number, ProducerEntry>();

  private entry(producerId: number, producerEpoch: number): ProducerEntry {
    let entry = this.entries.get(producerId);
    if (!entry) {
      entry = { producerEpoch, lastSequence: -1, lastTimestamp: -1, coordinatorEpoch: -1, currentTxnFirstOffset: -1 };
      this.entries.set(producerId, entry);
    }
    if (producerEpoch !== entry.producerEpoch) {
      // A new epoch starts its sequence numbers again (ProducerAppendInfo).
      entry.producerEpoch = producerEpoch;
      entry.lastSequence = -1;
    }
    return entry;
  }

  /** A data batch of `count` records at `baseOffset`; a transactional one opens the producer's transaction here if none is. */
  recordBatch(producer: BatchProducer, baseOffset: number, count: number, timestamp: number, transactional: boolean): void {
    const entry = this.entry(producer.producerId, producer.producerEpoch);
    if (producer.baseSequence >= 0) {
      entry.lastSequence = producer.baseSequence + count - 1;
    }
    entry.lastTimestamp = timestamp;
    if (transactional && entry.currentTxnFirstOffset < 0) {
      entry.currentTxnFirstOffset = baseOffset;
    }
  }

  /** A COMMIT or ABORT marker: the producer's transaction here ends. */
  recordMarker(producerId: number, producerEpoch: number, coordinatorEpoch: number, timestamp: number): void {
    const entry = this.entry(producerId, producerEpoch);
    entry.coordinatorEpoch = coordinatorEpoch;
    entry.lastTimestamp = timestamp;
    entry.currentTxnFirstOffset = -1;
  }

  /** The producer's epoch and coordinator epoch here, for fencing a marker; undefined when it never wrote here. */
  epochsOf(producerId: number): { producerEpoch: number; coordinatorEpoch: number } | undefined {
    const entry = this.entries.get(producerId);
    return entry && { producerEpoch: entry.producerEpoch, coordinatorEpoch: entry.coordinatorEpoch };
  }

  /**
   * The producers DescribeProducers lists at `now`, in producer id order. Those idle past
   * producer.id.expiration.ms are dropped first, unless a transaction of theirs is still open.
   */
  activeProducers(now: number): ProducerState[] {
    const active: ProducerState[] = [];
    for (const [producerId, e] of this.entries) {
      if (e.currentTxnFirstOffset < 0 && e.lastTimestamp >= 0 && now - e.lastTimestamp >= PRODUCER_ID_EXPIRATION_MS) {
        this.entries.delete(producerId);
        continue;
      }
      active.push({
        producerId,
        producerEpoch: e.producerEpoch,
        lastSequence: e.lastSequence,
        lastTimestamp: e.lastTimestamp,
        coordinatorEpoch: e.coordinatorEpoch,
        currentTxnStartOffset: e.currentTxnFirstOffset,
      });
    }
    return active.sort((a, b) => a.producerId - b.producerId);
  }
}
