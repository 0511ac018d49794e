/**
 * Transaction markers through the server: a Fetch returns each COMMIT/ABORT marker as a control
 * batch, so real consumers skip it and move past it as they do on a broker, and read_committed
 * ones never see aborted records. The transactions are the engine's (a simulated transactional
 * producer); the consumers are kafkajs's.
 */
import { strict as assert } from 'node:assert';
import type { Consumer } from 'kafkajs';
import { describeSimGroup } from '../../../../src/simulator/admin/groupDetailMapper';
import { startServer, waitFor, type ServerUnderTest } from './serverTestKit';

const TOPIC = 'payments';

describe('simulator server: transaction markers in Fetch', function () {
  this.timeout(60000);
  let t: ServerUnderTest;
  const consumers: Consumer[] = [];

  before(async () => {
    t = await startServer();
    t.sim.cluster.createTopic(TOPIC, 1);
    // Offsets: 0..4 committed records, 5 COMMIT, 6..8 aborted records, 9 ABORT.
    const producer = t.sim.initTransactions('payments-tx');
    producer.beginTransaction();
    producer.send(TOPIC, 5, 0);
    producer.commitTransaction();
    producer.beginTransaction();
    producer.send(TOPIC, 3, 0);
    producer.abortTransaction();
  });

  after(async () => {
    await Promise.all(consumers.map((c) => c.disconnect()));
    await t.stop();
  });

  /** Consumes from the start with auto-commit; returns the values it got, as they arrive. */
  async function consume(groupId: string, readUncommitted: boolean): Promise<string[]> {
    const consumer = t.kafka.consumer({ groupId, readUncommitted, maxWaitTimeInMs: 100, heartbeatInterval: 500 });
    consumers.push(consumer);
    const values: string[] = [];
    await consumer.connect();
    await consumer.subscribe({ topic: TOPIC, fromBeginning: true });
    // A commit per resolved offset: the position after the markers is committed as soon as the consumer moves there.
    await consumer.run({ autoCommitThreshold: 1, eachMessage: async ({ message }) => void values.push(message.value?.toString() ?? '') });
    return values;
  }

  const committed = (groupId: string): number | null =>
    describeSimGroup(t.sim, groupId).offsets.find((o) => o.topic === TOPIC && o.partition === 0)?.committedOffset ?? null;

  it('gives a read_committed consumer the committed records only, and its position passes both markers', async () => {
    const log = t.sim.cluster.requireTopic(TOPIC).partitions[0];
    assert.deepEqual([log.lastStableOffset, log.highWatermark], [10, 10]);
    const values = await consume('committed-reader', false);
    await waitFor('the read_committed consumer to commit past the ABORT marker', () => committed('committed-reader') === 10);
    assert.deepEqual(values, [0, 1, 2, 3, 4].map((o) => `${TOPIC}/0@${o}`));
  });

  it('gives a read_uncommitted consumer the aborted records too, never a marker', async () => {
    const values = await consume('uncommitted-reader', true);
    await waitFor('the read_uncommitted consumer to commit past the ABORT marker', () => committed('uncommitted-reader') === 10);
    assert.deepEqual(values, [0, 1, 2, 3, 4, 6, 7, 8].map((o) => `${TOPIC}/0@${o}`));
  });
});
