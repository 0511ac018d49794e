/**
 * The consumer-group half of Kafka 4.4's GroupMetadataManager: ConsumerGroupHeartbeat (join with epoch 0,
 * heartbeats, leave with -1, static leave with -2), what its session and rebalance timers do (they are kept
 * in consumerGroupTimeouts.ts), regex resolution,
 * the group epoch, the target assignment (batched by group.consumer.assignment.interval.ms) and each
 * member's reconciliation. Every change is a list of records, written to the record sink and replayed
 * into the group in Kafka's order; a request that fails throws a KafkaApiError before writing anything.
 */
import { errorMessage } from '../../../../../protocol/errors';
import type { ConsumerGroupDescribeResponseData } from '../../../../../protocol/messages/consumerGroupDescribeResponse';
import type { ConsumerGroupHeartbeatRequestData } from '../../../../../protocol/messages/consumerGroupHeartbeatRequest';
import type { ConsumerGroupHeartbeatResponseData } from '../../../../../protocol/messages/consumerGroupHeartbeatResponse';
import { ConsumerGroup } from './consumerGroup';
import { describeConsumerGroup, unknownGroupDescription } from './consumerGroupDescribe';
import {
  classicMemberIdentity, ConsumerGroupEventRecorder, type ClassicMemberIdentity, type Conversion, type OperationCause,
} from './consumerGroupEvents';
import {
  applyMemberUpdate, isReconciledTo, memberAssignmentEquals, memberEquals, newConsumerGroupMember, useClassicProtocol, type ConsumerGroupMember,
} from './consumerGroupMember';
import { reconcileMember } from './currentAssignmentBuilder';
import {
  computeTargetAssignment, groupTombstoneRecords, metadataHashOf, preferredServerAssignor, removeMemberRecords, replaceMemberRecords, resolveRegularExpressionRecords,
  targetAssignmentOf, unusedRegexTombstones,
} from './groupChanges';
import {
  throwIfConsumerGroupHeartbeatRequestIsInvalid, throwIfConsumerGroupIsFull, throwIfInstanceIdIsFenced, throwIfInstanceIdIsUnreleased,
  throwIfMemberEpochIsInvalid, throwIfStaticMemberIsUnknown, unknownMember,
} from './heartbeatValidation';
import * as recordsOf from './records';
import { ConsumerGroupTimeouts } from './consumerGroupTimeouts';
import { canComputeNextTargetAssignment, type ConsumerGroupHeartbeatHandlerOptions, type HeartbeatContext } from './heartbeatSeam';
import type { UpgradedGroup } from './onlineMigration';
import { resolvedTopics } from '../targetAssignmentBuilder';
import {
  DEFAULT_CONSUMER_GROUP_CONFIG, KafkaApiError, LEAVE_GROUP_MEMBER_EPOCH, LEAVE_GROUP_STATIC_MEMBER_EPOCH, MemberState, samePartitions,
  type ConsumerGroupConfig, type TopicPartitionSets,
} from './types';

type OwnedTopicPartitions = ConsumerGroupHeartbeatRequestData['topicPartitions'];

export class ConsumerGroupHeartbeatHandler {
  private readonly groups = new Map<string, ConsumerGroup>();
  readonly config: ConsumerGroupConfig;
  private readonly recorder: ConsumerGroupEventRecorder;
  /** The members' session and rebalance timers and the regex resolution (consumerGroupTimeouts.ts). */
  readonly timeouts: ConsumerGroupTimeouts;
  /** Bumped on every metadata change; the version of the image a regex was resolved against. */
  private metadataVersion = 1n;

