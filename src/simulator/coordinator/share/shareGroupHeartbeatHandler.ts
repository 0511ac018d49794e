/**
 * The share-group half of Kafka 4.4's GroupMetadataManager (KIP-932): ShareGroupHeartbeat (join with epoch 0 and a
 * member id the client generated, heartbeats, leave with -1), the group epoch (bumped when a subscription or the
 * subscribed topics' metadata change, or when newly initialized partitions wait to be assigned), the target
 * assignment by SimpleAssignor over the initialized partitions (at most once per assignment interval), each
 * member's assignment given at once, the session timeout, and the share-state initialization of the subscribed
 * partitions. Every change is a list of records, written and then replayed into the group, as Kafka's coordinator
 * does; a refused request throws a KafkaApiError before writing anything.
 */
import { errorMessage } from '../../../protocol/errors';
import type { ShareGroupHeartbeatRequestData } from '../../../protocol/messages/shareGroupHeartbeatRequest';
import type { ShareGroupHeartbeatResponseData } from '../../../protocol/messages/shareGroupHeartbeatResponse';
import type { OperationCause } from '../../../timeline/consumerGroupEvents';
import { KafkaApiError } from '../../common/errors';
import { PartitionAssignorError, type SubscriptionType } from '../group/assignor/index';
import type { TopicPartitionSets } from '../group/modern/consumer/types';
import { computeMetadataHash } from '../group/modern/targetAssignmentBuilder';
import { existingShareMember, throwIfShareGroupHeartbeatRequestIsInvalid, throwIfShareGroupIsFull, throwIfShareGroupMemberEpochIsInvalid } from './heartbeatValidation';
import * as recordsOf from './records';
import { ShareGroup } from './shareGroup';
import { buildShareMemberAssignment } from './shareGroupAssignmentBuilder';
import { DEFAULT_SHARE_GROUP_CONFIG, sharePersisterInitializeKey, shareSessionTimeoutKey, type ShareGroupConfig, type ShareGroupHeartbeatHandlerOptions } from './shareGroupConfig';
import { hasShareAssignedPartitionsChanged, isShareMemberReconciledTo, newShareGroupMember, sameSubscribedTopicNames, shareMemberEquals, type ShareGroupMember } from './shareGroupMember';
import * as causes from './shareOperationCauses';
import { alterShareGroupOffsetsPlan, completeDeleteShareGroupOffsetsRecord, deleteShareGroupOffsetsPlan, type AlterShareOffsetsTopic, type AlterShareOffsetsTopicResult, type DeleteShareOffsetsTopicResult } from './shareGroupOffsetRecords';
import { initializedAssignmentPending, initializedTopicsRecords, initializingTopicsRecord, subscribedTopicsChangeMap } from './shareStateInitialization';
import { stripInitValue } from './shareStatePartitions';
import { buildShareTargetAssignment } from './shareTargetAssignmentBuilder';

type Response = ShareGroupHeartbeatResponseData;

const LEAVE_GROUP_MEMBER_EPOCH = -1;
/** currentTimeMs + Integer.MAX_VALUE: the metadata is read again only when the topics change. */
const METADATA_REFRESH_NEVER_MS = 2_147_483_647;

/** What a heartbeat's client context gives (RequestContext). */
export interface ShareHeartbeatContext {
  clientId: string;
  /** As Kafka prints the client's InetAddress, e.g. "/127.0.0.1". */
  clientHost: string;
}

/** The error response GroupCoordinatorService answers a refused heartbeat with. */
export function shareHeartbeatError(error: KafkaApiError): Response {
  return { throttleTimeMs: 0, errorCode: error.errorCode, errorMessage: error.message, memberId: null, memberEpoch: 0, heartbeatIntervalMs: 0, assignment: null };
}

/** ShareGroupHeartbeatResponse.createAssignment */
function responseAssignment(partitions: TopicPartitionSets): NonNullable<Response['assignment']> {
  return { topicPartitions: [...partitions].map(([topicId, set]) => ({ topicId, partitions: [...set].sort((a, b) => a - b) })) };
}

