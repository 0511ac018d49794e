/**
 * Members of the classic protocol inside a KIP-848 consumer group (Kafka 4.4's GroupMetadataManager:
 * classicGroupJoinToConsumerGroup, classicGroupSyncToConsumerGroup, classicGroupHeartbeatToConsumerGroup,
 * classicGroupLeaveToConsumerGroup). The coordinator assigns; JoinGroup answers with the member epoch as
 * the generation and no leader, SyncGroup with the member's current partitions, and Heartbeat with
 * REBALANCE_IN_PROGRESS when the member must rejoin to move on. Every refusal throws a KafkaApiError
 * with Kafka's error and message before anything changes.
 */
import { decodeSubscription } from '../../../../../protocol/consumerProtocol';
import type { ConsumerGroup } from './consumerGroup';
import { classicMemberIdentity } from './consumerGroupEvents';
import type { ConsumerGroupHeartbeatHandler } from './consumerGroupHeartbeatHandler';
import { applyMemberUpdate, newConsumerGroupMember, useClassicProtocol, type ConsumerGroupMember } from './consumerGroupMember';
import { metadataHashOf, removeMemberRecords, replaceMemberRecords } from './groupChanges';
import { throwIfConsumerGroupIsFull, throwIfInstanceIdIsFenced, throwIfStaticMemberIsUnknown, unknownMember } from './heartbeatValidation';
import { consumerGroupJoinKey, consumerGroupSyncKey, type ConsumerGroupHeartbeatHandlerOptions } from './heartbeatSeam';
import { namedTargetAssignment, type NamedTopicPartition } from './onlineMigration';
import * as recordsOf from './records';
import { KafkaApiError, MemberState, type ClassicMemberMetadata } from './types';

/** ConsumerProtocol.PROTOCOL_TYPE */
const CONSUMER_PROTOCOL_TYPE = 'consumer';

export interface ClassicJoinRequest {
  groupId: string;
  /** "" for a member joining for the first time. */
  memberId: string;
  groupInstanceId: string | null;
  sessionTimeoutMs: number;
  rebalanceTimeoutMs: number;
  protocolType: string;
  /** Each protocol with its ConsumerProtocol subscription bytes, in the member's order. */
  protocols: ClassicMemberMetadata['supportedProtocols'];
  apiVersion: number;
  clientId: string;
  clientHost: string;
}

/** MEMBER_ID_REQUIRED with the id to come back with, or the joined generation (the member epoch). */
export type ClassicJoinResult =
  | { memberIdRequired: string }
  | { memberId: string; generationId: number; protocolType: string; protocolName: string };

export interface ClassicSyncRequest {
  groupId: string;
  memberId: string;
  groupInstanceId: string | null;
  generationId: number;
  protocolType: string | null;
  protocolName: string | null;
}

export interface ClassicSyncResult {
  protocolType: string | null;
  protocolName: string | null;
  assignment: NamedTopicPartition[];
}

export interface ClassicMemberIdentity {
  memberId: string;
  groupInstanceId: string | null;
  reason?: string;
}

export interface ClassicLeaveResult {
  memberId: string;
  groupInstanceId: string | null;
  /** Kafka's Errors name; "NONE" when the member left. */
  errorName: string;
}

function throwIfMemberDoesNotUseClassicProtocol(member: ConsumerGroupMember): void {
  if (!useClassicProtocol(member)) {
    throw new KafkaApiError('UNKNOWN_MEMBER_ID', `Member ${member.memberId} does not use the classic protocol.`);
  }
}

function throwIfGenerationIdUnmatched(memberId: string, memberEpoch: number, generationId: number): void {
  if (memberEpoch !== generationId) {
    throw new KafkaApiError('ILLEGAL_GENERATION',
      `The request generation id ${generationId} is not equal to the member epoch ${memberEpoch} of member ${memberId}.`);
  }
}

function firstProtocolName(member: ConsumerGroupMember): string {
  return member.classicMemberMetadata?.supportedProtocols[0]?.name ?? '';
}

export class ClassicProtocolMembers {
  constructor(
    private readonly handler: ConsumerGroupHeartbeatHandler,
    private readonly options: ConsumerGroupHeartbeatHandlerOptions,
  ) {}

