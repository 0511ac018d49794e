/**
 * Loading many groups from a real broker, beside Kafka's own tools from the same jars, on a broker the
 * bench starts (scripts/kafka/broker.js), one per run:
 *  - `many`: BENCH_KAFKA_GROUPS (20,000) classic groups. The tree's two-phase load (GroupTreeModel over
 *    KafkaSource: ListGroups, then details in batches per coordinator): time until the first rows show
 *    and until every lag figure is in; the one-phase KafkaSource.listGroupDetails(); the heap the model
 *    keeps; `kafka-consumer-groups.sh --describe --all-groups`.
 *  - `mixed`: BENCH_KAFKA_MIXED_GROUPS (2,000) groups of three types (classic, consumer, share) beside
 *    kafka-consumer-groups.sh and kafka-share-groups.sh `--describe --all-groups`.
 *  - `live`: BENCH_KAFKA_LIVE_GROUPS (20,000) classic, consumer and share groups, each with a live member
 *    (bench/kafkaLive.ts).
 * BENCH_KAFKA_RUNS=many,mixed,live picks the runs. The tools' times include their JVM's start. Prints figures only.
 */
import type { BrokerHandle } from '../scripts/kafka/broker';
import type { KafkaSource } from '../src/kafka/kafkaSource';
import { errorMessage } from '../src/protocol/errors';
import { checkFigures, coldLoad, enableShareGroups, firstShareGroup, java, modelLoad, printTable, row, seed, timedLoad, toolRows, TOOLS, TOPICS, treeOver, warmShareLag, withBroker } from './kafkaBenchKit';
import { liveGroups } from './kafkaLive';
import { plannedGroups, type SeededType } from './kafkaSeed';

const MANY_GROUPS = Number(process.env.BENCH_KAFKA_GROUPS ?? 20000);
const MIXED_GROUPS = Number(process.env.BENCH_KAFKA_MIXED_GROUPS ?? 2000);
const RUNS = (process.env.BENCH_KAFKA_RUNS ?? 'many,mixed,live').split(',').map((r) => r.trim());

/** The `many` run: thousands of classic groups, the two-phase tree load beside the CLI. */
async function manyGroups(broker: BrokerHandle, source: KafkaSource): Promise<void> {
  console.log(`\n-- ${MANY_GROUPS} classic groups`);
  const seeded = plannedGroups('bench', MANY_GROUPS, ['classic'], TOPICS);
  await seed(broker, source, seeded);

  const { data, cold, rows, heapBefore, heapAfter } = await coldLoad(source);
  row('tree, cold: first rows (ListGroups)', `${cold.firstRowsMs} ms`);
  row('tree, cold: all lag figures in', `${cold.allLagMs} ms (${checkFigures(cold.groups, seeded)})`);
  row(`tree model heap for ${rows} rows`, `${((heapAfter - heapBefore) / 1024 / 1024).toFixed(1)} MiB (heapUsed after global.gc(), before the model was built and after its load and rows; includes the source's listing)`);
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
  enableShareGroups(broker);
  const types: SeededType[] = ['classic', 'consumer', 'share'];
  const seeded = plannedGroups('mixed', MIXED_GROUPS, types, TOPICS);
  await seed(broker, source, seeded);
  warmShareLag(broker, firstShareGroup(seeded));

  const data = treeOver(source);
  const cold = await timedLoad(data, source.id, true);
  row('tree, cold: first rows (ListGroups)', `${cold.firstRowsMs} ms`);
  row('tree, cold: all details in', `${cold.allLagMs} ms (${checkFigures(cold.groups, seeded)})`);
  for (const line of cold.requests.lines()) {
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
  if (RUNS.includes('live')) {
    await withBroker(liveGroups);
  }
  printTable();
}

main().catch((e: unknown) => {
  console.error(errorMessage(e));
  process.exit(1);
});
