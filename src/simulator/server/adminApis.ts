/** Group administration: ListGroups, DescribeGroups, DeleteGroups and OffsetDelete over the engine's coordinator. */
import { ByteReader, ByteWriter } from '../../kafka/protocol/wire';
import type {
  DeleteGroupsRequest,
  DeleteGroupsResponse,
  DescribedGroup,
  DescribeGroupsRequest,
  DescribeGroupsResponse,
  ListGroupsRequest,
  ListGroupsResponse,
  OffsetDeleteRequest,
  OffsetDeleteResponse,
} from '../protocol';
import { ask, expectEnd, type ApiDefinition, type RequestContext } from './context';
import { wireErrorCode } from './errorCodes';
import { coordinatorError } from './groupApis';
import { assignmentToWire, subscriptionToWire } from './memberProtocol';

/** DescribeGroups v3+: authorized operations were not asked for. */
const OPERATIONS_NOT_REQUESTED = -2147483648;

function ownGroup(ctx: RequestContext, groupId: string): boolean {
  return coordinatorError(ctx, groupId) === 'NONE';
}

/** Each broker lists only the groups it coordinates; clients ask every broker and merge. */
async function listGroups(r: ByteReader, ctx: RequestContext): Promise<Buffer> {
  expectEnd(r, 'ListGroups');
  const coordinator = ctx.server.simulation.coordinator;
  const response = await ask<ListGroupsRequest, ListGroupsResponse>((q, a) => coordinator.listGroups(q, a), {});
  const groups = response.groups.filter((g) => ownGroup(ctx, g.groupId));
  const w = new ByteWriter();
  if (ctx.apiVersion >= 1) {
    w.int32(0);
  }
  return w
    .int16(wireErrorCode(response.errorCode))
    .array(groups, (gw, g) => gw.string(g.groupId).string(g.protocolType))
    .toBuffer();
}

function notCoordinatedHere(groupId: string): DescribedGroup {
  return { errorCode: 'NOT_COORDINATOR', groupId, groupState: 'Dead', protocolType: '', protocolData: '', members: [] };
}

async function describeGroups(r: ByteReader, ctx: RequestContext): Promise<Buffer> {
  const v = ctx.apiVersion;
  const groupIds = r.array((g) => g.string());
  if (v >= 3) {
    r.boolean(); // include authorized operations: the simulator has no ACLs
  }
  expectEnd(r, 'DescribeGroups');
  const own = groupIds.filter((id) => ownGroup(ctx, id));
  const coordinator = ctx.server.simulation.coordinator;
  const described = own.length > 0 ? (await ask<DescribeGroupsRequest, DescribeGroupsResponse>((q, a) => coordinator.describeGroups(q, a), { groups: own })).groups : [];
  const groups = groupIds.map((id) => described.find((g) => g.groupId === id) ?? notCoordinatedHere(id));
  const w = new ByteWriter();
  if (v >= 1) {
    w.int32(0);
  }
  return w
    .array(groups, (gw, g) => {
      gw.int16(wireErrorCode(g.errorCode)).string(g.groupId).string(g.groupState).string(g.protocolType).string(g.protocolData);
      // Kafka sends member metadata and assignments only while the group is Stable.
      const stable = g.groupState === 'Stable';
      gw.array(g.members, (mw, m) => {
        mw.string(m.memberId);
        if (v >= 4) {
          mw.string(m.groupInstanceId);
        }
        mw.string(m.clientId).string(m.clientHost);
        mw.bytes(stable && m.metadata ? subscriptionToWire(m.metadata) : Buffer.alloc(0));
        mw.bytes(stable ? assignmentToWire(m.assignment) : Buffer.alloc(0));
      });
      if (v >= 3) {
        gw.int32(OPERATIONS_NOT_REQUESTED);
      }
    })
    .toBuffer();
}

async function deleteGroups(r: ByteReader, ctx: RequestContext): Promise<Buffer> {
  const groupIds = r.array((g) => g.string());
  expectEnd(r, 'DeleteGroups');
  const own = groupIds.filter((id) => ownGroup(ctx, id));
  const coordinator = ctx.server.simulation.coordinator;
  const results = own.length > 0 ? (await ask<DeleteGroupsRequest, DeleteGroupsResponse>((q, a) => coordinator.deleteGroups(q, a), { groupsNames: own })).results : [];
  return new ByteWriter()
    .int32(0)
    .array(groupIds, (gw, id) => gw.string(id).int16(wireErrorCode(results.find((x) => x.groupId === id)?.errorCode ?? 'NOT_COORDINATOR')))
    .toBuffer();
}

async function offsetDelete(r: ByteReader, ctx: RequestContext): Promise<Buffer> {
  const groupId = r.string();
  const topics = r.array((t) => ({ name: t.string(), partitions: t.array((p) => p.int32()) }));
  expectEnd(r, 'OffsetDelete');
  const routing = coordinatorError(ctx, groupId);
  const coordinator = ctx.server.simulation.coordinator;
  const response: OffsetDeleteResponse = routing !== 'NONE' ? { errorCode: routing, topics: [] } : await ask<OffsetDeleteRequest, OffsetDeleteResponse>((q, a) => coordinator.offsetDelete(q, a), { groupId, topics });
  return new ByteWriter()
    .int16(wireErrorCode(response.errorCode))
    .int32(0)
    .array(response.topics, (tw, t) => {
      tw.string(t.name).array(t.partitions, (pw, p) => pw.int32(p.partition).int16(wireErrorCode(p.errorCode)));
    })
    .toBuffer();
}

export const ADMIN_APIS: readonly ApiDefinition[] = [
  { key: 15, name: 'DescribeGroups', minVersion: 0, maxVersion: 4, handle: describeGroups },
  { key: 16, name: 'ListGroups', minVersion: 0, maxVersion: 2, handle: listGroups },
  { key: 42, name: 'DeleteGroups', minVersion: 0, maxVersion: 1, handle: deleteGroups },
  { key: 47, name: 'OffsetDelete', minVersion: 0, maxVersion: 0, handle: offsetDelete },
];