  /** The live group, or GROUP_ID_NOT_FOUND. */
  private consumerGroup(groupId: string): ConsumerGroup {
    const group = this.handler.group(groupId);
    if (group === undefined || group.state === 'Dead') {
      throw new KafkaApiError('GROUP_ID_NOT_FOUND', `Consumer group ${groupId} not found.`);
    }
    return group;
  }

  /** classicGroupJoinToConsumerGroup: the caller sends joins to non-empty consumer groups here. */
  classicGroupJoin(request: ClassicJoinRequest): ClassicJoinResult {
    const group = this.consumerGroup(request.groupId);
    const { groupId, groupInstanceId: instanceId } = request;
    const isUnknownMember = request.memberId === '';
    const memberId = isUnknownMember ? this.options.newMemberId() : request.memberId;
    throwIfConsumerGroupIsFull(group, memberId, instanceId, this.handler.config.maxSize);
    if (!group.supportsClassicProtocols(request.protocolType, request.protocols.map((protocol) => protocol.name))) {
      throw new KafkaApiError('INCONSISTENT_GROUP_PROTOCOL', `Member ${memberId}'s protocols are not supported.`);
    }
    if (isUnknownMember && instanceId === null && request.apiVersion >= 4) {
      // KIP-394: hand out the id and wait for the member to come back with it.
      return { memberIdRequired: memberId };
    }
    let subscription;
    try {
      subscription = decodeSubscription(request.protocols[0].metadata);
    } catch {
      throw new KafkaApiError('INCONSISTENT_GROUP_PROTOCOL', `Member ${memberId}'s protocols are not supported.`);
    }

    const records: recordsOf.ConsumerGroupRecord[] = [];
    let member: ConsumerGroupMember;
    let replacedMemberId: string | undefined;
    let cause = `Member ${memberId} joins the consumer group using the classic protocol.`;
    if (instanceId === null) {
      member = group.member(memberId) ?? newConsumerGroupMember(memberId);
    } else {
      const existingStatic = group.staticMember(instanceId);
      if (!isUnknownMember) {
        throwIfStaticMemberIsUnknown(existingStatic, instanceId);
        throwIfInstanceIdIsFenced(existingStatic, memberId, instanceId);
        member = existingStatic;
      } else if (existingStatic === undefined) {
        member = group.member(memberId) ?? newConsumerGroupMember(memberId);
        cause = `Static member ${memberId} with instance id ${instanceId} joins the consumer group using the classic protocol.`;
      } else {
        member = { ...existingStatic, memberId, memberEpoch: 0, previousMemberEpoch: 0 };
        replacedMemberId = existingStatic.memberId;
        records.push(...replaceMemberRecords(group, existingStatic, member));
        cause = `Static member with instance id ${instanceId} re-joins the consumer group using the classic protocol. `
          + `Created a new member ${memberId} to replace the existing member ${existingStatic.memberId}.`;
      }
    }

    const owned = new Map<string, number[]>();
    for (const { topic, partition } of subscription.ownedPartitions) {
      const topicId = this.options.metadataImage.topicByName(topic)?.topicId;
      if (topicId !== undefined) {
        owned.set(topicId, [...(owned.get(topicId) ?? []), partition]);
      }
    }
    const updatedMember = this.handler.updateMemberAndReconcile(group, member, applyMemberUpdate(member, {
      instanceId,
      rackId: subscription.rackId,
      rebalanceTimeoutMs: request.rebalanceTimeoutMs,
      serverAssignorName: null,
      subscribedTopicNames: subscription.topics,
      subscribedTopicRegex: null,
      clientId: request.clientId,
      clientHost: request.clientHost,
    }, { sessionTimeoutMs: request.sessionTimeoutMs, supportedProtocols: request.protocols }), replacedMemberId,
    [...owned].map(([topicId, partitions]) => ({ topicId, partitions })), records);

    const response = {
      memberId: updatedMember.memberId,
      generationId: updatedMember.memberEpoch,
      protocolType: CONSUMER_PROTOCOL_TYPE,
      protocolName: firstProtocolName(updatedMember),
    };
    // 4. The last member of the consumer protocol replaced by a classic static member: downgrade.
    if (replacedMemberId !== undefined && updatedMember.classicMemberMetadata !== null && this.options.downgrade?.(group, replacedMemberId, {
      memberId: updatedMember.memberId,
      instanceId: updatedMember.instanceId,
      clientId: updatedMember.clientId,
      clientHost: updatedMember.clientHost,
      rebalanceTimeoutMs: updatedMember.rebalanceTimeoutMs,
      classicMemberMetadata: updatedMember.classicMemberMetadata,
      assignment: namedTargetAssignment(group, replacedMemberId, this.options.metadataImage),
    }) === true) {
      const classicMembers = [...group.members.values()].filter((other) => other.memberId !== replacedMemberId)
        .map(classicMemberIdentity).concat(classicMemberIdentity(updatedMember));
      this.handler.deleteGroup(groupId, { text: cause, removal: 'member-left' }, classicMembers);
      return response;
    }
    this.handler.commit(group, records, { text: cause, removal: 'member-left' });
    if (replacedMemberId !== undefined) {
      this.handler.timeouts.cancelTimers(groupId, replacedMemberId);
    }
    this.options.timer.cancel(consumerGroupJoinKey(groupId, updatedMember.memberId));
    this.handler.timeouts.scheduleSessionTimeout(groupId, updatedMember.memberId, request.sessionTimeoutMs);
    this.scheduleFence(consumerGroupSyncKey(groupId, updatedMember.memberId), groupId, updatedMember.memberId,
      request.rebalanceTimeoutMs, 'the member failed to sync within timeout.');
    return response;
  }

