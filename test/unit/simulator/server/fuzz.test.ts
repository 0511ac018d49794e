/**
 * Seeded, structure-aware fuzzing of the simulator's Kafka server while a kafkajs consumer keeps
 * consuming: well-formed requests of every served API, each mutated once (see mutator.ts), sent
 * over a few loopback connections. KGL_FUZZ_FRAMES sets how many frames (default 20,000, a few
 * seconds); KGL_FUZZ_SEED the seed. Nothing may throw out of the server: an uncaught exception or
 * an unhandled rejection fails the run (mocha reports it), and an engine event that fails (caught
 * by the clock's handler and logged) fails it too.
 */
import assert from 'node:assert/strict';
import { Socket } from 'node:net';
import type { Consumer } from 'kafkajs';
import { SeededRandom } from '../../../../src/simulator/common/random';
import { mutatedFrame, type MutationKind } from './mutator';
import { attackCorpus, requestCorpus, type CorpusRequest } from './requestCorpus';
import { coordinatorPort, leaderPort, startServer, waitFor, type ServerUnderTest } from './serverTestKit';
import { LiveShareConsumer } from './shareWireConsumer';

const FRAMES = Number(process.env.KGL_FUZZ_FRAMES ?? 20_000);
const SEED = Number(process.env.KGL_FUZZ_SEED ?? 2024);
/** Connections sending at once. */
const LANES = 12;
/** How long a lane waits for an answer before it gives up on the connection (a parked fetch, a join waiting for others, a frame cut short). */
const ANSWER_WAIT_MS = 60;
/** Group ids the requests use, so that many groups are fresh (Empty) when a join arrives. */
const GROUPS = 64;

/** One connection that sends a frame and waits for one answer frame, the server closing it, or ANSWER_WAIT_MS. */
class Lane {
  private socket: Socket | null = null;
  private port = -1;
  private received: Buffer[] = [];
  private receivedBytes = 0;
  private settle: (() => void) | null = null;
  private closed = true;
  reconnects = 0;

  async send(port: number, frame: Buffer): Promise<'answered' | 'closed' | 'waiting'> {
    if (this.closed || this.port !== port) {
      await this.connect(port);
    }
    const socket = this.socket as Socket;
    this.received = [];
    this.receivedBytes = 0;
    const outcome = await new Promise<'answered' | 'closed' | 'waiting'>((resolve) => {
      const timer = setTimeout(() => finish('waiting'), ANSWER_WAIT_MS);
      const finish = (result: 'answered' | 'closed' | 'waiting') => {
        clearTimeout(timer);
        this.settle = null;
        resolve(result);
      };
      this.settle = () => finish(this.closed ? 'closed' : 'answered');
      socket.write(frame);
    });
    if (outcome === 'waiting') {
      this.drop();
    }
    return outcome;
  }

  drop(): void {
    this.socket?.destroy();
    this.closed = true;
  }

