/**
 * DescribeConfigs (32, v1–v4) and IncrementalAlterConfigs (44, v0–v1) for the GROUP resource (type 32), as a
 * Kafka 4.4 broker answers them for group configs: a share group's share.* settings and its dead-letter topic
 * (share/shareGroupConfigs.ts), on any broker, for any group id. Other resource types are refused per resource:
 * the simulator keeps no topic or broker configs.
 */
import { errorCodeOf } from '../../protocol/errorCodes';
import { ApiKeys } from '../../protocol/messages/apis';
import { DescribeConfigsRequest, type DescribeConfigsRequestData } from '../../protocol/messages/describeConfigsRequest';
import { DescribeConfigsResponse, type DescribeConfigsResponseData } from '../../protocol/messages/describeConfigsResponse';
import { IncrementalAlterConfigsRequest, type IncrementalAlterConfigsRequestData } from '../../protocol/messages/incrementalAlterConfigsRequest';
import { IncrementalAlterConfigsResponse, type IncrementalAlterConfigsResponseData } from '../../protocol/messages/incrementalAlterConfigsResponse';
import { KafkaApiError } from '../common/errors';
import { alterShareGroupConfigs, describeShareGroupConfigs } from '../share/shareGroupConfigs';
import { defineApi, type ApiDefinition, type RequestContext } from './context';

/** ConfigResource.Type.GROUP */
const GROUP_RESOURCE = 32;
const NOT_SERVED = 'The simulator keeps group configs only (resource type GROUP).';

function describeConfigs(request: DescribeConfigsRequestData, ctx: RequestContext): DescribeConfigsResponseData {
  const shares = ctx.server.simulation.shares;
  return {
    throttleTimeMs: 0,
    results: request.resources.map((resource) => {
      if (resource.resourceType !== GROUP_RESOURCE) {
        return { errorCode: errorCodeOf('INVALID_REQUEST'), errorMessage: NOT_SERVED, resourceType: resource.resourceType, resourceName: resource.resourceName, configs: [] };
      }
      const configs = describeShareGroupConfigs(shares.explicitSettings(resource.resourceName), resource.configurationKeys);
      return {
        errorCode: 0, errorMessage: null, resourceType: resource.resourceType, resourceName: resource.resourceName,
        configs: configs.map((config) => ({
          name: config.name, value: config.value, readOnly: false, configSource: config.configSource, isSensitive: false,
          synonyms: request.includeSynonyms ? [{ name: config.name, value: config.value, source: config.configSource }] : [],
          ...(ctx.apiVersion >= 3 ? { configType: config.configType, documentation: request.includeDocumentation === true ? config.documentation : null } : {}),
        })),
      };
    }),
  };
}

function incrementalAlterConfigs(request: IncrementalAlterConfigsRequestData, ctx: RequestContext): IncrementalAlterConfigsResponseData {
  const shares = ctx.server.simulation.shares;
  return {
    throttleTimeMs: 0,
    responses: request.resources.map((resource) => {
      const answer = { resourceType: resource.resourceType, resourceName: resource.resourceName };
      if (resource.resourceType !== GROUP_RESOURCE) {
        return { ...answer, errorCode: errorCodeOf('INVALID_REQUEST'), errorMessage: NOT_SERVED };
      }
      try {
        const next = alterShareGroupConfigs(shares.explicitSettings(resource.resourceName), resource.configs);
        if (!request.validateOnly) {
          shares.replaceSettings(resource.resourceName, next);
          ctx.server.log(`IncrementalAlterConfigs from ${ctx.clientId}: group ${resource.resourceName} ${resource.configs.map((c) => c.name).join(', ')}`);
        }
        return { ...answer, errorCode: 0, errorMessage: null };
      } catch (error) {
        const refused = error instanceof KafkaApiError ? error : new KafkaApiError('UNKNOWN_SERVER_ERROR', String(error));
        return { ...answer, errorCode: refused.errorCode, errorMessage: refused.message };
      }
    }),
  };
}

export const GROUP_CONFIG_APIS: readonly ApiDefinition[] = [
  defineApi({ key: ApiKeys.DescribeConfigs, name: 'DescribeConfigs', minVersion: 1, maxVersion: 4, request: DescribeConfigsRequest, response: DescribeConfigsResponse, handle: describeConfigs }),
  defineApi({ key: ApiKeys.IncrementalAlterConfigs, name: 'IncrementalAlterConfigs', minVersion: 0, maxVersion: 1, request: IncrementalAlterConfigsRequest, response: IncrementalAlterConfigsResponse, handle: incrementalAlterConfigs }),
];
