/**
 * The simulator's transactions scenario as two timelines would show it: payments-enricher's own
 * transactions (committed, aborted, one left open) from its event log, and ledger's events with the
 * LSO holds a panel reads from its snapshots every 5 s, merged as the panel merges them.
 */
import type { RebalanceEvent } from '../../../src/model/types';
import { SimSource } from '../../../src/simulator/editor/simSource';
import { buildScenario } from '../../../src/simulator/scenarios/runScenario';
import { TRANSACTIONS_SCENARIO } from '../../../src/simulator/scenarios/transactions';
import { LsoHoldObserver, mergeByTime } from '../../../src/timeline/lsoHoldObserver';

export interface TransactionsTimelines {
  enricher: RebalanceEvent[];
  ledger: RebalanceEvent[];
  /** The ledger's LSO hold events alone, in the order seen. */
  ledgerHolds: RebalanceEvent[];
  importerProducerId: number;
}

export async function transactionsTimelines(snapshots = 24, everyMs = 5000): Promise<TransactionsTimelines> {
  const { simulation } = buildScenario(TRANSACTIONS_SCENARIO);
  const source = new SimSource(simulation, { id: 'simulator' });
  try {
    const observer = new LsoHoldObserver('ledger');
    for (let step = 0; step < snapshots; step++) {
      simulation.advance(everyMs);
      observer.observe(await source.describeGroup('ledger'), source.now());
    }
    const importer = simulation.findTransactionalProducer('importer-tx');
    if (!importer) {
      throw new Error('the transactions scenario has no importer-tx producer');
    }
    return {
      enricher: source.rebalanceEvents('payments-enricher'),
      ledger: mergeByTime(source.rebalanceEvents('ledger'), observer.events()),
      ledgerHolds: observer.events(),
      importerProducerId: importer.producerId,
    };
  } finally {
    await source.dispose();
  }
}
