/** The group administration requests kafkajs 2.2.4 lacks or cannot send the way an admin tool must. */
import { groupBy } from '../collections';
import { ApiKeys, buildRequest, type ApiRequest } from './apiRequest';

export interface PartitionResult {
  topic: string;
  partition: number;
  errorCode: number;
}

export interface OffsetToCommit {
  topic: string;
  partition: number;
  /** A bigint goes on the wire exactly, up to 2^63-1. */
  offset: number | bigint;
  metadata?: string | null;
}

/**
 * OffsetCommit v2..v7 as an admin commit: generation -1, member id "" and no instance id, which the
 * coordinator accepts only while the group has no active members (what kafka-consumer-groups.sh
 * --reset-offsets --execute sends).
 */
export function adminOffsetCommitRequest(groupId: string, offsets: readonly OffsetToCommit[], version: number): ApiRequest<PartitionResult[]> {
  if (version < 2 || version > 7) {
    throw new RangeError(`OffsetCommit v${version} is not implemented (2..7)`);
  }
  return buildRequest({
    apiKey: ApiKeys.OffsetCommit,
    apiName: 'OffsetCommit',
    apiVersion: version,
    flexible: false,
    writeBody: (f) => {
      f.string(groupId);
      f.w.int32(-1); // generation
      f.string(''); // member id
      if (version >= 7) {
        f.string(null); // group instance id
      }
      if (version <= 4) {
        f.w.int64(-1); // retention: broker default
      }
      f.array([...groupBy(offsets, (o) => o.topic)], (t, [topic, parts]) => {
        t.string(topic);
        t.array(parts, (p, o) => {
          p.w.int32(o.partition).int64(o.offset);
          if (version >= 6) {
            p.w.int32(-1); // committed leader epoch: unknown
          }
          p.string(o.metadata ?? '');
        });
      });
    },
    readBody: (f) => {
      if (version >= 3) {
        f.r.int32();
      }
      return f
        .array((t) => {
          const topic = t.string();
          return t.array((p) => ({ topic, partition: p.r.int32(), errorCode: p.r.int16() }));
        })
        .flat();
    },
  });
}

export interface OffsetDeleteResult {
  errorCode: number;
  partitions: PartitionResult[];
}

/** OffsetDelete v0 (API 47): removes committed offsets of partitions the group does not subscribe to. */
export function offsetDeleteRequest(groupId: string, topic: string, partitions: readonly number[]): ApiRequest<OffsetDeleteResult> {
  return buildRequest({
    apiKey: ApiKeys.OffsetDelete,
    apiName: 'OffsetDelete',
    apiVersion: 0,
    flexible: false,
    writeBody: (f) => {
      f.string(groupId);
      f.array([topic], (t, name) => {
        t.string(name);
        t.array(partitions, (p, partition) => p.w.int32(partition));
      });
    },
    readBody: (f) => {
      const errorCode = f.r.int16();
      f.r.int32();
      const results = f
        .array((t) => {
          const name = t.string();
          return t.array((p) => ({ topic: name, partition: p.r.int32(), errorCode: p.r.int16() }));
        })
        .flat();
      return { errorCode, partitions: results };
    },
  });
}

export interface LeaveGroupResult {
  errorCode: number;
  members: Array<{ memberId: string; groupInstanceId: string | null; errorCode: number }>;
}

/** LeaveGroup v3 naming members by group.instance.id (member id ""), as AdminClient.removeMembersFromConsumerGroup does. */
export function leaveGroupByInstanceIdRequest(groupId: string, instanceIds: readonly string[]): ApiRequest<LeaveGroupResult> {
  return buildRequest({
    apiKey: ApiKeys.LeaveGroup,
    apiName: 'LeaveGroup',
    apiVersion: 3,
    flexible: false,
    writeBody: (f) => {
      f.string(groupId);
      f.array(instanceIds, (m, instanceId) => m.string('').string(instanceId));
    },
    readBody: (f) => {
      f.r.int32();
      const errorCode = f.r.int16();
      const members = f.array((m) => ({ memberId: m.string(), groupInstanceId: m.nullableString(), errorCode: m.r.int16() }));
      return { errorCode, members };
    },
  });
}

/** DeleteGroups v1. */
export function deleteGroupsRequest(groupIds: readonly string[]): ApiRequest<Array<{ groupId: string; errorCode: number }>> {
  return buildRequest({
    apiKey: ApiKeys.DeleteGroups,
    apiName: 'DeleteGroups',
    apiVersion: 1,
    flexible: false,
    writeBody: (f) => {
      f.array(groupIds, (g, id) => g.string(id));
    },
    readBody: (f) => {
      f.r.int32();
      return f.array((g) => ({ groupId: g.string(), errorCode: g.r.int16() }));
    },
  });
}
