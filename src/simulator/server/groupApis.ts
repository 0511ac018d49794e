/**
 * The classic group APIs at the non-flexible versions clients negotiate down to, each mapped one to
 * one onto the engine's coordinator, so a real client's join is the same join a simulated one makes.
 */
import { ByteReader, ByteWriter } from '../../kafka/protocol/wire';
import type { KafkaErrorCode } from '../errors';
import type {
  HeartbeatResponse,
  JoinGroupProtocol,
  JoinGroupResponse,
  LeaveGroupMemberIdentity,
  LeaveGroupResponse,
  OffsetCommitResponse,
  OffsetFetchResponse,
  SyncGroupResponse,
} from '../protocol';
import { ask, expectEnd, readNullableArray, type ApiDefinition, type RequestContext } from './context';
import { wireErrorCode } from './errorCodes';
import { assignmentFromWire, assignmentToWire, subscriptionFromWire, subscriptionToWire } from './memberProtocol';

const CONSUMER_PROTOCOL_TYPE = 'consumer';

/** NOT_COORDINATOR unless this broker leads the group's __consumer_offsets partition. */
export function coordinatorError(ctx: RequestContext, groupId: string): KafkaErrorCode {
  return ctx.server.simulation.cluster.coordinatorFor(groupId).nodeId === ctx.nodeId ? 'NONE' : 'NOT_COORDINATOR';
}

function throttle(w: ByteWriter, ctx: RequestContext, fromVersion: number): ByteWriter {
  return ctx.apiVersion >= fromVersion ? w.int32(0) : w;
}

// ------------------------------------------------------------------ JoinGroup

function failedJoin(errorCode: KafkaErrorCode, memberId: string): JoinGroupResponse {
  return { errorCode, generationId: -1, protocolType: null, protocolName: null, leader: '', skipAssignment: false, memberId, members: [] };
}

async function joinGroup(r: ByteReader, ctx: RequestContext): Promise<Buffer> {
  const v = ctx.apiVersion;
  const groupId = r.string();
  const sessionTimeoutMs = r.int32();
  const rebalanceTimeoutMs = v >= 1 ? r.int32() : sessionTimeoutMs;
  const memberId = r.string();
  const groupInstanceId = v >= 5 ? r.nullableString() : null;
  const protocolType = r.string();
  const rawProtocols = r.array((p) => ({ name: p.string(), metadata: p.nullableBytes() ?? Buffer.alloc(0) }));
  expectEnd(r, 'JoinGroup');

  let response: JoinGroupResponse;
  const routing = coordinatorError(ctx, groupId);
  if (routing !== 'NONE') {
    response = failedJoin(routing, memberId);
  } else if (protocolType !== CONSUMER_PROTOCOL_TYPE) {
    // The engine models consumer groups only; Connect and other protocol types are refused.
    ctx.server.log(`JoinGroup ${groupId}: protocol type "${protocolType}" is not supported, only "${CONSUMER_PROTOCOL_TYPE}"`);
    response = failedJoin('INCONSISTENT_GROUP_PROTOCOL', memberId);
  } else {
    const protocols: JoinGroupProtocol[] = rawProtocols.map((p) => ({ name: p.name, metadata: subscriptionFromWire(p.metadata) }));
    const coordinator = ctx.server.simulation.coordinator;
    response = await ask((q, a) => coordinator.joinGroup(q, a), {
      groupId,
      sessionTimeoutMs,
      rebalanceTimeoutMs,
      memberId,
      groupInstanceId,
      protocolType,
      protocols,
      apiVersion: v,
      clientId: ctx.clientId,
      clientHost: ctx.clientHost,
    });
  }
  const w = throttle(new ByteWriter(), ctx, 2);
  w.int16(wireErrorCode(response.errorCode)).int32(response.generationId).string(response.protocolName ?? '').string(response.leader).string(response.memberId);
  return w
    .array(response.members, (mw, m) => {
      mw.string(m.memberId);
      if (v >= 5) {
        mw.string(m.groupInstanceId);
      }
      mw.bytes(subscriptionToWire(m.metadata));
    })
    .toBuffer();
}

// ------------------------------------------------------------------ SyncGroup

async function syncGroup(r: ByteReader, ctx: RequestContext): Promise<Buffer> {
  const v = ctx.apiVersion;
  const groupId = r.string();
  const generationId = r.int32();
  const memberId = r.string();
  const groupInstanceId = v >= 3 ? r.nullableString() : null;
  const assignments = r.array((a) => ({ memberId: a.string(), assignment: assignmentFromWire(a.nullableBytes() ?? Buffer.alloc(0)) }));
  expectEnd(r, 'SyncGroup');

  const routing = coordinatorError(ctx, groupId);
  const coordinator = ctx.server.simulation.coordinator;
  const response: SyncGroupResponse =
    routing !== 'NONE'
      ? { errorCode: routing, protocolType: null, protocolName: null, assignment: { partitions: [] } }
      : await ask((q, a) => coordinator.syncGroup(q, a), { groupId, generationId, memberId, groupInstanceId, protocolType: null, protocolName: null, assignments });
  const w = throttle(new ByteWriter(), ctx, 1).int16(wireErrorCode(response.errorCode));
  return w.bytes(response.errorCode === 'NONE' ? assignmentToWire(response.assignment) : Buffer.alloc(0)).toBuffer();
}

// ------------------------------------------------------------------ Heartbeat

