/**
 * A kafkajs broker stand-in that speaks the generated protocol layer: it reads each request's body
 * (as kafkajs would put it after its v1 header) with the generated request codec, hands the decoded
 * request to the test's handler, and writes the handler's answer with the generated response codec,
 * after response header v1's tagged fields where the version is flexible. So the tests run the real
 * bytes of both directions.
 */
import type { KafkajsBroker } from '../../../src/kafka/kafkajsBridge';
import { ByteReader } from '../../../src/protocol/byteReader';
import { ByteWriter } from '../../../src/protocol/byteWriter';
import { allMessages } from '../../../src/protocol/messages/allMessages';
import type { AnyMessageCodec } from '../../../src/protocol/runtime';
import { inRange } from '../../../src/protocol/versionRange';

interface SentProtocol {
  request: { apiKey: number; apiVersion: number; apiName: string; encode(): Promise<unknown> };
  response: { decode(payload: Buffer): Promise<unknown>; parse(decoded: unknown): Promise<unknown> };
}

export interface FakeRequest {
  apiKey: number;
  apiVersion: number;
  /** The decoded request body (the generated request data). */
  body: unknown;
  /** The pool socket it came on: kafkajs's main one, or its second (Fetch) one. */
  socket: 'main' | 'fetch';
}

/** The handler's answer: the response data, or a thrown error (a failed request). */
export type FakeHandler = (request: FakeRequest) => unknown;

function codecOf(apiKey: number, type: 'request' | 'response'): AnyMessageCodec {
  const codec = allMessages.find((m) => m.apiKey === apiKey && m.type === type);
  if (!codec) {
    throw new Error(`no ${type} codec for API ${apiKey}`);
  }
  return codec;
}

function flexible(codec: AnyMessageCodec, version: number): boolean {
  return codec.flexibleVersions !== null && inRange(codec.flexibleVersions, version);
}

/** What a test sees of the fake: the requests it got. */
export interface FakeBroker extends KafkajsBroker {
  requests: FakeRequest[];
}

/** A broker serving the given API version ranges (apiKey -> [min, max]) and answering with `handle`. */
export function fakeBroker(versions: Record<number, [number, number]>, handle: FakeHandler): FakeBroker {
  const requests: FakeRequest[] = [];
  const send = async (p: SentProtocol, socket: FakeRequest['socket'] = p.request.apiKey === 1 ? 'fetch' : 'main'): Promise<unknown> => {
    const { apiKey, apiVersion } = p.request;
    const encoder = (await p.request.encode()) as { buffer: Buffer };
    const requestCodec = codecOf(apiKey, 'request');
    const reader = new ByteReader(encoder.buffer);
    if (flexible(requestCodec, apiVersion)) {
      const tags = reader.taggedFieldCount();
      if (tags !== 0) {
        throw new Error(`request header v2 carried ${tags} tagged fields`);
      }
    }
    const body = requestCodec.read(reader, apiVersion);
    if (reader.remaining !== 0) {
      throw new Error(`${reader.remaining} bytes after the ${requestCodec.name}`);
    }
    const request = { apiKey, apiVersion, body, socket };
    requests.push(request);
    const answer = handle(request);
    const responseCodec = codecOf(apiKey, 'response');
    const writer = new ByteWriter();
    if (flexible(responseCodec, apiVersion)) {
      writer.uvarint(0); // response header v1: no tagged fields
    }
    responseCodec.write(writer, apiVersion, answer);
    return p.response.parse(await p.response.decode(Buffer.from(writer.finish())));
  };
  // A connection sends through the pool's current send, so a test that wraps pool.send sees every request.
  const pool = {
    host: '127.0.0.1',
    port: 9092,
    send,
    getConnectionByRequest: async ({ request }: { request: { apiKey: number } }) => {
      const socket = request.apiKey === 1 ? 'fetch' : 'main';
      return { send: (p: SentProtocol) => pool.send(p, socket) };
    },
  };
  return {
    nodeId: 1,
    versions: Object.fromEntries(Object.entries(versions).map(([key, [minVersion, maxVersion]]) => [key, { minVersion, maxVersion }])),
    requests,
    connect: async () => undefined,
    disconnect: async () => undefined,
    connectionPool: pool,
  };
}

/** Kafka 4.4.0's versions of the APIs the group-type describes use. */
export const KAFKA_44_VERSIONS: Record<number, [number, number]> = {
  15: [0, 6], // DescribeGroups
  32: [1, 4], // DescribeConfigs
  69: [0, 1], // ConsumerGroupDescribe
  77: [1, 1], // ShareGroupDescribe
  89: [0, 1], // StreamsGroupDescribe
  90: [0, 1], // DescribeShareGroupOffsets
};
