import { strict as assert } from 'node:assert';
import { evaluateGroup, type GroupSeriesLike } from '../../../src/health/lagEvaluation';
import { lsoHolderText, transactionBlockReason, withTransactionBlocks } from '../../../src/health/transactionBlock';
import type { LsoHolder, PartitionOffsets } from '../../../src/model/types';
import { partitionDescription } from '../../../src/views/memberRows';
import { escapeMarkdown } from '../../../src/views/markdown';

const MINUTE = 60_000;
const NOW = 1_700_000_000_000;

const holder = (transactionalId = 'payments-tx-3'): LsoHolder => ({
  observedAtMs: NOW,
  producer: { producerId: 4001, producerEpoch: 2, lastSequence: 3, lastTimestamp: NOW - MINUTE, coordinatorEpoch: -1, currentTxnStartOffset: 1204 },
  transaction: {
    transactionalId, coordinatorId: 1, state: 'Ongoing', producerId: 4001, producerEpoch: 2,
    transactionTimeoutMs: MINUTE, transactionStartTimeMs: NOW - 12 * MINUTE, topicPartitions: [{ topic: 'payments', partition: 0 }],
  },
});

function row(committedOffset: number, lsoHolder: LsoHolder | null | undefined): PartitionOffsets {
  return { topic: 'payments', partition: 0, committedOffset, logStartOffset: 0, logEndOffset: 1300, lastStableOffset: 1204, lag: 1300 - committedOffset, lastStableLag: Math.max(0, 1204 - committedOffset), ...(lsoHolder === undefined ? {} : { lsoHolder }) };
}

describe('health/transactionBlock', () => {
  it('names the transaction holding the LSO, its producer, how long it is open and its timeout', () => {
    assert.equal(lsoHolderText(1204, holder()), 'held at LSO 1,204 by transaction `payments-tx-3` (producer 4001, epoch 2), open 12m, timeout 1m');
  });

  it('says why the transaction was not named, with or without its producer', () => {
    const unnamed: LsoHolder = { observedAtMs: NOW, producer: holder().producer, error: 'open transaction not named: DescribeTransactions: TRANSACTIONAL_ID_AUTHORIZATION_FAILED' };
    assert.equal(lsoHolderText(1204, unnamed), 'held at LSO 1,204 by producer 4001, epoch 2; open transaction not named: DescribeTransactions: TRANSACTIONAL_ID_AUTHORIZATION_FAILED');
    assert.equal(lsoHolderText(5, { observedAtMs: NOW, error: 'open transaction not named: DescribeProducers: TOPIC_AUTHORIZATION_FAILED' }), 'held at LSO 5; open transaction not named: DescribeProducers: TOPIC_AUTHORIZATION_FAILED');
    assert.match(lsoHolderText(5, null), /no producer's open transaction starts there/);
  });

  it('a group read up to the LSO is blocked; one still behind it, or with no holder read, is not', () => {
    assert.match(transactionBlockReason(row(1204, holder())) ?? '', /^blocked by an open transaction: held at LSO 1,204 by transaction `payments-tx-3`/);
    assert.equal(transactionBlockReason(row(1100, holder())), null, 'still has committed records to read');
    assert.equal(transactionBlockReason(row(1204, undefined)), null, 'not a read_committed row');
  });

  it('the health says blocked, not STALLED, for a position that has not moved while the transaction is open', () => {
    const times = [10, 8, 6, 4, 2, 0].map((ago) => NOW - ago * MINUTE);
    const series: GroupSeriesLike = { times, partitions: [{ topic: 'payments', partition: 0, committed: times.map(() => 1204), logEnd: times.map(() => 1300), owned: true }] };
    assert.equal(evaluateGroup(series, NOW).status, 'STALLED', 'without the holder it looks stalled');
    const blocked = evaluateGroup(withTransactionBlocks(series, [row(1204, holder())]), NOW);
    assert.equal(blocked.rule, 'blocked-by-transaction');
    assert.equal(blocked.status, 'WARNING');
    assert.match(blocked.reason, /blocked by an open transaction: held at LSO 1,204 by transaction `payments-tx-3` \(producer 4001, epoch 2\), open 12m, timeout 1m/);
  });

  it('the partition row says what holds the LSO; markup in a transactional id is escaped in markdown', () => {
    assert.match(partitionDescription(row(1204, holder()), false), / · held at LSO 1,204 by transaction `payments-tx-3` \(producer 4001, epoch 2\), open 12m, timeout 1m$/);
    const text = lsoHolderText(1204, holder('[x](http://e) *tx*'));
    assert.ok(escapeMarkdown(text).includes('\\[x\\]\\(http\\:\\/\\/e\\) \\*tx\\*'));
  });
});
