/**
 * ConsumerGroupMember of Kafka 4.4 (modern.consumer.ConsumerGroupMember): an immutable value; every
 * change makes a new member, as Kafka's Builder does, so "did it change" is an equality check.
 */
import { MemberState, partitionEpochsEqual, type ClassicMemberMetadata, type PartitionEpochs } from './types';

export interface ConsumerGroupMember {
  readonly memberId: string;
  readonly memberEpoch: number;
  readonly previousMemberEpoch: number;
  readonly state: MemberState;
  readonly instanceId: string | null;
  readonly rackId: string | null;
  readonly rebalanceTimeoutMs: number;
  readonly clientId: string;
  readonly clientHost: string;
  /** Sorted, as Kafka's record writes them from its set. */
  readonly subscribedTopicNames: readonly string[];
  /** "" when the member has no regex subscription (Kafka's default). */
  readonly subscribedTopicRegex: string;
  readonly serverAssignorName: string | null;
  readonly assignedPartitions: PartitionEpochs;
  readonly partitionsPendingRevocation: PartitionEpochs;
  /** Set for a member that joined with JoinGroup (useClassicProtocol), null otherwise. */
  readonly classicMemberMetadata: ClassicMemberMetadata | null;
}

/** A new member as ConsumerGroup.getOrMaybeCreateMember builds it (new ConsumerGroupMember.Builder(memberId).build()). */
export function newConsumerGroupMember(memberId: string): ConsumerGroupMember {
  return {
    memberId,
    memberEpoch: 0,
    previousMemberEpoch: -1,
    state: MemberState.STABLE,
    instanceId: null,
    rackId: null,
    rebalanceTimeoutMs: -1,
    clientId: '',
    clientHost: '',
    subscribedTopicNames: [],
    subscribedTopicRegex: '',
    serverAssignorName: null,
    assignedPartitions: new Map(),
    partitionsPendingRevocation: new Map(),
    classicMemberMetadata: null,
  };
}

/** ConsumerGroupMember.useClassicProtocol */
export function useClassicProtocol(member: ConsumerGroupMember): boolean {
  return member.classicMemberMetadata !== null;
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, index) => byte === b[index]);
}

function classicMemberMetadataEquals(a: ClassicMemberMetadata | null, b: ClassicMemberMetadata | null): boolean {
  if (a === null || b === null) {
    return a === b;
  }
  return a.sessionTimeoutMs === b.sessionTimeoutMs && a.supportedProtocols.length === b.supportedProtocols.length
    && a.supportedProtocols.every((protocol, index) => protocol.name === b.supportedProtocols[index].name
      && bytesEqual(protocol.metadata, b.supportedProtocols[index].metadata));
}

/** The optional fields of a heartbeat: null (or -1 for the timeout) means "unchanged", as the Builder's maybeUpdate* methods read them. */
export interface MemberUpdate {
  instanceId: string | null;
  rackId: string | null;
  rebalanceTimeoutMs: number;
  serverAssignorName: string | null;
  subscribedTopicNames: readonly string[] | null;
  subscribedTopicRegex: string | null;
  clientId: string;
  clientHost: string;
}

/** The Builder's maybeUpdate* calls, then setClassicMemberMetadata (null for a member of the consumer protocol). */
export function applyMemberUpdate(member: ConsumerGroupMember, update: MemberUpdate, classicMemberMetadata: ClassicMemberMetadata | null): ConsumerGroupMember {
  return {
    ...member,
    instanceId: update.instanceId ?? member.instanceId,
    rackId: update.rackId ?? member.rackId,
    rebalanceTimeoutMs: update.rebalanceTimeoutMs === -1 ? member.rebalanceTimeoutMs : update.rebalanceTimeoutMs,
    serverAssignorName: update.serverAssignorName ?? member.serverAssignorName,
    subscribedTopicNames: update.subscribedTopicNames === null ? member.subscribedTopicNames : [...new Set(update.subscribedTopicNames)].sort(),
    subscribedTopicRegex: update.subscribedTopicRegex ?? member.subscribedTopicRegex,
    clientId: update.clientId,
    clientHost: update.clientHost,
    classicMemberMetadata,
  };
}

/** Builder.updateMemberEpoch: the old epoch becomes the previous one. */
export function withMemberEpoch(member: ConsumerGroupMember, memberEpoch: number): ConsumerGroupMember {
  return { ...member, previousMemberEpoch: member.memberEpoch, memberEpoch };
}

/** ConsumerGroupMember.isReconciledTo: stable at the target epoch. */
export function isReconciledTo(member: ConsumerGroupMember, targetAssignmentEpoch: number): boolean {
  return member.state === MemberState.STABLE && member.memberEpoch === targetAssignmentEpoch;
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}

/** Whether the subscription (what the ConsumerGroupMemberMetadata record holds) differs. */
export function memberMetadataEquals(a: ConsumerGroupMember, b: ConsumerGroupMember): boolean {
  return a.instanceId === b.instanceId && a.rackId === b.rackId && a.rebalanceTimeoutMs === b.rebalanceTimeoutMs
    && a.clientId === b.clientId && a.clientHost === b.clientHost && sameStrings(a.subscribedTopicNames, b.subscribedTopicNames)
    && a.subscribedTopicRegex === b.subscribedTopicRegex && a.serverAssignorName === b.serverAssignorName
    && classicMemberMetadataEquals(a.classicMemberMetadata, b.classicMemberMetadata);
}

/** Whether the assignment state (what the ConsumerGroupCurrentMemberAssignment record holds) differs. */
export function memberAssignmentEquals(a: ConsumerGroupMember, b: ConsumerGroupMember): boolean {
  return a.memberEpoch === b.memberEpoch && a.previousMemberEpoch === b.previousMemberEpoch && a.state === b.state
    && partitionEpochsEqual(a.assignedPartitions, b.assignedPartitions)
    && partitionEpochsEqual(a.partitionsPendingRevocation, b.partitionsPendingRevocation);
}

export function memberEquals(a: ConsumerGroupMember, b: ConsumerGroupMember): boolean {
  return a.memberId === b.memberId && memberMetadataEquals(a, b) && memberAssignmentEquals(a, b);
}
