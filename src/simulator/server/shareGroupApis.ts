/**
 * KIP-932's share-group membership APIs at Kafka 4.4's versions: ShareGroupHeartbeat (76) and ShareGroupDescribe
 * (77), v1 only (4.4 removed the early-access v0), answered by the engine's share coordinator, so a
 * KafkaShareConsumer joins and gets its partitions as against a broker; its records come through shareFetchApis.ts.
 */
import { errorCodeOf } from '../../protocol/errorCodes';
import { ApiKeys } from '../../protocol/messages/apis';
import { ShareGroupDescribeRequest, type ShareGroupDescribeRequestData } from '../../protocol/messages/shareGroupDescribeRequest';
import { ShareGroupDescribeResponse, type DescribedGroup, type ShareGroupDescribeResponseData } from '../../protocol/messages/shareGroupDescribeResponse';
import { ShareGroupHeartbeatRequest, type ShareGroupHeartbeatRequestData } from '../../protocol/messages/shareGroupHeartbeatRequest';
import { ShareGroupHeartbeatResponse, type ShareGroupHeartbeatResponseData } from '../../protocol/messages/shareGroupHeartbeatResponse';
import { KafkaApiError } from '../common/errors';
import type { Respond } from '../common/requests';
import { shareGroupNotFound } from '../coordinator/share/shareGroupDescribe';
import { shareHeartbeatError } from '../coordinator/share/shareGroupHeartbeatHandler';
import { ask, defineApi, type ApiDefinition, type RequestContext } from './context';
import { coordinatorError, describeLocalGroups, notCoordinatorMessage } from './groupApis';

async function shareGroupHeartbeat(request: ShareGroupHeartbeatRequestData, ctx: RequestContext): Promise<ShareGroupHeartbeatResponseData> {
  if (coordinatorError(ctx, request.groupId) !== 'NONE') {
    return shareHeartbeatError(new KafkaApiError('NOT_COORDINATOR', notCoordinatorMessage(request.groupId)));
  }
  const coordinator = ctx.server.simulation.coordinator;
  const context = { apiVersion: ctx.apiVersion, clientId: ctx.clientId, clientHost: ctx.clientHost };
  return ask((q: ShareGroupHeartbeatRequestData, a: Respond<ShareGroupHeartbeatResponseData>) => coordinator.shareGroupHeartbeat(context, q, a), request);
}

async function shareGroupDescribe(request: ShareGroupDescribeRequestData, ctx: RequestContext): Promise<ShareGroupDescribeResponseData> {
  const coordinator = ctx.server.simulation.coordinator;
  const groups = await describeLocalGroups<DescribedGroup>(ctx, request.groupIds, (q, a) => coordinator.shareGroupDescribe(q, a), (groupId) => ({
    ...shareGroupNotFound(groupId, notCoordinatorMessage(groupId)), errorCode: errorCodeOf('NOT_COORDINATOR'),
  }));
  return { throttleTimeMs: 0, groups };
}

export const SHARE_GROUP_APIS: readonly ApiDefinition[] = [
  defineApi({
    key: ApiKeys.ShareGroupHeartbeat, name: 'ShareGroupHeartbeat', minVersion: 1, maxVersion: 1,
    request: ShareGroupHeartbeatRequest, response: ShareGroupHeartbeatResponse, handle: shareGroupHeartbeat,
  }),
  defineApi({
    key: ApiKeys.ShareGroupDescribe, name: 'ShareGroupDescribe', minVersion: 1, maxVersion: 1,
    request: ShareGroupDescribeRequest, response: ShareGroupDescribeResponse, handle: shareGroupDescribe,
  }),
];
