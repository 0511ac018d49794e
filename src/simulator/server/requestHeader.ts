/** Request header v1 (api key, version, correlation id, client id), which every non-flexible request uses. */
import { ByteReader } from '../../kafka/protocol/wire';

export interface RequestHeader {
  apiKey: number;
  apiVersion: number;
  correlationId: number;
  clientId: string;
}

/** Reads the header and leaves `r` at the body. */
export function readRequestHeader(r: ByteReader): RequestHeader {
  const apiKey = r.int16();
  const apiVersion = r.int16();
  const correlationId = r.int32();
  const clientId = r.nullableString() ?? '';
  return { apiKey, apiVersion, correlationId, clientId };
}
