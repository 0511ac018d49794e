import { strict as assert } from 'node:assert';
import type { EventTransaction, RebalanceEvent, TopicPartition } from '../../../src/model/types';
import { buildTimeline, timelineBuilder } from '../../../src/timeline/timelineModel';

const tp = (partition: number): TopicPartition => ({ topic: 't', partition });
const base = { groupId: 'g', generation: 1 };
const txn = (producerId: number, partitions: TopicPartition[], extra: Partial<EventTransaction> = {}): EventTransaction => ({ producerId, producerEpoch: 0, partitions, ...extra });

/** a owns t-0 and t-1, b joins and takes t-1; producer 7 commits offsets twice, producer 8 once and aborts; producer 9 holds t-1's LSO. */
const events: RebalanceEvent[] = [
  { ...base, time: 0, kind: 'member-joined', memberId: 'a-1', clientId: 'a' },
  { ...base, time: 1, kind: 'assignment-changed', assignments: [{ memberId: 'a-1', revoked: [], assigned: [tp(0), tp(1)] }] },
  { ...base, time: 10, kind: 'transaction-offsets', transaction: txn(7, [tp(0)], { transactionalId: 'app-tx-0' }) },
  { ...base, time: 12, kind: 'transaction-offsets', transaction: txn(7, [tp(0), tp(1)]) },
  { ...base, time: 14, kind: 'lso-held', transaction: txn(9, [tp(1)], { transactionalId: 'importer-tx', offset: 1204 }) },
  { ...base, time: 15, kind: 'transaction-committed', transaction: txn(7, []) },
  { ...base, time: 20, kind: 'member-joined', memberId: 'b-1', clientId: 'b' },
  { ...base, generation: 2, time: 22, kind: 'assignment-changed', assignments: [{ memberId: 'a-1', revoked: [tp(1)], assigned: [] }, { memberId: 'b-1', revoked: [], assigned: [tp(1)] }] },
  { ...base, time: 30, kind: 'transaction-offsets', transaction: txn(8, [tp(1)]) },
  { ...base, time: 31, kind: 'lso-held', transaction: txn(10, [tp(0)]) },
  { ...base, time: 35, kind: 'transaction-aborted', transaction: txn(8, []) },
  // A marker of a transaction that staged none of this group's offsets draws nothing.
  { ...base, time: 36, kind: 'transaction-committed', transaction: txn(99, []) },
  { ...base, time: 40, kind: 'lso-released', transaction: txn(9, [tp(1)]) },
  { ...base, time: 41, kind: 'transaction-offsets', transaction: txn(7, [tp(0)]) },
];

describe('timeline/transactionSpans', () => {
  it('spans each transaction from its first staged offsets to its marker, with the partitions it staged', () => {
    const model = buildTimeline('g', events);
    assert.deepEqual(
      model.transactions.map((s) => [s.producerId, s.transactionalId, s.from, s.to, s.outcome, s.partitions.map((p) => p.partition), s.startEvent, s.endEvent]),
      [
        [7, 'app-tx-0', 10, 15, 'committed', [0, 1], 2, 5],
        [8, null, 30, 35, 'aborted', [1], 8, 10],
        [7, null, 41, null, 'open', [0], 13, null],
      ],
    );
  });

  it('puts each LSO hold on the lane of the member that owned the partition when it began', () => {
    const model = buildTimeline('g', events);
    const laneOf = (label: string): number => model.lanes.findIndex((lane) => lane.memberIds.includes(label));
    assert.deepEqual(
      model.lsoHolds.map((h) => [h.producerId, h.transactionalId, h.partition, h.lso, h.from, h.to, h.lane]),
      [
        [9, 'importer-tx', 1, 1204, 14, 40, laneOf('a-1')],
        [10, null, 0, null, 31, null, laneOf('a-1')],
      ],
    );
  });

  it('gives no lane to a hold on a partition nobody owns, such as one whose member left', () => {
    const model = buildTimeline('g', [
      events[0],
      events[1],
      { ...base, time: 5, kind: 'member-left', memberId: 'a-1' },
      { ...base, time: 6, kind: 'lso-held', transaction: txn(9, [tp(1)]) },
    ]);
    assert.equal(model.lsoHolds[0].lane, -1);
  });

  it('builds the same spans appended in pieces as at once, and a model keeps its spans when more arrive', () => {
    const builder = timelineBuilder('g', events.slice(0, 6));
    const early = builder.model();
    assert.ok(builder.append(events.slice(6)));
    assert.deepEqual(builder.model().transactions, buildTimeline('g', events).transactions);
    assert.deepEqual(builder.model().lsoHolds, buildTimeline('g', events).lsoHolds);
    assert.deepEqual(early.transactions.map((s) => s.outcome), ['committed']);
    assert.deepEqual(early.lsoHolds.map((h) => h.to), [null]);
  });
});
