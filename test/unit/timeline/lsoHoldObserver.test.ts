import { strict as assert } from 'node:assert';
import type { GroupDetail, PartitionOffsets, RebalanceEvent } from '../../../src/model/types';
import { LsoHoldObserver, mergeByTime } from '../../../src/timeline/lsoHoldObserver';
import { buildTimeline } from '../../../src/timeline/timelineModel';
import { transactionsTimelines } from './transactionsTimeline';

const held = (partition: number, lso: number, producerId: number, transactionStartTimeMs?: number): PartitionOffsets => ({
  topic: 't',
  partition,
  committedOffset: lso,
  logStartOffset: 0,
  logEndOffset: lso + 10,
  lastStableOffset: lso,
  lag: 10,
  lsoHolder: {
    observedAtMs: 0,
    producer: { producerId, producerEpoch: 3, lastSequence: 0, lastTimestamp: 0, coordinatorEpoch: 0, currentTxnStartOffset: lso },
    ...(transactionStartTimeMs === undefined
      ? {}
      : { transaction: { coordinatorId: 1, producerId, producerEpoch: 3, transactionalId: `tx-${producerId}`, state: 'Ongoing', transactionTimeoutMs: 60000, transactionStartTimeMs, topicPartitions: [{ topic: 't', partition }] } }),
  },
});
const free = (partition: number): PartitionOffsets => ({ topic: 't', partition, committedOffset: 5, logStartOffset: 0, logEndOffset: 9, lastStableOffset: 9, lag: 4 });
const detail = (offsets: PartitionOffsets[], isolationLevel?: GroupDetail['isolationLevel']): GroupDetail =>
  ({ groupId: 'g', state: 'Stable', protocolType: 'consumer', members: [], offsets, isolationLevel }) as unknown as GroupDetail;

describe('timeline/LsoHoldObserver', () => {
  it('reports a hold from the transaction\'s start, a release when the LSO moves on, and a new hold when another producer takes it', () => {
    const observer = new LsoHoldObserver('g');
    assert.deepEqual(observer.observe(detail([free(0), free(1)]), 1000), []);
    const first = observer.observe(detail([held(0, 100, 7, 900), free(1)]), 2000);
    assert.deepEqual(first.map((e) => [e.kind, e.time, e.transaction?.producerId, e.transaction?.transactionalId, e.transaction?.offset, e.inferred]), [['lso-held', 900, 7, 'tx-7', 100, false]]);
    assert.match(first[0].cause ?? '', /read_committed consumers of t-0 wait at LSO 100: producer 7 \(tx-7\)/);
    assert.deepEqual(observer.observe(detail([held(0, 100, 7, 900), free(1)]), 3000), [], 'the same hold again is no news');
    const moved = observer.observe(detail([held(0, 140, 8), held(1, 50, 9)]), 4000);
    assert.deepEqual(moved.map((e) => [e.kind, e.time, e.transaction?.producerId, e.transaction?.partitions[0].partition]), [
      ['lso-released', 4000, 7, 0],
      ['lso-held', 4000, 8, 0],
      ['lso-held', 4000, 9, 1],
    ]);
    assert.equal(moved[0].inferred, true);
    assert.equal(observer.events().length, 4);
  });

  it('gives a group that reads uncommitted no holds, and ignores snapshots that failed or are of another group', () => {
    const observer = new LsoHoldObserver('g');
    assert.deepEqual(observer.observe(detail([held(0, 100, 7)], 'read_uncommitted'), 1), []);
    assert.deepEqual(observer.observe({ ...detail([held(0, 100, 7)]), error: 'timed out' }, 1), []);
    assert.deepEqual(observer.observe({ ...detail([held(0, 100, 7)]), groupId: 'other' }, 1), []);
  });

  it('merges holds among the events by time, keeping each list\'s order and the events first at equal times', () => {
    const e = (time: number, kind: RebalanceEvent['kind']): RebalanceEvent => ({ groupId: 'g', time, kind, generation: 1 });
    const events = [e(1, 'member-joined'), e(5, 'assignment-changed'), e(9, 'member-left')];
    const holds = [e(5, 'lso-held'), e(2, 'lso-held'), e(12, 'lso-released')];
    assert.deepEqual(mergeByTime(events, holds), [events[0], holds[1], events[1], holds[0], events[2], holds[2]]);
    assert.notEqual(mergeByTime(events, []), events);
  });

  it('on the simulator\'s transactions scenario, holds ledger\'s partition from the dead importer\'s transaction start until its timeout, on its owner\'s lane', async () => {
    const { ledger, ledgerHolds, importerProducerId } = await transactionsTimelines();
    // The enricher's own transactions hold the LSO too, for the seconds each round is open.
    assert.ok(ledgerHolds.some((h) => h.transaction?.producerId !== importerProducerId && h.kind === 'lso-held'));
    const holds = ledgerHolds.filter((h) => h.transaction?.producerId === importerProducerId);
    assert.deepEqual(holds.map((h) => [h.kind, h.transaction?.partitions.map((p) => `${p.topic}-${p.partition}`)]), [
      ['lso-held', ['payments-enriched-1']],
      ['lso-released', ['payments-enriched-1']],
    ]);
    assert.equal(holds[0].transaction?.transactionalId, 'importer-tx');
    // It began at 30 s; the coordinator's cleanup run (every 10 s) aborts it once transaction.timeout.ms (1 min) has passed, at 100 s.
    assert.equal(holds[0].time, 30_000);
    assert.equal(holds[1].time, 100_000);
    const model = buildTimeline('ledger', ledger);
    const hold = model.lsoHolds.find((h) => h.producerId === importerProducerId);
    assert.ok(hold);
    assert.deepEqual([hold.topic, hold.partition, hold.from, hold.to], ['payments-enriched', 1, 30_000, 100_000]);
    assert.ok(hold.lane >= 0, 'the hold is drawn on the lane of the member that owned the partition');
    const assigned = ledger.filter((ev) => ev.time <= hold.from).flatMap((ev) => ev.assignments ?? []).filter((c) => c.assigned.some((p) => p.topic === 'payments-enriched' && p.partition === 1));
    assert.ok(assigned.length > 0 && model.lanes[hold.lane].memberIds.includes(assigned[assigned.length - 1].memberId));
  });
});
