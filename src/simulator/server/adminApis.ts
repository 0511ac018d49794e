/** Group administration: ListGroups, DescribeGroups, DeleteGroups and OffsetDelete over the engine's coordinator. */
import { errorCodeOf } from '../../protocol/errorCodes';
import { DeleteGroupsRequest, type DeleteGroupsRequestData } from '../../protocol/messages/deleteGroupsRequest';
import { DeleteGroupsResponse, type DeleteGroupsResponseData } from '../../protocol/messages/deleteGroupsResponse';
import { DescribeGroupsRequest, type DescribeGroupsRequestData } from '../../protocol/messages/describeGroupsRequest';
import { DescribeGroupsResponse, type DescribeGroupsResponseData, type DescribedGroup as WireDescribedGroup } from '../../protocol/messages/describeGroupsResponse';
import { ListGroupsRequest, type ListGroupsRequestData } from '../../protocol/messages/listGroupsRequest';
import { ListGroupsResponse, type ListGroupsResponseData } from '../../protocol/messages/listGroupsResponse';
import { OffsetDeleteRequest, type OffsetDeleteRequestData } from '../../protocol/messages/offsetDeleteRequest';
import { OffsetDeleteResponse, type OffsetDeleteResponseData } from '../../protocol/messages/offsetDeleteResponse';
import type { DeleteGroupsResponse as EngineDeleteResponse, DescribedGroup, DescribeGroupsResponse as EngineDescribeResponse, ListGroupsResponse as EngineListResponse, OffsetDeleteResponse as EngineOffsetDeleteResponse } from '../common/requests';
import { ask, defineApi, type ApiDefinition, type RequestContext } from './context';
import { coordinatorError } from './groupApis';
import { assignmentToWire, subscriptionToWire } from './memberProtocol';

/** DescribeGroups v3+: authorized operations were not asked for. */
const OPERATIONS_NOT_REQUESTED = -2147483648;

function ownGroup(ctx: RequestContext, groupId: string): boolean {
  return coordinatorError(ctx, groupId) === 'NONE';
}

/**
 * Each broker lists only the groups it coordinates; clients ask every broker and merge. The state
 * (v4+) and type (v5+) filters compare case-insensitively, as Kafka's GroupMetadataManager does.
 */
async function listGroups(request: ListGroupsRequestData, ctx: RequestContext): Promise<ListGroupsResponseData> {
  const coordinator = ctx.server.simulation.coordinator;
  const response = await ask<object, EngineListResponse>((q, a) => coordinator.listGroups(q, a), {});
  const states = new Set((request.statesFilter ?? []).map((s) => s.toLowerCase()));
  const types = new Set((request.typesFilter ?? []).map((t) => t.toLowerCase()));
  const groups = response.groups.filter(
    (g) => ownGroup(ctx, g.groupId) && (states.size === 0 || states.has(g.groupState.toLowerCase())) && (types.size === 0 || types.has(g.groupType)),
  );
  return {
    throttleTimeMs: 0,
    errorCode: errorCodeOf(response.errorCode),
    groups: groups.map((g) => ({ groupId: g.groupId, protocolType: g.protocolType, groupState: g.groupState, groupType: g.groupType })),
  };
}

function notCoordinatedHere(groupId: string): DescribedGroup {
  return { errorCode: 'NOT_COORDINATOR', groupId, groupState: 'Dead', protocolType: '', protocolData: '', members: [] };
}