  /** classicGroupSyncToConsumerGroup: the member's current partitions, unless it must rejoin first. */
  classicGroupSync(request: ClassicSyncRequest): ClassicSyncResult {
    const group = this.consumerGroup(request.groupId);
    const member = this.validateMember(group, request.memberId, request.groupInstanceId);
    throwIfMemberDoesNotUseClassicProtocol(member);
    throwIfGenerationIdUnmatched(member.memberId, member.memberEpoch, request.generationId);
    const protocolName = firstProtocolName(member);
    if (request.protocolType !== null && request.protocolType !== CONSUMER_PROTOCOL_TYPE) {
      throw new KafkaApiError('INCONSISTENT_GROUP_PROTOCOL', `The protocol type ${request.protocolType} from member ${member.memberId} `
        + `request is not equal to the group protocol type ${CONSUMER_PROTOCOL_TYPE}.`);
    }
    if (request.protocolName !== null && request.protocolName !== protocolName) {
      throw new KafkaApiError('INCONSISTENT_GROUP_PROTOCOL', `The protocol name ${request.protocolName} from member ${member.memberId} `
        + `request is not equal to the protocol name ${protocolName} returned in the join response.`);
    }
    // A newer group epoch means a new rebalance; a member still revoking finishes that first.
    if (group.groupEpoch > member.memberEpoch && member.state !== MemberState.UNREVOKED_PARTITIONS) {
      this.scheduleJoinTimeoutIfAbsent(group.groupId, member);
      throw new KafkaApiError('REBALANCE_IN_PROGRESS',
        `A new rebalance is triggered in group ${group.groupId} and member ${member.memberId} should rejoin to catch up.`);
    }
    this.options.timer.cancel(consumerGroupSyncKey(group.groupId, member.memberId));
    this.handler.timeouts.scheduleSessionTimeout(group.groupId, member.memberId, member.classicMemberMetadata?.sessionTimeoutMs);
    const assignment: NamedTopicPartition[] = [];
    for (const [topicId, partitions] of member.assignedPartitions) {
      const topic = this.options.metadataImage.topicById(topicId)?.name;
      if (topic !== undefined) {
        [...partitions.keys()].sort((a, b) => a - b).forEach((partition) => assignment.push({ topic, partition }));
      }
    }
    return { protocolType: request.protocolType, protocolName: request.protocolName, assignment };
  }

  /**
   * classicGroupHeartbeatToConsumerGroup: REBALANCE_IN_PROGRESS when the group epoch moved past the
   * member, when it must revoke partitions, or when the partitions it waits for are free; "NONE" otherwise.
   */
  classicGroupHeartbeat(groupId: string, memberId: string, groupInstanceId: string | null, generationId: number): 'NONE' | 'REBALANCE_IN_PROGRESS' {
    const group = this.consumerGroup(groupId);
    const member = this.validateMember(group, memberId, groupInstanceId);
    throwIfMemberDoesNotUseClassicProtocol(member);
    throwIfGenerationIdUnmatched(memberId, member.memberEpoch, generationId);
    this.handler.timeouts.scheduleSessionTimeout(groupId, memberId, member.classicMemberMetadata?.sessionTimeoutMs);
    if (member.memberEpoch < group.groupEpoch || member.state === MemberState.UNREVOKED_PARTITIONS
      || (member.state === MemberState.UNRELEASED_PARTITIONS && !group.waitingOnUnreleasedPartition(member))) {
      this.scheduleJoinTimeoutIfAbsent(groupId, member);
      return 'REBALANCE_IN_PROGRESS';
    }
    return 'NONE';
  }

