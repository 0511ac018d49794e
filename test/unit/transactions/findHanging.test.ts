import { strict as assert } from 'node:assert';
import type { PartitionProducers, ReplicatedPartition, TransactionAdmin } from '../../../src/model/transactions';
import { SimTransactionAdmin } from '../../../src/simulator/admin/simTransactionAdmin';
import { Simulation } from '../../../src/simulator/simulation';
import { FIND_HANGING_BATCH_SIZE, findHangingScopeError, findHangingTransactions } from '../../../src/transactions/findHanging';

const MINUTE = 60_000;

/**
 * Topic "ledger" (3 partitions) with: a live transaction of "live-tx" on partition 0 that its coordinator
 * holds; a zombie write on partition 1 from producer 777, which no coordinator knows (what a broker that
 * does not verify transactions accepts from a fenced producer); and on partition 2 an open transaction of
 * "moved-tx"'s producer id that its coordinator's transaction does not hold.
 */
function cluster() {
  const sim = new Simulation({ seed: 3, startTime: 1_000_000, cluster: { brokers: 2 } });
  sim.createTopic('ledger', 3);
  const live = sim.initTransactions('live-tx', 900_000);
  live.beginTransaction();
  live.send('ledger', 2, 0);
  const ledger = (p: number) => sim.cluster.partition('ledger', p)!;
  ledger(1).appendTransactional({ producerId: 777, producerEpoch: 4, baseSequence: 0 }, 3, sim.now);
  const moved = sim.initTransactions('moved-tx', 900_000);
  ledger(2).appendTransactional({ producerId: moved.producerId, producerEpoch: moved.producerEpoch, baseSequence: 0 }, 1, sim.now);
  return { sim, admin: new SimTransactionAdmin(sim), ledger, live, moved };
}

describe('findHangingTransactions (kafka-transactions.sh find-hanging)', () => {
  it('reports the open transactions no coordinator will end: an unknown producer id, and a partition its coordinator does not hold', async () => {
    const { sim, admin, live, moved } = cluster();
    sim.advance(10 * MINUTE);
    const scope = { topic: 'ledger', maxTransactionTimeoutMs: 5 * MINUTE };
    const hanging = await findHangingTransactions(admin, scope);
    assert.equal(live.state, 'Ongoing', 'live-tx is a candidate too (10 min > 5 min)');
    assert.deepEqual(
      hanging.map((h) => [h.partition, h.producer.producerId, h.producer.producerEpoch, h.producer.coordinatorEpoch, h.producer.currentTxnStartOffset, h.durationMinutes]),
      [[1, 777, 4, -1, 0, 10], [2, moved.producerId, 0, -1, 0, 10]],
      'live-tx\'s coordinator holds partition 0: its marker will come',
    );
    assert.deepEqual((await findHangingTransactions(admin, { ...scope, partition: 2 })).map((h) => h.partition), [2]);
  });

  it('leaves out transactions whose producer wrote within the maximum transaction timeout', async () => {
    const { sim, admin } = cluster();
    sim.advance(10 * MINUTE);
    assert.deepEqual(await findHangingTransactions(admin, { topic: 'ledger' }), [], 'the default is 15 minutes');
    sim.advance(6 * MINUTE);
    assert.equal((await findHangingTransactions(admin, { topic: 'ledger' })).length, 2, 'live-tx was aborted at its 15-minute timeout; the two hanging ones stay');
  });

  it('searches the partitions with a replica on a broker, and refuses a search without a scope in the tool\'s words', async () => {
    const { sim, admin } = cluster();
    sim.advance(16 * MINUTE);
    const leaders = sim.cluster.requireTopic('ledger').leaders;
    for (const brokerId of new Set(leaders)) {
      const found = await findHangingTransactions(admin, { brokerId });
      assert.deepEqual(found.map((h) => h.partition), [1, 2].filter((p) => leaders[p] === brokerId));
    }
    assert.equal(findHangingScopeError({}), 'The `find-hanging` command requires either --topic or --broker-id to limit the scope of the search');
    assert.equal(findHangingScopeError({ brokerId: 1, partition: 0 }), 'The --partition argument requires --topic to be provided');
    await assert.rejects(findHangingTransactions(admin, { partition: 0 }), /requires either --topic or --broker-id/);
  });

  it('asks DescribeProducers at most 500 partitions at a time, and stops on a partition the leader cannot describe', async () => {
    const partitions: ReplicatedPartition[] = Array.from({ length: 1203 }, (_, partition) => ({ topic: 'wide', partition, replicas: [1] }));
    const asked: number[] = [];
    let failOn: number | null = null;
    const admin: TransactionAdmin = {
      now: () => 0,
      listTransactions: () => Promise.resolve([]),
      describeTransactions: () => Promise.resolve([]),
      topicPartitions: () => Promise.resolve(partitions),
      abortTransaction: () => Promise.reject(new Error('not called')),
      describeProducers: (batch) => {
        asked.push(batch.length);
        return Promise.resolve(batch.map((p): PartitionProducers => ({ ...p, producers: [], ...(p.partition === failOn ? { error: 'NOT_LEADER_OR_FOLLOWER: not the leader' } : {}) })));
      },
    };
    assert.deepEqual(await findHangingTransactions(admin, { topic: 'wide' }), []);
    assert.deepEqual(asked, [FIND_HANGING_BATCH_SIZE, FIND_HANGING_BATCH_SIZE, 203]);
    failOn = 700;
    await assert.rejects(findHangingTransactions(admin, { topic: 'wide' }), /Failed to describe producers for 500 partitions: wide-700: NOT_LEADER_OR_FOLLOWER/);
  });
});
