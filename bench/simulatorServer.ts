/**
 * Benchmark: 100 kafkajs consumers in one group against the simulator's Kafka server (loopback),
 * heartbeating and committing. Prints how long the 100 take to join, the requests the server
 * handles per second (counted on the server side) and memory. Server and clients share this
 * process, so the memory figures cover both. Figures only, no assertions.
 * Run: npx tsx bench/simulatorServer.ts
 */
import { getHeapStatistics } from 'v8';
import { Kafka, logLevel, type Consumer } from 'kafkajs';
import { SimKafkaServer } from '../src/simulator/server/kafkaServer';
import { Simulation } from '../src/simulator/simulation';

const CONSUMERS = 100;
const PARTITIONS = 100;
const GROUP = 'bench-server-group';
const TOPIC = 'bench-server';
const HEARTBEAT_INTERVAL_MS = 300;
/** Kafka's default group.initial.rebalance.delay.ms, part of every first join. */
const INITIAL_REBALANCE_DELAY_MS = 3000;
const COMMIT_INTERVAL_MS = 500;
const MEASURE_MS = 15000;
/** kafkajs heartbeats between fetches, so a fetch long-poll no longer than the heartbeat interval keeps heartbeats on time. */
const FETCH_MAX_WAIT_MS = HEARTBEAT_INTERVAL_MS;
/** Kafka API keys of the requests counted apart. */
const API_KEYS = { fetch: 1, offsetCommit: 8, heartbeat: 12 } as const;

const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const heapUsed = (): number => getHeapStatistics().used_heap_size;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

interface Member {
  consumer: Consumer;
  partitions: number[];
  joined: boolean;
}

async function startMember(kafka: Kafka, index: number, counts: { heartbeats: number }): Promise<Member> {
  const consumer = kafka.consumer({ groupId: GROUP, sessionTimeout: 30000, rebalanceTimeout: 60000, heartbeatInterval: HEARTBEAT_INTERVAL_MS, maxWaitTimeInMs: FETCH_MAX_WAIT_MS });
  const member: Member = { consumer, partitions: [], joined: false };
  consumer.on(consumer.events.GROUP_JOIN, (event) => {
    member.partitions = event.payload.memberAssignment[TOPIC] ?? [];
    member.joined = true;
  });
  consumer.on(consumer.events.HEARTBEAT, () => {
    counts.heartbeats++;
  });
  await consumer.connect();
  await consumer.subscribe({ topics: [TOPIC], fromBeginning: true });
  await consumer.run({ autoCommit: false, eachMessage: async () => undefined });
  if (index % 25 === 24) {
    console.log(`  ${index + 1} consumers started`);
  }
  return member;
}

async function run(): Promise<void> {
  const heapBefore = heapUsed();
  const rssBefore = process.memoryUsage().rss;
  const sim = new Simulation({ seed: 1, startTime: Date.now(), cluster: { brokers: 3 }, coordinator: { initialRebalanceDelayMs: INITIAL_REBALANCE_DELAY_MS } });
  sim.cluster.createTopic(TOPIC, PARTITIONS);
  const server = new SimKafkaServer(sim, { log: (line) => console.error(`server: ${line}`) });
  await server.start();
  const kafka = new Kafka({ clientId: 'bench', brokers: server.bootstrapServers, logLevel: logLevel.NOTHING, retry: { retries: 10 } });
  const counts = { heartbeats: 0, commits: 0, commitErrors: 0 };

  const joinStart = process.hrtime.bigint();
  const members = await Promise.all(Array.from({ length: CONSUMERS }, (_, i) => startMember(kafka, i, counts)));
  const stable = (): boolean => {
    const group = sim.coordinator.group(GROUP);
    return group?.state === 'Stable' && group.members.size === CONSUMERS && members.every((m) => m.joined);
  };
  while (!stable()) {
    await sleep(20);
  }
  const joinMs = Number(process.hrtime.bigint() - joinStart) / 1e6;
  const group = sim.coordinator.group(GROUP);
  console.log(`join: ${CONSUMERS} consumers Stable in ${joinMs.toFixed(0)} ms (${INITIAL_REBALANCE_DELAY_MS} ms of it the initial rebalance delay; generation ${group?.generationId}, ${members.filter((m) => m.partitions.length > 0).length} with partitions)`);

  // Each member commits its partitions every COMMIT_INTERVAL_MS while kafkajs heartbeats on its own.
  let committing = true;
  const commitLoops = members.map(async (member, i) => {
    await sleep((i * COMMIT_INTERVAL_MS) / CONSUMERS); // spread the commits over the interval
    let offset = 0;
    while (committing) {
      offset++;
      try {
        await member.consumer.commitOffsets(member.partitions.map((partition) => ({ topic: TOPIC, partition, offset: String(offset) })));
        counts.commits++;
      } catch {
        counts.commitErrors++;
      }
      await sleep(COMMIT_INTERVAL_MS);
    }
  });

  const requestsAtStart = server.requestsHandled;
  const byApiAtStart = Object.fromEntries(Object.entries(API_KEYS).map(([name, key]) => [name, server.requestsHandledOf(key)]));
  const heartbeatsAtStart = counts.heartbeats;
  const commitsAtStart = counts.commits;
  const cpuStart = process.cpuUsage();
  const measureStart = process.hrtime.bigint();
  let peakHeap = heapUsed();
  for (let elapsed = 0; elapsed < MEASURE_MS; elapsed += 1000) {
    await sleep(1000);
    peakHeap = Math.max(peakHeap, heapUsed());
  }
  const seconds = Number(process.hrtime.bigint() - measureStart) / 1e9;
  const cpu = process.cpuUsage(cpuStart);
  const requests = server.requestsHandled - requestsAtStart;
  const finalGroup = sim.coordinator.group(GROUP);
  console.log(`steady state over ${seconds.toFixed(1)} s (heartbeat.interval ${HEARTBEAT_INTERVAL_MS} ms, a commit per consumer every ${COMMIT_INTERVAL_MS} ms):`);
  const rate = (name: keyof typeof API_KEYS): string => ((server.requestsHandledOf(API_KEYS[name]) - byApiAtStart[name]) / seconds).toFixed(0);
  console.log(`  server requests  ${(requests / seconds).toFixed(0)}/s (${requests} in all): Heartbeat ${rate('heartbeat')}/s, OffsetCommit ${rate('offsetCommit')}/s, Fetch ${rate('fetch')}/s`);
  console.log(`  client side      ${((counts.heartbeats - heartbeatsAtStart) / seconds).toFixed(0)} heartbeats/s, ${((counts.commits - commitsAtStart) / seconds).toFixed(0)} commits/s (${counts.commitErrors} failed)`);
  console.log(`  cpu              ${((cpu.user + cpu.system) / 1000 / seconds / 10).toFixed(0)}% of one core (server and clients together)`);
  console.log(`  group            ${finalGroup?.state}, generation ${finalGroup?.generationId} (a change means a rebalance during the run)`);
  console.log(`memory: heap ${mib(heapBefore)} before, peak ${mib(peakHeap)} with server and ${CONSUMERS} clients; rss ${mib(rssBefore)} → ${mib(process.memoryUsage().rss)}`);

  committing = false;
  await Promise.all(commitLoops);
  await Promise.all(members.map((m) => m.consumer.disconnect()));
  await server.close();
  sim.dispose();
}

run().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.stack : String(error));
    process.exit(1);
  },
);