function describedToWire(g: DescribedGroup, v: number, otherType: boolean): WireDescribedGroup {
  // v6 (KIP-1043) answers a group that does not exist, or is not a classic group, with GROUP_ID_NOT_FOUND; before, a Dead group with no error.
  const missing = v >= 6 && g.errorCode === 'NONE' && g.groupState === 'Dead';
  // Kafka sends member metadata and assignments only while the group is Stable.
  const stable = g.groupState === 'Stable';
  return {
    errorCode: errorCodeOf(missing ? 'GROUP_ID_NOT_FOUND' : g.errorCode),
    ...(missing ? { errorMessage: otherType ? `Group ${g.groupId} is not a classic group.` : `Group ${g.groupId} not found.` } : {}),
    groupId: g.groupId,
    groupState: g.groupState,
    protocolType: g.protocolType,
    protocolData: g.protocolData,
    members: g.members.map((m) => ({
      memberId: m.memberId,
      groupInstanceId: m.groupInstanceId,
      clientId: m.clientId,
      clientHost: m.clientHost,
      memberMetadata: stable && m.metadata ? subscriptionToWire(m.metadata) : new Uint8Array(0),
      memberAssignment: stable ? assignmentToWire(m.assignment) : new Uint8Array(0),
    })),
    ...(v >= 3 ? { authorizedOperations: OPERATIONS_NOT_REQUESTED } : {}),
  };
}

async function describeGroups(request: DescribeGroupsRequestData, ctx: RequestContext): Promise<DescribeGroupsResponseData> {
  const own = request.groups.filter((id) => ownGroup(ctx, id));
  const coordinator = ctx.server.simulation.coordinator;
  const described = own.length > 0 ? (await ask<{ groups: string[] }, EngineDescribeResponse>((q, a) => coordinator.describeGroups(q, a), { groups: own })).groups : [];
  const groups = request.groups.map((id) => described.find((g) => g.groupId === id) ?? notCoordinatedHere(id));
  return { throttleTimeMs: 0, groups: groups.map((g) => describedToWire(g, ctx.apiVersion, coordinator.consumerGroup(g.groupId) !== undefined)) };
}

async function deleteGroups(request: DeleteGroupsRequestData, ctx: RequestContext): Promise<DeleteGroupsResponseData> {
  const own = request.groupsNames.filter((id) => ownGroup(ctx, id));
  const coordinator = ctx.server.simulation.coordinator;
  const results = own.length > 0 ? (await ask<{ groupsNames: string[] }, EngineDeleteResponse>((q, a) => coordinator.deleteGroups(q, a), { groupsNames: own })).results : [];
  return {
    throttleTimeMs: 0,
    results: request.groupsNames.map((groupId) => ({ groupId, errorCode: errorCodeOf(results.find((x) => x.groupId === groupId)?.errorCode ?? 'NOT_COORDINATOR') })),
  };
}

async function offsetDelete(request: OffsetDeleteRequestData, ctx: RequestContext): Promise<OffsetDeleteResponseData> {
  const routing = coordinatorError(ctx, request.groupId);
  const coordinator = ctx.server.simulation.coordinator;
  const topics = request.topics.map((t) => ({ name: t.name, partitions: t.partitions.map((p) => p.partitionIndex) }));
  const response: EngineOffsetDeleteResponse =
    routing !== 'NONE' ? { errorCode: routing, topics: [] } : await ask((q, a) => coordinator.offsetDelete(q, a), { groupId: request.groupId, topics });
  return {
    errorCode: errorCodeOf(response.errorCode),
    throttleTimeMs: 0,
    topics: response.topics.map((t) => ({ name: t.name, partitions: t.partitions.map((p) => ({ partitionIndex: p.partition, errorCode: errorCodeOf(p.errorCode) })) })),
  };
}

export const ADMIN_APIS: readonly ApiDefinition[] = [
  defineApi({ key: 15, name: 'DescribeGroups', minVersion: 0, maxVersion: 6, request: DescribeGroupsRequest, response: DescribeGroupsResponse, handle: describeGroups }),
  defineApi({ key: 16, name: 'ListGroups', minVersion: 0, maxVersion: 5, request: ListGroupsRequest, response: ListGroupsResponse, handle: listGroups }),
  defineApi({ key: 42, name: 'DeleteGroups', minVersion: 0, maxVersion: 3, request: DeleteGroupsRequest, response: DeleteGroupsResponse, handle: deleteGroups }),
  defineApi({ key: 47, name: 'OffsetDelete', minVersion: 0, maxVersion: 0, request: OffsetDeleteRequest, response: OffsetDeleteResponse, handle: offsetDelete }),
];
