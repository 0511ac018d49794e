import { strict as assert } from 'node:assert';
import type { KafkaErrorCode } from '../../../../../../src/simulator/common/errors';
import type { OffsetFetchPartition } from '../../../../../../src/simulator/common/requests';
import { type Simulation } from '../../../../../../src/simulator/simulation';
import { commit, harness, joinDynamic, state } from '../../../harness';

const GROUP = { groupId: 'g', generationId: -1, memberId: '', groupInstanceId: null };

function fetchOffset(sim: Simulation, requireStable: boolean): OffsetFetchPartition {
  let result: OffsetFetchPartition | null = null;
  sim.coordinator.offsetFetch({ groupId: 'g', topics: [{ name: 't', partitions: [0] }], requireStable }, (r) => {
    result = r.topics[0].partitions[0];
  });
  sim.advance(0);
  assert.ok(result, 'OffsetFetch answered');
  return result;
}

/** Group g has offset 3 committed; producer "tx" has 4 records in u-`partition` and offset 10 for t-0 pending. */
function openTransaction(partition: number) {
  const { sim } = harness();
  commit(sim, { generationId: -1, offset: 3 });
  sim.advance(0);
  const producer = sim.initTransactions('tx');
  producer.beginTransaction();
  producer.send('u', 4, partition);
  producer.sendOffsetsToTransaction([{ topic: 't', partition: 0, offset: 10 }], GROUP);
  sim.advance(0);
  return { sim, producer };
}

