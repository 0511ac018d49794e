import { strict as assert } from 'node:assert';
import { buildScenario, runScenario } from '../../../../src/simulator/scenarios/runScenario';
import { TRANSACTIONS_SCENARIO } from '../../../../src/simulator/scenarios/transactions';

describe('transactions scenario', () => {
  it('holds payments-enriched-1 at the dead importer\'s first offset: ledger (read_committed) stops, audit reads on, until the timeout aborts it', () => {
    const { simulation } = buildScenario(TRANSACTIONS_SCENARIO);
    const log = simulation.cluster.partition('payments-enriched', 1)!;
    const committed = (groupId: string) => simulation.coordinator.group(groupId)?.committed('payments-enriched', 1)?.offset;
    const importer = () => simulation.findTransactionalProducer('importer-tx')!;
    simulation.runUntil(29999);
    const held = log.highWatermark;
    assert.equal(log.lastStableOffset, held, 'no transaction open before the importer\'s');

    simulation.runUntil(99999);
    assert.equal(importer().state, 'Ongoing');
    assert.equal(log.lastStableOffset, held, 'the LSO stays at the importer\'s first offset');
    assert.ok(log.highWatermark > held + 30, 'the enricher\'s committed transactions pile up behind it');
    assert.equal(committed('ledger'), held, 'ledger stops at the LSO');
    assert.equal(committed('audit'), log.highWatermark, 'audit (read_uncommitted) reads to the high watermark');
    const [producer] = log.activeProducers(simulation.now).filter((p) => p.currentTxnStartOffset >= 0);
    assert.deepEqual([producer.producerId, producer.currentTxnStartOffset], [importer().producerId, held], 'DescribeProducers names the importer');

    // Deadline 30 s + 60 s; the coordinator's cleanup runs every 10 s.
    simulation.runUntil(100000);
    assert.deepEqual([importer().state, importer().producerEpoch, importer().transactionsTimedOut], ['CompleteAbort', 1, 1]);
    assert.equal(log.lastStableOffset, log.highWatermark);
    simulation.runUntil(TRANSACTIONS_SCENARIO.durationMs);
    assert.equal(committed('ledger'), log.highWatermark, 'ledger caught up');
    assert.equal(log.abortedTransactions, 2, 'the enricher\'s aborted transaction and the importer\'s');
    simulation.dispose();
  });

  it('runs to the end without errors, the enricher committing its offsets in every transaction but the aborted one', () => {
    const { events } = runScenario(TRANSACTIONS_SCENARIO);
    const commits = events.filter((e) => e.groupId === 'payments-enricher' && e.kind === 'transaction-committed').map((e) => e.time);
    assert.deepEqual(commits, [11000, 26000, 43000, 63000, 83000, 113000]);
    assert.deepEqual(events.filter((e) => e.groupId === 'payments-enricher' && e.kind === 'transaction-aborted').map((e) => e.time), [22000]);
  });
});
