/** What every API handler gets: the simulation, the listening brokers, and who sent the request. */
import type { ByteReader } from '../../protocol/byteReader';
import { ProtocolError } from '../../protocol/errors';
import { encodeResponse } from '../../protocol/headers';
import type { MessageCodec } from '../../protocol/runtime';
import type { Respond } from '../common/requests';
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

/** One API as the server serves it: the generated codecs of its request and response, and what answers it. */
export interface ApiHandler<Req, Res> {
  key: number;
  name: string;
  /** The versions served: Kafka 4.4's range, cut where a version needs what the simulator does not model. */
  minVersion: number;
  maxVersion: number;
  request: MessageCodec<Req>;
  response: MessageCodec<Res>;
  /** The response, or null when none is sent (Produce with acks=0). */
  handle(request: Req, ctx: RequestContext): Promise<Res | null> | Res | null;
}

/** An API with its types erased, for the server's table: reads the body, answers with the whole response (header included). */
export interface ApiDefinition {
  key: number;
  name: string;
  minVersion: number;
  maxVersion: number;
  serve(body: ByteReader, correlationId: number, ctx: RequestContext): Promise<Uint8Array | null>;
}

export function defineApi<Req, Res>(api: ApiHandler<Req, Res>): ApiDefinition {
  return {
    key: api.key,
    name: api.name,
    minVersion: api.minVersion,
    maxVersion: api.maxVersion,
    serve: async (body, correlationId, ctx) => {
      const request = api.request.read(body, ctx.apiVersion);
      if (body.remaining !== 0) {
        // A longer body means the version was misread (or the request was tampered with).
        throw new ProtocolError(`${api.name}: ${body.remaining} unexpected byte(s) after the request body`);
      }
      const response = await api.handle(request, ctx);
      return response === null ? null : encodeResponse(api.response, ctx.apiVersion, correlationId, response);
    },
  };
}

/** A coordinator call as a promise: the engine answers through its event queue. */
export function ask<Req, Res>(call: (request: Req, respond: Respond<Res>) => void, request: Req): Promise<Res> {
  return new Promise((resolve) => call(request, resolve));
}
