/**
 * Benchmark: what two resource attacks on the simulator's Kafka server (loopback) leave behind.
 *  1. 100,000 Fetch requests at the end of an idle partition with a 1 ms wait, all answered:
 *     RSS and heap after a collection, and the data waiters left on the partition.
 *  2. 20 connections each sending 19 MiB of a declared 20 MiB frame and holding it: RSS while
 *     they are held, how many the server kept, and the RSS after they go.
 * Server and clients share this process. Figures only, no assertions.
 * Run: npx tsx --expose-gc bench/serverAttacks.ts
 */
import { Socket } from 'node:net';
import { SimKafkaServer } from '../src/simulator/server/kafkaServer';
import { Simulation } from '../src/simulator/simulation';

const FETCHES = 100_000;
const CONNECTIONS_FOR_FETCHES = 10;
const PARTIAL_FRAMES = 20;
const DECLARED_FRAME_BYTES = 20 * 1024 * 1024;
const SENT_FRAME_BYTES = 19 * 1024 * 1024;

const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function collect(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
}

function memory(): string {
  collect();
  const m = process.memoryUsage();
  return `rss ${mib(m.rss)}, heap ${mib(m.heapUsed)}, external+buffers ${mib(m.external + m.arrayBuffers)}`;
}

/** Fetch v4 of `topic`-0 from `offset`, waiting up to 1 ms. */
function fetchFrame(topic: string, offset: number, correlationId: number): Buffer {
  const name = Buffer.from(topic);
  const clientId = Buffer.from('bench');
  const body = Buffer.alloc(4 + 4 + 4 + 4 + 1 + 4 + 2 + name.length + 4 + 4 + 8 + 4);
  let at = 0;
  at = body.writeInt32BE(-1, at); // replica id
  at = body.writeInt32BE(1, at); // max wait ms
  at = body.writeInt32BE(1, at); // min bytes
  at = body.writeInt32BE(1 << 20, at); // max bytes
  at = body.writeInt8(0, at); // isolation
  at = body.writeInt32BE(1, at); // one topic
  at = body.writeInt16BE(name.length, at);
  at += name.copy(body, at);
  at = body.writeInt32BE(1, at); // one partition
  at = body.writeInt32BE(0, at);
  at = body.writeBigInt64BE(BigInt(offset), at);
  body.writeInt32BE(1 << 20, at);
  const header = Buffer.alloc(10);
  header.writeInt16BE(1, 0);
  header.writeInt16BE(4, 2);
  header.writeInt32BE(correlationId, 4);
  header.writeInt16BE(clientId.length, 8);
  const size = Buffer.alloc(4);
  size.writeInt32BE(header.length + clientId.length + body.length);
  return Buffer.concat([size, header, clientId, body]);
}

function connect(port: number): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.on('error', () => undefined);
    socket.connect(port, '127.0.0.1', () => resolve(socket));
  });
}

/** Sends `count` fetches on one connection and resolves when every answer has come back. */
async function fetchMany(port: number, count: number, first: number): Promise<void> {
  const socket = await connect(port);
  let answered = 0;
  let pending: Buffer = Buffer.alloc(0);
  const done = new Promise<void>((resolve) => {
    socket.on('data', (chunk: Buffer) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      while (pending.length >= 4 && pending.length >= 4 + pending.readInt32BE(0)) {
        pending = pending.subarray(4 + pending.readInt32BE(0));
        answered++;
      }
      if (answered >= count) {
        resolve();
      }
    });
    socket.on('close', () => resolve());
  });
  const frames: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    frames.push(fetchFrame('idle', 0, first + i));
  }
  socket.write(Buffer.concat(frames));
  await done;
  socket.destroy();
  if (answered < count) {
    console.log(`  a connection closed after ${answered} of ${count} answers`);
  }
}

async function fetchAttack(): Promise<void> {
  const sim = new Simulation({ seed: 1, startTime: Date.now(), cluster: { brokers: 1 } });
  sim.cluster.createTopic('idle', 1);
  const log = sim.cluster.requireTopic('idle').partitions[0];
  const server = new SimKafkaServer(sim, { log: () => undefined });
  await server.start();
  console.log(`fetch attack: before ${memory()}`);
  const port = server.endpoints()[0].port;
  const started = Date.now();
  const perConnection = FETCHES / CONNECTIONS_FOR_FETCHES;
  await Promise.all(Array.from({ length: CONNECTIONS_FOR_FETCHES }, (_, c) => fetchMany(port, perConnection, c * perConnection)));
  await sleep(200);
  const waiters = (log as { waiterCount?: number }).waiterCount ?? '(not counted by this version)';
  console.log(`fetch attack: ${FETCHES} fetches answered in ${((Date.now() - started) / 1000).toFixed(1)} s; after ${memory()}; data waiters left on the idle partition: ${String(waiters)}; clock queue ${sim.clock.queuedCount}`);
  await server.close();
  sim.dispose();
}

async function frameAttack(): Promise<void> {
  const sim = new Simulation({ seed: 1, startTime: Date.now(), cluster: { brokers: 1 } });
  const logLines: string[] = [];
  const server = new SimKafkaServer(sim, { log: (line) => logLines.push(line) });
  await server.start();
  console.log(`frame attack: before ${memory()}`);
  const port = server.endpoints()[0].port;
  const partial = Buffer.alloc(SENT_FRAME_BYTES + 4, 1);
  partial.writeInt32BE(DECLARED_FRAME_BYTES, 0);
  const sockets: Socket[] = [];
  let closedByServer = 0;
  for (let i = 0; i < PARTIAL_FRAMES; i++) {
    const socket = await connect(port);
    socket.on('close', () => closedByServer++);
    socket.write(partial);
    sockets.push(socket);
  }
  await sleep(3000);
  const held = (server as { bufferedRequestBytes?: number }).bufferedRequestBytes;
  console.log(
    `frame attack: ${PARTIAL_FRAMES} partial frames sent, ${closedByServer} connections closed by the server; ` +
      `held ${held === undefined ? '(not counted by this version)' : mib(held)}; ${memory()}`,
  );
  for (const socket of sockets) {
    socket.destroy();
  }
  await sleep(500);
  console.log(`frame attack: after the connections went: ${memory()}`);
  const refusals = logLines.filter((l) => l.includes('incomplete requests'));
  console.log(`frame attack: ${refusals.length} refusal line(s) logged${refusals[0] ? `, e.g. "${refusals[0]}"` : ''}`);
  await server.close();
  sim.dispose();
}

async function run(): Promise<void> {
  await fetchAttack();
  await frameAttack();
}

run().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
