/**
 * The classic group APIs at Kafka 4.4's versions, each mapped one to one onto the engine's
 * coordinator, so a real client's join is the same join a simulated one makes. JoinGroup v4+ asks
 * for MEMBER_ID_REQUIRED (the coordinator does it by version), v8+ and LeaveGroup v5+ carry the
 * client's reason into the coordinator's cause strings.
 */
import { errorCodeOf } from '../../protocol/errorCodes';
import { HeartbeatRequest, type HeartbeatRequestData } from '../../protocol/messages/heartbeatRequest';
import { HeartbeatResponse, type HeartbeatResponseData } from '../../protocol/messages/heartbeatResponse';
import { JoinGroupRequest, type JoinGroupRequestData } from '../../protocol/messages/joinGroupRequest';
import { JoinGroupResponse, type JoinGroupResponseData } from '../../protocol/messages/joinGroupResponse';
import { LeaveGroupRequest, type LeaveGroupRequestData } from '../../protocol/messages/leaveGroupRequest';
import { LeaveGroupResponse, type LeaveGroupResponseData } from '../../protocol/messages/leaveGroupResponse';
import { OffsetCommitRequest, type OffsetCommitRequestData } from '../../protocol/messages/offsetCommitRequest';
import { OffsetCommitResponse, type OffsetCommitResponseData, type OffsetCommitResponseTopic } from '../../protocol/messages/offsetCommitResponse';
import { OffsetFetchRequest, type OffsetFetchRequestData } from '../../protocol/messages/offsetFetchRequest';
import { OffsetFetchResponse, type OffsetFetchResponseData, type OffsetFetchResponseGroup } from '../../protocol/messages/offsetFetchResponse';
import { SyncGroupRequest, type SyncGroupRequestData } from '../../protocol/messages/syncGroupRequest';
import { SyncGroupResponse, type SyncGroupResponseData } from '../../protocol/messages/syncGroupResponse';
import type { KafkaErrorCode } from '../common/errors';
import type {
  HeartbeatResponse as EngineHeartbeatResponse,
  JoinGroupProtocol,
  JoinGroupResponse as EngineJoinResponse,
  LeaveGroupMemberIdentity,
  LeaveGroupResponse as EngineLeaveResponse,
  SyncGroupResponse as EngineSyncResponse, OffsetCommitResponse as EngineCommitResponse, OffsetFetchResponse as EngineFetchResponse, Respond } from '../common/requests';
import { ask, defineApi, type ApiDefinition, type RequestContext } from './context';
import { assignmentFromWire, assignmentToWire, subscriptionFromWire, subscriptionToWire } from './memberProtocol';
import { topicName, UNKNOWN_TOPIC } from './topicIds';

const CONSUMER_PROTOCOL_TYPE = 'consumer';

/** NOT_COORDINATOR unless this broker leads the group's __consumer_offsets partition. */
export function coordinatorError(ctx: RequestContext, groupId: string): KafkaErrorCode {
  return ctx.server.simulation.cluster.coordinatorFor(groupId).nodeId === ctx.nodeId ? 'NONE' : 'NOT_COORDINATOR';
}

/** Kafka's answer for a group this broker does not coordinate. */
export function notCoordinatorMessage(groupId: string): string {
  return `The coordinator is not available or this broker is not the coordinator of group ${groupId}.`;
}

/**
 * A describe of many groups (ConsumerGroupDescribe, StreamsGroupDescribe): the engine describes the ones this
 * broker coordinates, every other gets `notCoordinator`, in the order the request names them.
 */
export async function describeLocalGroups<G extends { groupId: string }>(
  ctx: RequestContext,
  groupIds: readonly string[],
  describe: (local: readonly string[], respond: Respond<G[]>) => void,
  notCoordinator: (groupId: string) => G,
): Promise<G[]> {
  const local = groupIds.filter((groupId) => coordinatorError(ctx, groupId) === 'NONE');
  const groups = await ask<readonly string[], G[]>(describe, local);
  const described = new Map(groups.map((group) => [group.groupId, group]));
  return groupIds.map((groupId) => described.get(groupId) ?? notCoordinator(groupId));
}

// ------------------------------------------------------------------ JoinGroup

function failedJoin(errorCode: KafkaErrorCode, memberId: string): EngineJoinResponse {
  return { errorCode, generationId: -1, protocolType: null, protocolName: null, leader: '', skipAssignment: false, memberId, members: [] };
}

