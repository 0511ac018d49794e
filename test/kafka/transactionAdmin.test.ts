/**
 * Transaction administration on a real broker (KIP-664), through our KafkaTransactionAdmin and the same
 * flows the editor's commands run: a Java transactional producer dies mid-transaction, so its open
 * transaction holds the LSO and a read_committed consumer group stops there. Our list, describe and
 * describe-producers must agree with kafka-transactions.sh's; our find-hanging must find what the tool
 * finds; and Abort Transaction… must free the LSO so the group catches up.
 */
import { strict as assert } from 'node:assert';
import type { Consumer, Producer } from 'kafkajs';
import { abortTransactionFlow } from '../../src/commands/transactionFlows';
import { KafkaSource } from '../../src/kafka/kafkaSource';
import { KafkaTransactionAdmin } from '../../src/kafka/kafkaTransactionAdmin';
import { readCommittedLookup } from '../../src/kafka/isolationLevels';
import { findHangingTransactions } from '../../src/transactions/findHanging';
import { ScriptedAdminPrompts } from '../unit/commands/scriptedAdminPrompts';
import { MemoryLogger, brokerEnv, createTopics, javaTestClasspath, runJavaClass, testKafka, waitFor } from './support';
import { printedTable, transactionsTool } from './transactionsTool';
import { InitProducerIdRequest } from '../../src/protocol/messages/initProducerIdRequest';
import { InitProducerIdResponse } from '../../src/protocol/messages/initProducerIdResponse';
import { ProduceRequest } from '../../src/protocol/messages/produceRequest';
import { ProduceResponse } from '../../src/protocol/messages/produceResponse';
import { encodeRecordBatch } from '../../src/protocol/recordBatch';
import { codecExchange } from '../unit/simulator/server/serverTestKit';

const RUN = `r${Date.now().toString(36)}`;
const TOPIC = `held-${RUN}`;
const GROUP = `eos-${RUN}-ledger`;
const TRANSACTIONAL_ID = `importer-tx-${RUN}`;
const COMMITTED = 3;
const OPEN = 2;
/** The open transaction starts after the committed records and their COMMIT marker. */
const START = COMMITTED + 1;

