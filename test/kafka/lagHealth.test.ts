/**
 * Lag health against a real broker: a kafkajs consumer reads and commits while a producer goes on, then keeps
 * reading but stops committing. Each load samples the group through KafkaSource into the view's health tracker,
 * whose clock moves 40 s per load (the samples' times are the tracker's, the offsets the broker's), and the
 * evaluation must go OK → STALLED with the committed offset that stopped moving in its reason.
 */
import { strict as assert } from 'node:assert';
import type { Consumer } from 'kafkajs';
import { KafkaSource } from '../../src/kafka/kafkaSource';
import type { GroupSummary } from '../../src/model/types';
import { DEFAULT_GROUP_HEALTH_SETTINGS, GroupHealthTracker } from '../../src/views/groupHealthTracker';
import { MemoryLogger, brokerEnv, createTopics, produceToEveryPartition, testKafka, waitFor } from './support';

const RUN = `r${Date.now().toString(36)}`;
const TOPIC = `health-${RUN}`;
const GROUP = `health-group-${RUN}`;
const PARTITIONS = 2;
const RECORDS_PER_STEP = 5;
const STEP_MS = 40_000;

describe('Lag health on a real broker', function () {
  this.timeout(180000);
  const env = brokerEnv();
  let source: KafkaSource;
  let consumer: Consumer;
  let committing = true;
  let now = Date.now();
  const tracker = new GroupHealthTracker(() => now, { ...DEFAULT_GROUP_HEALTH_SETTINGS, evaluation: { ...DEFAULT_GROUP_HEALTH_SETTINGS.evaluation, windowMs: 2 * 60_000 } });
  const kafka = testKafka('lag-health');
  const admin = kafka.admin();

  before(async () => {
    source = new KafkaSource({ id: 'health', name: 'health', bootstrapServers: [env.bootstrap] }, {}, { logger: new MemoryLogger() });
    await createTopics([{ topic: TOPIC, numPartitions: PARTITIONS }]);
    await admin.connect();
    consumer = kafka.consumer({ groupId: GROUP, sessionTimeout: 10000, heartbeatInterval: 500, maxWaitTimeInMs: 200 });
    await consumer.connect();
    await consumer.subscribe({ topics: [TOPIC], fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachMessage: async ({ topic, partition, message }) => {
        if (committing) {
          await consumer.commitOffsets([{ topic, partition, offset: String(Number(message.offset) + 1) }]);
        }
      },
    });
  });

  after(async () => {
    await consumer?.disconnect();
    await admin.disconnect();
    await source?.dispose();
  });

  /** The group's committed offsets, summed over its partitions. */
  async function committedTotal(): Promise<number> {
    const [offsets] = await admin.fetchOffsets({ groupId: GROUP, topics: [TOPIC] });
    return offsets.partitions.reduce((sum, p) => sum + Math.max(0, Number(p.offset)), 0);
  }

  /** Produces to every partition; while committing, waits until the consumer committed it all; then one load 40 s later. */
  async function step(produced: number): Promise<GroupSummary> {
    await produceToEveryPartition(TOPIC, PARTITIONS, RECORDS_PER_STEP);
    if (committing) {
      await waitFor(`the consumer to commit all ${produced} records`, async () => ((await committedTotal()) === produced ? true : undefined));
    }
    now += STEP_MS;
    const group = (await tracker.load(source)).find((g) => g.groupId === GROUP);
    assert.ok(group, `group ${GROUP} listed`);
    return group;
  }

  it('moves OK → STALLED when the consumer stops committing while the producer goes on', async () => {
    let produced = 0;
    for (let i = 0; i < 4; i++) {
      produced += PARTITIONS * RECORDS_PER_STEP;
      const group = await step(produced);
      assert.equal(group.health?.status, 'OK', `consuming, step ${i + 1}: ${group.health?.reason}`);
    }
    const committedWhenStopped = await committedTotal();
    committing = false;
    const seen: string[] = [];
    let stalled: GroupSummary | undefined;
    for (let i = 0; i < 6 && stalled === undefined; i++) {
      produced += PARTITIONS * RECORDS_PER_STEP;
      const group = await step(produced);
      seen.push(`${group.health?.status}: ${group.health?.reason}`);
      assert.ok(group.health?.status === 'OK' || group.health?.status === 'STALLED', `only OK until STALLED: ${seen.join('; ')}`);
      stalled = group.health?.status === 'STALLED' ? group : undefined;
    }
    assert.ok(stalled, `STALLED within the window once commits stop; saw ${seen.join('; ')}`);
    assert.match(stalled.health?.reason ?? '', /committed offset \d+ has not moved over the last 2m.* while lag is \d+/);
    assert.equal(await committedTotal(), committedWhenStopped, 'no commit after the consumer stopped committing');
    assert.ok(seen.length >= 3, 'not before the window holds only samples taken after the commits stopped');
  });
});
