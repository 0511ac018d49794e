/**
 * What the Kafka bench's runs share (bench/kafka.ts, bench/kafkaLive.ts): the broker each run starts, the
 * figures table, Kafka's tools from the broker's jars, the tree's two-phase load and the check of its figures.
 */
import { spawnSync } from 'child_process';
import * as path from 'path';
import { startBroker, stopBroker, stopBrokerSync, type BrokerHandle } from '../scripts/kafka/broker';
import { KafkaSource } from '../src/kafka/kafkaSource';
import type { GroupSummary } from '../src/model/types';
import { errorMessage } from '../src/protocol/errors';
import { SourceRegistry } from '../src/sources/sourceRegistry';
import { GroupTreeModel } from '../src/views/groupTreeModel';
import { createTopics, seedGroups, type SeededGroup } from './kafkaSeed';
import { RequestTimings } from './requestTimings';

export const TOPICS = Array.from({ length: 4 }, (_, i) => `bench-${i}`);
export const TOOLS = {
  consumerGroups: 'org.apache.kafka.tools.consumer.group.ConsumerGroupCommand',
  shareGroups: 'org.apache.kafka.tools.consumer.group.ShareGroupCommand',
  streamsGroups: 'org.apache.kafka.tools.streams.StreamsGroupCommand',
};

/** Kafka 4.4 creates share groups by AlterShareGroupOffsets; every run uses one version. */
export const KAFKA_VERSION = process.env.BENCH_KAFKA_VERSION ?? '4.4.0';

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

export function gc(): void {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) {
    throw new Error('run with --expose-gc (npm run bench does)');
  }
  collect();
  collect();
}

const table: Array<[string, string]> = [];
export function row(what: string, figure: string): void {
  table.push([what, figure]);
  console.log(`  ${what}: ${figure}`);
}

/** Every row so far, aligned, under a heading that names the broker. */
export function printTable(): void {
  const width = Math.max(...table.map(([what]) => what.length));
  console.log(`\n== kafka bench figures, Apache Kafka ${KAFKA_VERSION} (machine shared with other work: figures are indicative; ${loggedErrors} client errors logged)`);
  for (const [what, figure] of table) {
    console.log(`${what.padEnd(width)}  ${figure}`);
  }
}

/** Runs one of Kafka's tools from the broker's jars; its time includes its JVM's start. */
export function java(broker: BrokerHandle, mainClass: string, args: string[]): { ms: number; stdout: string } {
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
export function toolRows(stdout: string, prefix: string): number {
  return stdout.split('\n').filter((l) => l.startsWith(prefix)).length;
}

/** Share groups need share.version=1 where it is not on by default (Kafka 4.1); where it is, the upgrade fails harmlessly. */
export function enableShareGroups(broker: BrokerHandle): void {
  try {
    java(broker, 'org.apache.kafka.tools.FeatureCommand', ['upgrade', '--feature', 'share.version=1']);
  } catch (e) {
    console.log(`  (share.version=1 not upgraded: ${errorMessage(e).split('\n')[0]})`);
  }
}

/**
 * A Kafka 4.2+ broker opens the inter-broker connection that computes share lag (NetworkPartitionMetadataClient)
 * on the first DescribeShareGroupOffsets it serves, and that request's ListOffsets fails and is retried
 * after about 2 s (KAFKA-19928), whoever sent it. A broker that has been up has paid it already; so each run
 * pays it before its measurements, with one tool call, and neither the tree nor the tools that follow it do.
 */
export function warmShareLag(broker: BrokerHandle, groupId: string): void {
  const tool = java(broker, TOOLS.shareGroups, ['--describe', '--group', groupId]);
  row(`the broker's share-lag path warmed (kafka-share-groups.sh --describe --group ${groupId})`, `${tool.ms} ms`);
}

export function firstShareGroup(seeded: readonly SeededGroup[]): string {
  const group = seeded.find((s) => s.type === 'share');
  if (!group) {
    throw new Error('the run seeded no share group');
  }
  return group.groupId;
}

export interface ModelRun {
  firstRowsMs: number;
  allLagMs: number;
  groups: GroupSummary[];
}

/**
 * The tree's own load, as the view runs it: a GroupTreeModel over the source. First rows: the cluster
 * node reported with its listed groups; all lag: the refresh's end, when the last details batch is in.
 */
export async function modelLoad(data: GroupTreeModel, sourceId: string, manual: boolean): Promise<ModelRun> {
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

/** The tree's model over the one source, as the view builds it. */
export function treeOver(source: KafkaSource): GroupTreeModel {
  const registry = new SourceRegistry();
  registry.add({ source });
  return new GroupTreeModel(registry);
}

/** modelLoad, with the requests it sends counted and timed per API. */
export async function timedLoad(data: GroupTreeModel, sourceId: string, manual: boolean): Promise<ModelRun & { requests: RequestTimings }> {
  const requests = new RequestTimings().start();
  try {
    return { ...(await modelLoad(data, sourceId, manual)), requests };
  } finally {
    requests.stop();
  }
}

export interface ColdLoad {
  data: GroupTreeModel;
  cold: ModelRun & { requests: RequestTimings };
  rows: number;
  /** heapUsed after global.gc(), before the model was built and after its cold load and rows. */
  heapBefore: number;
  heapAfter: number;
}

/** A new tree model's cold load over the source, its requests timed, and the rows the editor asks for: every group row object. */
export async function coldLoad(source: KafkaSource): Promise<ColdLoad> {
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const data = treeOver(source);
  const cold = await timedLoad(data, source.id, true);
  const [cluster] = data.roots();
  const rows = (await data.children(cluster)).length;
  gc();
  return { data, cold, rows, heapBefore, heapAfter: process.memoryUsage().heapUsed };
}

export function checkFigures(groups: readonly GroupSummary[], seeded: readonly SeededGroup[]): string {
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

/** Starts a broker for one run and stops it after, whatever the run does. */
export async function withBroker(run: (broker: BrokerHandle, source: KafkaSource) => Promise<void>): Promise<void> {
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

export async function seed(broker: BrokerHandle, source: KafkaSource, seeded: readonly SeededGroup[]): Promise<void> {
  const started = Date.now();
  await createTopics(broker, TOPICS);
  await seedGroups(source, seeded);
  row(`seeding ${seeded.length} groups (${TOPICS.length} topics x 6 partitions, 32 requests at once)`, `${Date.now() - started} ms`);
}
