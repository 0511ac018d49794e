/**
 * A Kafka-protocol server over a simulation: one loopback listener per simulated broker, the
 * simulation paced to the wall clock so client timeouts mean what they say.
 */
import { ServerTransactions } from './transactions';
import { createServer, type Server, type Socket } from 'node:net';
import { LiveSimulation } from '../live';
import type { Simulation } from '../simulation';
import { ClientConnection } from './connection';
import type { BrokerEndpoint, ServerState } from './context';

/** Servers bind the loopback interface only: the simulator is a local tool, never a network service. */
export const LOOPBACK = '127.0.0.1';

export interface KafkaServerOptions {
  /** Broker n listens on basePort + n - 1; 0 (the default) gives every broker a free port. */
  basePort?: number;
  /** Drives the simulation; when omitted the server runs its own, started and stopped with it. */
  live?: LiveSimulation;
  /** Virtual ms per wall ms for the server's own LiveSimulation; default 1. */
  speed?: number;
  /** Where connection problems are reported; default stderr. */
  log?: (line: string) => void;
}

interface Listener {
  nodeId: number;
  server: Server;
  port: number;
}

/** A short tick so engine answers (queued events) go out within a few milliseconds. */
const OWN_TICK_MS = 10;
/** Idempotent producers' ids start far above the engine's transactional producer ids. */
const FIRST_PRODUCER_ID = 1_000_000;

export class SimKafkaServer implements ServerState {
  private readonly live: LiveSimulation;
  private readonly ownsLive: boolean;
  private readonly listeners: Listener[] = [];
  private readonly connections = new Set<ClientConnection>();
  private readonly sockets = new Set<Socket>();
  private tickQueued = false;
  private started = false;
  private nextProducerId = FIRST_PRODUCER_ID;
  readonly transactions: ServerTransactions;
  private requestCount = 0;
  private readonly requestCountByApi = new Map<number, number>();
  private readonly logLine: (line: string) => void;

  constructor(
    readonly simulation: Simulation,
    private readonly options: KafkaServerOptions = {},
  ) {
    this.transactions = new ServerTransactions(simulation);
    const basePort = options.basePort ?? 0;
    if (!Number.isInteger(basePort) || basePort < 0 || basePort + simulation.cluster.brokers.length - 1 > 65535) {
      throw new Error(`basePort must be 0 or a port leaving room for ${simulation.cluster.brokers.length} broker(s), got ${String(basePort)}`);
    }
    this.ownsLive = options.live === undefined;
    this.live = options.live ?? new LiveSimulation(simulation, { speed: options.speed ?? 1, tickMs: OWN_TICK_MS });
    this.logLine = options.log ?? ((line) => process.stderr.write(`${line}\n`));
  }

  /** Requests read and dispatched since the server started (for benchmarks and diagnostics). */
  get requestsHandled(): number {
    return this.requestCount;
  }

  /** Requests of one API (by key) read and dispatched since the server started. */
  requestsHandledOf(apiKey: number): number {
    return this.requestCountByApi.get(apiKey) ?? 0;
  }

  log(line: string): void {
    this.logLine(line);
  }

  allocateProducerId(): number {
    return this.nextProducerId++;
  }

  endpoints(): BrokerEndpoint[] {
    return this.listeners.map((l) => ({ nodeId: l.nodeId, host: LOOPBACK, port: l.port }));
  }

  /** "127.0.0.1:port" of every broker, for a client's bootstrap list. */
  get bootstrapServers(): string[] {
    return this.endpoints().map((e) => `${e.host}:${e.port}`);
  }

  async start(): Promise<BrokerEndpoint[]> {
    if (this.started) {
      throw new Error('The Kafka server is already started');
    }
    this.started = true;
    const basePort = this.options.basePort ?? 0;
    try {
      for (const broker of this.simulation.cluster.brokers) {
        const port = basePort === 0 ? 0 : basePort + broker.nodeId - 1;
        this.listeners.push(await this.listen(broker.nodeId, port));
      }
    } catch (error) {
      await this.close();
      throw error;
    }
    if (this.ownsLive) {
      this.live.start();
    }
    return this.endpoints();
  }

  async close(): Promise<void> {
    if (this.ownsLive) {
      this.live.stop();
    }
    for (const connection of this.connections) {
      connection.close('');
    }
    for (const socket of this.sockets) {
      socket.destroy();
    }
    const listeners = this.listeners.splice(0);
    await Promise.all(listeners.map((l) => new Promise<void>((resolve) => l.server.close(() => resolve()))));
  }

  private listen(nodeId: number, port: number): Promise<Listener> {
    const server = createServer((socket) => this.accept(nodeId, socket));
    return new Promise((resolve, reject) => {
      server.once('error', (error) => reject(new Error(`broker ${nodeId} cannot listen on ${LOOPBACK}:${port}: ${error.message}`)));
      server.listen(port, LOOPBACK, () => {
        const address = server.address();
        if (address === null || typeof address === 'string') {
          reject(new Error(`broker ${nodeId}: listener has no TCP address`));
          return;
        }
        server.on('error', (error) => this.log(`broker ${nodeId}: listener error: ${error.message}`));
        resolve({ nodeId, server, port: address.port });
      });
    });
  }

  private accept(nodeId: number, socket: Socket): void {
    socket.setNoDelay(true);
    this.sockets.add(socket);
    const connection = new ClientConnection(socket, this, nodeId, (apiKey) => {
      this.requestCount++;
      this.requestCountByApi.set(apiKey, (this.requestCountByApi.get(apiKey) ?? 0) + 1);
      this.queueTick();
    });
    this.connections.add(connection);
    socket.on('close', () => {
      this.sockets.delete(socket);
      this.connections.delete(connection);
    });
  }

  /** Runs the events a request queued soon, rather than at the next interval tick. */
  private queueTick(): void {
    if (this.tickQueued) {
      return;
    }
    this.tickQueued = true;
    setImmediate(() => {
      this.tickQueued = false;
      this.live.tick();
    });
  }
}
