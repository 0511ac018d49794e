/**
 * The one place that reaches into kafkajs 2.2.4 internals: the admin-less Cluster object a Kafka
 * client builds (so connections, SASL and TLS are kafkajs's own) and its brokers' connection pools,
 * through which requests kafkajs does not implement are sent as finished bytes.
 */
import { type Kafka } from 'kafkajs';
import Encoder from 'kafkajs/src/protocol/encoder';
import kafkajsPackage from 'kafkajs/package.json';
import { ApiKeys } from '../protocol/messages/apis';
import type { ApiCall, RequestSpec } from './requests/apiCall';

export const SUPPORTED_KAFKAJS_VERSION = '2.2.4';

export function assertKafkajsVersion(version: string = kafkajsPackage.version): void {
  if (version !== SUPPORTED_KAFKAJS_VERSION) {
    throw new Error(
      `Kafka Group Lens talks to brokers through kafkajs ${SUPPORTED_KAFKAJS_VERSION} internals, but kafkajs ${version} is installed.`,
    );
  }
}

export interface ApiVersionRange {
  minVersion: number;
  maxVersion: number;
}

/** What we use of kafkajs's src/broker/index.js Broker. */
export interface KafkajsBroker {
  nodeId: number | null;
  versions: Record<number, ApiVersionRange> | null;
  connectionPool: {
    host: string;
    port: number;
    send(protocol: KafkajsProtocol): Promise<unknown>;
    /** The pool's connection for this kind of request (Fetch has its own), connected first when it is not. */
    getConnectionByRequest(protocol: { request: { apiKey: number } }): Promise<KafkajsConnection>;
  };
  /** Opens the connection, asks ApiVersions (filling `versions`) and logs in. */
  connect(): Promise<void>;
  disconnect(): Promise<void>;
}

type KafkajsProtocol = { request: KafkajsProtocolRequest; response: KafkajsProtocolResponse<unknown> };

/** What we use of kafkajs's src/network/connection.js Connection. */
interface KafkajsConnection {
  send(protocol: KafkajsProtocol): Promise<unknown>;
}

interface KafkajsProtocolRequest {
  apiKey: number;
  apiVersion: number;
  apiName: string;
  encode(): Promise<Encoder>;
}

interface KafkajsProtocolResponse<T> {
  decode(payload: Buffer): Promise<T>;
  parse(decoded: T): Promise<T>;
}

/** What we use of kafkajs's src/cluster/index.js Cluster. */
export interface KafkajsCluster {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  refreshMetadata(): Promise<void>;
  findBroker(options: { nodeId: number | string }): Promise<KafkajsBroker>;
  findGroupCoordinator(options: { groupId: string }): Promise<KafkajsBroker>;
  targetTopics: Set<string>;
  brokerPool: {
    brokers: Record<string, KafkajsBroker>;
    seedBroker?: KafkajsBroker;
  };
}

type CreateCluster = (options: { metadataMaxAge?: number; allowAutoTopicCreation?: boolean }) => KafkajsCluster;

/** Builds a Cluster exactly as kafka.admin() would, but hands it to us instead of hiding it. */
export function createCluster(kafka: Kafka): KafkajsCluster {
  assertKafkajsVersion();
  const holder = kafka as unknown as Record<symbol, unknown>;
  const symbol = Object.getOwnPropertySymbols(holder).find((s) => s.description === 'private:Kafka:createCluster');
  const create = symbol === undefined ? undefined : holder[symbol];
  if (typeof create !== 'function') {
    throw new Error(`kafkajs ${kafkajsPackage.version} has no private:Kafka:createCluster; it is not the version this code was written for.`);
  }
  return (create as CreateCluster)({ metadataMaxAge: 300000, allowAutoTopicCreation: false });
}

export class UnsupportedApiVersionError extends Error {
  constructor(readonly apiName: string, readonly wanted: string, readonly brokerRange: ApiVersionRange | undefined) {
    super(
      brokerRange
        ? `The broker supports ${apiName} v${brokerRange.minVersion}..v${brokerRange.maxVersion}, Kafka Group Lens needs ${wanted}`
        : `The broker does not support ${apiName} (needs ${wanted})`,
    );
    this.name = 'UnsupportedApiVersionError';
  }
}

