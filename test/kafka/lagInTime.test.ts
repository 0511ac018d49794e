/**
 * Lag in time against a real broker: records produced with known client timestamps (CreateTime), offsets
 * committed at known positions, and KafkaSource.listGroupDetails must report now minus the timestamp of the
 * record at each committed offset, within the test's own clock readings before and after the load, and the span
 * of produced time still to consume: the newest record's timestamp minus that one.
 */
import { strict as assert } from 'node:assert';
import { KafkaSource } from '../../src/kafka/kafkaSource';
import { MemoryLogger, brokerEnv, createTopics, testKafka } from './support';

const RUN = `r${Date.now().toString(36)}`;
const TOPIC = `timed-${RUN}`;
const GROUP = `timed-group-${RUN}`;
const RECORDS = 5;
/** Committed offset per partition: 1 and 3 lag, 5 has consumed everything. */
const COMMITTED = [1, 3, RECORDS];

describe('Lag in time on a real broker', function () {
  this.timeout(120000);
  const env = brokerEnv();
  const logger = new MemoryLogger();
  let source: KafkaSource;
  /** Timestamps (epoch ms) of the records, per partition and offset: an hour ago, 10 s apart. */
  const base = Date.now() - 3_600_000;
  const timestampOf = (partition: number, offset: number) => base + partition * 1000 + offset * 10_000;

  before(async () => {
    source = new KafkaSource({ id: 'timed', name: 'timed', bootstrapServers: [env.bootstrap] }, {}, { logger });
    await createTopics([{ topic: TOPIC, numPartitions: COMMITTED.length }]);
    const kafka = testKafka('lag-in-time');
    const producer = kafka.producer();
    await producer.connect();
    try {
      for (let partition = 0; partition < COMMITTED.length; partition++) {
        const messages = Array.from({ length: RECORDS }, (_, offset) => ({ partition, value: `v${offset}`, timestamp: String(timestampOf(partition, offset)) }));
        await producer.send({ topic: TOPIC, messages });
      }
    } finally {
      await producer.disconnect();
    }
    const admin = kafka.admin();
    await admin.connect();
    try {
      await admin.setOffsets({ groupId: GROUP, topic: TOPIC, partitions: COMMITTED.map((offset, partition) => ({ partition, offset: String(offset) })) });
    } finally {
      await admin.disconnect();
    }
  });

  after(async () => {
    await source?.dispose();
  });

  it('is now minus the timestamp of the record at the committed offset, and the group max the largest', async () => {
    const before = Date.now();
    const group = (await source.listGroupDetails()).find((g) => g.groupId === GROUP);
    const after = Date.now();
    assert.ok(group, `${GROUP} is listed`);
    const rows = [...group.offsets].sort((a, b) => a.partition - b.partition);
    assert.deepEqual(rows.map((r) => [r.partition, r.committedOffset, r.logEndOffset]), COMMITTED.map((offset, partition) => [partition, offset, RECORDS]));
    for (const [partition, offset] of COMMITTED.entries()) {
      const lag = rows[partition].lagInTimeMs;
      if (offset === RECORDS) {
        assert.equal(lag, 0, `partition ${partition} has nothing to consume`);
        continue;
      }
      assert.ok(typeof lag === 'number', `partition ${partition} has a lag in time (log: ${logger.lines.join(' | ')})`);
      const stamp = timestampOf(partition, offset);
      assert.ok(lag >= before - stamp && lag <= after - stamp, `partition ${partition}: ${lag} ms within [${before - stamp}, ${after - stamp}]`);
    }
    assert.equal(group.maxLagInTimeMs, rows[0].lagInTimeMs, 'the oldest unconsumed record is partition 0 offset 1');
    // The span of produced time still to consume: the newest record's timestamp (ListOffsets MAX_TIMESTAMP)
    // minus the first unconsumed one's, exactly; 0 where nothing is left.
    assert.deepEqual(
      rows.map((r) => r.lagInTimeSpanMs),
      COMMITTED.map((offset, partition) => (offset === RECORDS ? 0 : timestampOf(partition, RECORDS - 1) - timestampOf(partition, offset))),
      `spans (log: ${logger.lines.join(' | ')})`,
    );
    assert.deepEqual(rows.map((r) => r.lagInTimeApproximate), COMMITTED.map(() => undefined), 'records in time order, no markers: exact');
    // The two lagging partitions' figures differ by exactly their records' timestamps (same clock reading).
    assert.equal((rows[0].lagInTimeMs as number) - (rows[1].lagInTimeMs as number), timestampOf(1, 3) - timestampOf(0, 1));
  });
});
