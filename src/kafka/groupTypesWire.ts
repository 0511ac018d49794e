/**
 * Sends a request of the generated protocol layer (src/protocol/messages) over kafkajs's broker
 * connection: the bytes kafkajs's `sendRequest` takes (the body after kafkajs's request header v1)
 * and a decoder of the body after the correlation id. Used by the describes of the three Kafka 4.x
 * group types (consumer, share, streams), none of which kafkajs has.
 */
import { ByteReader } from '../protocol/byteReader';
import { ByteWriter } from '../protocol/byteWriter';
import { ProtocolError } from '../protocol/errors';
import { inRange } from '../protocol/versionRange';
import type { MessageCodec } from '../protocol/runtime';
import { pickVersion, sendRequest, UnsupportedApiVersionError, type KafkajsBroker } from './kafkajsBridge';

/** A request codec and its response codec. */
export interface GeneratedApi<Req, Res> {
  request: MessageCodec<Req>;
  response: MessageCodec<Res>;
}

/** The API's name without "Request" (Kafka's ApiKeys name). */
function apiName(api: GeneratedApi<unknown, unknown>): string {
  return api.request.name.replace(/Request$/, '');
}

function apiKeyOf(api: GeneratedApi<unknown, unknown>): number {
  const key = api.request.apiKey;
  if (key === null) {
    throw new ProtocolError(`${api.request.name} has no API key`);
  }
  return key;
}

/**
 * The highest version both this code (the codec's stable versions, at most `max`) and the broker
 * serve, or null. A version Kafka marks unstable is never picked: brokers serve it only with
 * unstable.api.versions.enable.
 */
export function negotiatedVersion(broker: KafkajsBroker, api: GeneratedApi<unknown, unknown>, max = Infinity): number | null {
  const { lo, hi } = api.request.validVersions;
  const stableHi = api.request.latestVersionUnstable ? hi - 1 : hi;
  return pickVersion(broker, apiKeyOf(api), lo, Math.min(stableHi, max));
}

export function requireNegotiatedVersion(broker: KafkajsBroker, api: GeneratedApi<unknown, unknown>, max = Infinity): number {
  const version = negotiatedVersion(broker, api, max);
  if (version === null) {
    const { lo, hi } = api.request.validVersions;
    throw new UnsupportedApiVersionError(apiName(api), `v${lo}..v${Math.min(hi, max)}`, broker.versions?.[apiKeyOf(api)]);
  }
  return version;
}

/** The body kafkajs sends after its request header v1: header v2's empty tagged fields first in flexible versions. */
export function requestBody<Req>(codec: MessageCodec<Req>, version: number, data: Req): Buffer {
  const writer = new ByteWriter();
  if (isFlexible(codec, version)) {
    writer.uvarint(0);
  }
  codec.write(writer, version, data);
  return Buffer.from(writer.finish());
}

/** Reads a response body that follows the correlation id: response header v1's tagged fields first in flexible versions. */
export function readResponseBody<Res>(codec: MessageCodec<Res>, version: number, payload: Uint8Array): Res {
  const reader = new ByteReader(payload);
  if (isFlexible(codec, version)) {
    const count = reader.taggedFieldCount();
    for (let i = 0; i < count; i++) {
      reader.uvarint(); // tag
      reader.taggedField();
    }
  }
  const message = codec.read(reader, version);
  if (reader.remaining !== 0) {
    throw new ProtocolError(`${codec.name} v${version}: ${reader.remaining} bytes left after the message`);
  }
  return message;
}

function isFlexible(codec: MessageCodec<unknown>, version: number): boolean {
  return codec.flexibleVersions !== null && inRange(codec.flexibleVersions, version);
}

/** Sends one request at `version` over the broker's own connection and decodes the answer. */
export function sendGenerated<Req, Res>(broker: KafkajsBroker, api: GeneratedApi<Req, Res>, version: number, data: Req): Promise<Res> {
  return sendRequest(broker, {
    apiKey: apiKeyOf(api),
    apiName: apiName(api),
    apiVersion: version,
    body: requestBody(api.request, version, data),
    decode: (payload: Buffer) => readResponseBody(api.response, version, payload),
  });
}