/** The highest version of apiKey within [min, max] that the broker serves, or null. */
export function pickVersion(broker: KafkajsBroker, apiKey: number, min: number, max: number): number | null {
  const range = broker.versions?.[apiKey];
  if (!range) {
    return null;
  }
  const version = Math.min(max, range.maxVersion);
  return version >= Math.max(min, range.minVersion) ? version : null;
}

export function requireVersion(broker: KafkajsBroker, apiKey: number, apiName: string, min: number, max: number): number {
  const version = pickVersion(broker, apiKey, min, max);
  if (version === null) {
    throw new UnsupportedApiVersionError(apiName, min === max ? `v${min}` : `v${min}..v${max}`, broker.versions?.[apiKey]);
  }
  return version;
}

/** Connections being opened, per broker connection pool and kind (Fetch or the rest). */
const connecting = new WeakMap<object, Map<string, Promise<KafkajsConnection>>>();

/**
 * The pool connection a request goes on, opened once for concurrent callers: kafkajs's pool connects
 * a connection each time it finds it not connected yet, so two requests sent together on a fresh
 * broker open two sockets and the first is never closed (a leaked socket after disconnect).
 */
async function connectionFor(broker: KafkajsBroker, apiKey: number): Promise<KafkajsConnection> {
  const pool = broker.connectionPool;
  const kind = apiKey === ApiKeys.Fetch ? 'fetch' : 'main';
  let byKind = connecting.get(pool);
  if (!byKind) {
    byKind = new Map();
    connecting.set(pool, byKind);
  }
  let pending = byKind.get(kind);
  if (!pending) {
    const opening = pool.getConnectionByRequest({ request: { apiKey } }).finally(() => byKind.delete(kind));
    byKind.set(kind, opening);
    pending = opening;
  }
  return pending;
}

export interface SendOptions {
  /**
   * Send on the broker's second socket, the one kafkajs keeps for Fetch, instead of the socket for the
   * request's API: for requests the broker is slow to answer one by one, which would otherwise hold up
   * everything behind them on the main socket (the broker reads a connection's next request only after
   * answering the last). It is the pool's own socket, logged in as kafkajs logs in its Fetch socket.
   */
  secondSocket?: boolean;
}

/**
 * Sends one request over the broker's own (authenticated) connection at the highest version both
 * sides support within the request's range, and returns its decoded response.
 */
export async function sendRequest<T>(broker: KafkajsBroker, spec: RequestSpec<T>): Promise<T> {
  if (!broker.versions) {
    // A broker kafkajs made afresh (a new seed after a failed connect) knows no versions yet:
    // connecting says why it cannot be reached instead of "does not support".
    await broker.connect();
  }
  return sendCall(broker, spec.build(requireVersion(broker, spec.apiKey, spec.apiName, spec.minVersion, spec.maxVersion)));
}

/** Sends a request already built for one version. */
export async function sendCall<T>(broker: KafkajsBroker, call: ApiCall<T>, { secondSocket = false }: SendOptions = {}): Promise<T> {
  if (!broker.versions) {
    await broker.connect();
  }
  const range = broker.versions?.[call.apiKey];
  if (!range || call.apiVersion > range.maxVersion || call.apiVersion < range.minVersion) {
    throw new UnsupportedApiVersionError(call.apiName, `v${call.apiVersion}`, range);
  }
  const body = Buffer.from(call.body.buffer, call.body.byteOffset, call.body.byteLength);
  try {
    const connection = await connectionFor(broker, secondSocket ? ApiKeys.Fetch : call.apiKey);
    return (await connection.send({
      request: {
        apiKey: call.apiKey,
        apiVersion: call.apiVersion,
        apiName: call.apiName,
        encode: async () => new Encoder().writeBuffer(body),
      },
      response: {
        decode: async (payload: Buffer) => call.decode(payload),
        parse: async (decoded: unknown) => decoded,
      },
    })) as T;
  } catch (e) {
    // What kafkajs's Broker does for its own requests: drop the dead connection so the next call reconnects.
    if (e instanceof Error && e.name === 'KafkaJSConnectionClosedError') {
      await broker.disconnect();
    }
    throw e;
  }
}
