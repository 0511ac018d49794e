/**
 * Loading many groups from a real broker: KafkaSource.listGroups() (state, members and lag of every
 * group) beside `kafka-consumer-groups.sh --describe --all-groups` from the same Kafka jars.
 * Starts its own broker through scripts/kafka/broker.js. Prints figures only.
 */
import { spawnSync } from 'child_process';
import * as path from 'path';
import { Kafka, logLevel } from 'kafkajs';
import { startBroker, stopBroker, stopBrokerSync, type BrokerHandle } from '../scripts/kafka/broker';
import { KafkaSource } from '../src/kafka/kafkaSource';

const GROUPS = Number(process.env.BENCH_KAFKA_GROUPS ?? 2000);
const TOPICS = 4;
const PARTITIONS = 6;
const COMMIT_CONCURRENCY = 16;

const quietLogger = { debug: () => undefined, info: () => undefined, warn: (m: string) => console.warn(m), error: (m: string) => console.error(m) };

async function seed(broker: BrokerHandle, source: KafkaSource): Promise<void> {
  const kafka = new Kafka({ brokers: [broker.bootstrap], logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  const topics = Array.from({ length: TOPICS }, (_, i) => `bench-${i}`);
  await admin.createTopics({ topics: topics.map((topic) => ({ topic, numPartitions: PARTITIONS })), waitForLeaders: true });
  await admin.disconnect();
  const producer = kafka.producer();
  await producer.connect();
  for (const topic of topics) {
    for (let partition = 0; partition < PARTITIONS; partition++) {
      await producer.send({ topic, messages: Array.from({ length: 50 }, (_, i) => ({ partition, value: String(i) })) });
    }
  }
  await producer.disconnect();
  // Each group commits to one topic (all partitions) with a lag that depends on the group.
  let next = 0;
  const worker = async () => {
    while (next < GROUPS) {
      const g = next++;
      const topic = topics[g % TOPICS];
      const offsets = Array.from({ length: PARTITIONS }, (_, partition) => ({ topic, partition, offset: (g + partition) % 50 }));
      const results = await source.commitOffsets(`bench-group-${g}`, offsets);
      const failed = results.find((r) => r.error);
      if (failed) {
        throw new Error(`commit for bench-group-${g} failed: ${failed.error}`);
      }
    }
  };
  await Promise.all(Array.from({ length: COMMIT_CONCURRENCY }, worker));
}

function timeCli(broker: BrokerHandle): { ms: number; rows: number } {
  const started = Date.now();
  const result = spawnSync(
    'java',
    ['-cp', `${broker.lib}${path.sep}*`, 'org.apache.kafka.tools.consumer.group.ConsumerGroupCommand', '--bootstrap-server', broker.bootstrap, '--describe', '--all-groups'],
    { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
  );
  const ms = Date.now() - started;
  if (result.status !== 0) {
    throw new Error(`ConsumerGroupCommand failed: ${result.stderr}`);
  }
  return { ms, rows: result.stdout.split('\n').filter((l) => l.startsWith('bench-group-')).length };
}

async function main(): Promise<void> {
  const broker = await startBroker();
  process.on('exit', () => stopBrokerSync(broker));
  const source = new KafkaSource({ id: 'bench', name: 'bench', bootstrapServers: [broker.bootstrap] }, {}, { logger: quietLogger });
  try {
    let started = Date.now();
    await seed(broker, source);
    console.log(`seeded ${GROUPS} groups (${TOPICS} topics x ${PARTITIONS} partitions) in ${Date.now() - started} ms`);

    for (const run of ['cold', 'warm']) {
      started = Date.now();
      const groups = await source.listGroups();
      const ms = Date.now() - started;
      const bench = groups.filter((g) => g.groupId.startsWith('bench-group-'));
      const lag = bench.reduce((sum, g) => sum + (g.totalLag ?? 0), 0);
      const errors = bench.filter((g) => g.error).length;
      console.log(`KafkaSource.listGroups (${run}): ${ms} ms for ${bench.length} groups, total lag ${lag}, ${errors} with errors`);
    }
    const cli = timeCli(broker);
    console.log(`kafka-consumer-groups.sh --describe --all-groups: ${cli.ms} ms (JVM start included) for ${cli.rows} offset rows`);
  } finally {
    await source.dispose();
    await stopBroker(broker);
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
