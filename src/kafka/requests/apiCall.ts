/**
 * The one place where the client turns a typed request into bytes for kafkajs and bytes back into a
 * typed response: the generated codecs of src/protocol do the encoding, this module only frames
 * them for kafkajs's connection.
 *
 * kafkajs always writes request header v1 (api key, version, correlation id, client id). For flexible
 * versions Kafka wants header v2, which is v1 plus a tagged-field section, so the body starts with
 * that empty section; the response's header v1 tagged fields follow the correlation id kafkajs has
 * already read, so the decoder skips them first.
 */
import { ByteReader } from '../../protocol/byteReader';
import { ByteWriter } from '../../protocol/byteWriter';
import { ProtocolError } from '../../protocol/errors';
import { apiInfo, requestHeaderVersion, responseHeaderVersion } from '../../protocol/headers';
import type { MessageCodec } from '../../protocol/runtime';

/** A finished request at one version: what kafkajsBridge sends. */
export interface ApiCall<T> {
  apiKey: number;
  apiName: string;
  apiVersion: number;
  /** Everything after kafkajs's header v1. */
  body: Uint8Array;
  decode(payload: Uint8Array): T;
}

/**
 * A request before its version is known: the range the client can send (up to what Kafka 4.4's own
 * clients send) and how to build it at the version negotiated with the broker.
 */
export interface RequestSpec<T> {
  apiKey: number;
  apiName: string;
  minVersion: number;
  maxVersion: number;
  build(version: number): ApiCall<T>;
}

export function requestSpec<T>(apiKey: number, minVersion: number, maxVersion: number, build: (version: number) => ApiCall<T>): RequestSpec<T> {
  return { apiKey, apiName: apiInfo(apiKey).name, minVersion, maxVersion, build };
}

/** Encodes `data` with the request codec and reads the answer with the response codec, then maps it. */
export function apiCall<Req, Res, T>(
  request: MessageCodec<Req>,
  response: MessageCodec<Res>,
  version: number,
  data: Req,
  map: (answer: Res) => T,
): ApiCall<T> {
  const apiKey = request.apiKey;
  if (request.type !== 'request' || apiKey === null || response.apiKey !== apiKey) {
    throw new Error(`${request.name} and ${response.name} are not one API's request and response`);
  }
  const writer = new ByteWriter();
  if (requestHeaderVersion(apiKey, version) === 2) {
    writer.uvarint(0); // request header v2's tagged fields
  }
  request.write(writer, version, data);
  const apiName = apiInfo(apiKey).name;
  return {
    apiKey,
    apiName,
    apiVersion: version,
    body: writer.finish(),
    decode(payload: Uint8Array): T {
      const reader = new ByteReader(payload);
      try {
        if (responseHeaderVersion(apiKey, version) === 1) {
          skipTaggedFields(reader);
        }
        const answer = response.read(reader, version);
        if (reader.remaining !== 0) {
          throw new ProtocolError(`${reader.remaining} bytes left after the message`);
        }
        return map(answer);
      } catch (error) {
        if (error instanceof ProtocolError) {
          throw new ProtocolError(`${apiName} v${version} response: ${error.message}`);
        }
        throw error;
      }
    },
  };
}

function skipTaggedFields(reader: ByteReader): void {
  const count = reader.taggedFieldCount();
  for (let i = 0; i < count; i++) {
    reader.uvarint();
    reader.taggedField();
  }
}

const MAX_EXACT = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * An int64 from the generated layer as a number, for the offsets the model keeps as numbers. Past
 * 2^53 a number is no longer exact, so such a value is refused with the field named, never rounded.
 */
export function exactNumber(value: bigint, what: string): number {
  if (value > MAX_EXACT || value < -MAX_EXACT) {
    throw new ProtocolError(`${what}: int64 ${value} is beyond 2^53 and cannot be handled exactly`);
  }
  return Number(value);
}