  constructor(private readonly options: ConsumerGroupHeartbeatHandlerOptions) {
    this.config = { ...DEFAULT_CONSUMER_GROUP_CONFIG, ...options.config };
    this.recorder = new ConsumerGroupEventRecorder(options.events, options.metadataImage, options.now);
    this.timeouts = new ConsumerGroupTimeouts(options.timer, this.config.sessionTimeoutMs, {
      group: (groupId) => this.groups.get(groupId),
      fence: (group, member, cause) => this.consumerGroupFenceMember(group, member, cause),
      resolveRegularExpressions: (group) => {
        const records = resolveRegularExpressionRecords(group, this.options.metadataImage, this.metadataVersion, this.options.now());
        this.commit(group, records, { text: 'Received updated regular expressions', removal: 'member-left' });
      },
    });
  }

  group(groupId: string): ConsumerGroup | undefined {
    return this.groups.get(groupId);
  }

  groupIds(): string[] {
    return [...this.groups.keys()];
  }

  /**
   * Kafka's replay: rebuilds a group from records read back from __consumer_offsets (a coordinator that
   * loads its partition). Writes nothing and emits no events; timers start with the members' next heartbeats.
   */
  replay(record: recordsOf.ConsumerGroupRecord): void {
    const groupId = record.key.groupId;
    let group = this.groups.get(groupId);
    if (group === undefined) {
      group = new ConsumerGroup(groupId);
      this.groups.set(groupId, group);
    }
    group.replay(record);
    if (group.state === 'Dead') {
      this.groups.delete(groupId);
    }
  }

  /**
   * ConsumerGroupHeartbeat: the response, or the error response Kafka sends (error code and message,
   * nothing changed) when the request is refused. Never throws.
   */
  heartbeat(context: HeartbeatContext, request: ConsumerGroupHeartbeatRequestData, upgrade?: UpgradedGroup): ConsumerGroupHeartbeatResponseData {
    try {
      return this.consumerGroupHeartbeat(context, request, upgrade);
    } catch (error) {
      // Anything else is a bug of the engine; the client gets UNKNOWN_SERVER_ERROR, as from Kafka.
      const refusal = error instanceof KafkaApiError ? error : new KafkaApiError('UNKNOWN_SERVER_ERROR', errorMessage(error));
      return { throttleTimeMs: 0, errorCode: refusal.errorCode, errorMessage: refusal.message, memberId: null, memberEpoch: 0, heartbeatIntervalMs: 0, assignment: null };
    }
  }

  /**
   * ConsumerGroupHeartbeat, throwing Kafka's error when refused (GroupMetadataManager.consumerGroupHeartbeat).
   * `upgrade` is a classic group converted for this join (online upgrade): the join runs on it, and its
   * records are written with the join's, or not at all when the join is refused.
   */
  consumerGroupHeartbeat(context: HeartbeatContext, request: ConsumerGroupHeartbeatRequestData, upgrade?: UpgradedGroup): ConsumerGroupHeartbeatResponseData {
    throwIfConsumerGroupHeartbeatRequestIsInvalid(request, context.apiVersion, this.config.assignors);
    if (request.memberEpoch === LEAVE_GROUP_MEMBER_EPOCH || request.memberEpoch === LEAVE_GROUP_STATIC_MEMBER_EPOCH) {
      return this.consumerGroupLeave(request.groupId, request.instanceId, request.memberId, request.memberEpoch);
    }
    return this.regularHeartbeat(context, request, upgrade);
  }

  /** ConsumerGroupDescribe (v0–v1) for these groups; an unknown group gets GROUP_ID_NOT_FOUND. */
  consumerGroupDescribe(groupIds: readonly string[]): ConsumerGroupDescribeResponseData['groups'] {
    return groupIds.map((groupId) => {
      const group = this.groups.get(groupId);
      return group === undefined || group.state === 'Dead'
        ? unknownGroupDescription(groupId)
        : describeConsumerGroup(group, this.config.assignors[0], this.options.metadataImage);
    });
  }

