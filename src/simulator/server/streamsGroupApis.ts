/**
 * KIP-1071's streams-group APIs at Kafka 4.4's versions: StreamsGroupHeartbeat (88) and StreamsGroupDescribe
 * (89), answered by the engine's streams coordinator, so a Kafka Streams app with group.protocol=streams joins
 * and reconciles as against a broker. The internal topics a heartbeat finds missing are created after it is
 * answered, as KafkaApis does (createStreamsInternalTopics); the client sees them on a later heartbeat.
 */
import { errorCodeOf } from '../../protocol/errorCodes';
import { ApiKeys } from '../../protocol/messages/apis';
import { StreamsGroupDescribeRequest, type StreamsGroupDescribeRequestData } from '../../protocol/messages/streamsGroupDescribeRequest';
import { StreamsGroupDescribeResponse, type DescribedGroup, type StreamsGroupDescribeResponseData } from '../../protocol/messages/streamsGroupDescribeResponse';
import { StreamsGroupHeartbeatRequest, type StreamsGroupHeartbeatRequestData } from '../../protocol/messages/streamsGroupHeartbeatRequest';
import { StreamsGroupHeartbeatResponse, type StreamsGroupHeartbeatResponseData } from '../../protocol/messages/streamsGroupHeartbeatResponse';
import { streamsGroupNotFound } from '../coordinator/streams/streamsGroupDescribe';
import type { StreamsHeartbeatResult } from '../coordinator/streams/streamsGroupConfig';
import type { ConfiguredInternalTopic } from '../coordinator/streams/topics/configuredTopology';
import type { Respond } from '../common/requests';
import { createTopic } from './clusterApis';
import { ask, defineApi, type ApiDefinition, type RequestContext } from './context';
import { coordinatorError, describeLocalGroups, notCoordinatorMessage } from './groupApis';

/** AutoTopicCreationManager.createStreamsInternalTopics: each missing topic, with the broker's replication factor. */
function createInternalTopics(ctx: RequestContext, topics: ReadonlyMap<string, ConfiguredInternalTopic>): void {
  for (const topic of topics.values()) {
    if (ctx.server.simulation.cluster.topic(topic.name) !== undefined) {
      continue;
    }
    const configs = [...topic.topicConfigs].map(([name, value]) => ({ name, value }));
    const result = createTopic(ctx, { name: topic.name, numPartitions: topic.numberOfPartitions, replicationFactor: -1, assignments: [], configs }, false);
    if (result.errorCode !== 0) {
      ctx.server.log(`streams internal topic ${topic.name} not created: ${result.errorMessage ?? result.errorCode}`);
    }
  }
}

async function streamsGroupHeartbeat(request: StreamsGroupHeartbeatRequestData, ctx: RequestContext): Promise<StreamsGroupHeartbeatResponseData> {
  if (coordinatorError(ctx, request.groupId) !== 'NONE') {
    return {
      throttleTimeMs: 0, errorCode: errorCodeOf('NOT_COORDINATOR'), errorMessage: notCoordinatorMessage(request.groupId), memberId: request.memberId, memberEpoch: 0,
      heartbeatIntervalMs: 0, taskOffsetIntervalMs: 0, status: null, activeTasks: null, standbyTasks: null, warmupTasks: null, endpointInformationEpoch: 0, partitionsByUserEndpoint: null,
    };
  }
  const coordinator = ctx.server.simulation.coordinator;
  const context = { apiVersion: ctx.apiVersion, clientId: ctx.clientId, clientHost: ctx.clientHost };
  type Result = StreamsHeartbeatResult<StreamsGroupHeartbeatResponseData>;
  const result = await ask((q: StreamsGroupHeartbeatRequestData, a: Respond<Result>) => coordinator.streamsGroupHeartbeat(context, q, a), request);
  if (result.internalTopicsToBeCreated.size > 0) {
    createInternalTopics(ctx, result.internalTopicsToBeCreated);
  }
  return result.response;
}

async function streamsGroupDescribe(request: StreamsGroupDescribeRequestData, ctx: RequestContext): Promise<StreamsGroupDescribeResponseData> {
  const coordinator = ctx.server.simulation.coordinator;
  const groups = await describeLocalGroups<DescribedGroup>(ctx, request.groupIds, (q, a) => coordinator.streamsGroupDescribe(q, a), (groupId) => ({
    ...streamsGroupNotFound(groupId, notCoordinatorMessage(groupId)), errorCode: errorCodeOf('NOT_COORDINATOR'),
  }));
  return { throttleTimeMs: 0, groups };
}

export const STREAMS_GROUP_APIS: readonly ApiDefinition[] = [
  defineApi({
    key: ApiKeys.StreamsGroupHeartbeat, name: 'StreamsGroupHeartbeat', minVersion: 0, maxVersion: 1,
    request: StreamsGroupHeartbeatRequest, response: StreamsGroupHeartbeatResponse, handle: streamsGroupHeartbeat,
  }),
  defineApi({
    key: ApiKeys.StreamsGroupDescribe, name: 'StreamsGroupDescribe', minVersion: 0, maxVersion: 1,
    request: StreamsGroupDescribeRequest, response: StreamsGroupDescribeResponse, handle: streamsGroupDescribe,
  }),
];