async function joinGroup(request: JoinGroupRequestData, ctx: RequestContext): Promise<JoinGroupResponseData> {
  const v = ctx.apiVersion;
  const { groupId, memberId, protocolType } = request;
  let response: EngineJoinResponse;
  const routing = coordinatorError(ctx, groupId);
  if (routing !== 'NONE') {
    response = failedJoin(routing, memberId);
  } else if (protocolType !== CONSUMER_PROTOCOL_TYPE) {
    // The engine models consumer groups only; Connect and other protocol types are refused.
    ctx.server.log(`JoinGroup ${groupId}: protocol type "${protocolType}" is not supported, only "${CONSUMER_PROTOCOL_TYPE}"`);
    response = failedJoin('INCONSISTENT_GROUP_PROTOCOL', memberId);
  } else {
    const protocols: JoinGroupProtocol[] = request.protocols.map((p) => ({ name: p.name, metadata: subscriptionFromWire(p.metadata) }));
    const coordinator = ctx.server.simulation.coordinator;
    response = await ask((q, a) => coordinator.joinGroup(q, a), {
      groupId,
      sessionTimeoutMs: request.sessionTimeoutMs,
      // v0 has no rebalance timeout: the session timeout stands in for it, as in Kafka.
      rebalanceTimeoutMs: v >= 1 ? (request.rebalanceTimeoutMs ?? -1) : request.sessionTimeoutMs,
      memberId,
      groupInstanceId: request.groupInstanceId ?? null,
      protocolType,
      protocols,
      ...(request.reason ? { reason: request.reason } : {}),
      apiVersion: v,
      clientId: ctx.clientId,
      clientHost: ctx.clientHost,
    });
  }
  return {
    throttleTimeMs: 0,
    errorCode: errorCodeOf(response.errorCode),
    generationId: response.generationId,
    protocolType: response.protocolType,
    // Before v7 the protocol name is not nullable: "" stands for none.
    protocolName: v >= 7 ? response.protocolName : (response.protocolName ?? ''),
    leader: response.leader,
    ...(v >= 9 ? { skipAssignment: response.skipAssignment } : {}),
    memberId: response.memberId,
    members: response.members.map((m) => ({ memberId: m.memberId, groupInstanceId: m.groupInstanceId, metadata: subscriptionToWire(m.metadata) })),
  };
}

// ------------------------------------------------------------------ SyncGroup

async function syncGroup(request: SyncGroupRequestData, ctx: RequestContext): Promise<SyncGroupResponseData> {
  const routing = coordinatorError(ctx, request.groupId);
  const coordinator = ctx.server.simulation.coordinator;
  const response: EngineSyncResponse =
    routing !== 'NONE'
      ? { errorCode: routing, protocolType: null, protocolName: null, assignment: { partitions: [] } }
      : await ask((q, a) => coordinator.syncGroup(q, a), {
          groupId: request.groupId,
          generationId: request.generationId,
          memberId: request.memberId,
          groupInstanceId: request.groupInstanceId ?? null,
          protocolType: request.protocolType ?? null,
          protocolName: request.protocolName ?? null,
          assignments: request.assignments.map((a) => ({ memberId: a.memberId, assignment: assignmentFromWire(a.assignment) })),
        });
  return {
    throttleTimeMs: 0,
    errorCode: errorCodeOf(response.errorCode),
    protocolType: response.protocolType,
    protocolName: response.protocolName,
    assignment: response.errorCode === 'NONE' ? assignmentToWire(response.assignment) : new Uint8Array(0),
  };
}

// ------------------------------------------------------------------ Heartbeat

async function heartbeat(request: HeartbeatRequestData, ctx: RequestContext): Promise<HeartbeatResponseData> {
  const routing = coordinatorError(ctx, request.groupId);
  const coordinator = ctx.server.simulation.coordinator;
  const response: EngineHeartbeatResponse =
    routing !== 'NONE'
      ? { errorCode: routing }
      : await ask((q, a) => coordinator.heartbeat(q, a), { groupId: request.groupId, generationId: request.generationId, memberId: request.memberId, groupInstanceId: request.groupInstanceId ?? null });
  return { throttleTimeMs: 0, errorCode: errorCodeOf(response.errorCode) };
}

// ------------------------------------------------------------------ LeaveGroup