describe('transaction administration on a real broker: describe, find-hanging and Abort Transaction', function () {
  this.timeout(240000);
  const env = brokerEnv();
  const tool = (...args: string[]) => transactionsTool(env, env.bootstrap, ...args);
  let source: KafkaSource;
  let admin: KafkaTransactionAdmin;
  let consumer: Consumer | undefined;
  let producer: Producer | undefined;

  const partitionRow = async () => {
    const group = await source.describeGroup(GROUP);
    return group.offsets.find((o) => o.topic === TOPIC && o.partition === 0);
  };

  before(async () => {
    source = new KafkaSource({ id: 'txn-admin', name: 'txn-admin', bootstrapServers: [env.bootstrap] }, {}, { logger: new MemoryLogger(), isolationLevelFor: readCommittedLookup([`eos-${RUN}-*`]) });
    admin = new KafkaTransactionAdmin(source.connection);
    await createTopics([{ topic: TOPIC, numPartitions: 1 }]);
    const opened = await runJavaClass(javaTestClasspath(env.lib, 'OpenTransaction'), 'OpenTransaction', [env.bootstrap, TOPIC, TRANSACTIONAL_ID, String(COMMITTED), String(OPEN), '600000']);
    assert.ok(opened.includes('OPEN'), opened.join('\n'));
    // A read_committed group (kafkajs reads read_committed by default) that commits what it reads.
    consumer = testKafka(`js-${GROUP}`).consumer({ groupId: GROUP, sessionTimeout: 10000, heartbeatInterval: 500, maxWaitTimeInMs: 200 });
    await consumer.connect();
    await consumer.subscribe({ topics: [TOPIC], fromBeginning: true });
    await consumer.run({ autoCommitInterval: 200, eachMessage: async () => undefined });
  });

  after(async () => {
    await consumer?.disconnect();
    await producer?.disconnect();
    await source?.dispose();
  });

  it('names the open transaction holding the LSO as kafka-transactions.sh list, describe and describe-producers do', async () => {
    const [printed] = printedTable(await tool('describe-producers', '--topic', TOPIC, '--partition', '0'), 'ProducerId');
    const [ours] = await admin.describeProducers([{ topic: TOPIC, partition: 0 }]);
    assert.equal(ours.error, undefined);
    assert.equal(ours.producers.length, 1, JSON.stringify(ours));
    const [p] = ours.producers;
    assert.deepEqual(
      [String(p.producerId), String(p.producerEpoch), String(p.coordinatorEpoch), String(p.lastSequence), String(p.lastTimestamp), String(p.currentTxnStartOffset)],
      [printed.ProducerId, printed.ProducerEpoch, printed.LatestCoordinatorEpoch, printed.LastSequence, printed.LastTimestamp, printed.CurrentTransactionStartOffset],
    );
    assert.equal(p.currentTxnStartOffset, START);

    const listed = (await admin.listTransactions()).find((l) => l.transactionalId === TRANSACTIONAL_ID);
    const toolListed = printedTable(await tool('list'), 'TransactionalId').find((r) => r.TransactionalId === TRANSACTIONAL_ID);
    assert.deepEqual([listed?.coordinatorId, listed?.producerId, listed?.state].map(String), [toolListed?.Coordinator, toolListed?.ProducerId, toolListed?.TransactionState]);
    assert.equal(listed?.producerId, p.producerId, 'the coordinator names the producer holding the LSO');

    const [described] = await admin.describeTransactions([TRANSACTIONAL_ID]);
    const [toolDescribed] = printedTable(await tool('describe', '--transactional-id', TRANSACTIONAL_ID), 'CoordinatorId');
    const d = described.description;
    assert.ok(d, described.error);
    assert.deepEqual(
      [d.coordinatorId, d.producerId, d.producerEpoch, d.state, d.transactionTimeoutMs, d.transactionStartTimeMs, d.topicPartitions.map((tp) => `${tp.topic}-${tp.partition}`).join(',')].map(String),
      [toolDescribed.CoordinatorId, toolDescribed.ProducerId, toolDescribed.ProducerEpoch, toolDescribed.TransactionState, toolDescribed.TransactionTimeoutMs, toolDescribed.CurrentTransactionStartTimeMs, toolDescribed.TopicPartitions],
    );
    const [unknown] = await admin.describeTransactions([`never-${RUN}`]);
    assert.match(unknown.error ?? '', /^TRANSACTIONAL_ID_NOT_FOUND/);

    // The read_committed group stops at the LSO while the high watermark is past it.
    const row = await waitFor('the group to commit up to the LSO', async () => {
      const r = await partitionRow();
      return r && r.lastStableOffset === START && r.logEndOffset === START + OPEN && (r.committedOffset ?? -1) >= COMMITTED ? r : undefined;
    });
    assert.ok((row.committedOffset ?? Infinity) <= START);
  });

  it('finds what kafka-transactions.sh find-hanging finds: nothing, while the coordinator still holds the partition', async () => {
    const printed = printedTable(await tool('find-hanging', '--topic', TOPIC, '--max-transaction-timeout', '0'), 'Topic');
    const ours = await findHangingTransactions(admin, { topic: TOPIC, maxTransactionTimeoutMs: 0 });
    assert.deepEqual(ours.map((h) => `${h.topic}-${h.partition}@${h.producer.currentTxnStartOffset}`), printed.map((r) => `${r.Topic}-${r.Partition}@${r.StartOffset}`));
    assert.deepEqual(ours, [], 'a transaction its coordinator holds is not hanging, however long it is open');
    const byBroker = await findHangingTransactions(admin, { brokerId: (await source.describeCluster()).brokers[0].nodeId, maxTransactionTimeoutMs: 0 });
    assert.ok(!byBroker.some((h) => h.topic === TOPIC));
  });

  it('Abort Transaction… writes the ABORT marker: the LSO moves to the high watermark and the read_committed group catches up', async () => {
    const prompts = new ScriptedAdminPrompts([{ pick: 'Offset 4' }], [true]);
    const outcome = await abortTransactionFlow(prompts, admin, { topic: TOPIC, partition: 0 });
    assert.equal(outcome?.transactionalId, TRANSACTIONAL_ID);
    assert.match(prompts.confirmations[0].detail ?? '', /discarded/);
    const [after] = printedTable(await tool('describe-producers', '--topic', TOPIC, '--partition', '0'), 'ProducerId');
    assert.equal(after.CurrentTransactionStartOffset, 'None', 'the tool sees the transaction ended');
    // Two records after the abort marker: the group must read them, past where the LSO held it.
    producer = testKafka(`txn-admin-${RUN}`).producer();
    await producer.connect();
    await producer.send({ topic: TOPIC, messages: [{ partition: 0, value: 'after-1' }, { partition: 0, value: 'after-2' }] });
    const end = START + OPEN + 1 + 2;
    await waitFor('the group to catch up past the aborted transaction', async () => {
      const r = await partitionRow();
      return r && r.lastStableOffset === end && r.logEndOffset === end && r.committedOffset === end ? r : undefined;
    }, 60000);
    await assert.rejects(abortTransactionFlow(new ScriptedAdminPrompts([]), admin, { topic: TOPIC, partition: 0, startOffset: START }), /Could not find any open transactions starting at offset 4/);
  });

  it('finds a constructed hanging transaction exactly as kafka-transactions.sh find-hanging does, and aborts it', async () => {
    // A broker that does not verify transactions (transaction.partition.verification.enable=false, a dynamic
    // cluster-wide config) takes a Transactions V1 Produce (v11) to a partition its coordinator never added:
    // the records open a transaction that no coordinator will ever end (the hanging transaction of KIP-664).
    const topic = `hang-${RUN}`;
    const transactionalId = `zombie-tx-${RUN}`;
    await createTopics([{ topic, numPartitions: 1 }]);
    // kafka-configs.sh: kafka.admin.ConfigCommand up to 4.1, org.apache.kafka.tools.ConfigCommand in 4.2+.
    const configs = (...args: string[]) => {
      const argv = ['--bootstrap-server', env.bootstrap, '--entity-type', 'brokers', '--entity-default', '--alter', ...args];
      return runJavaClass(`${env.lib}/*`, 'org.apache.kafka.tools.ConfigCommand', argv).catch((e: Error) =>
        /Could not find or load main class/.test(e.message) ? runJavaClass(`${env.lib}/*`, 'kafka.admin.ConfigCommand', argv) : Promise.reject(e),
      );
    };
    const port = Number(env.bootstrap.split(':').pop());
    await configs('--add-config', 'transaction.partition.verification.enable=false');
    try {
      const init = await codecExchange(port, InitProducerIdRequest, InitProducerIdResponse, 4, { transactionalId, transactionTimeoutMs: 600000, producerId: -1n, producerEpoch: -1 });
      assert.equal(init.errorCode, 0);
      const batch = encodeRecordBatch({ baseOffset: 0n, baseTimestamp: BigInt(Date.now()), producerId: init.producerId, producerEpoch: init.producerEpoch, baseSequence: 0, transactional: true, records: [{ value: Buffer.from('zombie') }] });
      // The verification switch reaches the broker asynchronously: send until the produce is taken.
      await waitFor('the unverified transactional produce to be accepted', async () => {
        const produced = await codecExchange(port, ProduceRequest, ProduceResponse, 11, { transactionalId, acks: -1, timeoutMs: 5000, topicData: [{ name: topic, partitionData: [{ index: 0, records: batch }] }] });
        return produced.responses[0].partitionResponses[0].errorCode === 0 ? true : undefined;
      });
    } finally {
      await configs('--delete-config', 'transaction.partition.verification.enable');
    }
    const printed = printedTable(await tool('find-hanging', '--topic', topic, '--max-transaction-timeout', '0'), 'Topic');
    const ours = await findHangingTransactions(admin, { topic, maxTransactionTimeoutMs: 0 });
    assert.equal(printed.length, 1, 'the tool finds the constructed hanging transaction');
    assert.deepEqual(
      ours.map((h) => [h.topic, h.partition, h.producer.producerId, h.producer.producerEpoch, h.producer.coordinatorEpoch, h.producer.currentTxnStartOffset, h.producer.lastTimestamp].map(String)),
      printed.map((r) => [r.Topic, r.Partition, r.ProducerId, r.ProducerEpoch, r.CoordinatorEpoch, r.StartOffset, r.LastTimestamp]),
    );
    const outcome = await abortTransactionFlow(new ScriptedAdminPrompts([], [true]), admin, { topic, partition: 0, startOffset: 0 });
    assert.equal(outcome?.transactionalId, transactionalId, 'the coordinator knows the id, but not that its transaction holds this partition');
    const [after] = printedTable(await tool('describe-producers', '--topic', topic, '--partition', '0'), 'ProducerId');
    assert.equal(after.CurrentTransactionStartOffset, 'None');
    assert.deepEqual(printedTable(await tool('find-hanging', '--topic', topic, '--max-transaction-timeout', '0'), 'Topic'), []);
  });
});
