import { strict as assert } from 'node:assert';
import { SimTransactionAdmin } from '../../../../src/simulator/admin/simTransactionAdmin';
import { Simulation } from '../../../../src/simulator/simulation';

describe('SimTransactionAdmin', () => {
  it('lists and describes the transactional ids as the coordinators do, with the list filters', async () => {
    const sim = new Simulation({ seed: 1, startTime: 50_000, cluster: { brokers: 3 } });
    sim.createTopic('t', 2);
    const open = sim.initTransactions('open-tx');
    open.beginTransaction();
    open.send('t', 2, 1);
    const done = sim.initTransactions('done-tx');
    done.beginTransaction();
    done.send('t', 1, 0);
    done.commitTransaction();
    sim.advance(5_000);
    const admin = new SimTransactionAdmin(sim);
    const rows = (await admin.listTransactions()).map((l) => [l.transactionalId, l.state, l.coordinatorId === sim.cluster.coordinatorFor(l.transactionalId).nodeId]);
    assert.deepEqual(rows, [['open-tx', 'Ongoing', true], ['done-tx', 'CompleteCommit', true]]);
    assert.deepEqual((await admin.listTransactions({ states: ['Ongoing'] })).map((l) => l.transactionalId), ['open-tx']);
    assert.deepEqual((await admin.listTransactions({ producerIds: [done.producerId] })).map((l) => l.transactionalId), ['done-tx']);
    assert.deepEqual((await admin.listTransactions({ durationMs: 10_000 })).map((l) => l.transactionalId), [], 'both began 5 s ago');
    const [described, missing] = await admin.describeTransactions(['open-tx', 'ghost']);
    assert.deepEqual(described.description?.topicPartitions, [{ topic: 't', partition: 1 }]);
    assert.equal(described.description?.transactionStartTimeMs, 50_000);
    assert.match(missing.error ?? '', /^TRANSACTIONAL_ID_NOT_FOUND/);
    assert.deepEqual((await admin.topicPartitions(['t'])).map((p) => [p.partition, p.replicas]), [0, 1].map((p) => [p, [sim.cluster.requireTopic('t').leaders[p]]]));
    await assert.rejects(admin.topicPartitions(['nope']), /UNKNOWN_TOPIC_OR_PARTITION: no topic nope/);
    sim.dispose();
  });
});
