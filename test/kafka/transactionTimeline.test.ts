/**
 * A transaction's offsets on the timeline, from a real broker's `__consumer_offsets`: a kafkajs
 * transactional producer sends a group's offsets in one transaction that commits and another that
 * aborts (sendOffsetsToTransaction, TxnOffsetCommit). KafkaSource, tailing the group's partition of
 * `__consumer_offsets`, reports each as staged, then committed or aborted when the producer's marker
 * reaches the partition, and the group's committed offsets are the committed transaction's.
 */
import { strict as assert } from 'node:assert';
import type { Producer, Transaction } from 'kafkajs';
import { KafkaSource } from '../../src/kafka/kafkaSource';
import type { RebalanceEvent } from '../../src/model/types';
import { buildTimeline } from '../../src/timeline/timelineModel';
import { MemoryLogger, brokerEnv, createTopics, testKafka, waitFor } from './support';

const RUN = `r${Date.now().toString(36)}`;
const TOPIC = `txn-timeline-${RUN}`;
const GROUP = `txn-timeline-${RUN}`;

describe('transaction spans on the timeline from a real broker\'s __consumer_offsets', function () {
  this.timeout(120000);
  const env = brokerEnv();
  let source: KafkaSource;
  let producer: Producer | undefined;
  let stopWatching: () => void = () => undefined;

  before(async () => {
    await createTopics([{ topic: TOPIC, numPartitions: 2 }]);
    source = new KafkaSource({ id: 'txn-timeline', name: 'txn-timeline', bootstrapServers: [env.bootstrap] }, {}, { logger: new MemoryLogger() });
    stopWatching = source.watchRebalances(GROUP, (reason) => assert.fail(`__consumer_offsets unreadable: ${reason}`));
    // The group's coordinator loaded first (an admin commit, retried on NOT_COORDINATOR): kafkajs's sendOffsets does not retry.
    assert.deepEqual(await source.commitOffsets(GROUP, [0, 1].map((partition) => ({ topic: TOPIC, partition, offset: 0 }))), [0, 1].map((partition) => ({ topic: TOPIC, partition })));
    producer = testKafka('txn-timeline').producer({ transactionalId: `txn-timeline-${RUN}`, idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
  });

  after(async () => {
    stopWatching();
    await producer?.disconnect();
    await source?.dispose();
  });

  const offsets = (offset: number): Array<{ topic: string; partitions: Array<{ partition: number; offset: string }> }> => [
    { topic: TOPIC, partitions: [0, 1].map((partition) => ({ partition, offset: String(offset) })) },
  ];

  /** The Java producer retries CONCURRENT_TRANSACTIONS (the last transaction's markers still being written); kafkajs does not. */
  const sendOffsets = (transaction: Transaction, offset: number): Promise<void> =>
    waitFor('AddOffsetsToTxn past CONCURRENT_TRANSACTIONS', async () => {
      try {
        await transaction.sendOffsets({ consumerGroupId: GROUP, topics: offsets(offset) });
        return true;
      } catch (e) {
        if ((e as { type?: string }).type === 'CONCURRENT_TRANSACTIONS') {
          return undefined;
        }
        throw e;
      }
    }).then(() => undefined);

  it('shows a committed and an aborted transaction\'s offsets, staged then committed or dropped, as the coordinator applied them', async () => {
    const committed = await producer!.transaction();
    await committed.send({ topic: TOPIC, messages: [{ partition: 0, value: 'a' }] });
    await sendOffsets(committed, 7);
    await committed.commit();
    const aborted = await producer!.transaction();
    await sendOffsets(aborted, 9);
    await aborted.abort();

    const kinds = (events: readonly RebalanceEvent[]): string[] => events.filter((e) => e.kind.startsWith('transaction-')).map((e) => e.kind);
    const events = await waitFor('the group\'s two transactions and their markers', async () => {
      const all = source.rebalanceEvents(GROUP);
      return kinds(all).length >= 4 ? all : undefined;
    }, 45000);
    assert.deepEqual(kinds(events), ['transaction-offsets', 'transaction-committed', 'transaction-offsets', 'transaction-aborted']);
    const staged = events.filter((e) => e.kind === 'transaction-offsets');
    assert.deepEqual(staged[0].transaction?.partitions.map((p) => `${p.topic}-${p.partition}`).sort(), [`${TOPIC}-0`, `${TOPIC}-1`]);
    const producerId = staged[0].transaction?.producerId;
    assert.ok(producerId !== undefined && producerId >= 0);
    assert.ok(events.filter((e) => e.transaction).every((e) => e.transaction?.producerId === producerId), 'one producer throughout');

    const model = buildTimeline(GROUP, events);
    assert.deepEqual(model.transactions.map((t) => t.outcome), ['committed', 'aborted']);
    assert.ok(model.transactions.every((t) => t.to !== null && t.to >= t.from));

    // What the coordinator kept: the committed transaction's offsets, not the aborted one's.
    const group = await source.describeGroup(GROUP);
    assert.deepEqual(group.offsets.map((o) => o.committedOffset), [7, 7]);
  });
});
