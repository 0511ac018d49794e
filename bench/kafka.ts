/**
 * Loading many groups from a real broker, beside Kafka's own tools from the same jars, on a broker the
 * bench starts (scripts/kafka/broker.js), one per run:
 *  - `many`: BENCH_KAFKA_GROUPS (20,000) classic groups. The tree's two-phase load (GroupTreeModel over
 *    KafkaSource: ListGroups, then details in batches per coordinator): time until the first rows show
 *    and until every lag figure is in; the one-phase KafkaSource.listGroupDetails(); the heap the model
 *    keeps; `kafka-consumer-groups.sh --describe --all-groups`.
 *  - `mixed`: BENCH_KAFKA_MIXED_GROUPS (2,000) groups of three types (classic, consumer, share) beside
 *    kafka-consumer-groups.sh and kafka-share-groups.sh `--describe --all-groups`.
 * BENCH_KAFKA_RUNS=many,mixed picks the runs. The tools' times include their JVM's start. Prints figures only.
 */
import { spawnSync } from 'child_process';
import * as path from 'path';
import { startBroker, stopBroker, stopBrokerSync, type BrokerHandle } from '../scripts/kafka/broker';
import { KafkaSource } from '../src/kafka/kafkaSource';
import type { GroupSummary } from '../src/model/types';
import { errorMessage } from '../src/protocol/errors';
import { SourceRegistry } from '../src/sources/sourceRegistry';
import { GroupTreeModel } from '../src/views/groupTreeModel';
import { createTopics, plannedGroups, seedGroups, type SeededGroup, type SeededType } from './kafkaSeed';
import { RequestTimings } from './requestTimings';

const MANY_GROUPS = Number(process.env.BENCH_KAFKA_GROUPS ?? 20000);
const MIXED_GROUPS = Number(process.env.BENCH_KAFKA_MIXED_GROUPS ?? 2000);
const RUNS = (process.env.BENCH_KAFKA_RUNS ?? 'many,mixed').split(',').map((r) => r.trim());
const TOPICS = Array.from({ length: 4 }, (_, i) => `bench-${i}`);
const TOOLS = {
  consumerGroups: 'org.apache.kafka.tools.consumer.group.ConsumerGroupCommand',
  shareGroups: 'org.apache.kafka.tools.consumer.group.ShareGroupCommand',
};

/** Kafka 4.4 creates share groups by AlterShareGroupOffsets; both runs use one version. */
const KAFKA_VERSION = process.env.BENCH_KAFKA_VERSION ?? '4.4.0';

/** kafkajs's errors while `__consumer_offsets` is created on the first commit are expected: counted, the first few printed. */
let loggedErrors = 0;
const quietLogger = {
  debug: () => undefined,
  info: () => undefined,
  warn: (m: string) => console.warn(m),
  error: (m: string) => {
    if (++loggedErrors <= 3) {
      console.error(m);
    }
  },
};

function gc(): void {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) {
    throw new Error('run with --expose-gc (npm run bench does)');
  }
  collect();
  collect();
}

const table: Array<[string, string]> = [];
function row(what: string, figure: string): void {
  table.push([what, figure]);
  console.log(`  ${what}: ${figure}`);
}

function java(broker: BrokerHandle, mainClass: string, args: string[]): { ms: number; stdout: string } {
  const started = Date.now();
  const result = spawnSync('java', ['-cp', `${broker.lib}${path.sep}*`, mainClass, '--bootstrap-server', broker.bootstrap, ...args], {
    encoding: 'utf8',
    maxBuffer: 1024 * 1024 * 1024,
    timeout: 30 * 60 * 1000,
  });
  const ms = Date.now() - started;
  if (result.error || result.status !== 0) {
    throw new Error(`${mainClass} ${args.join(' ')} failed: ${result.error?.message ?? result.stderr}`);
  }
  return { ms, stdout: result.stdout };
}

/** Rows of the tool's tables that name one of the groups. */
function toolRows(stdout: string, prefix: string): number {
  return stdout.split('\n').filter((l) => l.startsWith(prefix)).length;
}

interface ModelRun {
  firstRowsMs: number;
  allLagMs: number;
  groups: GroupSummary[];
}

