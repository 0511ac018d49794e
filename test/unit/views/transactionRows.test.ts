import { strict as assert } from 'node:assert';
import type { TransactionAdmin, TransactionListing } from '../../../src/model/transactions';
import { SimTransactionAdmin } from '../../../src/simulator/admin/simTransactionAdmin';
import { Simulation } from '../../../src/simulator/simulation';
import { SourceRegistry } from '../../../src/sources/sourceRegistry';
import { describeNode } from '../../../src/views/groupTreeRows';
import { GroupTreeModel } from '../../../src/views/groupTreeModel';
import { MAX_DESCRIBED_TRANSACTIONS, MAX_TRANSACTION_ROWS, transactionChildren } from '../../../src/views/transactionRows';
import { nodeIds, type TransactionNode, type TransactionsNode, type TreeNode } from '../../../src/views/treeNodes';
import { FakeSource, groupDetail } from './fakeSource';

const NODE: TransactionsNode = { kind: 'transactions', id: nodeIds.transactions('sim'), sourceId: 'sim' };

/** "old-tx" open for 3 min of a 1-min timeout on t-0 and t-1, "new-tx" open 1 min, "done-tx" committed. */
function simulation() {
  const sim = new Simulation({ seed: 2, startTime: 1_700_000_000_000 });
  sim.createTopic('t', 2);
  sim.initTransactions('done-tx').beginTransaction();
  sim.transactionalProducer('done-tx').send('t', 1, 0);
  sim.transactionalProducer('done-tx').commitTransaction();
  const old = sim.initTransactions('old-tx', 900_000);
  old.beginTransaction();
  old.send('t', 2);
  sim.advance(120_000);
  const recent = sim.initTransactions('new-tx', 900_000);
  recent.beginTransaction();
  recent.send('t', 1, 1);
  sim.advance(60_000);
  return sim;
}

describe('views: the Transactions rows', () => {
  it('lists open transactions first, the longest open first, with how long, the timeout and the partitions', async () => {
    const sim = simulation();
    const rows = (await transactionChildren(NODE, new SimTransactionAdmin(sim))) as TransactionNode[];
    assert.deepEqual(rows.map((r) => r.listing.transactionalId), ['old-tx', 'new-tx', 'done-tx']);
    const [old, recent, done] = rows.map(describeNode);
    assert.equal(old.description, `Ongoing · open 3 min, timeout 15 min · t-0, t-1 · producer ${rows[0].listing.producerId}, epoch 0`);
    assert.equal(old.contextValue, 'kgl:transaction:open');
    assert.deepEqual(old.icon, { id: 'record', color: 'charts.orange' });
    assert.match(recent.description ?? '', /^Ongoing · open 1 min, timeout 15 min · t-1 · /);
    assert.equal(done.description, `CompleteCommit · producer ${rows[2].listing.producerId}`);
    assert.equal(done.contextValue, 'kgl:transaction:ended');
    assert.match(old.tooltip ?? '', /TransactionTimeoutMs: 900000/);
    assert.ok((old.tooltip ?? '').includes('TopicPartitions: t\\-0\\, t\\-1'), 'markdown-escaped');
    sim.dispose();
  });

  it('colours a transaction open past its timeout, escapes a transactional id holding markup, and bounds what it reads', async () => {
    const listings: TransactionListing[] = Array.from({ length: MAX_TRANSACTION_ROWS + 20 }, (_, i) => ({ transactionalId: `tx-${String(i).padStart(4, '0')}`, coordinatorId: 1, producerId: i, state: 'Ongoing' }));
    listings[0] = { ...listings[0], transactionalId: '**boom** [x](command:evil)' };
    const asked: number[] = [];
    const admin: TransactionAdmin = {
      now: () => 1_000_000,
      listTransactions: () => Promise.resolve(listings),
      describeTransactions: (ids) => {
        asked.push(ids.length);
        return Promise.resolve(ids.map((transactionalId) => ({ transactionalId, description: { transactionalId, coordinatorId: 1, state: 'Ongoing', producerId: 0, producerEpoch: 0, transactionTimeoutMs: 60_000, transactionStartTimeMs: 0, topicPartitions: [] } })));
      },
      describeProducers: () => Promise.reject(new Error('not asked')),
      topicPartitions: () => Promise.reject(new Error('not asked')),
      abortTransaction: () => Promise.reject(new Error('not asked')),
    };
    const rows = await transactionChildren(NODE, admin);
    assert.deepEqual(asked, [MAX_DESCRIBED_TRANSACTIONS], 'one DescribeTransactions of at most 100 ids');
    assert.equal(rows.length, MAX_TRANSACTION_ROWS + 1);
    const last = rows[rows.length - 1];
    assert.equal(last.kind === 'message' && last.text, '20 more transactional ids not shown (kafka-transactions.sh list shows them all)');
    const marked = rows.find((r): r is TransactionNode => r.kind === 'transaction' && r.listing.transactionalId.startsWith('**'))!;
    const d = describeNode(marked);
    assert.equal(d.icon.color, 'charts.yellow', 'open 16 min of a 1-min timeout');
    assert.ok(!(d.tooltip ?? '').includes('**boom**') && (d.tooltip ?? '').includes('\\*\\*boom\\*\\*'), d.tooltip);
    assert.match(d.tooltip ?? '', /past its timeout/);
  });

  it('says why the list failed, and that a cluster has no transactional ids', async () => {
    const failing = new SimTransactionAdmin(new Simulation({ seed: 1 }));
    assert.deepEqual((await transactionChildren(NODE, failing)).map((r) => r.kind === 'message' && r.text), ['No transactional ids']);
    failing.listTransactions = () => Promise.reject(new Error('TRANSACTIONAL_ID_AUTHORIZATION_FAILED: not allowed'));
    assert.deepEqual((await transactionChildren(NODE, failing)).map((r) => r.kind === 'message' && `${r.severity}: ${r.text}`), ['error: Failed to list transactions: TRANSACTIONAL_ID_AUTHORIZATION_FAILED: not allowed']);
  });

  it('puts the Transactions row first under a cluster that can list them, before the groups', async () => {
    const sim = simulation();
    const registry = new SourceRegistry();
    const source = new FakeSource('sim', 'Demo');
    source.put(groupDetail('payments'));
    registry.add({ source, transactions: new SimTransactionAdmin(sim) });
    const model = new GroupTreeModel(registry);
    const [cluster] = model.roots();
    await new Promise<void>((resolve) => {
      const off = model.onDidChange(() => (off(), resolve()));
      void model.children(cluster);
    });
    const children: TreeNode[] = await model.children(cluster);
    assert.deepEqual(children.map((c) => c.kind), ['transactions', 'group']);
    assert.equal((await model.children(cluster))[0], children[0], 'the same row object across reads');
    assert.deepEqual(((await model.children(children[0])) as TransactionNode[]).map((r) => r.listing.state), ['Ongoing', 'Ongoing', 'CompleteCommit']);
    model.dispose();
    sim.dispose();
  });
});
