/**
 * The `live` run of bench/kafka.ts: BENCH_KAFKA_LIVE_GROUPS (20,000) groups, classic, KIP-848 consumer,
 * KIP-932 share and KIP-1071 streams in turn (BENCH_KAFKA_LIVE_TYPES), each seeded with offsets (bench/kafkaSeed.ts) and then
 * given one LIVE member, all held by one Java process (bench/java/live, LiveGroups) over
 * BENCH_KAFKA_LIVE_CONNECTIONS (16) connections, heartbeating every BENCH_KAFKA_LIVE_HEARTBEAT_MS (10,000)
 * within the 45 s session. With the members live: the tree's first rows, all details cold and a background
 * refresh, the extension host's heap after the cold load and the requests of each load, beside
 * kafka-consumer-groups.sh, kafka-share-groups.sh and kafka-streams-groups.sh `--describe --all-groups`. Before and after, the broker
 * is asked, through the tools' `--members`, whether the members are there.
 */
import type { BrokerHandle } from '../scripts/kafka/broker';
import type { KafkaSource } from '../src/kafka/kafkaSource';
import type { GroupSummary } from '../src/model/types';
import { checkFigures, coldLoad, enableShareGroups, firstShareGroup, java, row, seed, timedLoad, toolRows, TOOLS, TOPICS, warmShareLag } from './kafkaBenchKit';
import { PARTITIONS, plannedGroups, type SeededGroup, type SeededType } from './kafkaSeed';
import { LiveMembers } from './liveMembers';

const LIVE_GROUPS = Number(process.env.BENCH_KAFKA_LIVE_GROUPS ?? 20000);
const LIVE_TYPES = (process.env.BENCH_KAFKA_LIVE_TYPES ?? 'classic,consumer,share,streams').split(',').map((t) => t.trim()) as SeededType[];
const CONNECTIONS = Number(process.env.BENCH_KAFKA_LIVE_CONNECTIONS ?? 16);
const HEARTBEAT_MS = Number(process.env.BENCH_KAFKA_LIVE_HEARTBEAT_MS ?? 10000);
/** The broker's default group.consumer.session.timeout.ms and group.share.session.timeout.ms; classic members ask for the same. */
const SESSION_MS = 45000;
const PREFIX = 'live';

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** Groups the tree shows Stable with a member, by type. */
function liveInTree(groups: readonly GroupSummary[], seeded: readonly SeededGroup[]): string {
  const byId = new Map(groups.map((g) => [g.groupId, g]));
  const live = new Map<string, number>();
  for (const s of seeded) {
    const group = byId.get(s.groupId);
    if (group?.state === 'Stable' && group.memberCount > 0) {
      live.set(s.type, (live.get(s.type) ?? 0) + 1);
    }
  }
  return `Stable with a member: ${LIVE_TYPES.map((t) => `${t} ${live.get(t) ?? 0}`).join(', ')}`;
}

/** Groups in kafka-consumer-groups.sh's offsets table with a CONSUMER-ID on some partition (the seventh column). */
function groupsWithConsumers(stdout: string): number {
  const groups = new Set<string>();
  for (const line of stdout.split('\n')) {
    const columns = line.trim().split(/\s+/);
    if (columns[0].startsWith(`${PREFIX}-`) && columns.length >= 7 && columns[6] !== '-') {
      groups.add(columns[0]);
    }
  }
  return groups.size;
}

/** The tool that describes each type's groups, and its script's name (one object a tool, so a Set runs each once). */
const consumerGroupsTool = { mainClass: TOOLS.consumerGroups, script: 'kafka-consumer-groups.sh' };
const TOOL_OF: Record<SeededType, { mainClass: string; script: string }> = {
  classic: consumerGroupsTool,
  consumer: consumerGroupsTool,
  share: { mainClass: TOOLS.shareGroups, script: 'kafka-share-groups.sh' },
  streams: { mainClass: TOOLS.streamsGroups, script: 'kafka-streams-groups.sh' },
};