/** ModernGroup.subscriptionType */
function subscriptionTypeOf(subscribed: ReadonlyMap<string, number>, numMembers: number): SubscriptionType {
  return [...subscribed.values()].every((count) => count === numMembers) ? 'HOMOGENEOUS' : 'HETEROGENEOUS';
}

export class ShareGroupHeartbeatHandler {
  private readonly groups = new Map<string, ShareGroup>();
  readonly config: ShareGroupConfig;

  constructor(private readonly options: ShareGroupHeartbeatHandlerOptions) {
    this.config = { ...DEFAULT_SHARE_GROUP_CONFIG, ...options.config };
  }

  group(groupId: string): ShareGroup | undefined {
    return this.groups.get(groupId);
  }

  groupIds(): string[] {
    return [...this.groups.keys()];
  }

  /** ShareGroupHeartbeat: the response (an error response when refused, nothing changed). Never throws. */
  heartbeat(context: ShareHeartbeatContext, request: ShareGroupHeartbeatRequestData): Response {
    try {
      throwIfShareGroupHeartbeatRequestIsInvalid(request);
      if (request.memberEpoch === LEAVE_GROUP_MEMBER_EPOCH) {
        return this.shareGroupLeave(request);
      }
      return this.shareGroupHeartbeat(context, request);
    } catch (error) {
      // Anything but a KafkaApiError is a bug of the engine; the client gets UNKNOWN_SERVER_ERROR, as from Kafka.
      return shareHeartbeatError(error instanceof KafkaApiError ? error : new KafkaApiError('UNKNOWN_SERVER_ERROR', errorMessage(error)));
    }
  }

  /** onMetadataUpdate: groups subscribed to a changed topic read the topics again on their next heartbeat. */
  onTopicsChanged(changedTopicNames?: Iterable<string>): void {
    const changed = changedTopicNames === undefined ? undefined : new Set(changedTopicNames);
    for (const group of this.groups.values()) {
      const subscribed = group.subscribedTopicNames();
      if (changed === undefined || [...changed].some((name) => subscribed.has(name))) {
        group.metadataRefreshDeadline = { deadlineMs: 0, epoch: 0 };
      }
    }
  }

  /** Deletes an empty group the caller validated (DeleteGroups). */
  deleteGroup(groupId: string): void {
    const group = this.groups.get(groupId);
    if (group !== undefined) {
      this.commit(group, recordsOf.shareGroupTombstoneRecords(group), causes.GROUP_DELETED_CAUSE);
    }
  }

  /**
   * GroupCoordinatorService.persisterInitialize: the share coordinator creates the state, then it is recorded as
   * initialized. False when the persister failed (Kafka logs it; the partitions stay initializing).
   */
  private persisterInitialize(groupId: string, groupEpoch: number, startOffsets: ReadonlyMap<string, ReadonlyMap<number, number>>): boolean {
    try {
      this.options.persister?.initializeState(groupId, groupEpoch, startOffsets);
    } catch {
      return false;
    }
    this.initializeShareGroupState(groupId, new Map([...startOffsets].map(([topicId, byPartition]) => [topicId, new Set(byPartition.keys())])));
    return true;
  }

  /**
   * GroupMetadataManager.alterShareGroupOffsets, then the persister's initializeState at the group epoch and
   * initializeShareGroupState: only an empty group (or a new one, created here) takes new start offsets.
   */
  alterShareGroupOffsets(groupId: string, topics: readonly AlterShareOffsetsTopic[]): AlterShareOffsetsTopicResult[] {
    const group = this.groups.get(groupId) ?? new ShareGroup(groupId);
    if (group.members.size > 0) {
      throw new KafkaApiError('NON_EMPTY_GROUP', 'The group is not empty.');
    }
    const plan = alterShareGroupOffsetsPlan(group, topics, this.options.metadataImage, this.options.now());
    this.commit(group, plan.records, causes.SHARE_OFFSETS_ALTERED_CAUSE);
    if (plan.offsets.size > 0 && !this.persisterInitialize(groupId, group.groupEpoch, plan.offsets)) {
      throw new KafkaApiError('UNKNOWN_SERVER_ERROR', 'The share coordinator could not write the new start offsets.');
    }
    return plan.topics;
  }