  private connect(port: number): Promise<void> {
    this.drop();
    this.reconnects++;
    const socket = new Socket();
    this.socket = socket;
    this.port = port;
    this.closed = false;
    socket.on('data', (chunk: Buffer) => {
      this.received.push(chunk);
      this.receivedBytes += chunk.length;
      const head = this.received[0];
      if (this.receivedBytes >= 4 && head.length >= 4 && this.receivedBytes >= 4 + head.readInt32BE(0)) {
        this.settle?.();
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (this.socket === socket) {
        this.closed = true;
        this.settle?.();
      }
    });
    return new Promise((resolve) => socket.connect(port, '127.0.0.1', resolve));
  }
}

function portFor(env: ServerUnderTest, random: SeededRandom, request: CorpusRequest): number {
  const ports = env.server.endpoints().map((e) => e.port);
  // Mostly the broker that can answer, sometimes another (NOT_COORDINATOR, NOT_LEADER paths).
  if (request.route === null || random.next() < 0.15) {
    return ports[random.nextInt(ports.length)];
  }
  return 'group' in request.route ? coordinatorPort(env, request.route.group) : leaderPort(env, request.route.topic, request.route.partition);
}

describe('simulator Kafka server under malformed input', function () {
  this.timeout(Math.max(120_000, FRAMES * 10));
  let env: ServerUnderTest;
  let consumer: Consumer;
  let consumed = 0;
  let shareConsumer: LiveShareConsumer;

  before(async () => {
    env = await startServer({ initialRebalanceDelayMs: 20 });
    env.sim.shares.setSettings('steady-share', { autoOffsetReset: 'earliest' });
    shareConsumer = new LiveShareConsumer(env, 'steady-share', 'steadyShareMember00000', 'orders');
    await shareConsumer.start();
    consumer = env.kafka.consumer({ groupId: 'steady', sessionTimeout: 10000, heartbeatInterval: 300, maxWaitTimeInMs: 100 });
    await consumer.connect();
    await consumer.subscribe({ topic: 'orders', fromBeginning: true });
    await consumer.run({
      eachMessage: async () => {
        consumed++;
      },
    });
  });

  after(async () => {
    await shareConsumer?.stop();
    await consumer?.disconnect();
    await env?.stop();
  });

  it(`survives ${FRAMES} mutated frames of every API (seed ${SEED}) while a well-behaved consumer keeps consuming`, async () => {
    await waitFor('the steady consumers to read the initial records', () => consumed >= 12 && shareConsumer.acquired >= 12);
    const random = new SeededRandom(SEED);
    const corpora = Array.from({ length: GROUPS }, (_, g) => [...requestCorpus(`fuzzed-${g}`), ...attackCorpus(`fuzzed-${g}`)]);
    const byKind = new Map<MutationKind, number>();
    const outcomes = { answered: 0, closed: 0, waiting: 0 };
    const apis = new Set<number>();
    let sent = 0;
    const started = Date.now();
    const lane = async (worker: Lane): Promise<void> => {
      while (sent < FRAMES) {
        const index = sent++;
        const corpus = corpora[random.nextInt(GROUPS)];
        const request = corpus[random.nextInt(corpus.length)];
        const { frame, kind } = mutatedFrame(random, request, index);
        byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
        apis.add(request.apiKey);
        outcomes[await worker.send(portFor(env, random, request), frame)]++;
      }
      worker.drop();
    };
    const lanes = Array.from({ length: LANES }, () => new Lane());
    await Promise.all(lanes.map(lane));
    const seconds = (Date.now() - started) / 1000;
    // Let the engine run what the requests scheduled (joins completing, sessions expiring) before judging it.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const engineFailures = env.logLines.filter((line) => line.includes('engine event failed') || line.includes('simulation tick failed'));
    const memory = process.memoryUsage();
    const groups = env.sim.coordinator.groupIds();
    const members = groups.reduce((n, id) => n + (env.sim.coordinator.group(id)?.members.size ?? 0), 0);
    const state = `${env.sim.cluster.userTopics().length} topics, ${groups.length} groups with ${members} members, ${env.logLines.length} log lines`;
    console.log(
      `      fuzz: ${sent} frames of ${apis.size} APIs in ${seconds.toFixed(1)} s (seed ${SEED}): ${outcomes.answered} answered, ${outcomes.closed} closed by the server, ` +
        `${outcomes.waiting} still waiting when dropped; ${lanes.reduce((n, l) => n + l.reconnects, 0)} connections; no process exit; ` +
        `rss ${(memory.rss / 2 ** 20).toFixed(0)} MiB, heap ${(memory.heapUsed / 2 ** 20).toFixed(0)} MiB (${state})\n` +
        `      mutations: ${[...byKind].map(([k, n]) => `${k} ${n}`).join(', ')}`,
    );
    assert.deepEqual(engineFailures, [], 'no engine event failed');
    // Nothing is left behind by the dropped connections: parked fetches, partial frames.
    await waitFor('the dropped connections to be closed', () => env.server.bufferedRequestBytes === 0 && env.server.connectionCount <= 6);
    const waiters = env.sim.cluster.userTopics().reduce((n, t) => n + t.partitions.reduce((m, log) => m + log.waiterCount, 0), 0);
    assert.ok(waiters <= 6, `${waiters} data waiters left (the steady consumers' fetches at most)`);
    assert.ok(env.sim.shares.waiterCount <= 2, `${env.sim.shares.waiterCount} share fetches parked (the steady share consumer's at most)`);
    assert.ok(env.logLines.some((line) => line.includes('closing connection')), 'bad requests are reported in the log');

    const producer = env.kafka.producer();
    await producer.connect();
    try {
      await producer.send({ topic: 'orders', messages: [0, 1, 2].map((p) => ({ partition: p, value: 'after-fuzz' })) });
    } finally {
      await producer.disconnect();
    }
    // Records are generated by the server from their offsets, so progress is read from the group's commits.
    const logs = env.sim.cluster.requireTopic('orders').partitions;
    const committedToEnd = () => logs.every((log, p) => env.sim.coordinator.group('steady')?.offsets.get('orders')?.get(p)?.offset === log.highWatermark);
    await waitFor('the steady consumer to commit up to the records produced after the fuzzing', committedToEnd);
    const group = env.sim.coordinator.describeGroupNow('steady');
    assert.equal(group.groupState, 'Stable');
    assert.equal(group.members.length, 1);
    // The share consumer was served throughout: every record of the topic delivered to it and accepted.
    const topicId = env.sim.cluster.requireTopic('orders').topicId;
    await waitFor('the steady share consumer to accept every record', () => logs.every((log, p) => env.sim.shares.deliveryState('steady-share', topicId, p)?.startOffset === log.highWatermark)).catch((error: Error) => {
      const states = logs.map((log, p) => `${p}: hw ${log.highWatermark}, ${JSON.stringify(env.sim.shares.deliveryState('steady-share', topicId, p))}`);
      throw new Error(`${error.message}; ${states.join('; ')}; failures ${JSON.stringify(shareConsumer.failures)}`);
    });
    assert.deepEqual(shareConsumer.failures, []);
  });
});
