// Request and response headers (Kafka's ApiMessageType.requestHeaderVersion / responseHeaderVersion): header v2 and
// v1 in an API's flexible versions, v1 and v0 before; ApiVersions answers with header v0 always (KIP-511), so a
// client that does not know the broker's versions yet can read the answer.
import type { ApiInfo } from './apiInfo';
import type { ByteReader } from './byteReader';
import { ByteWriter } from './byteWriter';
import { UnsupportedVersionError } from './errors';
import { ApiKeys, apis } from './messages/apis';
import { RequestHeader, type RequestHeaderData } from './messages/requestHeader';
import { ResponseHeader, type ResponseHeaderData } from './messages/responseHeader';
import { inRange } from './versionRange';
import type { MessageCodec } from './runtime';

const apisByKey = new Map(apis.map((api) => [api.apiKey, api]));

export function apiInfo(apiKey: number): ApiInfo {
  const api = apisByKey.get(apiKey);
  if (api === undefined) {
    throw new UnsupportedVersionError(`Unknown API key ${apiKey}`);
  }
  return api;
}

function checkedApi(apiKey: number, apiVersion: number): ApiInfo {
  const api = apiInfo(apiKey);
  if (!inRange(api.validVersions, apiVersion)) {
    throw new UnsupportedVersionError(`${api.name} v${apiVersion} is not a version Kafka defines (${api.validVersions.lo}-${api.validVersions.hi})`);
  }
  return api;
}

export function requestHeaderVersion(apiKey: number, apiVersion: number): number {
  return inRange(checkedApi(apiKey, apiVersion).flexibleVersions, apiVersion) ? 2 : 1;
}

export function responseHeaderVersion(apiKey: number, apiVersion: number): number {
  if (apiKey === ApiKeys.ApiVersions) {
    return 0;
  }
  return inRange(checkedApi(apiKey, apiVersion).flexibleVersions, apiVersion) ? 1 : 0;
}

/** A request's bytes without the size prefix: its header at the version the API's version calls for, then the body. */
export function encodeRequest<T>(codec: MessageCodec<T>, apiVersion: number, header: Omit<RequestHeaderData, 'requestApiKey' | 'requestApiVersion'>, body: T): Uint8Array {
  if (codec.type !== 'request' || codec.apiKey === null) {
    throw new UnsupportedVersionError(`${codec.name} is not a request`);
  }
  const writer = new ByteWriter();
  RequestHeader.write(writer, requestHeaderVersion(codec.apiKey, apiVersion), { ...header, requestApiKey: codec.apiKey, requestApiVersion: apiVersion });
  codec.write(writer, apiVersion, body);
  return writer.finish();
}

/** Reads a request's header; the reader is left at the body, which the API key and version say how to read. */
export function readRequestHeader(reader: ByteReader): RequestHeaderData {
  // The key and version come first in every header version, and decide the header version itself.
  const peek = reader.fork();
  const apiKey = peek.int16();
  const apiVersion = peek.int16();
  return RequestHeader.read(reader, requestHeaderVersion(apiKey, apiVersion));
}

export function encodeResponse<T>(codec: MessageCodec<T>, apiVersion: number, correlationId: number, body: T): Uint8Array {
  if (codec.type !== 'response' || codec.apiKey === null) {
    throw new UnsupportedVersionError(`${codec.name} is not a response`);
  }
  const writer = new ByteWriter();
  ResponseHeader.write(writer, responseHeaderVersion(codec.apiKey, apiVersion), { correlationId });
  codec.write(writer, apiVersion, body);
  return writer.finish();
}

export function readResponseHeader(reader: ByteReader, apiKey: number, apiVersion: number): ResponseHeaderData {
  return ResponseHeader.read(reader, responseHeaderVersion(apiKey, apiVersion));
}
