import { strict as assert } from 'node:assert';
import type { PartitionProducers, ProducerState, TransactionDescriptionResult, TransactionListFilter, TransactionListing } from '../../../src/model/transactions';
import type { PartitionOffsets } from '../../../src/model/types';
import { lsoHolderText, transactionBlockReason } from '../../../src/health/transactionBlock';
import { SimSource } from '../../../src/simulator/editor/simSource';
import { buildScenario } from '../../../src/simulator/scenarios/runScenario';
import { TRANSACTIONS_SCENARIO } from '../../../src/simulator/scenarios/transactions';
import { fillLsoHolders, heldPartitions, notNamedText, producerHoldingLso, readLsoHolders, type LsoHolderAdmin } from '../../../src/transactions/lsoHolders';

const NOW = 1_700_000_000_000;
const key = (topic: string, partition: number) => `${topic}\u0000${partition}`;
const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

function producer(producerId: number, currentTxnStartOffset: number): ProducerState {
  return { producerId, producerEpoch: 2, lastSequence: 4, lastTimestamp: NOW - 1000, coordinatorEpoch: -1, currentTxnStartOffset };
}

/** A TransactionAdmin answering from tables, recording every call as `kafka-transactions.sh` would send it. */
class RecordingAdmin implements LsoHolderAdmin {
  readonly calls: string[] = [];
  producers = new Map<string, ProducerState[] | string>();
  /** producer id -> transactional id, as the coordinators list them. */
  coordinated = new Map<number, string>();
  describeError?: string;
  listFailure?: Error;
  producersFailure?: Error;

  now(): number {
    return NOW;
  }
  describeProducers(partitions: ReadonlyArray<{ topic: string; partition: number }>): Promise<PartitionProducers[]> {
    this.calls.push(`DescribeProducers ${partitions.map((p) => `${p.topic}-${p.partition}`).join(',')}`);
    if (this.producersFailure) {
      return Promise.reject(this.producersFailure);
    }
    return Promise.resolve(
      partitions.map(({ topic, partition }) => {
        const known = this.producers.get(`${topic}-${partition}`) ?? [];
        return typeof known === 'string' ? { topic, partition, producers: [], error: known } : { topic, partition, producers: known };
      }),
    );
  }
  listTransactions(filter: TransactionListFilter = {}): Promise<TransactionListing[]> {
    this.calls.push(`ListTransactions ${(filter.producerIds ?? []).join(',')}`);
    if (this.listFailure) {
      return Promise.reject(this.listFailure);
    }
    const wanted = new Set(filter.producerIds);
    return Promise.resolve([...this.coordinated].filter(([pid]) => wanted.has(pid)).map(([producerId, transactionalId]) => ({ transactionalId, coordinatorId: 2, producerId, state: 'Ongoing' as const })));
  }
  describeTransactions(ids: readonly string[]): Promise<TransactionDescriptionResult[]> {
    this.calls.push(`DescribeTransactions ${ids.join(',')}`);
    return Promise.resolve(
      ids.map((transactionalId) => {
        const producerId = [...this.coordinated].find(([, id]) => id === transactionalId)?.[0] ?? -1;
        return this.describeError
          ? { transactionalId, error: this.describeError }
          : {
              transactionalId,
              description: { transactionalId, coordinatorId: 2, state: 'Ongoing' as const, producerId, producerEpoch: 2, transactionTimeoutMs: 60000, transactionStartTimeMs: NOW - 12 * 60000, topicPartitions: [{ topic: 'payments', partition: 0 }] },
            };
      }),
    );
  }
}

const held = [
  { topic: 'payments', partition: 0, lastStableOffset: 1204, highWatermark: 1300 },
  { topic: 'payments', partition: 1, lastStableOffset: 60, highWatermark: 70 },
  { topic: 'audit', partition: 0, lastStableOffset: 7, highWatermark: 8 },
];

function admin(): RecordingAdmin {
  const a = new RecordingAdmin();
  a.producers.set('payments-0', [producer(4001, 1204), producer(4002, -1)]);
  a.producers.set('payments-1', [producer(4003, 50)]);
  a.producers.set('audit-0', [producer(4001, 7)]);
  a.coordinated.set(4001, 'payments-tx-3');
  a.coordinated.set(4003, 'other');
  return a;
}

function row(topic: string, partition: number, lastStableOffset: number | null, logEndOffset: number | null, committedOffset = lastStableOffset): PartitionOffsets {
  return { topic, partition, committedOffset, logStartOffset: 0, logEndOffset, lastStableOffset, lag: null };
}