  /**
   * GroupMetadataManager.createGroupTombstoneRecords for a consumer group the caller deleted (it checked
   * validateDeleteGroup): every member's tombstones, the regexes', the target assignment's and the epoch's;
   * the group turns Dead and leaves the map. `downgradedTo`: it lives on as a classic group of these members.
   */
  deleteGroup(groupId: string, cause: string | OperationCause, downgradedTo?: readonly ClassicMemberIdentity[]): void {
    const group = this.groups.get(groupId);
    if (group === undefined) {
      return;
    }
    const records = groupTombstoneRecords(group);
    for (const memberId of group.members.keys()) {
      this.timeouts.cancelTimers(groupId, memberId);
    }
    this.timeouts.cancelRegexResolution(groupId);
    this.commit(group, records, typeof cause === 'string' ? { text: cause, removal: 'member-left' } : cause,
      downgradedTo === undefined ? undefined : { kind: 'downgrade', classicMembers: downgradedTo });
    this.groups.delete(groupId);
  }

  /**
   * Kafka's onNewMetadataImage: call after topics were created, deleted or grew. Groups subscribed to a
   * changed topic recompute their metadata hash on their next heartbeat (and so bump their epoch and
   * reassign); groups with regexes have them resolved again, as Kafka's asynchronous resolver does.
   */
  onTopicsChanged(changedTopicNames?: Iterable<string>): void {
    this.metadataVersion++;
    const changed = changedTopicNames === undefined ? undefined : new Set(changedTopicNames);
    for (const group of this.groups.values()) {
      if (group.state === 'Dead') {
        continue;
      }
      const subscribed = group.subscribedTopicNames();
      if (changed === undefined || [...changed].some((name) => subscribed.has(name))) {
        group.metadataRefreshRequested = true;
      }
      if (group.subscribedRegularExpressions().size > 0) {
        this.timeouts.scheduleRegexResolution(group.groupId);
      }
    }
  }

  private getOrMaybeCreateConsumerGroup(groupId: string, createIfNotExists: boolean): ConsumerGroup {
    const group = this.groups.get(groupId);
    if (group !== undefined && group.state !== 'Dead') {
      return group;
    }
    if (!createIfNotExists) {
      throw new KafkaApiError('GROUP_ID_NOT_FOUND', `Consumer group ${groupId} not found.`);
    }
    // Registered only when the heartbeat that creates it succeeds.
    return new ConsumerGroup(groupId);
  }