  /**
   * GroupCoordinatorShard.initiateDeleteShareGroupOffsets, the persister's deleteState and
   * completeDeleteShareGroupOffsets: an empty share group's state of whole topics goes.
   */
  deleteShareGroupOffsets(groupId: string, topicNames: readonly string[]): DeleteShareOffsetsTopicResult[] {
    const group = this.shareGroupOrThrow(groupId);
    if (group.state !== 'Empty') {
      throw new KafkaApiError('NON_EMPTY_GROUP', 'The group is not empty.');
    }
    const plan = deleteShareGroupOffsetsPlan(group, topicNames, this.options.metadataImage);
    this.commit(group, plan.records, causes.SHARE_OFFSETS_DELETED_CAUSE);
    if (plan.toDelete.size === 0) {
      return plan.errors;
    }
    this.options.persister?.deleteState(groupId, new Map([...plan.toDelete].map(([topicId, topic]) => [topicId, new Set(topic.partitions)])));
    this.commit(group, completeDeleteShareGroupOffsetsRecord(group, new Set(plan.toDelete.keys()), this.options.metadataImage), causes.SHARE_OFFSETS_DELETED_CAUSE);
    return [...plan.errors, ...[...plan.toDelete].map(([topicId, topic]) => ({ topicName: topic.name, topicId, error: 'NONE', errorMessage: null }))];
  }

  /** initializeShareGroupState: the share coordinator created these partitions' state. */
  initializeShareGroupState(groupId: string, topicPartitions: TopicPartitionSets): void {
    const group = this.groups.get(groupId);
    if (group !== undefined) {
      this.commit(group, initializedTopicsRecords(group, topicPartitions, this.options.metadataImage, this.options.now()), causes.SHARE_STATE_INITIALIZED_CAUSE);
    }
  }

  private shareGroupOrThrow(groupId: string): ShareGroup {
    const group = this.groups.get(groupId);
    if (group === undefined) {
      throw new KafkaApiError('GROUP_ID_NOT_FOUND', `Group ${groupId} not found.`);
    }
    return group;
  }

