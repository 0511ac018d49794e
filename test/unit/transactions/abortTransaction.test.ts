import { strict as assert } from 'node:assert';
import { SimTransactionAdmin } from '../../../src/simulator/admin/simTransactionAdmin';
import { Simulation } from '../../../src/simulator/simulation';
import { executeAbort, planAbort } from '../../../src/transactions/abortTransaction';

/** "payments-tx" has an open transaction on ledger-0 from offset 4 (after 4 plain records). */
function cluster() {
  const sim = new Simulation({ seed: 5, startTime: 1_000_000 });
  sim.createTopic('ledger', 1);
  const log = sim.cluster.partition('ledger', 0)!;
  log.append(4, sim.now);
  const producer = sim.initTransactions('payments-tx', 900_000);
  producer.beginTransaction();
  producer.send('ledger', 3, 0);
  return { sim, log, producer, admin: new SimTransactionAdmin(sim) };
}

describe('Abort Transaction (kafka-transactions.sh abort)', () => {
  it('plans the ABORT marker for the producer whose transaction starts at the offset, and writing it frees the LSO', async () => {
    const { log, producer, admin } = cluster();
    const plan = await planAbort(admin, { topic: 'ledger', partition: 0, startOffset: 4 });
    assert.deepEqual(plan.spec, { topic: 'ledger', partition: 0, producerId: producer.producerId, producerEpoch: 0, coordinatorEpoch: 0 }, 'coordinator epoch -1 (no marker yet) is sent as 0');
    assert.equal(plan.transactionalId, 'payments-tx');
    assert.equal(log.lastStableOffset, 4);
    await executeAbort(admin, plan);
    assert.deepEqual([log.lastStableOffset, log.highWatermark], [8, 8], 'three records and the ABORT marker');
    assert.equal(log.visibleRecords(4, 8, 'read_committed'), 0, 'the transaction\'s records are discarded');
  });

  it('names what is missing in the tool\'s words, and refuses a malformed target', async () => {
    const { admin } = cluster();
    await assert.rejects(planAbort(admin, { topic: 'ledger', partition: 0, startOffset: 5 }), /^Error: Could not find any open transactions starting at offset 5 on partition ledger-0$/);
    await assert.rejects(planAbort(admin, { topic: 'nope', partition: 0, startOffset: 4 }), /Failed to validate producer state for partition nope-0: UNKNOWN_TOPIC_OR_PARTITION/);
    await assert.rejects(planAbort(admin, { topic: 'ledger', partition: 0, startOffset: -1 }), /non-negative integers/);
  });

  it('writes nothing when the preview went stale: the transaction ended, or a new epoch holds that offset', async () => {
    const { sim, log, producer, admin } = cluster();
    const plan = await planAbort(admin, { topic: 'ledger', partition: 0, startOffset: 4 });
    producer.commitTransaction();
    const end = log.highWatermark;
    await assert.rejects(executeAbort(admin, plan), /Nothing was aborted: the preview went stale \(Could not find any open transactions starting at offset 4/);
    assert.equal(log.highWatermark, end, 'no marker written');

    const { log: log2, admin: admin2, sim: sim2 } = cluster();
    const stale = await planAbort(admin2, { topic: 'ledger', partition: 0, startOffset: 4 });
    // The transaction's writes at a later epoch: the zombie's successor, on the same offset range.
    log2.writeControlMarker(stale.spec.producerId, 'ABORT', sim2.now, 0, 0);
    log2.appendTransactional({ producerId: 99, producerEpoch: 2, baseSequence: 0 }, 1, sim2.now);
    await assert.rejects(executeAbort(admin2, { ...stale, target: { ...stale.target, startOffset: 8 } }), /is now producer 99 epoch 2, previewed as producer \d+ epoch 0/);
    sim.dispose();
    sim2.dispose();
  });
});