async function leaveGroup(request: LeaveGroupRequestData, ctx: RequestContext): Promise<LeaveGroupResponseData> {
  const v = ctx.apiVersion;
  const members: LeaveGroupMemberIdentity[] =
    v >= 3
      ? (request.members ?? []).map((m) => ({ memberId: m.memberId, groupInstanceId: m.groupInstanceId, ...(m.reason ? { reason: m.reason } : {}) }))
      : [{ memberId: request.memberId ?? '', groupInstanceId: null }];
  const routing = coordinatorError(ctx, request.groupId);
  const coordinator = ctx.server.simulation.coordinator;
  const response: EngineLeaveResponse = routing !== 'NONE' ? { errorCode: routing, members: [] } : await ask((q, a) => coordinator.leaveGroup(q, a), { groupId: request.groupId, members });
  if (v < 3) {
    // Before v3 a single member left: its own error is the answer.
    const own = response.errorCode === 'NONE' && response.members[0] ? response.members[0].errorCode : response.errorCode;
    return { throttleTimeMs: 0, errorCode: errorCodeOf(own) };
  }
  return {
    throttleTimeMs: 0,
    errorCode: errorCodeOf(response.errorCode),
    members: response.members.map((m) => ({ memberId: m.memberId, groupInstanceId: m.groupInstanceId, errorCode: errorCodeOf(m.errorCode) })),
  };
}

// ------------------------------------------------------------------ OffsetCommit

async function offsetCommit(request: OffsetCommitRequestData, ctx: RequestContext): Promise<OffsetCommitResponseData> {
  const byId = ctx.apiVersion >= 10;
  const cluster = ctx.server.simulation.cluster;
  // v10 names topics by id: an id the cluster does not know is answered UNKNOWN_TOPIC_ID, as a broker does.
  const named = request.topics.map((t) => ({ request: t, name: byId ? topicName(cluster, t.topicId) : (t.name ?? '') }));
  const known = named.filter((t) => t.name !== UNKNOWN_TOPIC);
  const routing = coordinatorError(ctx, request.groupId);
  const coordinator = ctx.server.simulation.coordinator;
  const topics = known.map((t) => ({
    name: t.name,
    partitions: t.request.partitions.map((p) => ({ partition: p.partitionIndex, offset: Number(p.committedOffset), leaderEpoch: p.committedLeaderEpoch ?? -1, metadata: p.committedMetadata })),
  }));
  const response: EngineCommitResponse =
    routing !== 'NONE'
      ? { topics: topics.map((t) => ({ name: t.name, partitions: t.partitions.map((p) => ({ partition: p.partition, errorCode: routing })) })) }
      : await ask((q, a) => coordinator.offsetCommit(q, a), {
          groupId: request.groupId,
          generationId: request.generationIdOrMemberEpoch,
          memberId: request.memberId,
          groupInstanceId: request.groupInstanceId ?? null,
          topics,
        });
  const ids = new Map(known.map((t) => [t.name, t.request.topicId ?? '']));
  const answered = response.topics.map((t): OffsetCommitResponseTopic => ({
    ...(byId ? { topicId: ids.get(t.name) ?? '' } : { name: t.name }),
    partitions: t.partitions.map((p) => ({ partitionIndex: p.partition, errorCode: errorCodeOf(p.errorCode) })),
  }));
  const unknown = named
    .filter((t) => t.name === UNKNOWN_TOPIC)
    .map((t): OffsetCommitResponseTopic => ({
      topicId: t.request.topicId ?? '',
      partitions: t.request.partitions.map((p) => ({ partitionIndex: p.partitionIndex, errorCode: errorCodeOf('UNKNOWN_TOPIC_ID') })),
    }));
  return { throttleTimeMs: 0, topics: [...answered, ...unknown] };
}

// ------------------------------------------------------------------ OffsetFetch

interface FetchedGroup {
  groupId: string;
  response: EngineFetchResponse;
  /** The topic id each fetched name was asked by (v10). */
  ids: Map<string, string>;
  unknownIds: Array<{ topicId: string; partitions: number[] }>;
}

