/**
 * Kafka transactions through the server with kafkajs's transactional producer: InitProducerId
 * with a transactional id, AddPartitionsToTxn, transactional Produce, AddOffsetsToTxn,
 * TxnOffsetCommit and EndTxn, all landing in the engine (records, markers, LSO, pending offsets).
 */
import { strict as assert } from 'node:assert';
import type { Admin, Producer } from 'kafkajs';
import { startServer, waitFor, type ServerUnderTest } from './serverTestKit';

const TOPIC = 'ledger';

describe('simulator server: transactions from kafkajs', function () {
  this.timeout(60000);
  let t: ServerUnderTest;
  let admin: Admin;
  const producers: Producer[] = [];

  before(async () => {
    t = await startServer();
    t.sim.cluster.createTopic(TOPIC, 2);
    admin = t.kafka.admin();
    await admin.connect();
  });

  after(async () => {
    await Promise.all(producers.map((p) => p.disconnect().catch(() => undefined)));
    await admin.disconnect();
    await t.stop();
  });

  async function transactionalProducer(transactionalId: string): Promise<Producer> {
    const producer = t.kafka.producer({ transactionalId, idempotent: true, maxInFlightRequests: 1, retry: { retries: 1, initialRetryTime: 50 } });
    producers.push(producer);
    await producer.connect();
    return producer;
  }

  const log = (partition: number) => t.sim.cluster.requireTopic(TOPIC).partitions[partition];
  const message = (partition: number, value: string) => ({ partition, value });

  it('commits one transaction over two partitions and aborts another: markers, LSO and what read_committed sees', async () => {
    const producer = await transactionalProducer('ledger-writer');
    const committed = await producer.transaction();
    await committed.send({ topic: TOPIC, messages: [message(0, 'a'), message(0, 'b'), message(0, 'c'), message(1, 'd'), message(1, 'e')] });
    // Open: the LSO holds at the first record of the transaction.
    assert.deepEqual([log(0).lastStableOffset, log(0).highWatermark], [0, 3]);
    await committed.commit();
    assert.deepEqual([log(0).lastStableOffset, log(0).highWatermark, log(1).highWatermark], [4, 4, 3], 'one COMMIT marker per partition');

    const aborted = await producer.transaction();
    await aborted.send({ topic: TOPIC, messages: [message(0, 'x'), message(0, 'y')] });
    await aborted.abort();
    assert.deepEqual([log(0).lastStableOffset, log(0).highWatermark], [7, 7]);
    assert.equal(log(0).visibleRecords(0, 7, 'read_committed'), 3);
    assert.equal(log(0).visibleRecords(0, 7, 'read_uncommitted'), 5);

    const consumer = t.kafka.consumer({ groupId: 'ledger-reader', readUncommitted: false, maxWaitTimeInMs: 100 });
    const seen: string[] = [];
    await consumer.connect();
    await consumer.subscribe({ topic: TOPIC, fromBeginning: true });
    await consumer.run({ eachMessage: async ({ partition, message: m }) => void seen.push(`${partition}@${m.offset}`) });
    await waitFor('the read_committed consumer to read the committed records', () => seen.length >= 5);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await consumer.disconnect();
    assert.deepEqual(seen.sort(), ['0@0', '0@1', '0@2', '1@0', '1@1']);
  });

  it('keeps offsets sent in a transaction pending until it commits, and drops them when it aborts', async () => {
    const producer = await transactionalProducer('ledger-processor');
    const groupOffset = async (): Promise<string> => (await admin.fetchOffsets({ groupId: 'ledger-eos', topics: [TOPIC] }))[0].partitions.find((p) => p.partition === 0)?.offset ?? '?';

    const first = await producer.transaction();
    await first.send({ topic: TOPIC, messages: [message(1, 'out-1')] });
    await first.sendOffsets({ consumerGroupId: 'ledger-eos', topics: [{ topic: TOPIC, partitions: [{ partition: 0, offset: '3' }] }] });
    assert.equal(await groupOffset(), '-1', 'not visible before the commit');
    await first.commit();
    assert.equal(await groupOffset(), '3');

    const second = await producer.transaction();
    await second.sendOffsets({ consumerGroupId: 'ledger-eos', topics: [{ topic: TOPIC, partitions: [{ partition: 0, offset: '5' }] }] });
    await second.abort();
    assert.equal(await groupOffset(), '3', 'an aborted transaction commits no offsets');
  });

  it('fences the older producer when another one initializes the same transactional id', async () => {
    const zombie = await transactionalProducer('ledger-fenced');
    const open = await zombie.transaction();
    await open.send({ topic: TOPIC, messages: [message(1, 'zombie')] });
    const hwBefore = log(1).highWatermark;

    const successor = await transactionalProducer('ledger-fenced');
    // kafkajs sends InitProducerId when the first transaction begins.
    const successorTransaction = await successor.transaction();
    // The new instance's InitProducerId aborted what the old one left open.
    assert.equal(log(1).highWatermark, hwBefore + 1, 'an ABORT marker');
    assert.equal(log(1).lastStableOffset, log(1).highWatermark);
    await assert.rejects(open.send({ topic: TOPIC, messages: [message(1, 'late')] }), /epoch/i);
    await successorTransaction.send({ topic: TOPIC, messages: [message(1, 'successor')] });
    await successorTransaction.commit();
    assert.equal(log(1).lastStableOffset, hwBefore + 3, 'the successor commits: its record and its marker');
  });
});