async function heartbeat(r: ByteReader, ctx: RequestContext): Promise<Buffer> {
  const groupId = r.string();
  const generationId = r.int32();
  const memberId = r.string();
  const groupInstanceId = ctx.apiVersion >= 3 ? r.nullableString() : null;
  expectEnd(r, 'Heartbeat');
  const routing = coordinatorError(ctx, groupId);
  const coordinator = ctx.server.simulation.coordinator;
  const response: HeartbeatResponse =
    routing !== 'NONE' ? { errorCode: routing } : await ask((q, a) => coordinator.heartbeat(q, a), { groupId, generationId, memberId, groupInstanceId });
  return throttle(new ByteWriter(), ctx, 1).int16(wireErrorCode(response.errorCode)).toBuffer();
}

// ------------------------------------------------------------------ LeaveGroup

async function leaveGroup(r: ByteReader, ctx: RequestContext): Promise<Buffer> {
  const v = ctx.apiVersion;
  const groupId = r.string();
  const members: LeaveGroupMemberIdentity[] =
    v >= 3 ? r.array((m) => ({ memberId: m.string(), groupInstanceId: m.nullableString() })) : [{ memberId: r.string(), groupInstanceId: null }];
  expectEnd(r, 'LeaveGroup');
  const routing = coordinatorError(ctx, groupId);
  const coordinator = ctx.server.simulation.coordinator;
  const response: LeaveGroupResponse = routing !== 'NONE' ? { errorCode: routing, members: [] } : await ask((q, a) => coordinator.leaveGroup(q, a), { groupId, members });
  // Before v3 a single member left: its own error is the answer.
  const errorCode = v < 3 && response.errorCode === 'NONE' && response.members[0] ? response.members[0].errorCode : response.errorCode;
  const w = throttle(new ByteWriter(), ctx, 1).int16(wireErrorCode(errorCode));
  if (v >= 3) {
    w.array(response.members, (mw, m) => mw.string(m.memberId).string(m.groupInstanceId).int16(wireErrorCode(m.errorCode)));
  }
  return w.toBuffer();
}

// ------------------------------------------------------------------ OffsetCommit

async function offsetCommit(r: ByteReader, ctx: RequestContext): Promise<Buffer> {
  const v = ctx.apiVersion;
  const groupId = r.string();
  const generationId = v >= 1 ? r.int32() : -1;
  const memberId = v >= 1 ? r.string() : '';
  const groupInstanceId = v >= 7 ? r.nullableString() : null;
  if (v >= 2 && v <= 4) {
    r.int64(); // retention time: the coordinator applies offsets.retention.minutes
  }
  const topics = r.array((t) => ({
    name: t.string(),
    partitions: t.array((p) => {
      const partition = p.int32();
      const offset = p.int64();
      if (v === 1) {
        p.int64(); // commit timestamp
      }
      const leaderEpoch = v >= 6 ? p.int32() : -1;
      return { partition, offset, leaderEpoch, metadata: p.nullableString() };
    }),
  }));
  expectEnd(r, 'OffsetCommit');
  const routing = coordinatorError(ctx, groupId);
  const coordinator = ctx.server.simulation.coordinator;
  const response: OffsetCommitResponse =
    routing !== 'NONE'
      ? { topics: topics.map((t) => ({ name: t.name, partitions: t.partitions.map((p) => ({ partition: p.partition, errorCode: routing })) })) }
      : await ask((q, a) => coordinator.offsetCommit(q, a), { groupId, generationId, memberId, groupInstanceId, topics });
  return throttle(new ByteWriter(), ctx, 3)
    .array(response.topics, (tw, t) => {
      tw.string(t.name).array(t.partitions, (pw, p) => pw.int32(p.partition).int16(wireErrorCode(p.errorCode)));
    })
    .toBuffer();
}

// ------------------------------------------------------------------ OffsetFetch

async function offsetFetch(r: ByteReader, ctx: RequestContext): Promise<Buffer> {
  const v = ctx.apiVersion;
  const groupId = r.string();
  const readTopic = (t: ByteReader) => ({ name: t.string(), partitions: t.array((p) => p.int32()) });
  const topics = v >= 2 ? readNullableArray(r, readTopic) : r.array(readTopic);
  expectEnd(r, 'OffsetFetch');
  const routing = coordinatorError(ctx, groupId);
  const coordinator = ctx.server.simulation.coordinator;
  const response: OffsetFetchResponse = routing !== 'NONE' ? { errorCode: routing, topics: [] } : await ask((q, a) => coordinator.offsetFetch(q, a), { groupId, topics });
  const w = throttle(new ByteWriter(), ctx, 3).array(response.topics, (tw, t) => {
    tw.string(t.name).array(t.partitions, (pw, p) => {
      pw.int32(p.partition).int64(p.committedOffset);
      if (v >= 5) {
        pw.int32(p.committedLeaderEpoch);
      }
      pw.string(p.metadata).int16(wireErrorCode(p.errorCode));
    });
  });
  if (v >= 2) {
    w.int16(wireErrorCode(response.errorCode));
  }
  return w.toBuffer();
}

export const GROUP_APIS: readonly ApiDefinition[] = [
  { key: 8, name: 'OffsetCommit', minVersion: 0, maxVersion: 7, handle: offsetCommit },
  { key: 9, name: 'OffsetFetch', minVersion: 1, maxVersion: 5, handle: offsetFetch },
  { key: 11, name: 'JoinGroup', minVersion: 0, maxVersion: 5, handle: joinGroup },
  { key: 12, name: 'Heartbeat', minVersion: 0, maxVersion: 3, handle: heartbeat },
  { key: 13, name: 'LeaveGroup', minVersion: 0, maxVersion: 3, handle: leaveGroup },
  { key: 14, name: 'SyncGroup', minVersion: 0, maxVersion: 3, handle: syncGroup },
];
