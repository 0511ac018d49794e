import { strict as assert } from 'node:assert';
import { describeSimGroup, listSimGroups } from '../../../../src/simulator/admin/groupDetailMapper';
import { buildScenario } from '../../../../src/simulator/scenarios/runScenario';
import { EXACTLY_ONCE_SCENARIO } from '../../../../src/simulator/scenarios/exactlyOnce';
import { commit, harness } from '../harness';

describe('simulator groupDetailMapper: transactions', () => {
  it('gives each partition its LSO, the lag against it for read_committed groups, and the pending transactional offsets', () => {
    const { simulation } = buildScenario(EXACTLY_ONCE_SCENARIO);
    simulation.runUntil(EXACTLY_ONCE_SCENARIO.durationMs);
    const ledger = describeSimGroup(simulation, 'ledger');
    assert.equal(ledger.isolationLevel, 'read_committed');
    assert.deepEqual(
      ledger.offsets.map((r) => [r.partition, r.committedOffset, r.logEndOffset, r.lastStableOffset, r.lag, r.lastStableLag, r.markerOnlyLag]),
      [
        [0, 152, 172, 152, 20, 0, false],
        [1, 152, 172, 152, 20, 0, false],
      ],
      'the open transaction is lag against the HW but not against the LSO',
    );
    const enricher = describeSimGroup(simulation, 'payments-enricher');
    assert.equal(enricher.pendingTransactionalPartitions, 2);
    assert.deepEqual(enricher.offsets.map((r) => [r.partition, r.committedOffset, r.pendingTransactionalOffset]), [
      [0, 100, 150],
      [1, 100, 150],
    ]);
    const summary = listSimGroups(simulation).find((g) => g.groupId === 'payments-enricher');
    assert.equal(summary?.pendingTransactionalPartitions, 2);
    assert.equal('isolationLevel' in (summary ?? {}), false, 'the summary stays a GroupSummary');
    simulation.dispose();
  });

  it('flags lag that is only a transaction marker', () => {
    const { sim } = harness();
    const producer = sim.initTransactions('tx');
    producer.beginTransaction();
    producer.send('u', 4, 0); // 0-3, COMMIT marker at 4
    producer.commitTransaction();
    commit(sim, { generationId: -1, topic: 'u', offset: 4 });
    sim.advance(0);
    const row = describeSimGroup(sim, 'g').offsets.find((r) => r.topic === 'u')!;
    assert.equal(row.lag, 1);
    assert.equal(row.markerOnlyLag, true);
    assert.equal(row.lastStableLag, undefined, 'no read_committed consumer: the isolation level is unknown');
    commit(sim, { generationId: -1, topic: 'u', offset: 3 });
    sim.advance(0);
    assert.equal(describeSimGroup(sim, 'g').offsets.find((r) => r.topic === 'u')!.markerOnlyLag, false, 'one record is still unread');
  });
});