describe('transactions/lsoHolders', () => {
  it('asks only partitions whose LSO is below the high watermark, each once', () => {
    const rows = [row('t', 0, 10, 10), row('t', 1, 4, 9), row('t', 1, 4, 9), row('t', 2, null, 9), row('t', 3, 5, null)];
    assert.deepEqual(heldPartitions(rows), [{ topic: 't', partition: 1, lastStableOffset: 4, highWatermark: 9 }]);
  });

  it('the producer whose open transaction starts at the LSO holds it', () => {
    const producers = [producer(7, -1), producer(8, 12), producer(9, 4)];
    assert.equal(producerHoldingLso(producers, 4)?.producerId, 9);
    assert.equal(producerHoldingLso(producers, 5), null);
  });

  it('one DescribeProducers for the held partitions, then ListTransactions filtered by the holders, then DescribeTransactions of the ids found', async () => {
    const a = admin();
    const holders = await readLsoHolders(held, a, errorText);
    assert.deepEqual(a.calls, ['DescribeProducers payments-0,payments-1,audit-0', 'ListTransactions 4001', 'DescribeTransactions payments-tx-3']);
    const p0 = holders.get(key('payments', 0));
    assert.deepEqual([p0?.producer?.producerId, p0?.producer?.producerEpoch, p0?.transaction?.transactionalId, p0?.transaction?.transactionTimeoutMs, p0?.observedAtMs, p0?.error], [4001, 2, 'payments-tx-3', 60000, NOW, undefined]);
    assert.equal(holders.get(key('audit', 0))?.transaction?.transactionalId, 'payments-tx-3');
    assert.equal(holders.get(key('payments', 1)), null, 'no producer starts its transaction at that LSO');
    assert.equal(lsoHolderText(1204, p0 ?? null), 'held at LSO 1,204 by transaction `payments-tx-3` (producer 4001, epoch 2), open 12m, timeout 1m');
  });

  it('sends nothing when no partition is held', async () => {
    const a = admin();
    assert.equal((await readLsoHolders([], a, errorText)).size, 0);
    await fillLsoHolders([row('payments', 0, 1300, 1300)], a, errorText);
    assert.deepEqual(a.calls, []);
  });

  it('a refusal at any step is the partition\'s reason, never a throw', async () => {
    const refused = admin();
    refused.producers.set('payments-1', 'TOPIC_AUTHORIZATION_FAILED: Topic authorization failed.');
    refused.describeError = 'TRANSACTIONAL_ID_AUTHORIZATION_FAILED';
    const holders = await readLsoHolders(held, refused, errorText);
    assert.equal(holders.get(key('payments', 1))?.error, notNamedText('DescribeProducers: TOPIC_AUTHORIZATION_FAILED: Topic authorization failed.'));
    assert.equal(holders.get(key('payments', 0))?.producer?.producerId, 4001, 'the producer is still known');
    assert.equal(holders.get(key('payments', 0))?.error, notNamedText('DescribeTransactions: TRANSACTIONAL_ID_AUTHORIZATION_FAILED'));

    const oldBroker = admin();
    oldBroker.listFailure = new Error('The broker does not support ListTransactions');
    assert.equal((await readLsoHolders(held, oldBroker, errorText)).get(key('payments', 0))?.error, notNamedText('ListTransactions: The broker does not support ListTransactions'));

    const down = admin();
    down.producersFailure = new Error('Connection refused');
    assert.equal((await readLsoHolders(held, down, errorText)).get(key('audit', 0))?.error, notNamedText('DescribeProducers: Connection refused'));

    const unknown = admin();
    unknown.coordinated.clear();
    assert.equal((await readLsoHolders(held, unknown, errorText)).get(key('payments', 0))?.error, notNamedText('no transaction coordinator lists producer 4001'));
  });

  it('fills the rows that are held, and leaves the others without a holder', async () => {
    const rows = [row('payments', 0, 1204, 1300), row('payments', 2, 90, 90)];
    await fillLsoHolders(rows, admin(), errorText);
    assert.equal(rows[0].lsoHolder?.transaction?.transactionalId, 'payments-tx-3');
    assert.equal('lsoHolder' in rows[1], false);
  });

  it('the simulator names the transactions scenario\'s dead importer as holder of ledger\'s partition, blocked, and nothing after its timeout', async () => {
    const { simulation } = buildScenario(TRANSACTIONS_SCENARIO);
    const source = new SimSource(simulation, { id: 'simulator' });
    simulation.advance(50_000);
    const ledger = await source.describeGroup('ledger');
    const p1 = ledger.offsets.find((o) => o.topic === 'payments-enriched' && o.partition === 1);
    const importer = simulation.findTransactionalProducer('importer-tx');
    assert.ok(p1 && importer);
    assert.equal(p1.lsoHolder?.transaction?.transactionalId, 'importer-tx');
    assert.deepEqual([p1.lsoHolder?.producer?.producerId, p1.lsoHolder?.producer?.producerEpoch, p1.lsoHolder?.producer?.currentTxnStartOffset], [importer.producerId, importer.producerEpoch, p1.lastStableOffset]);
    assert.match(transactionBlockReason(p1) ?? '', /^blocked by an open transaction: held at LSO [\d,]+ by transaction `importer-tx` \(producer \d+, epoch \d+\), open 20s, timeout 1m$/);
    assert.equal(ledger.offsets.find((o) => o.partition === 0)?.lsoHolder, undefined, 'partition 0 is not held');
    const audit = await source.describeGroup('audit');
    assert.ok(audit.offsets.every((o) => o.lsoHolder === undefined), 'a read_uncommitted group is not asked');
    simulation.advance(60_000);
    const after = await source.describeGroup('ledger');
    assert.ok(after.offsets.every((o) => o.lsoHolder === undefined), 'the coordinator aborted it at its timeout');
    await source.dispose();
  });
});