describe('TransactionalProducer', () => {
  it('keeps offsets sent to the transaction pending and invisible until the COMMIT marker', () => {
    const { sim, producer } = openTransaction(1);
    assert.equal(fetchOffset(sim, false).committedOffset, 3, 'the admin default (requireStable=false) sees the last materialized value');
    const stable = fetchOffset(sim, true);
    assert.equal(stable.errorCode, 'UNSTABLE_OFFSET_COMMIT');
    assert.equal(stable.committedOffset, -1);
    assert.deepEqual(sim.coordinator.pendingOffsets.list('g').map((p) => [p.topic, p.partition, p.value.offset]), [['t', 0, 10]]);
    const log = sim.cluster.partition('u', 1)!;
    assert.equal(log.lastStableOffset, 0);
    producer.commitTransaction();
    assert.equal(log.highWatermark, 5, 'four records and the COMMIT marker');
    assert.equal(log.lastStableOffset, 5);
    assert.equal(fetchOffset(sim, true).committedOffset, 10);
    assert.deepEqual(sim.coordinator.pendingOffsets.list('g'), []);
    assert.equal(producer.transactionsCommitted, 1);
  });

  it('discards pending offsets on ABORT and hides the aborted records from read_committed', () => {
    const { sim, producer } = openTransaction(0);
    producer.abortTransaction();
    const fetched = fetchOffset(sim, true);
    assert.equal(fetched.errorCode, 'NONE');
    assert.equal(fetched.committedOffset, 3);
    const log = sim.cluster.partition('u', 0)!;
    assert.equal(log.abortedTransactions, 1);
    assert.equal(log.visibleRecords(0, Infinity, 'read_committed'), 0);
    assert.equal(log.visibleRecords(0, Infinity, 'read_uncommitted'), 4);
  });

  it('keeps a later plain commit when the transaction commits afterwards (higher record offset wins)', () => {
    const { sim } = harness();
    const producer = sim.initTransactions('tx');
    producer.beginTransaction();
    producer.sendOffsetsToTransaction([{ topic: 't', partition: 0, offset: 10 }], GROUP);
    commit(sim, { generationId: -1, offset: 7 });
    sim.advance(0);
    producer.commitTransaction();
    assert.equal(fetchOffset(sim, true).committedOffset, 7);
  });

  it('refuses to commit after TxnOffsetCommit failed, and aborts a transaction left open by a restarted instance', () => {
    const { sim } = harness();
    const producer = sim.initTransactions('tx');
    producer.beginTransaction();
    producer.send('u', 2, 0);
    producer.sendOffsetsToTransaction([{ topic: 't', partition: 0, offset: 10 }], { ...GROUP, generationId: 4, memberId: 'ghost' });
    sim.advance(0);
    assert.throws(() => producer.commitTransaction(), /cannot commit: TxnOffsetCommit failed \(t-0: GROUP_ID_NOT_FOUND\)/);
    const restarted = sim.initTransactions('tx');
    assert.equal(restarted.producerId, producer.producerId);
    assert.equal(restarted.inTransaction, false);
    assert.equal(sim.cluster.partition('u', 0)!.lastStableOffset, 3, 'the ABORT marker closed the transaction');
    assert.equal(restarted.transactionsAborted, 1);
  });

  it('reports clear errors for misuse', () => {
    const { sim } = harness();
    const producer = sim.initTransactions('tx');
    assert.throws(() => producer.send('u', 1), /no transaction in progress/);
    producer.beginTransaction();
    assert.throws(() => producer.beginTransaction(), /already has a transaction in progress/);
    assert.throws(() => producer.send('nope', 1), /Unknown topic "nope"/);
    assert.throws(() => producer.send('u', 1, 7), /has no partition 7/);
    assert.throws(() => producer.send('u', 0), /positive integer/);
    assert.throws(() => producer.sendOffsetsToTransaction([{ topic: 't', partition: 0, offset: -2 }], GROUP), /non-negative integer/);
    assert.throws(() => sim.transactionalProducer('other'), /Unknown transactional producer "other"; known: tx/);
    assert.throws(() => sim.initTransactions(''), /non-empty string/);
  });

  it('lets a transactional commit through CompletingRebalance, where a plain commit is refused', () => {
    const { sim } = harness();
    const { memberId, pending } = joinDynamic(sim, 'c');
    sim.advance(5000);
    assert.equal(pending.response?.errorCode, 'NONE');
    assert.equal(state(sim), 'CompletingRebalance');
    const generationId = pending.response.generationId;
    const plain = commit(sim, { generationId, memberId, offset: 2 });
    const codes: KafkaErrorCode[] = [];
    const producer = sim.initTransactions('tx');
    producer.beginTransaction();
    const request = { transactionalId: 'tx', producerId: producer.producerId, groupId: 'g', memberId, groupInstanceId: null, topics: [{ name: 't', partitions: [{ partition: 1, offset: 2 }] }] };
    sim.coordinator.txnOffsetCommit({ ...request, generationId }, (r) => codes.push(r.topics[0].partitions[0].errorCode));
    sim.coordinator.txnOffsetCommit({ ...request, generationId: generationId + 1 }, (r) => codes.push(r.topics[0].partitions[0].errorCode));
    sim.advance(0);
    assert.equal(plain.response, 'REBALANCE_IN_PROGRESS');
    assert.deepEqual(codes, ['NONE', 'ILLEGAL_GENERATION']);
    assert.ok(sim.coordinator.pendingOffsets.isPending('g', 't', 1));
  });
  describe('the coordinator\'s TransactionMetadata (what ListTransactions and DescribeTransactions report)', () => {
    it('starts Empty at epoch 0, goes Ongoing with the partitions added, and keeps the last start after the end', () => {
      const { sim } = harness();
      const producer = sim.initTransactions('meta', 30_000);
      assert.deepEqual(producer.describe(3), {
        transactionalId: 'meta', coordinatorId: 3, state: 'Empty', producerId: producer.producerId, producerEpoch: 0, transactionTimeoutMs: 30_000, transactionStartTimeMs: -1, topicPartitions: [],
      });
      sim.advance(500);
      producer.beginTransaction();
      producer.send('u', 2, 1);
      producer.send('u', 1, 0);
      producer.send('u', 1, 1);
      const ongoing = producer.describe(3);
      assert.equal(ongoing.state, 'Ongoing');
      assert.equal(ongoing.transactionStartTimeMs, 500);
      assert.deepEqual(ongoing.topicPartitions, [{ topic: 'u', partition: 1 }, { topic: 'u', partition: 0 }], 'each partition once, in the order added');
      producer.commitTransaction();
      const ended = producer.describe(3);
      assert.equal(ended.state, 'CompleteCommit');
      assert.equal(ended.transactionStartTimeMs, 500, 'the last transaction\'s start stays');
      assert.deepEqual(ended.topicPartitions, []);
      producer.beginTransaction();
      producer.abortTransaction();
      assert.equal(producer.state, 'CompleteAbort');
    });

    it('bumps the epoch at a new initTransactions(), aborting what the old instance left open', () => {
      const { sim } = harness();
      const first = sim.initTransactions('again');
      first.beginTransaction();
      first.send('u', 3, 0);
      const log = sim.cluster.partition('u', 0)!;
      assert.equal(log.lastStableOffset, 0);
      const second = sim.initTransactions('again');
      assert.equal(second, first, 'the same producer id');
      assert.equal(second.producerEpoch, 1);
      assert.equal(second.state, 'Empty');
      assert.equal(log.lastStableOffset, log.highWatermark, 'the open transaction was aborted');
      assert.throws(() => sim.initTransactions('again', 900_001), /transaction\.max\.timeout\.ms/);
    });

    it('aborts a transaction open past transaction.timeout.ms at the next cleanup run, fencing the producer', () => {
      const { sim } = harness();
      const producer = sim.initTransactions('stuck', 15_000);
      let told = 0;
      producer.onTimeout = () => told++;
      sim.advance(2_000);
      producer.beginTransaction();
      producer.send('u', 4, 0);
      const log = sim.cluster.partition('u', 0)!;
      const start = log.highWatermark - 4;
      // start 2 000 + timeout 15 000 = 17 000; the cleanup runs every 10 s, so at 20 000.
      sim.runUntil(19_999);
      assert.equal(producer.state, 'Ongoing');
      assert.equal(log.lastStableOffset, start);
      sim.runUntil(20_000);
      assert.equal(producer.state, 'CompleteAbort');
      assert.equal(producer.producerEpoch, 1, 'fenced');
      assert.equal(producer.transactionsTimedOut, 1);
      assert.equal(told, 1);
      assert.equal(log.lastStableOffset, log.highWatermark);
      assert.equal(log.visibleRecords(start, log.highWatermark, 'read_committed'), 0, 'the records were aborted');
      const [state] = log.activeProducers(sim.now);
      assert.deepEqual(
        { epoch: state.producerEpoch, start: state.currentTxnStartOffset, coordinatorEpoch: state.coordinatorEpoch },
        { epoch: 1, start: -1, coordinatorEpoch: 0 },
        'the ABORT marker carries the bumped epoch',
      );
    });

    it('does not time out a transaction that ended in time, nor the next one early', () => {
      const { sim } = harness();
      const producer = sim.initTransactions('quick', 15_000);
      producer.beginTransaction();
      producer.send('u', 1, 0);
      sim.runUntil(5_000);
      producer.commitTransaction();
      producer.beginTransaction();
      producer.send('u', 1, 0);
      sim.runUntil(20_000);
      assert.equal(producer.state, 'Ongoing', 'the second began at 5 000: its deadline is 20 000, found at the 30 000 run');
      sim.runUntil(30_000);
      assert.equal(producer.state, 'CompleteAbort');
      assert.equal(producer.transactionsCommitted, 1);
    });
  });
});
