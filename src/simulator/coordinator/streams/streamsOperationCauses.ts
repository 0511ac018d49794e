/**
 * Why the streams engine wrote a batch, in the words Kafka 4.4's GroupMetadataManager logs for it; the
 * timeline shows them (the records alone do not say why a member left).
 */
import type { OperationCause } from '../../../timeline/consumerGroupEvents';
import type { StreamsGroupHeartbeatRequestData } from '../../../protocol/messages/streamsGroupHeartbeatRequest';
import type { StreamsGroup } from './streamsGroup';

/** getOrCreateStreamsGroupMember and its static twin: a join, a static join, a static re-join, or a heartbeat. */
export function heartbeatCause(group: StreamsGroup, request: StreamsGroupHeartbeatRequestData): OperationCause {
  const { memberId, instanceId } = request;
  if (request.memberEpoch !== 0) {
    return { text: `Member ${memberId} heartbeat`, removal: 'member-left' };
  }
  if (instanceId === null) {
    return { text: `Member ${memberId} joins the streams group.`, removal: 'member-left' };
  }
  const existing = group.staticMember(instanceId);
  return {
    text: existing === undefined
      ? `Static member ${memberId} with instance id ${instanceId} joins the streams group.`
      : `Static member with instance id ${instanceId} re-joins the streams group using the streams protocol. Created a new member ${memberId} to replace the existing member ${existing.memberId}.`,
    removal: 'member-left',
  };
}

/** streamsGroupLeave: a dynamic member's leave, or a static member's (for good, or for a while with epoch -2). */
export function leaveCause(memberId: string, instanceId: string | null, temporarily: boolean): OperationCause {
  if (instanceId === null) {
    return { text: `Member ${memberId} left the streams group.`, removal: 'member-left' };
  }
  return { text: `Static member ${memberId} with instance id ${instanceId} ${temporarily ? 'temporarily ' : ''}left the streams group.`, removal: 'member-left' };
}

export function sessionExpiredCause(memberId: string): OperationCause {
  return { text: `Streams member ${memberId} fenced from the group because the member session expired.`, removal: 'member-expired' };
}

export function rebalanceTimeoutCause(memberId: string, memberEpoch: number, rebalanceTimeoutMs: number): OperationCause {
  return { text: `Member ${memberId} fenced from the group because it failed to transition from epoch ${memberEpoch} within ${rebalanceTimeoutMs}ms.`, removal: 'poll-timeout' };
}

export const DELAYED_ASSIGNMENT_CAUSE: OperationCause = { text: 'The initial rebalance delay elapsed: the delayed target assignment is computed.', removal: 'member-left' };
export const GROUP_DELETED_CAUSE: OperationCause = { text: 'The group was deleted.', removal: 'member-left' };
