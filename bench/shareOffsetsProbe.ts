/**
 * Probe behind shareOffsetsRequestGroups (src/kafka/shareGroups.ts), not part of `npm run bench`: on a
 * broker it starts, with PROBE_SHARE_GROUPS (300) share groups seeded, how long DescribeShareGroupOffsets
 * takes for N groups in one request against N single-group requests, topics null against topics named.
 * `node --import tsx bench/shareOffsetsProbe.ts`; PROBE_MODE picks what it times:
 *  - `shapes` (default): 1, 10, 50 and all groups, twice;
 *  - `concurrency`: all groups one a request, 1 to 16 at once, three times;
 *  - `debug`: sets the broker's loggers to DEBUG (ConfigCommand, broker-loggers) and times three
 *    requests of 2 groups, to read what the broker does in between in the log PROBE_KEEP_LOG names.
 * BENCH_KAFKA_VERSION picks the broker (4.4.0). Prints figures only.
 */
import { spawnSync } from 'child_process';
import { copyFileSync } from 'fs';
import * as path from 'path';
import { startBroker, stopBroker, type BrokerHandle } from '../scripts/kafka/broker';
import { KafkaSource } from '../src/kafka/kafkaSource';
import { mapWithConcurrency } from '../src/kafka/coordinatorBatches';
import { requireNegotiatedVersion, sendGenerated } from '../src/kafka/groupTypesWire';
import type { KafkajsBroker } from '../src/kafka/kafkajsBridge';
import { DESCRIBE_SHARE_GROUP_OFFSETS } from '../src/kafka/shareGroups';
import { errorMessage } from '../src/protocol/errors';
import { createTopics, plannedGroups, seedGroups, PARTITIONS, type SeededGroup } from './kafkaSeed';

const COUNT = Number(process.env.PROBE_SHARE_GROUPS ?? 300);
const MODE = process.env.PROBE_MODE ?? 'shapes';
const TOPICS = Array.from({ length: 4 }, (_, i) => `bench-${i}`);
const silent = () => undefined;

interface Shape {
  /** Each request's groups. */
  requests: SeededGroup[][];
  /** Name each group's topic and partitions, or topics null (every topic the group has state for). */
  named: boolean;
  concurrency: number;
}

async function time(coordinator: KafkajsBroker, what: string, { requests, named, concurrency }: Shape): Promise<void> {
  const version = requireNegotiatedVersion(coordinator, DESCRIBE_SHARE_GROUP_OFFSETS);
  const topics = (g: SeededGroup) => (named ? [{ topicName: g.topic, partitions: Array.from({ length: PARTITIONS }, (_, p) => p) }] : null);
  const started = Date.now();
  try {
    const answers = await mapWithConcurrency(requests, concurrency, (groups) =>
      sendGenerated(coordinator, DESCRIBE_SHARE_GROUP_OFFSETS, version, { groups: groups.map((g) => ({ groupId: g.groupId, topics: topics(g) })) }),
    );
    const groups = answers.flatMap((a) => a.groups);
    const rows = groups.flatMap((g) => g.topics).flatMap((t) => t.partitions);
    console.log(`${what}: ${Date.now() - started} ms (${rows.length} partition rows, ${rows.filter((r) => r.startOffset >= 0n).length} with a start offset, ${groups.filter((g) => g.errorCode !== 0).length} group errors)`);
  } catch (e) {
    console.log(`${what}: failed after ${Date.now() - started} ms: ${errorMessage(e)}`);
  }
}

const oneRequest = (groups: SeededGroup[], named = false): Shape => ({ requests: [groups], named, concurrency: 1 });
const singles = (groups: SeededGroup[], concurrency: number, named = false): Shape => ({ requests: groups.map((g) => [g]), named, concurrency });

async function probe(broker: BrokerHandle, coordinator: KafkajsBroker, seeded: SeededGroup[]): Promise<void> {
  if (MODE === 'debug') {
    const result = spawnSync('java', ['-cp', `${broker.lib}${path.sep}*`, 'org.apache.kafka.tools.ConfigCommand', '--bootstrap-server', broker.bootstrap, '--entity-type', 'broker-loggers', '--entity-name', '1', '--alter', '--add-config', 'root=DEBUG'], { encoding: 'utf8' });
    console.log(`broker loggers: ${(result.stdout + result.stderr).trim()}`);
    for (let i = 0; i < 3; i++) {
      await time(coordinator, '1 request of 2 groups, topics null', oneRequest(seeded.slice(2 * i, 2 * i + 2)));
    }
  } else if (MODE === 'concurrency') {
    for (const round of [1, 2, 3]) {
      for (const concurrency of [1, 2, 4, 8, 16]) {
        await time(coordinator, `round ${round}: ${seeded.length} single-group requests, ${concurrency} at once`, singles(seeded, concurrency));
      }
    }
  } else {
    for (const round of [1, 2]) {
      for (const named of [false, true]) {
        const topics = named ? 'topics named' : 'topics null';
        for (const n of [1, 10, 50, seeded.length]) {
          await time(coordinator, `round ${round}, ${topics}: 1 request of ${n} groups`, oneRequest(seeded.slice(0, n), named));
          await time(coordinator, `round ${round}, ${topics}: ${n} single-group requests, 8 at once`, singles(seeded.slice(0, n), 8, named));
        }
      }
    }
  }
}

async function main(): Promise<void> {
  const broker = await startBroker({ version: process.env.BENCH_KAFKA_VERSION ?? '4.4.0' });
  const source = new KafkaSource({ id: 'probe', name: 'probe', bootstrapServers: [broker.bootstrap] }, {}, { logger: { debug: silent, info: silent, warn: silent, error: silent } });
  try {
    await createTopics(broker, TOPICS);
    const seeded = plannedGroups('probe', COUNT, ['share'], TOPICS);
    const started = Date.now();
    await seedGroups(source, seeded);
    console.log(`seeded ${COUNT} share groups in ${Date.now() - started} ms`);
    const coordinator = await source.connection.coordinatorBroker(seeded[0].groupId, await source.connection.topology());
    await probe(broker, coordinator, seeded);
  } finally {
    await source.dispose();
    if (process.env.PROBE_KEEP_LOG) {
      copyFileSync(broker.logFile, process.env.PROBE_KEEP_LOG);
    }
    await stopBroker(broker);
  }
}

main().catch((e: unknown) => {
  console.error(errorMessage(e));
  process.exit(1);
});
