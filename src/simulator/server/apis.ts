/** Every API the server answers, with ApiVersions built from the same table. */
import { ApiKeys } from '../../protocol/messages/apis';
import { ApiVersionsRequest } from '../../protocol/messages/apiVersionsRequest';
import { ApiVersionsResponse, type ApiVersionsResponseData } from '../../protocol/messages/apiVersionsResponse';
import { encodeResponse } from '../../protocol/headers';
import { errorCodeOf } from '../../protocol/errorCodes';
import { ADMIN_APIS } from './adminApis';
import { CLUSTER_APIS } from './clusterApis';
import { CONSUMER_GROUP_APIS } from './consumerGroupApis';
import { defineApi, type ApiDefinition } from './context';
import { DATA_APIS } from './dataApis';
import { GROUP_APIS } from './groupApis';
import { GROUP_CONFIG_APIS } from './groupConfigApis';
import { PRODUCER_APIS } from './producerApis';
import { SHARE_FETCH_APIS } from './shareFetchApis';
import { SHARE_GROUP_APIS } from './shareGroupApis';
import { SHARE_OFFSETS_APIS } from './shareOffsetsApis';
import { STREAMS_GROUP_APIS } from './streamsGroupApis';
import { TRANSACTION_ADMIN_APIS } from './transactionAdminApis';

export const API_VERSIONS_KEY = ApiKeys.ApiVersions;

/**
 * The features the server supports and has finalized (KIP-584, ApiVersions v3+). Only
 * transaction.version: at 2, Kafka 4.x clients run Transactions V2 (see producerApis.ts). A real
 * 4.4 broker lists more (metadata.version, group.version, ...); no client changes its requests for those.
 */
const TRANSACTION_VERSION = 2;
const FINALIZED_FEATURES_EPOCH = 1n;

function apiVersionsBody(errorCode: number): ApiVersionsResponseData {
  return {
    errorCode,
    apiKeys: API_TABLE.map((api) => ({ apiKey: api.key, minVersion: api.minVersion, maxVersion: api.maxVersion })),
    throttleTimeMs: 0,
    supportedFeatures: [{ name: 'transaction.version', minVersion: 0, maxVersion: TRANSACTION_VERSION }],
    finalizedFeaturesEpoch: FINALIZED_FEATURES_EPOCH,
    finalizedFeatures: [{ name: 'transaction.version', maxVersionLevel: TRANSACTION_VERSION, minVersionLevel: TRANSACTION_VERSION }],
  };
}

const API_VERSIONS = defineApi({
  key: API_VERSIONS_KEY,
  name: 'ApiVersions',
  minVersion: 0,
  maxVersion: 5,
  request: ApiVersionsRequest,
  response: ApiVersionsResponse,
  handle: () => apiVersionsBody(0),
});

/**
 * The answer to ApiVersions at a version above ours: a v0 response with UNSUPPORTED_VERSION and our
 * ranges, after which clients retry at a version we have (KIP-511). The body is not read, since its
 * layout is unknown.
 */
export function unsupportedApiVersionsResponse(correlationId: number): Uint8Array {
  return encodeResponse(ApiVersionsResponse, 0, correlationId, apiVersionsBody(errorCodeOf('UNSUPPORTED_VERSION')));
}

const API_TABLE: readonly ApiDefinition[] = [...DATA_APIS, ...CLUSTER_APIS, ...GROUP_APIS, ...CONSUMER_GROUP_APIS, ...SHARE_GROUP_APIS, ...SHARE_FETCH_APIS, ...SHARE_OFFSETS_APIS, ...GROUP_CONFIG_APIS, ...STREAMS_GROUP_APIS, ...ADMIN_APIS, ...PRODUCER_APIS, ...TRANSACTION_ADMIN_APIS, API_VERSIONS].sort((a, b) => a.key - b.key);

export function findApi(key: number): ApiDefinition | undefined {
  return API_TABLE.find((api) => api.key === key);
}

export function supportedApis(): readonly ApiDefinition[] {
  return API_TABLE;
}