  private regularHeartbeat(context: HeartbeatContext, request: ConsumerGroupHeartbeatRequestData, upgrade?: UpgradedGroup): ConsumerGroupHeartbeatResponseData {
    const records: recordsOf.ConsumerGroupRecord[] = [...(upgrade?.records ?? [])];
    const { groupId, memberEpoch, instanceId } = request;
    const owned = request.topicPartitions;
    const createIfNotExists = memberEpoch === 0;
    const group = upgrade?.group ?? this.getOrMaybeCreateConsumerGroup(groupId, createIfNotExists);
    throwIfConsumerGroupIsFull(group, request.memberId, instanceId, this.config.maxSize);
    const memberId = request.memberId === '' ? this.options.newMemberId() : request.memberId;
    let cause = `Member ${memberId} heartbeat`;
    let member: ConsumerGroupMember;
    let replacedMemberId: string | undefined;
    if (instanceId === null) {
      const existing = group.member(memberId);
      if (existing === undefined && !createIfNotExists) {
        throw unknownMember(groupId, memberId);
      }
      member = existing ?? newConsumerGroupMember(memberId);
      throwIfMemberEpochIsInvalid(member, memberEpoch, owned);
      if (existing === undefined) {
        cause = `Member ${memberId} joins the consumer group using the consumer protocol.`;
      }
    } else {
      const existingStatic = group.staticMember(instanceId);
      if (createIfNotExists && existingStatic === undefined) {
        member = group.member(memberId) ?? newConsumerGroupMember(memberId);
        throwIfMemberEpochIsInvalid(member, memberEpoch, owned);
        cause = `Static member ${memberId} with instance id ${instanceId} joins the consumer group using the consumer protocol.`;
      } else if (createIfNotExists && existingStatic !== undefined) {
        if (!useClassicProtocol(existingStatic)) {
          throwIfInstanceIdIsUnreleased(existingStatic, memberId, instanceId);
        }
        // The new member takes over the departed one's assignment, from epoch 0.
        member = { ...existingStatic, memberId, memberEpoch: 0, previousMemberEpoch: 0 };
        replacedMemberId = existingStatic.memberId;
        records.push(...replaceMemberRecords(group, existingStatic, member));
        cause = `Static member with instance id ${instanceId} re-joins the consumer group using the consumer protocol. `
          + `Created a new member ${memberId} to replace the existing member ${existingStatic.memberId}.`;
      } else {
        throwIfStaticMemberIsUnknown(existingStatic, instanceId);
        throwIfInstanceIdIsFenced(existingStatic, memberId, instanceId);
        throwIfMemberEpochIsInvalid(existingStatic, memberEpoch, owned);
        member = existingStatic;
      }
    }

    // 1. Create or update the member.
    const updatedMember = this.updateMemberAndReconcile(group, member, applyMemberUpdate(member, {
      instanceId,
      rackId: request.rackId,
      rebalanceTimeoutMs: request.rebalanceTimeoutMs,
      serverAssignorName: request.serverAssignor,
      subscribedTopicNames: request.subscribedTopicNames,
      subscribedTopicRegex: request.subscribedTopicRegex ?? null,
      clientId: context.clientId,
      clientHost: context.clientHost,
    }, null), replacedMemberId, owned, records);
    this.timeouts.scheduleSessionTimeout(groupId, updatedMember.memberId);

    this.groups.set(groupId, group);
    group.metadataRefreshRequested = false;
    this.commit(group, records, { text: cause, removal: 'member-left' }, upgrade === undefined ? undefined : { kind: 'upgrade' });
    if (replacedMemberId !== undefined) {
      this.timeouts.cancelTimers(groupId, replacedMemberId);
    }
    for (const converted of upgrade?.group.members.values() ?? []) {
      if (converted.memberId !== updatedMember.memberId && converted.classicMemberMetadata !== null) {
        this.timeouts.scheduleSessionTimeout(groupId, converted.memberId, converted.classicMemberMetadata.sessionTimeoutMs);
      }
    }

    const response: ConsumerGroupHeartbeatResponseData = {
      throttleTimeMs: 0,
      errorCode: 0,
      errorMessage: null,
      memberId: updatedMember.memberId,
      memberEpoch: updatedMember.memberEpoch,
      heartbeatIntervalMs: this.config.heartbeatIntervalMs,
      assignment: null,
    };
    // The assignment goes with a full request (a join, or a member recovering) or when it changed.
    const isFullRequest = memberEpoch === 0 || (request.rebalanceTimeoutMs !== -1
      && (request.subscribedTopicNames !== null || (request.subscribedTopicRegex ?? null) !== null) && owned !== null);
    if (isFullRequest || !samePartitions(member.assignedPartitions, updatedMember.assignedPartitions)) {
      response.assignment = {
        topicPartitions: [...updatedMember.assignedPartitions].map(([topicId, partitions]) => ({
          topicId,
          partitions: [...partitions.keys()].sort((a, b) => a - b),
        })),
      };
    }
    return response;
  }

