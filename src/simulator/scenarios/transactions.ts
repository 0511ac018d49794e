/**
 * Why a read_committed group stops: "payments-enricher" processes payments exactly once (its output and
 * its input offsets in one transaction, one of which aborts and is redone), while a second app,
 * "importer", begins a transaction on payments-enriched-1 and dies in it. Its open transaction holds that
 * partition's last stable offset: the read_committed "ledger" group stops there while the
 * read_uncommitted "audit" group reads on, and ledger's lag grows with every committed transaction
 * behind it, until the transaction coordinator aborts the dead producer's transaction at
 * transaction.timeout.ms (60 s, found by the cleanup run at 100 s) and ledger catches up.
 */
import type { Scenario, ScenarioAction } from './scenarioSchema';

const ENRICHER = 'enricher-tx';

/** One committed round of the enricher: 50 new payments in, 50 enriched records and the offsets out. */
function enricherRound(atMs: number): ScenarioAction[] {
  return [
    { atMs, type: 'produce', topic: 'payments', records: 50 },
    { atMs: atMs + 2000, type: 'beginTransaction', transactionalId: ENRICHER },
    { atMs: atMs + 2000, type: 'produceTransactional', transactionalId: ENRICHER, topic: 'payments-enriched', records: 50 },
    { atMs: atMs + 2000, type: 'sendOffsetsToTransaction', transactionalId: ENRICHER, consumer: 'enricher' },
    { atMs: atMs + 3000, type: 'commitTransaction', transactionalId: ENRICHER },
  ];
}

export const TRANSACTIONS_SCENARIO: Scenario = {
  name: 'transactions',
  description: 'Exactly-once processing, an aborted transaction, and a producer that dies mid-transaction and holds the LSO until its timeout',
  seed: 932,
  durationMs: 150000,
  topics: [
    { name: 'payments', partitions: 2, initialRecords: 200 },
    { name: 'payments-enriched', partitions: 2 },
  ],
  consumers: [
    { id: 'enricher', groupId: 'payments-enricher', topics: ['payments'], autoOffsetReset: 'earliest', enableAutoCommit: false, isolationLevel: 'read_committed' },
    { id: 'ledger', groupId: 'ledger', topics: ['payments-enriched'], autoOffsetReset: 'earliest', isolationLevel: 'read_committed' },
    { id: 'audit', groupId: 'audit', topics: ['payments-enriched'], autoOffsetReset: 'earliest', isolationLevel: 'read_uncommitted' },
  ],
  actions: [
    { atMs: 10000, type: 'beginTransaction', transactionalId: ENRICHER },
    { atMs: 10000, type: 'produceTransactional', transactionalId: ENRICHER, topic: 'payments-enriched', records: 200 },
    { atMs: 10000, type: 'sendOffsetsToTransaction', transactionalId: ENRICHER, consumer: 'enricher' },
    { atMs: 11000, type: 'commitTransaction', transactionalId: ENRICHER },
    // A transaction that aborts: read_committed readers skip its records; the enricher rewinds and redoes the work.
    { atMs: 15000, type: 'produce', topic: 'payments', records: 100 },
    { atMs: 20000, type: 'beginTransaction', transactionalId: ENRICHER },
    { atMs: 20000, type: 'produceTransactional', transactionalId: ENRICHER, topic: 'payments-enriched', records: 100 },
    { atMs: 20000, type: 'sendOffsetsToTransaction', transactionalId: ENRICHER, consumer: 'enricher' },
    { atMs: 22000, type: 'abortTransaction', transactionalId: ENRICHER, rewindConsumer: 'enricher' },
    { atMs: 25000, type: 'beginTransaction', transactionalId: ENRICHER },
    { atMs: 25000, type: 'produceTransactional', transactionalId: ENRICHER, topic: 'payments-enriched', records: 100 },
    { atMs: 25000, type: 'sendOffsetsToTransaction', transactionalId: ENRICHER, consumer: 'enricher' },
    { atMs: 26000, type: 'commitTransaction', transactionalId: ENRICHER },
    // The importer writes into a transaction and dies: nothing ends it but the coordinator's timeout.
    { atMs: 30000, type: 'beginTransaction', transactionalId: 'importer-tx' },
    { atMs: 30000, type: 'produceTransactional', transactionalId: 'importer-tx', topic: 'payments-enriched', records: 30, partition: 1 },
    ...enricherRound(40000),
    ...enricherRound(60000),
    ...enricherRound(80000),
    ...enricherRound(110000),
  ],
};
