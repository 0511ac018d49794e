/**
 * Why the share engine wrote a batch, in the words Kafka 4.4's GroupMetadataManager logs for it; the timeline
 * shows them (the records alone do not say why a member left).
 */
import type { OperationCause } from '../../../timeline/consumerGroupEvents';

export function joinCause(memberId: string): OperationCause {
  return { text: `Member ${memberId} joins the share group using the share protocol.`, removal: 'member-left' };
}

export function heartbeatCause(memberId: string): OperationCause {
  return { text: `Member ${memberId} heartbeat`, removal: 'member-left' };
}

export function leaveCause(memberId: string): OperationCause {
  return { text: `Member ${memberId} left the share group.`, removal: 'member-left' };
}

export function sessionExpiredCause(memberId: string): OperationCause {
  return { text: `Member ${memberId} fenced from the group because the member session expired.`, removal: 'member-expired' };
}

/** initializeShareGroupState: the share coordinator created the partitions' state, so they become assignable. */
export const SHARE_STATE_INITIALIZED_CAUSE: OperationCause = { text: 'The share state of the subscribed partitions was initialized.', removal: 'member-left' };
export const GROUP_DELETED_CAUSE: OperationCause = { text: 'The group was deleted.', removal: 'member-left' };
export const SHARE_OFFSETS_ALTERED_CAUSE: OperationCause = { text: 'The share group offsets were altered.', removal: 'member-left' };
export const SHARE_OFFSETS_DELETED_CAUSE: OperationCause = { text: 'The share group offsets were deleted.', removal: 'member-left' };
