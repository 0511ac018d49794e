/**
 * Transactions on a group's timeline, folded from its events in time order:
 * - each transaction that staged offsets of the group (TxnOffsetCommit: `transaction-offsets`) is a
 *   span from its first staged offsets to its marker (`transaction-committed`/`-aborted`), or open;
 * - each open transaction holding the LSO of a partition the group reads (`lso-held` to `lso-released`)
 *   is a span on the lane of the member that owned the partition when the hold began, since that is
 *   the consumer a read_committed fetch kept waiting.
 * Partition owners are followed through the events' assignment changes and members leaving.
 */
import { topicPartitionKey, type RebalanceEvent, type TopicPartition } from '../model/types';

export type TransactionOutcome = 'open' | 'committed' | 'aborted';

export interface TransactionSpan {
  producerId: number;
  producerEpoch: number;
  transactionalId: string | null;
  from: number;
  /** null while the transaction is open at the last event. */
  to: number | null;
  outcome: TransactionOutcome;
  /** The group's partitions whose offsets it staged. */
  partitions: TopicPartition[];
  /** Indexes into the model's events. */
  startEvent: number;
  endEvent: number | null;
}

export interface LsoHoldSpan {
  topic: string;
  partition: number;
  producerId: number;
  producerEpoch: number;
  transactionalId: string | null;
  /** The LSO it held the partition at, when known. */
  lso: number | null;
  from: number;
  /** null while still held at the last event. */
  to: number | null;
  /** The lane of the member that owned the partition when the hold began; -1 when none did. */
  lane: number;
  startEvent: number;
  endEvent: number | null;
}


/** The group's own transactions and the LSO holds on its partitions, one event at a time. */
export class TransactionSpanBuilder {
  private readonly transactions: TransactionSpan[] = [];
  private readonly holds: LsoHoldSpan[] = [];
  /** Open transaction spans by producer id (a producer has at most one transaction open). */
  private readonly openTransactions = new Map<number, TransactionSpan>();
  /** Open holds by partition key. */
  private readonly openHolds = new Map<string, LsoHoldSpan>();
  /** Partition key to the lane of the member that owns it. */
  private readonly owners = new Map<string, number>();

  /**
   * @param laneOfMember the lane of a member id (-1 when it has none); the timeline's lanes.
   * @param eventLane the lane the event itself was placed on (its member's), -1 for group events.
   */
  add(event: RebalanceEvent, index: number, eventLane: number, laneOfMember: (memberId: string, groupInstanceId: string | null) => number): void {
    this.follow(event, eventLane, laneOfMember);
    const txn = event.transaction;
    if (txn === undefined) {
      return;
    }
    switch (event.kind) {
      case 'transaction-offsets': {
        const open = this.openTransactions.get(txn.producerId);
        if (open) {
          const known = new Set(open.partitions.map(topicPartitionKey));
          open.partitions.push(...txn.partitions.filter((tp) => !known.has(topicPartitionKey(tp))));
          open.transactionalId ??= txn.transactionalId ?? null;
          return;
        }
        const span: TransactionSpan = {
          producerId: txn.producerId,
          producerEpoch: txn.producerEpoch,
          transactionalId: txn.transactionalId ?? null,
          from: event.time,
          to: null,
          outcome: 'open',
          partitions: [...txn.partitions],
          startEvent: index,
          endEvent: null,
        };
        this.transactions.push(span);
        this.openTransactions.set(txn.producerId, span);
        return;
      }
      case 'transaction-committed':
      case 'transaction-aborted': {
        const open = this.openTransactions.get(txn.producerId);
        if (open) {
          open.to = event.time;
          open.endEvent = index;
          open.outcome = event.kind === 'transaction-committed' ? 'committed' : 'aborted';
          this.openTransactions.delete(txn.producerId);
        }
        return;
      }
      case 'lso-held':
        for (const tp of txn.partitions) {
          const key = topicPartitionKey(tp);
          if (this.openHolds.has(key)) {
            continue; // one hold per partition at a time: the LSO is the first open transaction's
          }
          const hold: LsoHoldSpan = {
            topic: tp.topic,
            partition: tp.partition,
            producerId: txn.producerId,
            producerEpoch: txn.producerEpoch,
            transactionalId: txn.transactionalId ?? null,
            lso: txn.offset ?? null,
            from: event.time,
            to: null,
            lane: this.owners.get(key) ?? -1,
            startEvent: index,
            endEvent: null,
          };
          this.holds.push(hold);
          this.openHolds.set(key, hold);
        }
        return;
      case 'lso-released':
        for (const tp of txn.partitions) {
          const key = topicPartitionKey(tp);
          const hold = this.openHolds.get(key);
          if (hold) {
            hold.to = event.time;
            hold.endEvent = index;
            this.openHolds.delete(key);
          }
        }
        return;
      default:
        return;
    }
  }

  /** Copies: a model keeps what it was built with while the builder goes on. */
  transactionSpans(): TransactionSpan[] {
    return this.transactions.map((span) => ({ ...span, partitions: span.partitions.slice() }));
  }

  lsoHolds(): LsoHoldSpan[] {
    return this.holds.map((hold) => ({ ...hold }));
  }

  private follow(event: RebalanceEvent, eventLane: number, laneOfMember: (memberId: string, groupInstanceId: string | null) => number): void {
    const changes = event.assignments;
    if (changes) {
      for (const change of changes) {
        const lane = laneOfMember(change.memberId, change.groupInstanceId ?? null);
        for (const tp of change.revoked) {
          const key = topicPartitionKey(tp);
          if (this.owners.get(key) === lane) {
            this.owners.delete(key);
          }
        }
        for (const tp of change.assigned) {
          this.owners.set(topicPartitionKey(tp), lane);
        }
      }
    }
    if ((event.kind === 'member-left' || event.kind === 'member-expired' || event.kind === 'poll-timeout') && eventLane >= 0) {
      for (const [key, lane] of this.owners) {
        if (lane === eventLane) {
          this.owners.delete(key);
        }
      }
    }
  }
}