  /**
   * Steps 1-3 of a heartbeat or of a classic member's JoinGroup (GroupMetadataManager): write the member's
   * changes, bump the group epoch when its subscription or the topics changed, update the target
   * assignment when the epoch is ahead of it and the interval allows, and reconcile the member towards
   * its target. Appends the records to `records` and returns the reconciled member.
   */
  updateMemberAndReconcile(
    group: ConsumerGroup,
    member: ConsumerGroupMember,
    updatedMember: ConsumerGroupMember,
    replacedMemberId: string | undefined,
    owned: OwnedTopicPartitions,
    records: recordsOf.ConsumerGroupRecord[],
  ): ConsumerGroupMember {
    const now = this.options.now();
    const groupId = group.groupId;
    let subscriptionChanged = false;
    if (!memberEquals(updatedMember, member)) {
      records.push(recordsOf.newConsumerGroupMemberSubscriptionRecord(groupId, updatedMember));
      subscriptionChanged = updatedMember.subscribedTopicNames.join('\u0000') !== member.subscribedTopicNames.join('\u0000')
        || updatedMember.subscribedTopicRegex !== member.subscribedTopicRegex;
    }
    const members = new Map(group.members);
    members.delete(member.memberId);
    if (replacedMemberId !== undefined) {
      members.delete(replacedMemberId);
    }
    members.set(updatedMember.memberId, updatedMember);
    let bumpGroupEpoch = subscriptionChanged
      || preferredServerAssignor(group.members.values(), this.config.assignors) !== preferredServerAssignor(members.values(), this.config.assignors);
    if (updatedMember.subscribedTopicRegex !== member.subscribedTopicRegex) {
      records.push(...unusedRegexTombstones(group, member.subscribedTopicRegex, [member.memberId, replacedMemberId]));
      if (updatedMember.subscribedTopicRegex !== '' && !group.resolvedRegularExpressions.has(updatedMember.subscribedTopicRegex)) {
        // Kafka resolves a new regex asynchronously and bumps the epoch again when the result comes back.
        this.timeouts.scheduleRegexResolution(groupId);
      }
    }
    let groupEpoch = group.groupEpoch;
    if (bumpGroupEpoch || group.metadataRefreshRequested) {
      const metadataHash = metadataHashOf(group, members.values(), this.options.metadataImage);
      if (metadataHash !== group.metadataHash) {
        bumpGroupEpoch = true;
      }
      if (bumpGroupEpoch) {
        groupEpoch += 1;
        records.push(recordsOf.newConsumerGroupEpochRecord(groupId, groupEpoch, metadataHash));
      }
    }

    // 2. Update the target assignment when the group epoch is ahead of it and the interval allows.
    let targetAssignmentEpoch = group.assignmentEpoch;
    let targetAssignment = targetAssignmentOf(group, updatedMember);
    if (groupEpoch > group.assignmentEpoch && canComputeNextTargetAssignment(group.assignmentTimestamp, this.config.assignmentIntervalMs, now)) {
      const result = computeTargetAssignment({
        group, groupEpoch, members, updatedMember, replacedMemberId, timestamp: now,
        assignors: this.config.assignors, metadataImage: this.options.metadataImage, assignor: this.options.assignor,
      });
      records.push(...result.records);
      targetAssignmentEpoch = groupEpoch;
      targetAssignment = result.targetAssignment.get(updatedMember.memberId) ?? new Map();
    }

    // 3. Reconcile the member towards its target.
    return this.maybeReconcile(records, group, updatedMember, targetAssignmentEpoch, targetAssignment, subscriptionChanged, owned);
  }

  private maybeReconcile(
    records: recordsOf.ConsumerGroupRecord[],
    group: ConsumerGroup,
    member: ConsumerGroupMember,
    targetAssignmentEpoch: number,
    targetAssignment: TopicPartitionSets,
    hasSubscriptionChanged: boolean,
    owned: OwnedTopicPartitions,
  ): ConsumerGroupMember {
    if (isReconciledTo(member, targetAssignmentEpoch) && !hasSubscriptionChanged) {
      return member;
    }
    const updated = reconcileMember(member, {
      metadataImage: this.options.metadataImage,
      targetAssignmentEpoch,
      targetAssignment,
      hasSubscriptionChanged,
      resolvedRegularExpressions: resolvedTopics(group),
      currentPartitionEpoch: (topicId, partition) => group.currentPartitionEpoch(topicId, partition),
      ownedTopicPartitions: owned,
    });
    if (!memberAssignmentEquals(updated, member)) {
      records.push(recordsOf.newConsumerGroupCurrentAssignmentRecord(group.groupId, updated));
      // A member of the classic protocol has join and sync timeouts instead.
      if (useClassicProtocol(updated)) {
        return updated;
      }
      if (updated.state === MemberState.UNREVOKED_PARTITIONS) {
        this.timeouts.scheduleRebalanceTimeout(group.groupId, updated.memberId, updated.memberEpoch, updated.rebalanceTimeoutMs);
      } else {
        this.timeouts.cancelRebalanceTimeout(group.groupId, updated.memberId);
      }
    }
    return updated;
  }

