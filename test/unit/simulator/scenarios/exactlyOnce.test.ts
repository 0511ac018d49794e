import { strict as assert } from 'node:assert';
import { buildScenario, runScenario } from '../../../../src/simulator/scenarios/runScenario';
import { EXACTLY_ONCE_SCENARIO } from '../../../../src/simulator/scenarios/exactlyOnce';

describe('exactly-once scenario', () => {
  it('commits the first transaction, discards the aborted one and leaves the third pending', () => {
    const { simulation } = buildScenario(EXACTLY_ONCE_SCENARIO);
    simulation.runUntil(EXACTLY_ONCE_SCENARIO.durationMs);
    const enricher = simulation.coordinator.group('payments-enricher')!;
    // 100 records per payments partition were processed in transaction 1; transaction 2's offsets (150) were aborted.
    assert.deepEqual([0, 1].map((p) => enricher.committed('payments', p)?.offset), [100, 100]);
    assert.deepEqual(
      simulation.coordinator.pendingOffsets.list('payments-enricher').map((p) => [p.partition, p.value.offset]),
      [[0, 150], [1, 150]],
      'transaction 3 re-sent 150 after the rewind and is still open',
    );
    for (const partition of [0, 1]) {
      const log = simulation.cluster.partition('payments-enriched', partition)!;
      // 100 committed + marker, 50 aborted + marker, then 20 open records.
      assert.equal(log.highWatermark, 172);
      assert.equal(log.lastStableOffset, 152);
      assert.equal(log.abortedTransactions, 1);
      assert.equal(simulation.coordinator.group('ledger')!.committed('payments-enriched', partition)?.offset, 152);
    }
    simulation.dispose();
  });

  it('runs to the end without errors and logs each transaction that staged offsets, pending, then committed or aborted', () => {
    const { events } = runScenario(EXACTLY_ONCE_SCENARIO);
    const transactional = events.filter((e) => e.groupId === 'payments-enricher' && e.kind.startsWith('transaction-'));
    assert.deepEqual(
      transactional.map((e) => [e.time, e.kind, e.transaction?.producerId, e.cause]),
      [
        [10000, 'transaction-offsets', 0, '2 offset(s) staged by transactional producer 0 (enricher-tx), pending until its marker'],
        [11000, 'transaction-committed', 0, '2 offset(s) committed: producer 0 wrote its COMMIT marker'],
        [20000, 'transaction-offsets', 0, '2 offset(s) staged by transactional producer 0 (enricher-tx), pending until its marker'],
        [22000, 'transaction-aborted', 0, '2 offset(s) dropped: producer 0 wrote its ABORT marker'],
        // The third transaction is still open at the end: its offsets stay pending.
        [30000, 'transaction-offsets', 0, '2 offset(s) staged by transactional producer 0 (enricher-tx), pending until its marker'],
      ],
    );
    const staged = transactional[0].transaction;
    assert.equal(staged?.transactionalId, 'enricher-tx');
    assert.deepEqual(staged?.partitions, [{ topic: 'payments', partition: 0 }, { topic: 'payments', partition: 1 }]);
    assert.equal(events.filter((e) => e.groupId === 'payments-enricher' && e.kind === 'offsets-committed').length, 0);
  });
});
