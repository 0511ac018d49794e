/**
 * KIP-848's consumer-group APIs at Kafka 4.4's versions: ConsumerGroupHeartbeat (68) and
 * ConsumerGroupDescribe (69), answered by the engine's consumer-group coordinator, so a Java consumer
 * with group.protocol=consumer joins, heartbeats and reconciles as against a broker.
 */
import { errorCodeOf } from '../../protocol/errorCodes';
import { ApiKeys } from '../../protocol/messages/apis';
import { ConsumerGroupDescribeRequest, type ConsumerGroupDescribeRequestData } from '../../protocol/messages/consumerGroupDescribeRequest';
import { ConsumerGroupDescribeResponse, type ConsumerGroupDescribeResponseData } from '../../protocol/messages/consumerGroupDescribeResponse';
import { ConsumerGroupHeartbeatRequest, type ConsumerGroupHeartbeatRequestData } from '../../protocol/messages/consumerGroupHeartbeatRequest';
import { ConsumerGroupHeartbeatResponse, type ConsumerGroupHeartbeatResponseData } from '../../protocol/messages/consumerGroupHeartbeatResponse';
import { AUTHORIZED_OPERATIONS_OMITTED } from '../coordinator/group/modern/consumer/consumerGroupDescribe';
import type { Respond } from '../common/requests';
import { ask, defineApi, type ApiDefinition, type RequestContext } from './context';
import { coordinatorError, describeLocalGroups, notCoordinatorMessage } from './groupApis';

async function consumerGroupHeartbeat(request: ConsumerGroupHeartbeatRequestData, ctx: RequestContext): Promise<ConsumerGroupHeartbeatResponseData> {
  if (coordinatorError(ctx, request.groupId) !== 'NONE') {
    return {
      throttleTimeMs: 0, errorCode: errorCodeOf('NOT_COORDINATOR'), errorMessage: notCoordinatorMessage(request.groupId),
      memberId: null, memberEpoch: 0, heartbeatIntervalMs: 0, assignment: null,
    };
  }
  const coordinator = ctx.server.simulation.coordinator;
  const context = { apiVersion: ctx.apiVersion, clientId: ctx.clientId, clientHost: ctx.clientHost };
  return ask((q: ConsumerGroupHeartbeatRequestData, a: Respond<ConsumerGroupHeartbeatResponseData>) => coordinator.consumerGroupHeartbeat(context, q, a), request);
}

async function consumerGroupDescribe(request: ConsumerGroupDescribeRequestData, ctx: RequestContext): Promise<ConsumerGroupDescribeResponseData> {
  const coordinator = ctx.server.simulation.coordinator;
  const groups = await describeLocalGroups<ConsumerGroupDescribeResponseData['groups'][number]>(ctx, request.groupIds, (q, a) => coordinator.consumerGroupDescribe(q, a), (groupId) => ({
    errorCode: errorCodeOf('NOT_COORDINATOR'), errorMessage: notCoordinatorMessage(groupId), groupId, groupState: '', groupEpoch: 0, assignmentEpoch: 0,
    assignorName: '', members: [], authorizedOperations: AUTHORIZED_OPERATIONS_OMITTED,
  }));
  return { throttleTimeMs: 0, groups };
}

export const CONSUMER_GROUP_APIS: readonly ApiDefinition[] = [
  defineApi({
    key: ApiKeys.ConsumerGroupHeartbeat, name: 'ConsumerGroupHeartbeat', minVersion: 0, maxVersion: 1,
    request: ConsumerGroupHeartbeatRequest, response: ConsumerGroupHeartbeatResponse, handle: consumerGroupHeartbeat,
  }),
  defineApi({
    key: ApiKeys.ConsumerGroupDescribe, name: 'ConsumerGroupDescribe', minVersion: 0, maxVersion: 1,
    request: ConsumerGroupDescribeRequest, response: ConsumerGroupDescribeResponse, handle: consumerGroupDescribe,
  }),
];