  private shareGroupHeartbeat(context: ShareHeartbeatContext, request: ShareGroupHeartbeatRequestData): Response {
    const now = this.options.now();
    const image = this.options.metadataImage;
    const { groupId, memberId, memberEpoch } = request;
    const records: recordsOf.ShareGroupRecord[] = [];
    const createIfNotExists = memberEpoch === 0;
    const existingGroup = this.groups.get(groupId);
    if (existingGroup === undefined && !createIfNotExists) {
      throw new KafkaApiError('GROUP_ID_NOT_FOUND', `Share group ${groupId} not found.`);
    }
    const group = existingGroup ?? new ShareGroup(groupId);
    throwIfShareGroupIsFull(group, memberId, this.config.maxSize);
    const member = group.member(memberId) ?? (createIfNotExists ? newShareGroupMember(memberId) : existingShareMember(group, memberId));
    throwIfShareGroupMemberEpochIsInvalid(member, memberEpoch);
    let updatedMember: ShareGroupMember = {
      ...member,
      rackId: request.rackId ?? member.rackId,
      subscribedTopicNames: request.subscribedTopicNames === null ? member.subscribedTopicNames : new Set(request.subscribedTopicNames),
      clientId: context.clientId,
      clientHost: context.clientHost,
    };

    // hasMemberSubscriptionChanged
    let bumpGroupEpoch = false;
    if (!shareMemberEquals(updatedMember, member)) {
      records.push(recordsOf.newShareGroupMemberSubscriptionRecord(groupId, updatedMember));
      bumpGroupEpoch = !sameSubscribedTopicNames(updatedMember, member);
    }
    let groupEpoch = group.groupEpoch;
    if (group.assignmentEpoch >= groupEpoch) {
      bumpGroupEpoch ||= initializedAssignmentPending(group);
    }
    const numMembers = group.members.size + (group.members.has(memberId) ? 0 : 1);
    let subscribed = group.subscribedTopicNames();
    let subscriptionType = subscriptionTypeOf(subscribed, numMembers);
    if (bumpGroupEpoch || group.hasMetadataExpired(now)) {
      subscribed = group.computeSubscribedTopicNames(member, updatedMember);
      const metadataHash = computeMetadataHash(subscribed.keys(), image);
      subscriptionType = subscriptionTypeOf(subscribed, numMembers);
      bumpGroupEpoch ||= metadataHash !== group.metadataHash;
      if (bumpGroupEpoch) {
        groupEpoch += 1;
        records.push(recordsOf.newShareGroupEpochRecord(groupId, groupEpoch, metadataHash));
      }
      group.metadataRefreshDeadline = { deadlineMs: now + METADATA_REFRESH_NEVER_MS, epoch: groupEpoch };
    }

    const target = this.maybeUpdateTargetAssignment(group, groupEpoch, updatedMember, subscriptionType, records);
    if (bumpGroupEpoch || !isShareMemberReconciledTo(updatedMember, target.epoch)) {
      const reconciled = buildShareMemberAssignment(updatedMember, target.epoch, target.partitions, bumpGroupEpoch, image);
      if (!shareMemberEquals(reconciled, updatedMember)) {
        records.push(recordsOf.newShareGroupCurrentAssignmentRecord(groupId, reconciled));
      }
      updatedMember = reconciled;
    }

    const initialize = this.maybeInitializeShareGroupState(group, subscribed.keys(), now, records);
    this.options.timer.schedule(shareSessionTimeoutKey(groupId, memberId), this.config.sessionTimeoutMs, () => this.fenceMemberOperation(groupId, memberId, causes.sessionExpiredCause(memberId)));
    const response: Response = {
      throttleTimeMs: 0, errorCode: 0, errorMessage: null, memberId: updatedMember.memberId, memberEpoch: updatedMember.memberEpoch,
      heartbeatIntervalMs: this.config.heartbeatIntervalMs, assignment: null,
    };
    if (memberEpoch === 0 || request.subscribedTopicNames !== null || hasShareAssignedPartitionsChanged(member, updatedMember)) {
      response.assignment = responseAssignment(updatedMember.assignedPartitions);
    }
    this.commit(group, records, createIfNotExists ? causes.joinCause(memberId) : causes.heartbeatCause(memberId));
    if (initialize !== undefined) {
      // GroupCoordinatorService.persisterInitialize runs after the heartbeat's write, on a timer task of delay 0.
      this.options.timer.schedule(sharePersisterInitializeKey(groupId, groupEpoch), 0, () => void this.persisterInitialize(groupId, groupEpoch, initialize));
    }
    return response;
  }

  /** maybeUpdateTargetAssignment: the target of the updated member, computed anew when the group epoch moved past it. */
  private maybeUpdateTargetAssignment(group: ShareGroup, groupEpoch: number, updatedMember: ShareGroupMember, subscriptionType: SubscriptionType, records: recordsOf.ShareGroupRecord[]): { epoch: number; partitions: TopicPartitionSets } {
    const now = this.options.now();
    const last = { epoch: group.assignmentEpoch, partitions: group.targetAssignmentOf(updatedMember.memberId) };
    if (group.assignmentEpoch >= groupEpoch) {
      return last;
    }
    // canComputeNextTargetAssignment
    const interval = this.config.assignmentIntervalMs;
    if (group.assignmentTimestamp !== 0 && interval !== 0 && now < group.assignmentTimestamp + interval) {
      return last;
    }
    const initialized = group.statePartitionMetadata?.initializedTopics;
    try {
      const result = buildShareTargetAssignment({
        group, groupEpoch, subscriptionType, metadataImage: this.options.metadataImage, updatedMember,
        assignablePartitions: initialized === undefined ? new Map() : stripInitValue(initialized), timestamp: now,
      });
      records.push(...result.records);
      return { epoch: groupEpoch, partitions: result.targetAssignment.get(updatedMember.memberId) ?? new Map() };
    } catch (error) {
      if (error instanceof PartitionAssignorError) {
        throw new KafkaApiError('UNKNOWN_SERVER_ERROR', `Failed to compute a new target assignment for epoch ${groupEpoch}: ${error.message}`);
      }
      throw error;
    }
  }