async function fetchGroup(
  ctx: RequestContext,
  groupId: string,
  topics: ReadonlyArray<{ name?: string; topicId?: string; partitionIndexes: number[] }> | null,
  requireStable: boolean,
): Promise<FetchedGroup> {
  const byId = ctx.apiVersion >= 10;
  const cluster = ctx.server.simulation.cluster;
  const ids = new Map<string, string>();
  const unknownIds: FetchedGroup['unknownIds'] = [];
  let named: Array<{ name: string; partitions: number[] }> | null = null;
  if (topics !== null) {
    named = [];
    for (const t of topics) {
      const name = byId ? topicName(cluster, t.topicId) : (t.name ?? '');
      if (name === UNKNOWN_TOPIC) {
        unknownIds.push({ topicId: t.topicId ?? '', partitions: t.partitionIndexes });
      } else {
        ids.set(name, t.topicId ?? '');
        named.push({ name, partitions: t.partitionIndexes });
      }
    }
  }
  const routing = coordinatorError(ctx, groupId);
  const coordinator = ctx.server.simulation.coordinator;
  const response: EngineFetchResponse =
    routing !== 'NONE' ? { errorCode: routing, topics: [] } : await ask((q, a) => coordinator.offsetFetch(q, a), { groupId, topics: named, requireStable });
  if (byId) {
    // A whole-group fetch (null topics) answers with every committed topic, each by its id.
    for (const t of response.topics) {
      if (!ids.has(t.name)) {
        ids.set(t.name, cluster.topic(t.name)?.topicId ?? '');
      }
    }
  }
  return { groupId, response, ids, unknownIds };
}

function groupAnswer(fetched: FetchedGroup, byId: boolean): OffsetFetchResponseGroup {
  return {
    groupId: fetched.groupId,
    errorCode: errorCodeOf(fetched.response.errorCode),
    topics: [
      ...fetched.response.topics.map((t) => ({
        ...(byId ? { topicId: fetched.ids.get(t.name) ?? '' } : { name: t.name }),
        partitions: t.partitions.map((p) => ({
          partitionIndex: p.partition,
          committedOffset: BigInt(p.committedOffset),
          committedLeaderEpoch: p.committedLeaderEpoch,
          metadata: p.metadata,
          errorCode: errorCodeOf(p.errorCode),
        })),
      })),
      ...fetched.unknownIds.map((t) => ({
        topicId: t.topicId,
        partitions: t.partitions.map((partitionIndex) => ({ partitionIndex, committedOffset: -1n, committedLeaderEpoch: -1, metadata: '', errorCode: errorCodeOf('UNKNOWN_TOPIC_ID') })),
      })),
    ],
  };
}

async function offsetFetch(request: OffsetFetchRequestData, ctx: RequestContext): Promise<OffsetFetchResponseData> {
  const v = ctx.apiVersion;
  const requireStable = request.requireStable ?? false;
  if (v >= 8) {
    // v8+ batches groups: each is answered on its own, NOT_COORDINATOR where this broker is not its coordinator.
    const groups = await Promise.all((request.groups ?? []).map((g) => fetchGroup(ctx, g.groupId, g.topics, requireStable)));
    return { throttleTimeMs: 0, groups: groups.map((g) => groupAnswer(g, v >= 10)) };
  }
  const topics = (request.topics ?? null)?.map((t) => ({ name: t.name, partitionIndexes: t.partitionIndexes })) ?? null;
  const fetched = await fetchGroup(ctx, request.groupId ?? '', topics, requireStable);
  const answer = groupAnswer(fetched, false);
  return {
    throttleTimeMs: 0,
    errorCode: answer.errorCode,
    topics: answer.topics.map((t) => ({ name: t.name ?? '', partitions: t.partitions })),
  };
}

export const GROUP_APIS: readonly ApiDefinition[] = [
  // v9 is v8 for classic groups (it adds the KIP-848 member epoch, which a classic member sends as its generation).
  defineApi({ key: 8, name: 'OffsetCommit', minVersion: 2, maxVersion: 10, request: OffsetCommitRequest, response: OffsetCommitResponse, handle: offsetCommit }),
  defineApi({ key: 9, name: 'OffsetFetch', minVersion: 1, maxVersion: 10, request: OffsetFetchRequest, response: OffsetFetchResponse, handle: offsetFetch }),
  defineApi({ key: 11, name: 'JoinGroup', minVersion: 0, maxVersion: 9, request: JoinGroupRequest, response: JoinGroupResponse, handle: joinGroup }),
  defineApi({ key: 12, name: 'Heartbeat', minVersion: 0, maxVersion: 4, request: HeartbeatRequest, response: HeartbeatResponse, handle: heartbeat }),
  defineApi({ key: 13, name: 'LeaveGroup', minVersion: 0, maxVersion: 5, request: LeaveGroupRequest, response: LeaveGroupResponse, handle: leaveGroup }),
  defineApi({ key: 14, name: 'SyncGroup', minVersion: 0, maxVersion: 5, request: SyncGroupRequest, response: SyncGroupResponse, handle: syncGroup }),
];
