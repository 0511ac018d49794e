/**
 * Version choice and sending for requests of the generated protocol layer (src/protocol/messages)
 * given as a request/response codec pair, framed by requests/apiCall.ts. Used by the describes of the three Kafka 4.x
 * group types (consumer, share, streams), none of which kafkajs has.
 */
import { ProtocolError } from '../protocol/errors';
import type { MessageCodec } from '../protocol/runtime';
import { pickVersion, sendCall, UnsupportedApiVersionError, type KafkajsBroker, type SendOptions } from './kafkajsBridge';
import { apiCall } from './requests/apiCall';

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

/** Sends one request at `version` over the broker's own connection and decodes the answer (framing: requests/apiCall.ts). */
export function sendGenerated<Req, Res>(broker: KafkajsBroker, api: GeneratedApi<Req, Res>, version: number, data: Req, options?: SendOptions): Promise<Res> {
  return sendCall(broker, apiCall(api.request, api.response, version, data, (answer) => answer), options);
}