/** The broker's view of one group of each type, through the tools' `--describe --members`. */
function membersByTools(broker: BrokerHandle, seeded: readonly SeededGroup[], when: string): void {
  for (const type of LIVE_TYPES) {
    const group = seeded.find((s) => s.type === type);
    if (!group) {
      continue;
    }
    const { mainClass, script } = TOOL_OF[type];
    const { stdout } = java(broker, mainClass, ['--describe', '--group', group.groupId, '--members']);
    const lines = stdout.split('\n').map((l) => l.trim().replace(/\s+/g, ' ')).filter((l) => l.length > 0);
    row(`${script} --describe --group ${group.groupId} --members (${when})`, lines.join(' | '));
  }
}

export async function liveGroups(broker: BrokerHandle, source: KafkaSource): Promise<void> {
  console.log(`\n-- ${LIVE_GROUPS} groups with live members (${LIVE_TYPES.join(', ')})`);
  enableShareGroups(broker);
  const seeded = plannedGroups(PREFIX, LIVE_GROUPS, LIVE_TYPES, TOPICS);
  await seed(broker, source, seeded);
  const joinStarted = Date.now();
  const members = LiveMembers.start(broker, {
    prefix: PREFIX, count: LIVE_GROUPS, types: LIVE_TYPES, topics: TOPICS, partitions: PARTITIONS,
    connections: CONNECTIONS, heartbeatMs: HEARTBEAT_MS, sessionMs: SESSION_MS,
  });
  try {
    await members.untilReady(Math.max(180000, LIVE_GROUPS * 30));
    row(`members live (one JVM, ${CONNECTIONS} connections, a heartbeat every ${HEARTBEAT_MS} ms, session ${SESSION_MS} ms)`, `all after ${Date.now() - joinStarted} ms: ${await members.freshStatus()}`);
    membersByTools(broker, seeded, 'before');
    if (LIVE_TYPES.includes('share')) {
      warmShareLag(broker, firstShareGroup(seeded));
    }
    await measure(broker, source, seeded);
    membersByTools(broker, seeded, 'after');
    row('members after the measurements', await members.freshStatus());
  } finally {
    await members.stop();
  }
}

async function measure(broker: BrokerHandle, source: KafkaSource, seeded: readonly SeededGroup[]): Promise<void> {
  const { data, cold, rows, heapBefore, heapAfter } = await coldLoad(source);
  row('live: tree, cold: first rows (ListGroups)', `${cold.firstRowsMs} ms`);
  row('live: tree, cold: all details in', `${cold.allLagMs} ms (${checkFigures(cold.groups, seeded)}; ${liveInTree(cold.groups, seeded)})`);
  row('live: extension host heap after the cold load', `${mib(heapAfter)} heapUsed after global.gc() (${mib(heapAfter - heapBefore)} more than before the model was built; ${rows} rows)`);
  row('live: requests of the cold load', `${cold.requests.requestCount()}: ${cold.requests.lines().join('; ')}`);

  const warm = await timedLoad(data, source.id, false);
  row('live: tree, background refresh: all details in', `${warm.allLagMs} ms (${liveInTree(warm.groups, seeded)})`);
  row('live: requests per background refresh', `${warm.requests.requestCount()}: ${warm.requests.lines().join('; ')}`);
  data.dispose();

  let toolsMs = 0;
  for (const { mainClass, script } of new Set(LIVE_TYPES.map((t) => TOOL_OF[t]))) {
    const tool = java(broker, mainClass, ['--describe', '--all-groups']);
    const consumers = mainClass === TOOLS.consumerGroups ? ` (${groupsWithConsumers(tool.stdout)} groups with a CONSUMER-ID)` : '';
    row(`live: ${script} --describe --all-groups`, `${tool.ms} ms for ${toolRows(tool.stdout, `${PREFIX}-`)} rows${consumers}`);
    toolsMs += tool.ms;
  }
  row('live: tree all-details time / the tools\' time', `${(cold.allLagMs / toolsMs).toFixed(3)} cold, ${(warm.allLagMs / toolsMs).toFixed(3)} background refresh (first rows ${cold.firstRowsMs} ms)`);
}