  private consumerGroupLeave(groupId: string, instanceId: string | null, memberId: string, memberEpoch: number): ConsumerGroupHeartbeatResponseData {
    const group = this.getOrMaybeCreateConsumerGroup(groupId, false);
    const response: ConsumerGroupHeartbeatResponseData = {
      throttleTimeMs: 0, errorCode: 0, errorMessage: null, memberId, memberEpoch, heartbeatIntervalMs: 0, assignment: null,
    };
    if (instanceId === null) {
      const member = group.member(memberId);
      if (member === undefined) {
        throw unknownMember(groupId, memberId);
      }
      this.consumerGroupFenceMember(group, member, { text: `Member ${memberId} left the consumer group.`, removal: 'member-left' });
      return response;
    }
    const member = group.staticMember(instanceId);
    throwIfStaticMemberIsUnknown(member, instanceId);
    throwIfInstanceIdIsFenced(member, memberId, instanceId);
    if (memberEpoch === LEAVE_GROUP_STATIC_MEMBER_EPOCH) {
      // The static member keeps its assignment until it rejoins or its session expires.
      const leaving: ConsumerGroupMember = { ...member, memberEpoch: LEAVE_GROUP_STATIC_MEMBER_EPOCH, partitionsPendingRevocation: new Map() };
      this.commit(group, [recordsOf.newConsumerGroupCurrentAssignmentRecord(groupId, leaving)], {
        text: `Static member ${memberId} with instance id ${instanceId} temporarily left the consumer group.`, removal: 'member-left',
      });
      return { ...response, memberEpoch: LEAVE_GROUP_STATIC_MEMBER_EPOCH };
    }
    this.consumerGroupFenceMember(group, member, {
      text: `Static member ${memberId} with instance id ${instanceId} left the consumer group.`, removal: 'member-left',
    });
    return response;
  }

  /** consumerGroupFenceMember: remove the member, drop regexes nobody uses any more, bump the group epoch. */
  consumerGroupFenceMember(group: ConsumerGroup, member: ConsumerGroupMember, cause: OperationCause): void {
    if (this.options.downgrade?.(group, member.memberId) === true) {
      // The caller made a classic group of the others; this one's records go as the group's tombstones.
      const classicMembers = [...group.members.values()].filter((other) => other.memberId !== member.memberId).map(classicMemberIdentity);
      this.deleteGroup(group.groupId, cause, classicMembers);
      return;
    }
    const records: recordsOf.ConsumerGroupRecord[] = [];
    records.push(...removeMemberRecords(group.groupId, member.memberId), ...unusedRegexTombstones(group, member.subscribedTopicRegex, [member.memberId]));
    const remaining = [...group.members.values()].filter((other) => other.memberId !== member.memberId);
    records.push(recordsOf.newConsumerGroupEpochRecord(group.groupId, group.groupEpoch + 1, metadataHashOf(group, remaining, this.options.metadataImage)));
    this.timeouts.cancelTimers(group.groupId, member.memberId);
    this.commit(group, records, cause);
  }

  commit(group: ConsumerGroup, records: recordsOf.ConsumerGroupRecord[], cause: OperationCause, conversion?: Conversion): void {
    if (records.length === 0) {
      return;
    }
    this.options.records(records);
    this.recorder.replay(group, records, cause, conversion);
  }
}
