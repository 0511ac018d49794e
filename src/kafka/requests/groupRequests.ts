/** ListGroups and DescribeGroups (the other group types' describes are in ../groupTypesDescribe.ts): the typed requests and what the loader keeps of the answers. */
import { ApiKeys } from '../../protocol/messages/apis';
import { DescribeGroupsRequest } from '../../protocol/messages/describeGroupsRequest';
import { DescribeGroupsResponse } from '../../protocol/messages/describeGroupsResponse';
import { ListGroupsRequest } from '../../protocol/messages/listGroupsRequest';
import { ListGroupsResponse } from '../../protocol/messages/listGroupsResponse';
import { apiCall, requestSpec, type RequestSpec } from './apiCall';

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

/** ListGroups with no filters (every group, every state and type), v0 to v5 as Kafka 4.4's admin client. */
export function listGroupsRequest(): RequestSpec<ListGroupsResult> {
  return requestSpec(ApiKeys.ListGroups, 0, 5, (version) =>
    apiCall(ListGroupsRequest, ListGroupsResponse, version, { statesFilter: [], typesFilter: [] }, (answer) => ({
      errorCode: answer.errorCode,
      groups: answer.groups.map((g) => ({
        groupId: g.groupId,
        protocolType: g.protocolType,
        groupState: version >= 4 ? (g.groupState ?? null) : null,
        groupType: version >= 5 ? (g.groupType ?? null) : null,
      })),
    })),
  );
}

export interface DescribedMember {
  memberId: string;
  groupInstanceId: string | null;
  clientId: string;
  clientHost: string;
  memberMetadata: Uint8Array;
  memberAssignment: Uint8Array;
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

/** DescribeGroups v0 to v6: v4 adds group.instance.id, v5 is flexible, v6 adds an error message. */
export function describeGroupsRequest(groupIds: readonly string[]): RequestSpec<DescribedGroup[]> {
  return requestSpec(ApiKeys.DescribeGroups, 0, 6, (version) =>
    apiCall(DescribeGroupsRequest, DescribeGroupsResponse, version, { groups: [...groupIds], includeAuthorizedOperations: false }, (answer) =>
      answer.groups.map((g) => ({
        errorCode: g.errorCode,
        errorMessage: g.errorMessage ?? null,
        groupId: g.groupId,
        groupState: g.groupState,
        protocolType: g.protocolType,
        protocolData: g.protocolData,
        members: g.members.map((m) => ({
          memberId: m.memberId,
          groupInstanceId: m.groupInstanceId ?? null,
          clientId: m.clientId,
          clientHost: m.clientHost,
          memberMetadata: m.memberMetadata,
          memberAssignment: m.memberAssignment,
        })),
      })),
    ),
  );
}