  /** classicGroupLeaveToConsumerGroup: each classic member named leaves; one epoch bump for all of them. */
  classicGroupLeave(groupId: string, identities: readonly ClassicMemberIdentity[]): ClassicLeaveResult[] {
    const group = this.consumerGroup(groupId);
    const records: recordsOf.ConsumerGroupRecord[] = [];
    const results: ClassicLeaveResult[] = [];
    const left: string[] = [];
    const leftIds = new Set<string>();
    for (const identity of identities) {
      let memberId = identity.memberId;
      try {
        let member: ConsumerGroupMember | undefined;
        if (identity.groupInstanceId === null) {
          member = group.member(memberId);
          if (member === undefined) {
            throw unknownMember(groupId, memberId);
          }
        } else {
          member = group.staticMember(identity.groupInstanceId);
          throwIfStaticMemberIsUnknown(member, identity.groupInstanceId);
          // An admin may remove a static member by its instance id alone.
          if (memberId !== '') {
            throwIfInstanceIdIsFenced(member, memberId, identity.groupInstanceId);
          }
        }
        throwIfMemberDoesNotUseClassicProtocol(member);
        memberId = member.memberId;
        records.push(...removeMemberRecords(groupId, memberId));
        this.handler.timeouts.cancelTimers(groupId, memberId);
        leftIds.add(memberId);
        left.push(`${memberId} (client reason: ${identity.reason ?? 'not provided'})`);
        results.push({ memberId, groupInstanceId: identity.groupInstanceId, errorName: 'NONE' });
      } catch (error) {
        if (!(error instanceof KafkaApiError)) {
          throw error;
        }
        results.push({ memberId, groupInstanceId: identity.groupInstanceId, errorName: error.errorName });
      }
    }
    if (records.length > 0) {
      const remaining = [...group.members.values()].filter((member) => !leftIds.has(member.memberId));
      records.push(recordsOf.newConsumerGroupEpochRecord(groupId, group.groupEpoch + 1, metadataHashOf(group, remaining, this.options.metadataImage)));
      this.handler.commit(group, records, { text: `Members ${left.join(', ')} left the group through an explicit LeaveGroup request.`, removal: 'member-left' });
    }
    return results;
  }

  /** validateConsumerGroupMember: the member by id, or by instance id when it has one. */
  private validateMember(group: ConsumerGroup, memberId: string, instanceId: string | null): ConsumerGroupMember {
    if (instanceId === null) {
      const member = group.member(memberId);
      if (member === undefined) {
        throw unknownMember(group.groupId, memberId);
      }
      return member;
    }
    const member = group.staticMember(instanceId);
    if (member === undefined) {
      throw new KafkaApiError('UNKNOWN_MEMBER_ID', `Member with instance id ${instanceId} is not a member of group ${group.groupId}.`);
    }
    throwIfInstanceIdIsFenced(member, memberId, instanceId);
    return member;
  }

  private scheduleJoinTimeoutIfAbsent(groupId: string, member: ConsumerGroupMember): void {
    const key = consumerGroupJoinKey(groupId, member.memberId);
    if (!this.options.timer.isScheduled(key)) {
      this.scheduleFence(key, groupId, member.memberId, member.rebalanceTimeoutMs, 'the classic member failed to join within the rebalance timeout.');
    }
  }

  /** consumerGroupFenceMemberOperation on a timer: the member goes if it is still there when the time is up. */
  private scheduleFence(key: string, groupId: string, memberId: string, delayMs: number, reason: string): void {
    this.options.timer.schedule(key, delayMs, () => {
      const group = this.handler.group(groupId);
      const member = group?.member(memberId);
      if (group !== undefined && member !== undefined) {
        this.handler.consumerGroupFenceMember(group, member, { text: `Member ${memberId} fenced from the group because ${reason}`, removal: 'poll-timeout' });
      }
    });
  }
}
