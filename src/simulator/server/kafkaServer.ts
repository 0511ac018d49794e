/**
 * A Kafka-protocol server over a simulation: one loopback listener per simulated broker, the
 * simulation paced to the wall clock so client timeouts mean what they say.
 */
import { ServerTransactions } from './transactions';
import { createServer, type Server, type Socket } from 'node:net';
import { LiveSimulation } from '../live';
import type { Simulation } from '../simulation';
import { ClientConnection, type ConnectionHost } from './connection';
import { MAX_FRAME_BYTES } from './frameReader';
import type { BrokerEndpoint, ServerState } from './context';
import { errorMessage } from '../../protocol/errors';

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
  /** Kafka's max.connections: connections past it are refused with a log line; default 500. */
  maxConnections?: number;
  /** Logs every request's API, version and client id ("request JoinGroup v9 from java-group"), to see what clients negotiate; default off. */
  logRequests?: boolean;
  /** Kafka's connections.max.idle.ms: a connection with no traffic for this long is closed; default 600000. */
  connectionsMaxIdleMs?: number;
  /** Kafka's socket.request.max.bytes: a larger declared request size closes the connection; default 104857600. */
  socketRequestMaxBytes?: number;
  /**
   * Bytes held for incomplete requests across all connections (Kafka bounds them with
   * queued.max.request.bytes); the connection that would pass it is closed. Default 128 MiB.
   */
  maxBufferedRequestBytes?: number;
}

/** Below the common soft limit of 1024 open files, so a flood is refused (and logged) before accept fails. */
export const DEFAULT_MAX_CONNECTIONS = 500;
export const DEFAULT_CONNECTIONS_MAX_IDLE_MS = 600_000;
export const DEFAULT_MAX_BUFFERED_REQUEST_BYTES = 128 * 1024 * 1024;
/** At most one "connection refused" line per this many ms, with a count of the refusals in between. */
const REFUSAL_LOG_INTERVAL_MS = 1000;

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
  private readonly connectionHost: ConnectionHost;
  private readonly maxConnections: number;
  private readonly maxBufferedBytes: number;
  private bufferedBytes = 0;
  private refusedSinceLog = 0;
  private lastRefusalLog = -Infinity;
  private previousEventErrorHandler: ((error: unknown) => void) | null = null;

  constructor(
    readonly simulation: Simulation,
    private readonly options: KafkaServerOptions = {},
  ) {
    this.transactions = new ServerTransactions(simulation, (line) => this.log(line));
    const basePort = options.basePort ?? 0;
    if (!Number.isInteger(basePort) || basePort < 0 || basePort + simulation.cluster.brokers.length - 1 > 65535) {
      throw new Error(`basePort must be 0 or a port leaving room for ${simulation.cluster.brokers.length} broker(s), got ${String(basePort)}`);
    }
    this.ownsLive = options.live === undefined;
    this.live = options.live ?? new LiveSimulation(simulation, { speed: options.speed ?? 1, tickMs: OWN_TICK_MS });
    this.logLine = options.log ?? ((line) => process.stderr.write(`${line}\n`));
    this.maxConnections = positiveInteger('maxConnections', options.maxConnections ?? DEFAULT_MAX_CONNECTIONS);
    this.maxBufferedBytes = positiveInteger('maxBufferedRequestBytes', options.maxBufferedRequestBytes ?? DEFAULT_MAX_BUFFERED_REQUEST_BYTES);
    this.connectionHost = {
      state: this,
      maxFrameBytes: positiveInteger('socketRequestMaxBytes', options.socketRequestMaxBytes ?? MAX_FRAME_BYTES),
      idleMs: positiveInteger('connectionsMaxIdleMs', options.connectionsMaxIdleMs ?? DEFAULT_CONNECTIONS_MAX_IDLE_MS),
      logRequests: options.logRequests ?? false,
      changeBuffered: (delta) => {
        this.bufferedBytes += delta;
        return this.bufferedBytes <= this.maxBufferedBytes;
      },
      onRequest: (apiKey) => {
        this.requestCount++;
        this.requestCountByApi.set(apiKey, (this.requestCountByApi.get(apiKey) ?? 0) + 1);
        this.queueTick();
      },
    };
  }

  /** Open client connections. */
  get connectionCount(): number {
    return this.connections.size;
  }

  /** Bytes held for incomplete requests across all connections. */
  get bufferedRequestBytes(): number {
    return this.bufferedBytes;
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
    // Engine events a request scheduled (a join completing, a parked fetch) run on the clock; one
    // that throws is logged and the clock goes on, so no client input can stop the simulation.
    const clock = this.simulation.clock;
    this.previousEventErrorHandler = clock.onEventError;
    clock.onEventError ??= (error) => this.log(`engine event failed (the simulation goes on): ${errorMessage(error)}`);
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
    if (this.started) {
      this.simulation.clock.onEventError = this.previousEventErrorHandler;
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
    if (this.connections.size >= this.maxConnections) {
      socket.on('error', () => undefined);
      socket.destroy();
      this.logRefusal(nodeId, `${socket.remoteAddress ?? '?'}:${socket.remotePort ?? '?'}`);
      return;
    }
    socket.setNoDelay(true);
    this.sockets.add(socket);
    const connection = new ClientConnection(socket, this.connectionHost, nodeId);
    this.connections.add(connection);
    socket.on('close', () => {
      this.sockets.delete(socket);
      this.connections.delete(connection);
    });
  }

  /** One line per second at most, so a flood of connections cannot flood the log too. */
  private logRefusal(nodeId: number, remote: string): void {
    this.refusedSinceLog++;
    const now = Date.now();
    if (now - this.lastRefusalLog < REFUSAL_LOG_INTERVAL_MS) {
      return;
    }
    const others = this.refusedSinceLog - 1;
    this.log(
      `broker ${nodeId}: refusing connection from ${remote}: ${this.connections.size} connections open (max.connections ${this.maxConnections})` +
        (others > 0 ? `; ${others} other connection(s) refused since the last report` : ''),
    );
    this.refusedSinceLog = 0;
    this.lastRefusalLog = now;
  }

  /** Runs the events a request queued soon, rather than at the next interval tick. */
  private queueTick(): void {
    if (this.tickQueued) {
      return;
    }
    this.tickQueued = true;
    setImmediate(() => {
      this.tickQueued = false;
      try {
        this.live.tick();
      } catch (error) {
        this.log(`simulation tick failed: ${errorMessage(error)}`);
      }
    });
  }
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new Error(`${name} must be a positive integer, got ${String(value)}`);
  }
  return value;
}