  /**
   * maybeCreateInitializeShareGroupStateRequest: records the partitions to initialize and returns their start
   * offsets for the persister: 0 for new partitions of a topic the group already knows, else -1.
   */
  private maybeInitializeShareGroupState(group: ShareGroup, topicNames: Iterable<string>, now: number, records: recordsOf.ShareGroupRecord[]): Map<string, Map<number, number>> | undefined {
    const names = [...topicNames];
    if (names.length === 0) {
      return undefined;
    }
    const changes = subscribedTopicsChangeMap(group, names, this.options.metadataImage, now, this.config.initializeRetryIntervalMs);
    if (changes.size === 0) {
      return undefined;
    }
    const info = group.statePartitionMetadata;
    const known = new Set([...(info?.initializedTopics.keys() ?? []), ...(info?.initializingTopics.keys() ?? [])]);
    records.push(initializingTopicsRecord(group, changes, this.options.metadataImage));
    return new Map([...changes].map(([topicId, value]) => [topicId, new Map([...value.partitions].map((p) => [p, known.has(topicId) ? 0 : -1]))]));
  }

  private shareGroupLeave(request: ShareGroupHeartbeatRequestData): Response {
    const group = this.shareGroupOrThrow(request.groupId);
    const member = existingShareMember(group, request.memberId);
    this.fenceMember(group, member, causes.leaveCause(member.memberId));
    return { throttleTimeMs: 0, errorCode: 0, errorMessage: null, memberId: request.memberId, memberEpoch: request.memberEpoch, heartbeatIntervalMs: 0, assignment: null };
  }

  /** shareGroupFenceMemberOperation: a timer's fence, which finds nothing when the group or the member is gone. */
  private fenceMemberOperation(groupId: string, memberId: string, cause: OperationCause): void {
    const group = this.groups.get(groupId);
    const member = group?.member(memberId);
    if (group !== undefined && member !== undefined) {
      this.fenceMember(group, member, cause);
    }
  }

  /** shareGroupFenceMember: the member's records go, the epoch moves on; the last member's leave resets the target epoch too. */
  private fenceMember(group: ShareGroup, member: ShareGroupMember, cause: OperationCause): void {
    const groupId = group.groupId;
    const metadataHash = computeMetadataHash(group.computeSubscribedTopicNames(member, undefined).keys(), this.options.metadataImage);
    const groupEpoch = group.groupEpoch + 1;
    const records: recordsOf.ShareGroupRecord[] = [
      recordsOf.newShareGroupCurrentAssignmentTombstoneRecord(groupId, member.memberId),
      recordsOf.newShareGroupTargetAssignmentTombstoneRecord(groupId, member.memberId),
      recordsOf.newShareGroupMemberSubscriptionTombstoneRecord(groupId, member.memberId),
      recordsOf.newShareGroupEpochRecord(groupId, groupEpoch, metadataHash),
    ];
    if (group.members.size === 1) {
      records.push(recordsOf.newShareGroupTargetAssignmentMetadataRecord(groupId, groupEpoch, 0));
    }
    this.options.timer.cancel(shareSessionTimeoutKey(groupId, member.memberId));
    this.commit(group, records, cause);
  }

  /** Writes the records, then replays them into the group (which joins the map, or leaves it when Dead). */
  private commit(group: ShareGroup, records: readonly recordsOf.ShareGroupRecord[], cause: OperationCause): void {
    if (records.length === 0) {
      return;
    }
    this.options.records(group.groupId, records, cause);
    const now = this.options.now();
    records.forEach((record) => group.replay(record, now));
    if (group.state === 'Dead') {
      this.groups.delete(group.groupId);
    } else {
      this.groups.set(group.groupId, group);
    }
  }
}