/**
 * The tree's own load, as the view runs it: a GroupTreeModel over the source. First rows: the cluster
 * node reported with its listed groups; all lag: the refresh's end, when the last details batch is in.
 */
async function modelLoad(data: GroupTreeModel, sourceId: string, manual: boolean): Promise<ModelRun> {
  const [cluster] = data.roots();
  const started = Date.now();
  let firstRowsAt: number | undefined;
  const unsubscribe = data.onDidChange((node) => {
    if (firstRowsAt === undefined && cluster.state.status === 'loaded' && (node === cluster || node === undefined || manual === false)) {
      firstRowsAt = Date.now();
    }
  });
  await data.refresh(sourceId, manual);
  const allLagAt = Date.now();
  unsubscribe();
  const groups = cluster.state.status === 'loaded' ? cluster.state.groups : [];
  return { firstRowsMs: (firstRowsAt ?? allLagAt) - started, allLagMs: allLagAt - started, groups };
}

function checkFigures(groups: readonly GroupSummary[], seeded: readonly SeededGroup[]): string {
  const byId = new Map(groups.map((g) => [g.groupId, g]));
  const pending = seeded.filter((s) => byId.get(s.groupId)?.detailsPending === true).length;
  const missing = seeded.filter((s) => !byId.has(s.groupId)).length;
  const errors = seeded.filter((s) => byId.get(s.groupId)?.error).length;
  const wrongLag = seeded.filter((s) => s.type !== 'share' && byId.get(s.groupId)?.totalLag !== s.lag).length;
  const types = new Map<string, number>();
  for (const s of seeded) {
    const type = byId.get(s.groupId)?.groupType ?? 'missing';
    types.set(type, (types.get(type) ?? 0) + 1);
  }
  return `${missing} missing, ${pending} without details, ${errors} with errors, ${wrongLag} with a wrong lag; types ${[...types].map(([t, n]) => `${t} ${n}`).join(', ')}`;
}

async function withBroker(run: (broker: BrokerHandle, source: KafkaSource) => Promise<void>): Promise<void> {
  const broker = await startBroker({ version: KAFKA_VERSION });
  const onExit = () => stopBrokerSync(broker);
  process.on('exit', onExit);
  const source = new KafkaSource({ id: 'bench', name: 'bench', bootstrapServers: [broker.bootstrap] }, {}, { logger: quietLogger });
  try {
    await run(broker, source);
  } finally {
    await source.dispose();
    await stopBroker(broker);
    process.off('exit', onExit);
  }
}

async function seed(broker: BrokerHandle, source: KafkaSource, seeded: readonly SeededGroup[]): Promise<void> {
  const started = Date.now();
  await createTopics(broker, TOPICS);
  await seedGroups(source, seeded);
  row(`seeding ${seeded.length} groups (${TOPICS.length} topics x 6 partitions, 32 requests at once)`, `${Date.now() - started} ms`);
}

/** The `many` run: thousands of classic groups, the two-phase tree load beside the CLI. */
async function manyGroups(broker: BrokerHandle, source: KafkaSource): Promise<void> {
  console.log(`\n-- ${MANY_GROUPS} classic groups`);
  const seeded = plannedGroups('bench', MANY_GROUPS, ['classic'], TOPICS);
  await seed(broker, source, seeded);

  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const registry = new SourceRegistry();
  registry.add({ source });
  const data = new GroupTreeModel(registry);
  const cold = await modelLoad(data, source.id, true);
  // The rows the editor asks for: every group row object.
  const [cluster] = data.roots();
  const rows = await data.children(cluster);
  gc();
  const heapAfter = process.memoryUsage().heapUsed;
  row('tree, cold: first rows (ListGroups)', `${cold.firstRowsMs} ms`);
  row('tree, cold: all lag figures in', `${cold.allLagMs} ms (${checkFigures(cold.groups, seeded)})`);
  row(`tree model heap for ${rows.length} rows`, `${((heapAfter - heapBefore) / 1024 / 1024).toFixed(1)} MiB (heapUsed after global.gc(), before the model was built and after its load and rows; includes the source's listing)`);
  const warm = await modelLoad(data, source.id, false);
  row('tree, background refresh: all lag figures in', `${warm.allLagMs} ms (${checkFigures(warm.groups, seeded)})`);

  let started = Date.now();
  await source.listGroupDetails();
  row('KafkaSource.listGroupDetails (one phase, all details at once)', `${Date.now() - started} ms`);
  started = Date.now();
  const listed = await source.listGroupsOnly();
  row('KafkaSource.listGroupsOnly alone', `${Date.now() - started} ms for ${listed.length} groups`);

  const cli = java(broker, TOOLS.consumerGroups, ['--describe', '--all-groups']);
  row('kafka-consumer-groups.sh --describe --all-groups', `${cli.ms} ms (JVM start included) for ${toolRows(cli.stdout, 'bench-')} offset rows`);
  row('tree all-lag time / CLI time', `${(cold.allLagMs / cli.ms).toFixed(3)} cold, ${(warm.allLagMs / cli.ms).toFixed(3)} background refresh`);
  data.dispose();
}

