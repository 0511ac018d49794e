/**
 * LSO holds on a group's timeline, from successive snapshots of the group (GroupDetail): a partition
 * whose LSO an open transaction holds below the high watermark (its `lsoHolder` names the producer)
 * makes `lso-held`, timed at the transaction's start when DescribeTransactions gave it, else when first
 * seen; once no transaction holds it, or another one does, `lso-released`, timed at the snapshot that
 * saw it (marked inferred: the marker fell between two snapshots). Holds only matter to read_committed
 * consumers, so a group known to read uncommitted gets none.
 */
import { isLsoHeld, topicPartitionKey, type GroupDetail, type PartitionOffsets, type RebalanceEvent } from '../model/types';

interface Hold {
  producerId: number;
  producerEpoch: number;
  lso: number;
}


function holdOf(row: PartitionOffsets): Hold | null {
  const producer = row.lsoHolder?.producer;
  if (!producer || !isLsoHeld(row)) {
    return null;
  }
  return { producerId: producer.producerId, producerEpoch: producer.producerEpoch, lso: row.lastStableOffset };
}

export class LsoHoldObserver {
  private readonly holds = new Map<string, Hold>();
  private readonly log: RebalanceEvent[] = [];

  constructor(readonly groupId: string) {}

  /** Records one snapshot of the group seen at `time` (the source's clock); returns the events it reveals. */
  observe(detail: GroupDetail, time: number): RebalanceEvent[] {
    if (detail.error !== undefined || detail.groupId !== this.groupId) {
      return [];
    }
    const readsCommitted = detail.isolationLevel !== 'read_uncommitted';
    const seen = new Map<string, { row: PartitionOffsets; hold: Hold }>();
    if (readsCommitted) {
      for (const row of detail.offsets) {
        const hold = holdOf(row);
        if (hold) {
          seen.set(topicPartitionKey(row), { row, hold });
        }
      }
    }
    const events: RebalanceEvent[] = [];
    const generation = detail.generation ?? -1;
    for (const [key, hold] of this.holds) {
      const now = seen.get(key);
      if (!now || now.hold.producerId !== hold.producerId || now.hold.lso !== hold.lso) {
        this.holds.delete(key);
        const [topic, partition] = key.split('\u0000');
        events.push(this.event(time, 'lso-released', generation, {
          producerId: hold.producerId,
          producerEpoch: hold.producerEpoch,
          partitions: [{ topic, partition: Number(partition) }],
        }, `the LSO of ${topic}-${partition} moved past ${hold.lso}: producer ${hold.producerId}'s transaction ended`));
      }
    }
    for (const [key, { row, hold }] of seen) {
      if (this.holds.has(key)) {
        continue;
      }
      this.holds.set(key, hold);
      const transaction = row.lsoHolder?.transaction;
      const started = transaction?.transactionStartTimeMs;
      // The hold began with the transaction: before this snapshot, so the caller merges by time.
      const at = started !== undefined && started >= 0 && started <= time ? started : time;
      events.push(this.event(at, 'lso-held', generation, {
        producerId: hold.producerId,
        producerEpoch: hold.producerEpoch,
        ...(transaction ? { transactionalId: transaction.transactionalId } : {}),
        partitions: [{ topic: row.topic, partition: row.partition }],
        offset: hold.lso,
      }, `read_committed consumers of ${row.topic}-${row.partition} wait at LSO ${hold.lso}: producer ${hold.producerId}${transaction ? ` (${transaction.transactionalId})` : ''} has a transaction open there`));
    }
    events.sort((a, b) => a.time - b.time);
    this.log.push(...events);
    return events;
  }

  /** Every event so far, in the order seen (the same objects on every call); a hold's start may precede the snapshot that found it. */
  events(): RebalanceEvent[] {
    return [...this.log];
  }

  private event(time: number, kind: 'lso-held' | 'lso-released', generation: number, transaction: NonNullable<RebalanceEvent['transaction']>, cause: string): RebalanceEvent {
    return { groupId: this.groupId, time, kind, generation, cause, transaction, inferred: kind === 'lso-released' };
  }
}

/** The events with the LSO holds among them by time, each list's own order kept and events first at equal times. */
export function mergeByTime(events: readonly RebalanceEvent[], holds: readonly RebalanceEvent[]): RebalanceEvent[] {
  if (holds.length === 0) {
    return events.slice();
  }
  const sortedHolds = holds.map((event, index) => ({ event, index })).sort((a, b) => a.event.time - b.event.time || a.index - b.index);
  const merged: RebalanceEvent[] = [];
  let h = 0;
  for (const event of events) {
    while (h < sortedHolds.length && sortedHolds[h].event.time < event.time) {
      merged.push(sortedHolds[h++].event);
    }
    merged.push(event);
  }
  while (h < sortedHolds.length) {
    merged.push(sortedHolds[h++].event);
  }
  return merged;
}
