/**
 * A share-group member (Kafka 4.4's modern.share.ShareGroupMember): its epochs, its client, its subscription and
 * the partitions it consumes. A share member has no instance id and no rebalance timeout, and never waits for a
 * partition to be revoked: many members may consume one partition at once, so its assignment is given at once.
 */
import type { ShareGroupCurrentMemberAssignmentValueData } from '../../../protocol/messages/shareGroupCurrentMemberAssignmentValue';
import type { ShareGroupMemberMetadataValueData } from '../../../protocol/messages/shareGroupMemberMetadataValue';
import { MemberState, topicPartitionSetsEqual, type TopicPartitionSets } from '../group/modern/consumer/types';

export interface ShareGroupMember {
  readonly memberId: string;
  readonly memberEpoch: number;
  readonly previousMemberEpoch: number;
  readonly state: MemberState;
  readonly rackId: string | null;
  readonly clientId: string;
  readonly clientHost: string;
  readonly subscribedTopicNames: ReadonlySet<string>;
  /** Topic id → partitions. */
  readonly assignedPartitions: TopicPartitionSets;
}

/** ShareGroupMember.Builder(memberId): epoch 0, previous epoch -1, Stable, nothing subscribed or assigned. */
export function newShareGroupMember(memberId: string): ShareGroupMember {
  return {
    memberId, memberEpoch: 0, previousMemberEpoch: -1, state: MemberState.STABLE, rackId: null, clientId: '', clientHost: '',
    subscribedTopicNames: new Set(), assignedPartitions: new Map(),
  };
}

/** Builder.updateWith(ShareGroupMemberMetadataValue) */
export function withShareMemberMetadata(member: ShareGroupMember, value: ShareGroupMemberMetadataValueData): ShareGroupMember {
  return { ...member, rackId: value.rackId, clientId: value.clientId, clientHost: value.clientHost, subscribedTopicNames: new Set(value.subscribedTopicNames) };
}

/** Builder.updateWith(ShareGroupCurrentMemberAssignmentValue) */
export function withShareCurrentAssignment(member: ShareGroupMember, value: ShareGroupCurrentMemberAssignmentValueData): ShareGroupMember {
  return {
    ...member,
    memberEpoch: value.memberEpoch,
    previousMemberEpoch: value.previousMemberEpoch,
    state: memberStateOf(value.state),
    assignedPartitions: new Map(value.assignedPartitions.map(({ topicId, partitions }) => [topicId, new Set(partitions)])),
  };
}

/** MemberState.fromValue: an unknown byte is UNKNOWN. */
function memberStateOf(value: number): MemberState {
  return value === 0 || value === 1 || value === 2 ? value : MemberState.UNKNOWN;
}

function sameNames(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((name) => b.has(name));
}

export function sameSubscribedTopicNames(a: ShareGroupMember, b: ShareGroupMember): boolean {
  return sameNames(a.subscribedTopicNames, b.subscribedTopicNames);
}

/** ShareGroupMember.hasAssignedPartitionsChanged */
export function hasShareAssignedPartitionsChanged(a: ShareGroupMember, b: ShareGroupMember): boolean {
  return !topicPartitionSetsEqual(a.assignedPartitions, b.assignedPartitions);
}

/** ShareGroupMember.equals */
export function shareMemberEquals(a: ShareGroupMember, b: ShareGroupMember): boolean {
  return a.memberId === b.memberId && a.memberEpoch === b.memberEpoch && a.previousMemberEpoch === b.previousMemberEpoch && a.state === b.state
    && a.rackId === b.rackId && a.clientId === b.clientId && a.clientHost === b.clientHost
    && sameSubscribedTopicNames(a, b) && !hasShareAssignedPartitionsChanged(a, b);
}

/** ModernGroupMember.isReconciledTo */
export function isShareMemberReconciledTo(member: ShareGroupMember, targetAssignmentEpoch: number): boolean {
  return member.state === MemberState.STABLE && member.memberEpoch === targetAssignmentEpoch;
}