/** The `mixed` run: classic, consumer and share groups beside both tools. */
async function mixedGroups(broker: BrokerHandle, source: KafkaSource): Promise<void> {
  console.log(`\n-- ${MIXED_GROUPS} groups of mixed types`);
  // Share groups need share.version=1 where it is not on by default (Kafka 4.1); where it is, the upgrade fails harmlessly.
  try {
    java(broker, 'org.apache.kafka.tools.FeatureCommand', ['upgrade', '--feature', 'share.version=1']);
  } catch (e) {
    console.log(`  (share.version=1 not upgraded: ${errorMessage(e).split('\n')[0]})`);
  }
  const types: SeededType[] = ['classic', 'consumer', 'share'];
  const seeded = plannedGroups('mixed', MIXED_GROUPS, types, TOPICS);
  await seed(broker, source, seeded);

  const registry = new SourceRegistry();
  registry.add({ source });
  const data = new GroupTreeModel(registry);
  const timings = new RequestTimings().start();
  const cold = await modelLoad(data, source.id, true);
  timings.stop();
  row('tree, cold: first rows (ListGroups)', `${cold.firstRowsMs} ms`);
  row('tree, cold: all details in', `${cold.allLagMs} ms (${checkFigures(cold.groups, seeded)})`);
  for (const line of timings.lines()) {
    row('  cold all-details requests', line);
  }
  const warm = await modelLoad(data, source.id, false);
  row('tree, background refresh: all details in', `${warm.allLagMs} ms`);
  const started = Date.now();
  await source.listGroupDetails();
  row('KafkaSource.listGroupDetails (one phase)', `${Date.now() - started} ms`);

  const consumers = java(broker, TOOLS.consumerGroups, ['--describe', '--all-groups']);
  row('kafka-consumer-groups.sh --describe --all-groups', `${consumers.ms} ms for ${toolRows(consumers.stdout, 'mixed-')} rows`);
  const shares = java(broker, TOOLS.shareGroups, ['--describe', '--all-groups']);
  row('kafka-share-groups.sh --describe --all-groups', `${shares.ms} ms for ${toolRows(shares.stdout, 'mixed-')} rows`);
  row('tree all-details time / both tools\' time', `${(cold.allLagMs / (consumers.ms + shares.ms)).toFixed(3)} cold, ${(warm.allLagMs / (consumers.ms + shares.ms)).toFixed(3)} background refresh`);
  data.dispose();
}

async function main(): Promise<void> {
  if (RUNS.includes('many')) {
    await withBroker(manyGroups);
  }
  if (RUNS.includes('mixed')) {
    await withBroker(mixedGroups);
  }
  const width = Math.max(...table.map(([what]) => what.length));
  console.log(`\n== kafka bench figures, Apache Kafka ${KAFKA_VERSION} (machine shared with other work: figures are indicative; ${loggedErrors} client errors logged)`);
  for (const [what, figure] of table) {
    console.log(`${what.padEnd(width)}  ${figure}`);
  }
}

main().catch((e: unknown) => {
  console.error(errorMessage(e));
  process.exit(1);
});
