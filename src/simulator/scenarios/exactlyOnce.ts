/**
 * Consume-process-produce with transactions: "payments-enricher" reads payments read_committed and
 * writes enriched records plus its input offsets in one transaction. The second transaction aborts
 * (and the enricher rewinds to its committed offsets), the third is still open at the end, so the downstream read_committed group "ledger" stops at the
 * last stable offset while the high watermark runs ahead of it.
 */
import type { Scenario } from './scenarioSchema';

export const EXACTLY_ONCE_SCENARIO: Scenario = {
  name: 'exactly-once',
  description: 'Consume-process-produce with one committed, one aborted and one open transaction',
  seed: 447,
  durationMs: 40000,
  topics: [
    { name: 'payments', partitions: 2, initialRecords: 200 },
    { name: 'payments-enriched', partitions: 2 },
  ],
  consumers: [
    { id: 'enricher', groupId: 'payments-enricher', topics: ['payments'], autoOffsetReset: 'earliest', enableAutoCommit: false, isolationLevel: 'read_committed' },
    { id: 'ledger', groupId: 'ledger', topics: ['payments-enriched'], autoOffsetReset: 'earliest', isolationLevel: 'read_committed' },
  ],
  actions: [
    // Transaction 1 commits: 200 enriched records and the enricher's offsets become visible together.
    { atMs: 10000, type: 'beginTransaction', transactionalId: 'enricher-tx' },
    { atMs: 10000, type: 'produceTransactional', transactionalId: 'enricher-tx', topic: 'payments-enriched', records: 200 },
    { atMs: 10000, type: 'sendOffsetsToTransaction', transactionalId: 'enricher-tx', consumer: 'enricher' },
    { atMs: 11000, type: 'commitTransaction', transactionalId: 'enricher-tx' },
    // Transaction 2 aborts: its records stay in the log but read_committed readers skip them, and the
    // enricher seeks back to its committed offsets to process that input again.
    { atMs: 15000, type: 'produce', topic: 'payments', records: 100 },
    { atMs: 20000, type: 'beginTransaction', transactionalId: 'enricher-tx' },
    { atMs: 20000, type: 'produceTransactional', transactionalId: 'enricher-tx', topic: 'payments-enriched', records: 100 },
    { atMs: 20000, type: 'sendOffsetsToTransaction', transactionalId: 'enricher-tx', consumer: 'enricher' },
    { atMs: 22000, type: 'abortTransaction', transactionalId: 'enricher-tx', rewindConsumer: 'enricher' },
    // Transaction 3 stays open: the LSO sits at its first offset and its offsets stay pending.
    { atMs: 30000, type: 'beginTransaction', transactionalId: 'enricher-tx' },
    { atMs: 30000, type: 'produceTransactional', transactionalId: 'enricher-tx', topic: 'payments-enriched', records: 40 },
    { atMs: 30000, type: 'sendOffsetsToTransaction', transactionalId: 'enricher-tx', consumer: 'enricher' },
  ],
};
