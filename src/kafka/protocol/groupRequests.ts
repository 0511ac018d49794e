/** ListGroups, DescribeGroups and ConsumerGroupDescribe, encoded per Kafka's message JSON. */
import { ApiKeys, buildRequest, type ApiRequest, type FieldReader } from './apiRequest';

export interface ListedGroup {
  groupId: string;
  protocolType: string;
  /** v4+ only. */
  groupState: string | null;
  /** v5+ only: "classic", "consumer", "share", "streams". */
  groupType: string | null;
}

export interface ListGroupsResult {
  errorCode: number;
  groups: ListedGroup[];
}

/** ListGroups v0..v5 with no filters (every group, every state and type). */
export function listGroupsRequest(version: number): ApiRequest<ListGroupsResult> {
  if (version < 0 || version > 5) {
    throw new RangeError(`ListGroups v${version} is not implemented (0..5)`);
  }
  return buildRequest({
    apiKey: ApiKeys.ListGroups,
    apiName: 'ListGroups',
    apiVersion: version,
    flexible: version >= 3,
    writeBody: (f) => {
      if (version >= 4) {
        f.array<string>([], (g, s) => g.string(s)); // states filter: none
      }
      if (version >= 5) {
        f.array<string>([], (g, s) => g.string(s)); // types filter: none
      }
    },
    readBody: (f) => {
      if (version >= 1) {
        f.r.int32(); // throttle time
      }
      const errorCode = f.r.int16();
      const groups = f.array((g) => {
        const group: ListedGroup = {
          groupId: g.string(),
          protocolType: g.string(),
          groupState: version >= 4 ? g.string() : null,
          groupType: version >= 5 ? g.string() : null,
        };
        g.endStruct();
        return group;
      });
      return { errorCode, groups };
    },
  });
}

export interface DescribedMember {
  memberId: string;
  groupInstanceId: string | null;
  clientId: string;
  clientHost: string;
  memberMetadata: Buffer;
  memberAssignment: Buffer;
}

export interface DescribedGroup {
  errorCode: number;
  errorMessage: string | null;
  groupId: string;
  groupState: string;
  protocolType: string;
  /** The selected assignor for consumer groups. */
  protocolData: string;
  members: DescribedMember[];
}

/** DescribeGroups v0..v6. v4 adds group.instance.id, v5 is flexible, v6 adds an error message. */
export function describeGroupsRequest(groupIds: readonly string[], version: number): ApiRequest<DescribedGroup[]> {
  if (version < 0 || version > 6) {
    throw new RangeError(`DescribeGroups v${version} is not implemented (0..6)`);
  }
  const readMember = (m: FieldReader): DescribedMember => {
    const member: DescribedMember = {
      memberId: m.string(),
      groupInstanceId: version >= 4 ? m.nullableString() : null,
      clientId: m.string(),
      clientHost: m.string(),
      memberMetadata: m.bytes() ?? Buffer.alloc(0),
      memberAssignment: m.bytes() ?? Buffer.alloc(0),
    };
    m.endStruct();
    return member;
  };
  return buildRequest({
    apiKey: ApiKeys.DescribeGroups,
    apiName: 'DescribeGroups',
    apiVersion: version,
    flexible: version >= 5,
    writeBody: (f) => {
      f.array(groupIds, (g, id) => g.string(id));
      if (version >= 3) {
        f.w.boolean(false); // include authorized operations
      }
    },
    readBody: (f) => {
      if (version >= 1) {
        f.r.int32();
      }
      return f.array((g) => {
        const errorCode = g.r.int16();
        const errorMessage = version >= 6 ? g.nullableString() : null;
        const group: DescribedGroup = {
          errorCode,
          errorMessage,
          groupId: g.string(),
          groupState: g.string(),
          protocolType: g.string(),
          protocolData: g.string(),
          members: g.array(readMember),
        };
        if (version >= 3) {
          g.r.int32(); // authorized operations
        }
        g.endStruct();
        return group;
      });
    },
  });
}

export interface ConsumerGroupMemberDescription {
  memberId: string;
  instanceId: string | null;
  rackId: string | null;
  memberEpoch: number;
  clientId: string;
  clientHost: string;
  subscribedTopicNames: string[];
  subscribedTopicRegex: string | null;
  assignment: Array<{ topic: string; partitions: number[] }>;
  targetAssignment: Array<{ topic: string; partitions: number[] }>;
}

export interface ConsumerGroupDescription {
  errorCode: number;
  errorMessage: string | null;
  groupId: string;
  groupState: string;
  groupEpoch: number;
  assignmentEpoch: number;
  assignorName: string;
  members: ConsumerGroupMemberDescription[];
}

function readKip848Assignment(f: FieldReader): Array<{ topic: string; partitions: number[] }> {
  const topics = f.array((t) => {
    t.r.uuid(); // topic id
    const topic = t.string();
    const partitions = t.array((p) => p.r.int32());
    t.endStruct();
    return { topic, partitions };
  });
  f.endStruct();
  return topics;
}

/** ConsumerGroupDescribe (KIP-848) v0, flexible. */
export function consumerGroupDescribeRequest(groupIds: readonly string[]): ApiRequest<ConsumerGroupDescription[]> {
  return buildRequest({
    apiKey: ApiKeys.ConsumerGroupDescribe,
    apiName: 'ConsumerGroupDescribe',
    apiVersion: 0,
    flexible: true,
    writeBody: (f) => {
      f.array(groupIds, (g, id) => g.string(id));
      f.w.boolean(false);
    },
    readBody: (f) => {
      f.r.int32(); // throttle time
      return f.array((g) => {
        const group: ConsumerGroupDescription = {
          errorCode: g.r.int16(),
          errorMessage: g.nullableString(),
          groupId: g.string(),
          groupState: g.string(),
          groupEpoch: g.r.int32(),
          assignmentEpoch: g.r.int32(),
          assignorName: g.string(),
          members: g.array((m) => {
            const member: ConsumerGroupMemberDescription = {
              memberId: m.string(),
              instanceId: m.nullableString(),
              rackId: m.nullableString(),
              memberEpoch: m.r.int32(),
              clientId: m.string(),
              clientHost: m.string(),
              subscribedTopicNames: m.array((t) => t.string()),
              subscribedTopicRegex: m.nullableString(),
              assignment: readKip848Assignment(m),
              targetAssignment: readKip848Assignment(m),
            };
            m.endStruct();
            return member;
          }),
        };
        g.r.int32(); // authorized operations
        g.endStruct();
        return group;
      });
    },
  });
}
