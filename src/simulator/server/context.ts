/** What every API handler gets: the simulation, the listening brokers, and who sent the request. */
import { ByteReader, ProtocolDecodeError } from '../../kafka/protocol/wire';
import type { Respond } from '../protocol';
import type { Simulation } from '../simulation';
import type { ServerTransactions } from './transactions';

export interface BrokerEndpoint {
  nodeId: number;
  host: string;
  port: number;
}

export interface ServerState {
  readonly simulation: Simulation;
  /** The brokers as clients must reach them (the ports actually bound). */
  endpoints(): BrokerEndpoint[];
  log(line: string): void;
  /** A producer id no other client of this server holds (InitProducerId). */
  allocateProducerId(): number;
  /** Transactional ids of clients: their producers, epochs and added partitions. */
  readonly transactions: ServerTransactions;
}

export interface RequestContext {
  readonly server: ServerState;
  /** The simulated broker whose listener received the request. */
  readonly nodeId: number;
  readonly apiVersion: number;
  readonly clientId: string;
  /** As Kafka prints it, e.g. "/127.0.0.1". */
  readonly clientHost: string;
  /**
   * Calls `listener` once when the request's connection closes (at once if it already has), so a
   * request parked on the engine lets go of what it holds; returns a function that unregisters it.
   */
  onConnectionClose(listener: () => void): () => void;
}

/** Reads the request body after the header; returns the response body, or null when none is sent (acks=0). */
export type ApiHandler = (r: ByteReader, ctx: RequestContext) => Promise<Buffer | null> | Buffer | null;

export interface ApiDefinition {
  key: number;
  name: string;
  minVersion: number;
  maxVersion: number;
  handle: ApiHandler;
}

/** A coordinator call as a promise: the engine answers through its event queue. */
export function ask<Req, Res>(call: (request: Req, respond: Respond<Res>) => void, request: Req): Promise<Res> {
  return new Promise((resolve) => call(request, resolve));
}

/** Classic nullable ARRAY: null for count -1. */
export function readNullableArray<T>(r: ByteReader, readItem: (r: ByteReader) => T): T[] | null {
  const count = r.int32();
  if (count < 0) {
    return null;
  }
  if (count > r.remaining) {
    throw new ProtocolDecodeError(`array of ${count} items cannot fit in ${r.remaining} bytes`);
  }
  const items: T[] = [];
  for (let i = 0; i < count; i++) {
    items.push(readItem(r));
  }
  return items;
}

/** Rejects bytes left after the last field: a longer body means the version was misread. */
export function expectEnd(r: ByteReader, api: string): void {
  if (r.remaining !== 0) {
    throw new ProtocolDecodeError(`${api}: ${r.remaining} unexpected byte(s) after the request body`);
  }
}
