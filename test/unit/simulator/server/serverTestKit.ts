/** Shared pieces of the server tests: a server over a small simulation, condition waits and raw requests. */
import { Socket } from 'node:net';
import { Kafka, logLevel } from 'kafkajs';
import { WireReader } from '../../protocol/wire';
import { Simulation } from '../../../../src/simulator/simulation';
import { SimKafkaServer, type KafkaServerOptions } from '../../../../src/simulator/server/kafkaServer';
import { ByteReader as ProtocolReader } from '../../../../src/protocol/byteReader';
import { encodeRequest, readResponseHeader } from '../../../../src/protocol/headers';
import { decode, type MessageCodec } from '../../../../src/protocol/runtime';

export interface ServerUnderTest {
  sim: Simulation;
  server: SimKafkaServer;
  kafka: Kafka;
  logLines: string[];
  stop(): Promise<void>;
}

/** Two brokers, topic "orders" (3 partitions, 4 records each) and a short initial rebalance delay; `options` go to the server. */
export async function startServer(options: Omit<KafkaServerOptions, 'log'> & { initialRebalanceDelayMs?: number } = {}): Promise<ServerUnderTest> {
  const { initialRebalanceDelayMs = 200, ...serverOptions } = options;
  const sim = new Simulation({ seed: 11, startTime: Date.now(), cluster: { brokers: 2 }, coordinator: { initialRebalanceDelayMs }, streamsGroup: { initialRebalanceDelayMs } });
  const topic = sim.cluster.createTopic('orders', 3);
  for (const log of topic.partitions) {
    log.append(4, sim.now);
  }
  const logLines: string[] = [];
  const server = new SimKafkaServer(sim, { ...serverOptions, log: (line) => logLines.push(line) });
  await server.start();
  const kafka = new Kafka({
    clientId: 'server-test',
    brokers: server.bootstrapServers,
    logLevel: logLevel.NOTHING,
    retry: { initialRetryTime: 50, retries: 8 },
  });
  return {
    sim,
    server,
    kafka,
    logLines,
    stop: async () => {
      await server.close();
      sim.dispose();
    },
  };
}

/** Polls `condition` until it holds; fails with `what` after a generous bound (a hang, not a slow machine). */
export async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 20000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) {
      throw new Error(`Timed out waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Sends `bytes` on a new connection and resolves with what came back: one whole response frame, or
 * everything up to the server closing. `halfClose` ends our side after sending (for garbage that
 * the server may wait on); a well-formed request must not, since a broker, like Kafka's, closes a
 * connection whose client has ended and may drop a response not yet written (OffsetDelete runs on
 * the engine's clock).
 */
export function rawExchange(port: number, bytes: Buffer, { halfClose = false } = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = new Socket();
    const received: Buffer[] = [];
    socket.on('data', (chunk) => {
      received.push(chunk);
      const all = Buffer.concat(received);
      const frameEnd = all.length >= 4 ? 4 + all.readInt32BE(0) : Infinity;
      if (all.length >= frameEnd) {
        socket.destroy();
        resolve(all.subarray(0, frameEnd));
      }
    });
    socket.on('error', () => undefined); // a reset from the server is an expected answer to garbage
    socket.on('close', () => resolve(Buffer.concat(received)));
    socket.connect(port, '127.0.0.1', () => {
      if (halfClose) {
        socket.end(bytes);
      } else {
        socket.write(bytes);
      }
    });
    socket.setTimeout(10000, () => {
      socket.destroy();
      reject(new Error('raw exchange: the server neither answered nor closed within 10 s'));
    });
  });
}

/** A request frame: size, header v1 (or v2 when `flexibleHeader`), body. */
export function requestFrame(apiKey: number, apiVersion: number, correlationId: number, body: Buffer, flexibleHeader = false): Buffer {
  const clientId = Buffer.from('raw-test');
  const header = Buffer.alloc(10);
  header.writeInt16BE(apiKey, 0);
  header.writeInt16BE(apiVersion, 2);
  header.writeInt32BE(correlationId, 4);
  header.writeInt16BE(clientId.length, 8);
  const parts = [header, clientId, flexibleHeader ? Buffer.from([0]) : Buffer.alloc(0), body];
  const size = Buffer.alloc(4);
  size.writeInt32BE(parts.reduce((n, p) => n + p.length, 0));
  return Buffer.concat([size, ...parts]);
}

/** The port of the broker that coordinates `groupId` (group requests elsewhere get NOT_COORDINATOR). */
export function coordinatorPort(env: ServerUnderTest, groupId: string): number {
  const nodeId = env.sim.cluster.coordinatorFor(groupId).nodeId;
  return portOf(env, nodeId);
}

/** The port of the broker that leads `topic`'s `partition`. */
export function leaderPort(env: ServerUnderTest, topic: string, partition: number): number {
  const nodeId = env.sim.cluster.requireTopic(topic).leaders[partition];
  return portOf(env, nodeId);
}

function portOf(env: ServerUnderTest, nodeId: number): number {
  const endpoint = env.server.endpoints().find((e) => e.nodeId === nodeId);
  if (!endpoint) {
    throw new Error(`no listener for broker ${nodeId}`);
  }
  return endpoint.port;
}

/** A response frame's body after the size and correlation id (response header v0). */
export function responseBody(frame: Buffer): WireReader {
  if (frame.length < 8) {
    throw new Error(`expected a response frame, got ${frame.length} byte(s) (the server closed the connection)`);
  }
  return new WireReader(frame.subarray(8));
}

/**
 * One request and its response through the generated codecs (the protocol layer a client uses):
 * encodes `body` at `version` with its header, sends it on a new connection and decodes the answer.
 */
export async function codecExchange<Req, Res>(port: number, request: MessageCodec<Req>, response: MessageCodec<Res>, version: number, body: Req): Promise<Res> {
  const bytes = encodeRequest(request, version, { correlationId: 41, clientId: 'codec-test' }, body);
  const size = Buffer.alloc(4);
  size.writeInt32BE(bytes.length);
  const frame = await rawExchange(port, Buffer.concat([size, bytes]));
  if (frame.length < 8) {
    throw new Error(`expected a response frame, got ${frame.length} byte(s) (the server closed the connection)`);
  }
  const reader = new ProtocolReader(frame, 4);
  const header = readResponseHeader(reader, request.apiKey ?? -1, version);
  if (header.correlationId !== 41) {
    throw new Error(`response to correlation ${header.correlationId}, expected 41`);
  }
  return decode(response, reader.rest(), version);
}

/** One server for the whole suite: started before its tests, stopped after them. Read `suite.env` inside a test. */
export function serverForSuite(): { env: ServerUnderTest } {
  const suite = {} as { env: ServerUnderTest };
  before(async () => {
    suite.env = await startServer();
  });
  after(async () => {
    await suite.env?.stop();
  });
  return suite;
}

/** A group id the same broker coordinates as `groupId` but that nobody uses. */
export function absentGroupOnSameCoordinator(env: ServerUnderTest, groupId: string): string {
  const coordinator = env.sim.cluster.coordinatorFor(groupId).nodeId;
  return Array.from({ length: 50 }, (_, i) => `absent-${i}`).find((id) => env.sim.cluster.coordinatorFor(id).nodeId === coordinator) ?? 'absent';
}
