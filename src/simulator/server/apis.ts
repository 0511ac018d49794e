/** Every API the server answers, with ApiVersions built from the same table. */
import { ByteReader, ByteWriter } from '../../kafka/protocol/wire';
import { ADMIN_APIS } from './adminApis';
import { CLUSTER_APIS } from './clusterApis';
import { expectEnd, type ApiDefinition, type RequestContext } from './context';
import { DATA_APIS } from './dataApis';
import { NO_ERROR, UNSUPPORTED_VERSION } from './errorCodes';
import { GROUP_APIS } from './groupApis';
import { PRODUCER_APIS } from './producerApis';

export const API_VERSIONS_KEY = 18;
const API_VERSIONS_MAX = 2;

function apiVersionsBody(errorCode: number, withThrottle: boolean): Buffer {
  const w = new ByteWriter().int16(errorCode).array(API_TABLE, (aw, api) => aw.int16(api.key).int16(api.minVersion).int16(api.maxVersion));
  return (withThrottle ? w.int32(0) : w).toBuffer();
}

function apiVersions(r: ByteReader, ctx: RequestContext): Buffer {
  // v0-v2 requests have no body.
  expectEnd(r, 'ApiVersions');
  return apiVersionsBody(NO_ERROR, ctx.apiVersion >= 1);
}

/**
 * The answer to ApiVersions at a version above ours (Java sends v4, librdkafka v3): a v0 body with
 * UNSUPPORTED_VERSION and our ranges, after which clients retry at a version we have (KIP-511).
 */
export function unsupportedApiVersionsBody(): Buffer {
  return apiVersionsBody(UNSUPPORTED_VERSION, false);
}

const API_TABLE: readonly ApiDefinition[] = [
  ...DATA_APIS,
  ...CLUSTER_APIS,
  ...GROUP_APIS,
  ...ADMIN_APIS,
  ...PRODUCER_APIS,
  { key: API_VERSIONS_KEY, name: 'ApiVersions', minVersion: 0, maxVersion: API_VERSIONS_MAX, handle: apiVersions },
].sort((a, b) => a.key - b.key);

export function findApi(key: number): ApiDefinition | undefined {
  return API_TABLE.find((api) => api.key === key);
}

export function supportedApis(): readonly ApiDefinition[] {
  return API_TABLE;
}
