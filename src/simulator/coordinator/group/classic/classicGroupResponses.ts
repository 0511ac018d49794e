/** The JoinGroup and SyncGroup answers the classic group's paths share. */
import { EMPTY_ASSIGNMENT } from './classicGroupMember';
import type { ClassicGroup } from './classicGroup';
import type { KafkaErrorCode } from '../../../common/errors';
import type { JoinGroupResponse, SyncGroupResponse } from '../../../common/requests';

export function joinError(memberId: string, errorCode: KafkaErrorCode): JoinGroupResponse {
  return { errorCode, generationId: -1, protocolType: null, protocolName: null, leader: '', skipAssignment: false, memberId, members: [] };
}

export function syncError(errorCode: KafkaErrorCode): SyncGroupResponse {
  return { errorCode, protocolType: null, protocolName: null, assignment: EMPTY_ASSIGNMENT };
}

/** The JoinGroup answer of the group's current generation; the leader's carries every member's metadata. */
export function currentGenerationResponse(group: ClassicGroup, memberId: string, withMembers: boolean): JoinGroupResponse {
  return {
    errorCode: 'NONE',
    generationId: group.generationId,
    protocolType: group.protocolType,
    protocolName: group.protocolName,
    leader: group.leaderId ?? '',
    skipAssignment: false,
    memberId,
    members: withMembers ? group.currentMembersForLeader() : [],
  };
}
