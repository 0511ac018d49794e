/**
 * The classic group coordinator (Kafka 4.0 GroupMetadataManager, classic-group paths): JoinGroup,
 * SyncGroup, Heartbeat, LeaveGroup, OffsetCommit/Fetch/Delete, ListGroups, DescribeGroups,
 * DeleteGroups. Every response is delivered through the event queue. Reason strings are Kafka's.
 */
import type { RebalanceEvent, RebalanceEventKind } from '../model/types';
import { Deadline, type ScheduledTask, type VirtualClock } from './clock';
import { ClassicGroup, ClassicGroupMember, EMPTY_ASSIGNMENT, type ClassicGroupState } from './classicGroup';
import type { KafkaErrorCode } from './errors';
import type { EventLog } from './eventLog';
import type {
  ConsumerAssignment,
  DeleteGroupsRequest,
  DeleteGroupsResponse,
  DescribedGroup,
  DescribeGroupsRequest,
  DescribeGroupsResponse,
  HeartbeatRequest,
  HeartbeatResponse,
  JoinGroupProtocol,
  JoinGroupRequest,
  JoinGroupResponse,
  LeaveGroupRequest,
  LeaveGroupResponse,
  ListGroupsRequest,
  ListGroupsResponse,
  OffsetCommitRequest,
  OffsetCommitResponse,
  OffsetDeleteRequest,
  OffsetDeleteResponse,
  OffsetFetchPartition,
  OffsetFetchRequest,
  OffsetFetchResponse,
  Respond,
  SyncGroupRequest,
  SyncGroupResponse,
  TxnOffsetCommitRequest,
} from './protocol';
import type { SeededRandom } from './random';
import { partitionsMinus } from './topicPartitionSet';
import { PendingTransactionalOffsets, type PendingOffset, type PendingPartition } from './transactionalOffsets';
import type { TransactionResult } from './transactionIndex';

export interface CoordinatorConfig {
  /** group.initial.rebalance.delay.ms */
  initialRebalanceDelayMs: number;
  /** group.min.session.timeout.ms */
  minSessionTimeoutMs: number;
  /** group.max.session.timeout.ms */
  maxSessionTimeoutMs: number;
  /** group.max.size */
  maxGroupSize: number;
  /** CLASSIC_GROUP_NEW_MEMBER_JOIN_TIMEOUT_MS */
  newMemberJoinTimeoutMs: number;
  /** offset.metadata.max.bytes (compared with the metadata's UTF-16 length, as Kafka does) */
  offsetMetadataMaxBytes: number;
  /** offsets.retention.minutes, in ms */
  offsetsRetentionMs: number;
  /** offsets.retention.check.interval.ms */
  offsetsRetentionCheckIntervalMs: number;
  /** Latency added to every response. */
  responseLatencyMs: number;
}

export const DEFAULT_COORDINATOR_CONFIG: CoordinatorConfig = {
  initialRebalanceDelayMs: 3000,
  minSessionTimeoutMs: 6000,
  maxSessionTimeoutMs: 1800000,
  maxGroupSize: Number.MAX_SAFE_INTEGER,
  newMemberJoinTimeoutMs: 300000,
  offsetMetadataMaxBytes: 4096,
  offsetsRetentionMs: 7 * 24 * 3600 * 1000,
  offsetsRetentionCheckIntervalMs: 600000,
  responseLatencyMs: 0,
};

const CONSUMER_PROTOCOL_TYPE = 'consumer';
const HEARTBEAT_OK: HeartbeatResponse = Object.freeze({ errorCode: 'NONE' }) as HeartbeatResponse;

function joinError(memberId: string, errorCode: KafkaErrorCode): JoinGroupResponse {
  return { errorCode, generationId: -1, protocolType: null, protocolName: null, leader: '', skipAssignment: false, memberId, members: [] };
}

function syncError(errorCode: KafkaErrorCode): SyncGroupResponse {
  return { errorCode, protocolType: null, protocolName: null, assignment: EMPTY_ASSIGNMENT };
}

function everyPartition(request: OffsetCommitRequest, errorCode: KafkaErrorCode): OffsetCommitResponse {
  return { topics: request.topics.map((t) => ({ name: t.name, partitions: t.partitions.map((p) => ({ partition: p.partition, errorCode })) })) };
}

function joinReason(request: JoinGroupRequest): string {
  return request.reason ? request.reason : 'not provided';
}

/** A SyncGroup naming another protocol type or name than the group's is refused. */
function isProtocolInconsistent(requested: string | null, current: string | null): boolean {
  return requested !== null && current !== null && requested !== current;
}

export class GroupCoordinator {
  readonly config: CoordinatorConfig;
  private readonly groups = new Map<string, ClassicGroup>();
  /** TxnOffsetCommit offsets waiting for their transaction's marker. */
  readonly pendingOffsets = new PendingTransactionalOffsets();
  /** Next record offset in `__consumer_offsets`, shared by plain and transactional commits. */
  private nextRecordOffset = 0;
  private cleanupTask: ScheduledTask | null = null;

  constructor(
    private readonly clock: VirtualClock,
    private readonly random: SeededRandom,
    private readonly events: EventLog,
    /** Whether a topic partition exists, for OffsetCommit validation. */
    private readonly partitionExists: (topic: string, partition: number) => boolean,
    config: Partial<CoordinatorConfig> = {},
  ) {
    this.config = { ...DEFAULT_COORDINATOR_CONFIG, ...config };
    this.scheduleCleanup();
  }

  /** Read-only access for views: the live group object, or undefined. */
  group(groupId: string): ClassicGroup | undefined {
    return this.groups.get(groupId);
  }

  groupIds(): string[] {
    return [...this.groups.keys()];
  }

  dispose(): void {
    this.clock.cancel(this.cleanupTask);
  }

  // ---------------------------------------------------------------- JoinGroup

  joinGroup(request: JoinGroupRequest, respond: Respond<JoinGroupResponse>): void {
    const reply = this.responder(respond);
    if (!request.groupId) {
      reply(joinError(request.memberId, 'INVALID_GROUP_ID'));
      return;
    }
    if (request.sessionTimeoutMs < this.config.minSessionTimeoutMs || request.sessionTimeoutMs > this.config.maxSessionTimeoutMs) {
      reply(joinError(request.memberId, 'INVALID_SESSION_TIMEOUT'));
      return;
    }
    const duplicate = firstDuplicateProtocol(request.protocols);
    if (duplicate !== undefined) {
      // Kafka reads the list into a multiset and counts each name per occurrence, so a member naming one
      // protocol twice leaves no protocol "supported by all members" and its coordinator fails in
      // ClassicGroupMember.vote when the join completes. We refuse it at the door instead, with the
      // error Kafka gives any protocol list the group cannot use (an empty one, KAFKA-6005).
      reply(joinError(request.memberId, 'INCONSISTENT_GROUP_PROTOCOL'));
      return;
    }
    const isUnknownMember = request.memberId === '';
    let group = this.groups.get(request.groupId);
    if (!group) {
      if (!isUnknownMember) {
        reply(joinError(request.memberId, 'UNKNOWN_MEMBER_ID'));
        return;
      }
      group = this.createGroup(request.groupId);
    }
    if (!this.acceptJoiningMember(group, request.memberId)) {
      group.remove(request.memberId);
      reply(joinError('', 'GROUP_MAX_SIZE_REACHED'));
    } else if (isUnknownMember) {
      this.joinNewMember(request, group, reply);
    } else {
      this.joinExistingMember(request, group, reply);
    }
  }

  private acceptJoiningMember(group: ClassicGroup, memberId: string): boolean {
    switch (group.state) {
      case 'Empty':
      case 'Dead':
        return true;
      case 'PreparingRebalance':
        return group.members.get(memberId)?.awaitingJoin != null || group.numMembersAwaitingJoin < this.config.maxGroupSize;
      case 'CompletingRebalance':
      case 'Stable':
        return group.members.has(memberId) || group.size < this.config.maxGroupSize;
    }
  }

  private joinNewMember(request: JoinGroupRequest, group: ClassicGroup, reply: Respond<JoinGroupResponse>): void {
    if (group.is('Dead')) {
      reply(joinError('', 'COORDINATOR_NOT_AVAILABLE'));
      return;
    }
    if (!group.supportsProtocols(request.protocolType, request.protocols)) {
      reply(joinError('', 'INCONSISTENT_GROUP_PROTOCOL'));
      return;
    }
    // ClassicGroup.generateMemberId: clientId-UUID for dynamic members, instanceId-UUID for static ones.
    const newMemberId = `${request.groupInstanceId ?? request.clientId}-${this.random.uuid()}`;
    if (request.groupInstanceId !== null) {
      const existing = group.staticMembers.get(request.groupInstanceId);
      if (existing !== undefined) {
        this.updateStaticMemberThenRebalanceOrCompleteJoin(request, group, existing, newMemberId, reply);
      } else {
        this.addMemberThenRebalanceOrCompleteJoin(request, group, newMemberId, reply);
      }
    } else if ((request.apiVersion ?? 9) >= 4) {
      // KIP-394: hand out the id and wait for the member to come back with it.
      const groupId = group.groupId;
      const timer = new Deadline(this.clock, () => this.expireMemberHeartbeat(groupId, newMemberId));
      timer.reset(request.sessionTimeoutMs);
      group.pendingJoinMembers.set(newMemberId, timer);
      reply(joinError(newMemberId, 'MEMBER_ID_REQUIRED'));
    } else {
      this.addMemberThenRebalanceOrCompleteJoin(request, group, newMemberId, reply);
    }
  }

  private joinExistingMember(request: JoinGroupRequest, group: ClassicGroup, reply: Respond<JoinGroupResponse>): void {
    const memberId = request.memberId;
    if (group.is('Dead')) {
      reply(joinError(memberId, 'COORDINATOR_NOT_AVAILABLE'));
      return;
    }
    if (!group.supportsProtocols(request.protocolType, request.protocols)) {
      reply(joinError(memberId, 'INCONSISTENT_GROUP_PROTOCOL'));
      return;
    }
    if (group.isPendingMember(memberId)) {
      if (request.groupInstanceId !== null) {
        // Kafka treats this as an illegal state: pending ids are only handed to dynamic members.
        reply(joinError(memberId, 'UNKNOWN_MEMBER_ID'));
        return;
      }
      this.addMemberThenRebalanceOrCompleteJoin(request, group, memberId, reply);
      return;
    }
    const error = group.validateMember(memberId, request.groupInstanceId);
    if (error !== 'NONE') {
      reply(joinError(memberId, error));
      return;
    }
    const member = group.members.get(memberId) as ClassicGroupMember;
    const reason = joinReason(request);
    switch (group.state) {
      case 'PreparingRebalance':
        this.updateMemberThenRebalanceOrCompleteJoin(request, group, member, `Member ${memberId} is joining group during ${group.state}; client reason: ${reason}`, reply);
        return;
      case 'CompletingRebalance':
        if (member.matches(request.protocols)) {
          // It probably missed the JoinGroup response: answer with the current generation.
          reply(this.currentGenerationResponse(group, memberId, group.isLeader(memberId)));
        } else {
          this.updateMemberThenRebalanceOrCompleteJoin(request, group, member, `Updating metadata for member ${memberId} during ${group.state}; client reason: ${reason}`, reply);
        }
        return;
      case 'Stable':
        if (group.isLeader(memberId)) {
          // Any JoinGroup from the leader rebalances: it may have seen metadata changes the members cannot.
          this.updateMemberThenRebalanceOrCompleteJoin(request, group, member, `Leader ${memberId} re-joining group during ${group.state}; client reason: ${reason}`, reply);
        } else if (!member.matches(request.protocols)) {
          this.updateMemberThenRebalanceOrCompleteJoin(request, group, member, `Updating metadata for member ${memberId} during ${group.state}; client reason: ${reason}`, reply);
        } else {
          reply(this.currentGenerationResponse(group, memberId, false));
        }
        return;
      default:
        reply(joinError(memberId, 'UNKNOWN_MEMBER_ID'));
    }
  }

  private currentGenerationResponse(group: ClassicGroup, memberId: string, withMembers: boolean): JoinGroupResponse {
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

  private addMemberThenRebalanceOrCompleteJoin(request: JoinGroupRequest, group: ClassicGroup, memberId: string, reply: Respond<JoinGroupResponse>): void {
    const groupId = group.groupId;
    const member = new ClassicGroupMember(
      memberId,
      request.groupInstanceId,
      request.clientId,
      request.clientHost,
      request.rebalanceTimeoutMs,
      request.sessionTimeoutMs,
      request.protocolType,
      request.protocols,
      new Deadline(this.clock, () => this.expireMemberHeartbeat(groupId, memberId)),
    );
    member.isNew = true;
    if (group.is('PreparingRebalance') && group.previousState === 'Empty') {
      group.newMemberAdded = true;
    }
    group.add(member, reply);
    // New members cannot heartbeat while their JoinGroup is parked: they get the 5-minute join timeout instead.
    member.heartbeat.reset(this.config.newMemberJoinTimeoutMs);
    this.emit(group, 'member-joined', { member, cause: `client reason: ${joinReason(request)}` });
    this.maybePrepareRebalanceOrCompleteJoin(
      group,
      `Adding new member ${memberId} with group instance id ${request.groupInstanceId ?? 'null'}; client reason: ${joinReason(request)}`,
    );
  }

  private updateMemberThenRebalanceOrCompleteJoin(
    request: JoinGroupRequest,
    group: ClassicGroup,
    member: ClassicGroupMember,
    reason: string,
    reply: Respond<JoinGroupResponse>,
  ): void {
    group.updateMember(member, request.protocols, request.rebalanceTimeoutMs, request.sessionTimeoutMs, reply);
    this.maybePrepareRebalanceOrCompleteJoin(group, reason);
  }

  private updateStaticMemberThenRebalanceOrCompleteJoin(
    request: JoinGroupRequest,
    group: ClassicGroup,
    oldMemberId: string,
    newMemberId: string,
    reply: Respond<JoinGroupResponse>,
  ): void {
    const instanceId = request.groupInstanceId as string;
    const previousLeader = group.leaderId ?? '';
    const groupId = group.groupId;
    const member = group.replaceStaticMember(
      instanceId,
      oldMemberId,
      newMemberId,
      new Deadline(this.clock, () => this.expireMemberHeartbeat(groupId, newMemberId)),
    );
    member.heartbeat.reset(member.sessionTimeoutMs);
    group.updateMember(member, request.protocols, request.rebalanceTimeoutMs, request.sessionTimeoutMs, reply);
    const reason = joinReason(request);
    const replaced = `Static member ${oldMemberId} with instance id ${instanceId} replaced by ${newMemberId}`;

    if (group.is('Stable')) {
      if (group.protocolName === group.selectProtocol()) {
        this.emit(group, 'static-rejoin', { member, cause: `${replaced}; the group stays Stable (selected protocol unchanged), no rebalance` });
        const isLeader = group.isLeader(newMemberId);
        const supportsSkip = (request.apiVersion ?? 9) >= 9;
        group.completeJoin(member, {
          ...this.currentGenerationResponse(group, newMemberId, supportsSkip && isLeader),
          // Below v9 the reply names the old leader, so a returning leader acts as a follower.
          leader: supportsSkip ? (group.leaderId ?? '') : previousLeader,
          skipAssignment: supportsSkip && isLeader,
        });
        return;
      }
      this.emit(group, 'static-rejoin', { member, cause: `${replaced}; the selected protocol changes` });
      this.maybePrepareRebalanceOrCompleteJoin(
        group,
        `Group's selectedProtocol will change because static member ${newMemberId} with instance id ${instanceId} joined with change of protocol; client reason: ${reason}`,
      );
      return;
    }
    this.emit(group, 'static-rejoin', { member, cause: `${replaced} during ${group.state}` });
    if (group.is('CompletingRebalance')) {
      this.prepareRebalance(group, `Updating metadata for static member ${newMemberId} with instance id ${instanceId}; client reason: ${reason}`);
    } else {
      this.maybeCompleteJoinPhase(group);
    }
  }

  // ---------------------------------------------------------------- rebalance machinery

  private maybePrepareRebalanceOrCompleteJoin(group: ClassicGroup, reason: string): void {
    if (group.canRebalance()) {
      this.prepareRebalance(group, reason);
    } else {
      this.maybeCompleteJoinPhase(group);
    }
  }

  private prepareRebalance(group: ClassicGroup, reason: string): void {
    if (group.is('CompletingRebalance')) {
      this.resetAndPropagateAssignmentWithError(group, 'REBALANCE_IN_PROGRESS');
    }
    this.removeSyncExpiration(group);
    const isInitialRebalance = group.is('Empty');
    if (isInitialRebalance) {
      const delay = this.config.initialRebalanceDelayMs;
      const remaining = Math.max(group.rebalanceTimeoutMs() - delay, 0);
      const groupId = group.groupId;
      this.scheduleJoinTimer(group, delay, () => this.tryCompleteInitialRebalanceElseSchedule(groupId, delay, remaining));
    }
    this.emit(group, 'rebalance-started', { cause: reason });
    group.transitionTo('PreparingRebalance', this.clock.now);
    if (!isInitialRebalance) {
      this.maybeCompleteJoinElseSchedule(group);
    }
  }

  private maybeCompleteJoinElseSchedule(group: ClassicGroup): void {
    if (group.hasAllMembersJoined()) {
      this.completeJoin(group);
    } else {
      const groupId = group.groupId;
      this.scheduleJoinTimer(group, group.rebalanceTimeoutMs(), () => this.completeJoinById(groupId));
    }
  }

  /** The initial delay: each new joiner within a window extends the wait by the delay, capped by the rebalance timeout. */
  private tryCompleteInitialRebalanceElseSchedule(groupId: string, delayMs: number, remainingMs: number): void {
    const group = this.groups.get(groupId);
    if (!group) {
      return;
    }
    if (group.newMemberAdded && remainingMs !== 0) {
      group.newMemberAdded = false;
      const newDelay = Math.min(this.config.initialRebalanceDelayMs, remainingMs);
      const newRemaining = Math.max(remainingMs - delayMs, 0);
      this.scheduleJoinTimer(group, newDelay, () => this.tryCompleteInitialRebalanceElseSchedule(groupId, newDelay, newRemaining));
    } else {
      this.completeJoin(group);
    }
  }

  private maybeCompleteJoinPhase(group: ClassicGroup): void {
    // The initial rebalance (previous state Empty) completes only through its timer.
    if (group.is('PreparingRebalance') && group.previousState !== 'Empty' && group.hasAllMembersJoined()) {
      this.completeJoin(group);
    }
  }

  private completeJoinById(groupId: string): void {
    const group = this.groups.get(groupId);
    if (group) {
      this.completeJoin(group);
    }
  }

  private completeJoin(group: ClassicGroup): void {
    this.clock.cancel(group.joinTimer);
    group.joinTimer = null;
    // Dynamic members that did not rejoin in time are dropped; static ones stay.
    for (const member of [...group.members.values()]) {
      if (!member.awaitingJoin && !member.isStatic) {
        group.remove(member.memberId);
        this.emit(group, 'member-expired', {
          member,
          cause: `removing dynamic member ${member.memberId} which did not rejoin before the rebalance timeout`,
        });
      }
    }
    if (group.is('Dead')) {
      return;
    }
    if (!group.maybeElectNewJoinedLeader() && group.size > 0) {
      // Members exist but none has rejoined: try again after another rebalance timeout.
      const groupId = group.groupId;
      this.scheduleJoinTimer(group, group.rebalanceTimeoutMs(), () => this.completeJoinById(groupId));
      return;
    }
    group.initNextGeneration(this.clock.now);
    if (group.is('Empty')) {
      return;
    }
    for (const member of group.members.values()) {
      group.completeJoin(member, this.currentGenerationResponse(group, member.memberId, group.isLeader(member.memberId)));
      member.heartbeat.reset(member.sessionTimeoutMs);
      member.isNew = false;
      group.pendingSyncMembers.add(member.memberId);
    }
    const groupId = group.groupId;
    const generation = group.generationId;
    group.syncTimer = this.clock.schedule(group.rebalanceTimeoutMs(), () => this.expirePendingSync(groupId, generation));
  }

  private scheduleJoinTimer(group: ClassicGroup, delayMs: number, run: () => void): void {
    this.clock.cancel(group.joinTimer);
    group.joinTimer = this.clock.schedule(delayMs, run);
  }

  private removeSyncExpiration(group: ClassicGroup): void {
    group.pendingSyncMembers.clear();
    this.clock.cancel(group.syncTimer);
    group.syncTimer = null;
  }

  private expirePendingSync(groupId: string, generationId: number): void {
    const group = this.groups.get(groupId);
    if (!group || group.generationId !== generationId || !(group.is('CompletingRebalance') || group.is('Stable'))) {
      return;
    }
    if (group.hasReceivedSyncFromAllMembers()) {
      return;
    }
    const pending = [...group.pendingSyncMembers];
    const reason = `Removing [${pending.join(', ')}] on pending sync request expiration`;
    for (const memberId of pending) {
      const removed = group.remove(memberId);
      if (removed) {
        this.emit(group, 'member-expired', { member: removed, cause: reason });
      }
    }
    this.prepareRebalance(group, reason);
  }

  private expireMemberHeartbeat(groupId: string, memberId: string): void {
    const group = this.groups.get(groupId);
    if (!group || group.is('Dead')) {
      return;
    }
    if (group.isPendingMember(memberId)) {
      group.remove(memberId);
      if (group.is('PreparingRebalance') && group.hasAllMembersJoined()) {
        this.completeJoin(group);
      }
      return;
    }
    const member = group.members.get(memberId);
    // A new member can always expire; an existing one survives while its join or sync is parked.
    if (!member || (!member.isNew && (member.awaitingJoin || member.awaitingSync))) {
      return;
    }
    const reason = `removing member ${memberId} on heartbeat expiration.`;
    group.completeJoin(member, joinError('', 'UNKNOWN_MEMBER_ID'));
    group.remove(memberId);
    this.emit(group, 'member-expired', { member, cause: reason });
    if (group.is('Stable') || group.is('CompletingRebalance')) {
      this.maybePrepareRebalanceOrCompleteJoin(group, reason);
    } else if (group.is('PreparingRebalance') && group.hasAllMembersJoined()) {
      this.completeJoin(group);
    }
  }

  private resetAndPropagateAssignmentWithError(group: ClassicGroup, error: KafkaErrorCode): void {
    for (const member of group.members.values()) {
      member.assignment = EMPTY_ASSIGNMENT;
    }
    this.propagateAssignment(group, error);
  }

  private propagateAssignment(group: ClassicGroup, error: KafkaErrorCode): void {
    const ok = error === 'NONE';
    for (const member of group.members.values()) {
      const answered = group.completeSync(member, {
        errorCode: error,
        protocolType: ok ? group.protocolType : null,
        protocolName: ok ? group.protocolName : null,
        assignment: member.assignment,
      });
      if (answered) {
        member.heartbeat.reset(member.sessionTimeoutMs);
      }
    }
  }

  // ---------------------------------------------------------------- SyncGroup

  syncGroup(request: SyncGroupRequest, respond: Respond<SyncGroupResponse>): void {
    const reply = this.responder(respond);
    const group = this.groups.get(request.groupId);
    if (!group || group.is('Empty')) {
      reply(syncError('UNKNOWN_MEMBER_ID'));
      return;
    }
    if (group.is('Dead')) {
      reply(syncError('COORDINATOR_NOT_AVAILABLE'));
      return;
    }
    const memberError = group.validateMember(request.memberId, request.groupInstanceId);
    if (memberError !== 'NONE') {
      reply(syncError(memberError));
      return;
    }
    if (request.generationId !== group.generationId) {
      reply(syncError('ILLEGAL_GENERATION'));
      return;
    }
    if (isProtocolInconsistent(request.protocolType, group.protocolType) || isProtocolInconsistent(request.protocolName, group.protocolName)) {
      reply(syncError('INCONSISTENT_GROUP_PROTOCOL'));
      return;
    }
    const member = group.members.get(request.memberId) as ClassicGroupMember;
    switch (group.state) {
      case 'PreparingRebalance':
        reply(syncError('REBALANCE_IN_PROGRESS'));
        return;
      case 'CompletingRebalance':
        member.awaitingSync = reply;
        this.removePendingSyncMember(group, request.memberId);
        if (group.isLeader(request.memberId)) {
          this.storeLeaderAssignment(group, request);
        }
        return;
      case 'Stable':
        this.removePendingSyncMember(group, request.memberId);
        reply({ errorCode: 'NONE', protocolType: group.protocolType, protocolName: group.protocolName, assignment: member.assignment });
        return;
      default:
        reply(syncError('UNKNOWN_MEMBER_ID'));
    }
  }

  private storeLeaderAssignment(group: ClassicGroup, request: SyncGroupRequest): void {
    const assignment = new Map<string, ConsumerAssignment>();
    for (const entry of request.assignments) {
      assignment.set(entry.memberId, entry.assignment);
    }
    const generation = group.generationId;
    // The group metadata record is written before the assignment takes effect.
    this.clock.schedule(0, () => {
      if (!group.is('CompletingRebalance') || group.generationId !== generation || this.groups.get(group.groupId) !== group) {
        return;
      }
      const changes = [...group.members.values()].map((member) => {
        const next = assignment.get(member.memberId) ?? EMPTY_ASSIGNMENT;
        const previous = group.lastSyncedAssignment.get(member.groupInstanceId ?? member.memberId) ?? [];
        member.assignment = next;
        return {
          memberId: member.memberId,
          groupInstanceId: member.groupInstanceId,
          revoked: partitionsMinus(previous, next.partitions),
          assigned: next.partitions.slice(),
        };
      });
      group.lastSyncedAssignment.clear();
      for (const member of group.members.values()) {
        group.lastSyncedAssignment.set(member.groupInstanceId ?? member.memberId, member.assignment.partitions);
      }
      this.propagateAssignment(group, 'NONE');
      group.transitionTo('Stable', this.clock.now);
      this.emit(group, 'sync-completed', {
        cause: `leader ${request.memberId} assigned ${changes.reduce((n, c) => n + c.assigned.length, 0)} partitions with ${group.protocolName}`,
        assignments: changes,
      });
    });
  }

  private removePendingSyncMember(group: ClassicGroup, memberId: string): void {
    group.pendingSyncMembers.delete(memberId);
    if (group.hasReceivedSyncFromAllMembers()) {
      this.clock.cancel(group.syncTimer);
      group.syncTimer = null;
    }
  }

  // ---------------------------------------------------------------- Heartbeat / LeaveGroup

  heartbeat(request: HeartbeatRequest, respond: Respond<HeartbeatResponse>): void {
    this.deliver(respond, this.handleHeartbeat(request));
  }

  private handleHeartbeat(request: HeartbeatRequest): HeartbeatResponse {
    const group = this.groups.get(request.groupId);
    if (!group) {
      return { errorCode: 'UNKNOWN_MEMBER_ID' };
    }
    if (group.is('Dead')) {
      return { errorCode: 'COORDINATOR_NOT_AVAILABLE' };
    }
    const memberError = group.validateMember(request.memberId, request.groupInstanceId);
    if (memberError !== 'NONE') {
      return { errorCode: memberError };
    }
    if (request.generationId !== group.generationId) {
      return { errorCode: 'ILLEGAL_GENERATION' };
    }
    if (group.is('Empty')) {
      return { errorCode: 'UNKNOWN_MEMBER_ID' };
    }
    const member = group.members.get(request.memberId) as ClassicGroupMember;
    member.heartbeat.reset(member.sessionTimeoutMs);
    return group.is('PreparingRebalance') ? { errorCode: 'REBALANCE_IN_PROGRESS' } : HEARTBEAT_OK;
  }

  leaveGroup(request: LeaveGroupRequest, respond: Respond<LeaveGroupResponse>): void {
    const reply = this.responder(respond);
    const group = this.groups.get(request.groupId);
    if (!group) {
      reply({ errorCode: 'UNKNOWN_MEMBER_ID', members: [] });
      return;
    }
    if (group.is('Dead')) {
      reply({ errorCode: 'COORDINATOR_NOT_AVAILABLE', members: [] });
      return;
    }
    const results: LeaveGroupResponse['members'] = [];
    const left: string[] = [];
    for (const identity of request.members) {
      const reason = identity.reason ?? 'not provided';
      const result = { memberId: identity.memberId, groupInstanceId: identity.groupInstanceId, errorCode: 'NONE' as KafkaErrorCode };
      if (identity.memberId === '') {
        const target = identity.groupInstanceId !== null ? group.staticMembers.get(identity.groupInstanceId) : undefined;
        if (target === undefined) {
          result.errorCode = 'UNKNOWN_MEMBER_ID';
        } else {
          this.removeLeavingMember(group, target, reason);
        }
      } else if (group.isPendingMember(identity.memberId)) {
        group.remove(identity.memberId);
      } else {
        const error = group.validateMember(identity.memberId, identity.groupInstanceId);
        if (error === 'NONE') {
          this.removeLeavingMember(group, identity.memberId, reason);
        } else {
          result.errorCode = error;
        }
      }
      if (result.errorCode === 'NONE') {
        left.push(identity.memberId);
      }
      results.push(result);
    }
    if (left.length > 0) {
      if (group.is('Stable') || group.is('CompletingRebalance')) {
        this.maybePrepareRebalanceOrCompleteJoin(group, `explicit \`LeaveGroup\` request for (${left.join(', ')}) members.`);
      } else if (group.is('PreparingRebalance')) {
        this.maybeCompleteJoinPhase(group);
      }
    }
    reply({ errorCode: 'NONE', members: results });
  }

  private removeLeavingMember(group: ClassicGroup, memberId: string, reason: string): void {
    const member = group.members.get(memberId);
    if (!member) {
      return;
    }
    group.completeJoin(member, joinError('', 'UNKNOWN_MEMBER_ID'));
    group.remove(memberId);
    this.emit(group, 'member-left', { member, cause: reason });
  }

  // ---------------------------------------------------------------- offsets

  offsetCommit(request: OffsetCommitRequest, respond: Respond<OffsetCommitResponse>): void {
    this.commitOffsets(request, false, respond, (group, topic, partition, value) => {
      const previous = group.committed(topic, partition);
      group.commit(topic, partition, value);
      return !previous || previous.offset !== value.offset || previous.metadata !== value.metadata;
    });
  }

  /** sendOffsetsToTransaction: the offsets stay pending for the producer until its transaction ends. */
  txnOffsetCommit(request: TxnOffsetCommitRequest, respond: Respond<OffsetCommitResponse>): void {
    this.commitOffsets(request, true, respond, (group, topic, partition, value) => {
      this.pendingOffsets.add(group.groupId, request.producerId, topic, partition, value);
      return false;
    });
  }

  /**
   * The transaction marker reaching the group (WriteTxnMarkers): COMMIT materializes the producer's
   * pending offsets unless a later plain commit has a higher record offset; ABORT drops them.
   */
  completeTransaction(groupId: string, producerId: number, result: TransactionResult): void {
    const materialized = this.pendingOffsets.take(groupId, producerId, result);
    const group = this.groups.get(groupId);
    if (!group || group.is('Dead')) {
      return;
    }
    const won = materialized.filter(({ topic, partition, value }: PendingPartition) => {
      const existing = group.committed(topic, partition);
      if (existing && (existing.recordOffset ?? -1) > value.recordOffset) {
        return false;
      }
      group.commit(topic, partition, value);
      return true;
    });
    if (won.length > 0) {
      this.emit(group, 'offsets-committed', { cause: `${won.length} offset(s) committed by transactional producer ${producerId}` });
    }
  }

  private commitOffsets(
    request: OffsetCommitRequest,
    transactional: boolean,
    respond: Respond<OffsetCommitResponse>,
    store: (group: ClassicGroup, topic: string, partition: number, value: PendingOffset) => boolean,
  ): void {
    const reply = this.responder(respond);
    let group = this.groups.get(request.groupId);
    if (!group) {
      if (request.generationId >= 0) {
        reply(everyPartition(request, 'GROUP_ID_NOT_FOUND'));
        return;
      }
      // Admin tools and manual assignment commit with generation -1: that creates a "simple" group.
      group = this.createGroup(request.groupId);
    }
    const error = this.validateOffsetCommit(group, request, transactional);
    if (error !== 'NONE') {
      reply(everyPartition(request, error));
      return;
    }
    const now = this.clock.now;
    let changed = 0;
    const response: OffsetCommitResponse = { topics: [] };
    for (const topic of request.topics) {
      const partitions: OffsetCommitResponse['topics'][number]['partitions'] = [];
      for (const p of topic.partitions) {
        const metadata = p.metadata ?? '';
        let errorCode: KafkaErrorCode = 'NONE';
        if (metadata.length > this.config.offsetMetadataMaxBytes) {
          errorCode = 'OFFSET_METADATA_TOO_LARGE';
        } else if (!Number.isSafeInteger(p.offset)) {
          // Offsets are JS numbers, exact to 2^53 - 1 (centuries of a million records a second); one
          // past that would be stored rounded and could not be answered to OffsetFetch, so it is refused.
          errorCode = 'OFFSET_OUT_OF_RANGE';
        } else if (!this.partitionExists(topic.name, p.partition)) {
          errorCode = 'UNKNOWN_TOPIC_OR_PARTITION';
        } else {
          const value = { offset: p.offset, leaderEpoch: p.leaderEpoch ?? -1, metadata, commitTimestamp: now, recordOffset: this.nextRecordOffset++ };
          if (store(group, topic.name, p.partition, value)) {
            changed++;
          }
        }
        partitions.push({ partition: p.partition, errorCode });
      }
      response.topics.push({ name: topic.name, partitions });
    }
    const member = group.members.get(request.memberId);
    if (member && (group.is('Stable') || group.is('PreparingRebalance'))) {
      member.heartbeat.reset(member.sessionTimeoutMs);
    }
    if (changed > 0) {
      this.emit(group, 'offsets-committed', {
        member,
        cause:
          request.generationId < 0
            ? `${changed} offset(s) committed with generation -1 (admin or manual assignment)`
            : `${changed} offset(s) committed by ${request.memberId} in generation ${request.generationId}`,
      });
    }
    reply(response);
  }

  /** ClassicGroup.validateOffsetCommit. */
  private validateOffsetCommit(group: ClassicGroup, request: OffsetCommitRequest, transactional: boolean): KafkaErrorCode {
    if (group.is('Dead')) {
      return 'COORDINATOR_NOT_AVAILABLE';
    }
    if (request.generationId < 0 && group.is('Empty')) {
      return 'NONE';
    }
    if (request.generationId >= 0 || request.memberId !== '' || request.groupInstanceId !== null) {
      const memberError = group.validateMember(request.memberId, request.groupInstanceId);
      if (memberError !== 'NONE') {
        return memberError;
      }
      if (request.generationId !== group.generationId) {
        return 'ILLEGAL_GENERATION';
      }
    } else if (!transactional && !group.is('Empty')) {
      return 'UNKNOWN_MEMBER_ID';
    }
    // In PreparingRebalance commits with the current (old) generation still succeed; a transactional
    // commit is not blocked by CompletingRebalance either.
    return !transactional && group.is('CompletingRebalance') ? 'REBALANCE_IN_PROGRESS' : 'NONE';
  }

  offsetFetch(request: OffsetFetchRequest, respond: Respond<OffsetFetchResponse>): void {
    const group = this.groups.get(request.groupId);
    const missing = (partition: number): OffsetFetchPartition => ({ partition, committedOffset: -1, committedLeaderEpoch: -1, metadata: '', errorCode: 'NONE' });
    const response: OffsetFetchResponse = { errorCode: 'NONE', topics: [] };
    if (!group || group.is('Dead')) {
      response.topics = (request.topics ?? []).map((t) => ({ name: t.name, partitions: t.partitions.map(missing) }));
      this.deliver(respond, response);
      return;
    }
    const fetched = (topic: string, partition: number): OffsetFetchPartition => {
      // With requireStable a partition whose offset waits for a transaction marker must be fetched again.
      if (request.requireStable && this.pendingOffsets.isPending(group.groupId, topic, partition)) {
        return { ...missing(partition), errorCode: 'UNSTABLE_OFFSET_COMMIT' };
      }
      const c = group.committed(topic, partition);
      return c ? { partition, committedOffset: c.offset, committedLeaderEpoch: c.leaderEpoch, metadata: c.metadata, errorCode: 'NONE' } : missing(partition);
    };
    const requested = request.topics ?? [...group.offsets].map(([name, partitions]) => ({ name, partitions: [...partitions.keys()] }));
    response.topics = requested.map((t) => ({ name: t.name, partitions: t.partitions.map((partition) => fetched(t.name, partition)) }));
    this.deliver(respond, response);
  }

  offsetDelete(request: OffsetDeleteRequest, respond: Respond<OffsetDeleteResponse>): void {
    const reply = this.responder(respond);
    const group = this.groups.get(request.groupId);
    if (!group || group.is('Dead')) {
      reply({ errorCode: 'GROUP_ID_NOT_FOUND', topics: [] });
      return;
    }
    if (!group.is('Empty') && group.protocolType !== CONSUMER_PROTOCOL_TYPE) {
      reply({ errorCode: 'NON_EMPTY_GROUP', topics: [] });
      return;
    }
    let deleted = 0;
    const topics = request.topics.map((t) => {
      const subscribed = group.isSubscribedToTopic(t.name);
      return {
        name: t.name,
        partitions: t.partitions.map((partition) => {
          if (subscribed) {
            return { partition, errorCode: 'GROUP_SUBSCRIBED_TO_TOPIC' as KafkaErrorCode };
          }
          if (group.deleteOffset(t.name, partition)) {
            deleted++;
          }
          return { partition, errorCode: 'NONE' as KafkaErrorCode };
        }),
      };
    });
    if (deleted > 0) {
      this.emit(group, 'offsets-reset', { cause: `${deleted} committed offset(s) deleted` });
    }
    reply({ errorCode: 'NONE', topics });
  }

  // ---------------------------------------------------------------- admin

  listGroups(request: ListGroupsRequest, respond: Respond<ListGroupsResponse>): void {
    const filter = request.statesFilter && request.statesFilter.length > 0 ? new Set(request.statesFilter) : null;
    const groups = [...this.groups.values()]
      .filter((g) => !g.is('Dead') && (!filter || filter.has(g.state)))
      .map((g) => ({ groupId: g.groupId, protocolType: g.protocolType ?? '', groupState: g.state, groupType: 'classic' as const }));
    this.deliver(respond, { errorCode: 'NONE', groups });
  }

  describeGroups(request: DescribeGroupsRequest, respond: Respond<DescribeGroupsResponse>): void {
    this.deliver(respond, { groups: request.groups.map((id) => this.describeGroupNow(id)) });
  }

  /** DescribeGroups for one group, synchronously (views read it between events). */
  describeGroupNow(groupId: string): DescribedGroup {
    const group = this.groups.get(groupId);
    if (!group) {
      return { errorCode: 'NONE', groupId, groupState: 'Dead', protocolType: '', protocolData: '', members: [] };
    }
    // Like Kafka, metadata and assignments are only described for a Stable group.
    const stable = group.is('Stable');
    const protocol = group.protocolName ?? '';
    return {
      errorCode: 'NONE',
      groupId,
      groupState: group.state,
      protocolType: group.protocolType ?? '',
      protocolData: stable ? protocol : '',
      members: [...group.members.values()].map((m) => ({
        memberId: m.memberId,
        groupInstanceId: m.groupInstanceId,
        clientId: m.clientId,
        clientHost: m.clientHost,
        metadata: stable ? m.metadataFor(protocol) : null,
        assignment: stable ? m.assignment : EMPTY_ASSIGNMENT,
      })),
    };
  }

  deleteGroups(request: DeleteGroupsRequest, respond: Respond<DeleteGroupsResponse>): void {
    const results = request.groupsNames.map((groupId) => {
      const group = this.groups.get(groupId);
      let errorCode: KafkaErrorCode = 'NONE';
      if (!group || group.is('Dead')) {
        errorCode = 'GROUP_ID_NOT_FOUND';
      } else if (!group.is('Empty')) {
        errorCode = 'NON_EMPTY_GROUP';
      } else {
        this.deleteGroup(group, 'deleted by a DeleteGroups request');
      }
      return { groupId, errorCode };
    });
    this.deliver(respond, { results });
  }

  private deleteGroup(group: ClassicGroup, cause: string): void {
    this.clock.cancel(group.joinTimer);
    this.clock.cancel(group.syncTimer);
    group.offsets.clear();
    this.pendingOffsets.deleteGroup(group.groupId);
    const from = group.state;
    group.transitionTo('Dead', this.clock.now);
    this.groups.delete(group.groupId);
    this.emit(group, 'state-changed', { cause, stateBefore: from, stateAfter: 'Dead' });
  }

  // ---------------------------------------------------------------- housekeeping

  private createGroup(groupId: string): ClassicGroup {
    const group = new ClassicGroup(groupId, this.clock.now, (g, from, to) => this.onTransition(g, from, to));
    this.groups.set(groupId, group);
    return group;
  }

  private onTransition(group: ClassicGroup, from: ClassicGroupState, to: ClassicGroupState): void {
    if (to === 'Dead') {
      return; // deleteGroup emits it with its cause
    }
    this.emit(group, 'state-changed', { stateBefore: from, stateAfter: to });
  }

  private scheduleCleanup(): void {
    this.cleanupTask = this.clock.schedule(this.config.offsetsRetentionCheckIntervalMs, () => {
      this.cleanupGroupMetadata();
      this.scheduleCleanup();
    });
  }

  /** Offset expiry and removal of empty groups without offsets (GroupCoordinatorShard.cleanupGroupMetadata). */
  private cleanupGroupMetadata(): void {
    const now = this.clock.now;
    const retention = this.config.offsetsRetentionMs;
    for (const group of [...this.groups.values()]) {
      const isSimple = group.protocolType === null;
      if (group.is('Empty') || group.is('Stable') || isSimple) {
        for (const [topic, partitions] of [...group.offsets]) {
          if (!isSimple && group.is('Stable') && group.isSubscribedToTopic(topic)) {
            continue;
          }
          for (const [partition, committed] of [...partitions]) {
            const base = group.is('Empty') && !isSimple ? group.stateTimestamp : committed.commitTimestamp;
            if (now - base >= retention) {
              group.deleteOffset(topic, partition);
            }
          }
        }
      }
      // A group with an open transaction's offsets stays (OffsetMetadataManager.cleanupExpiredOffsets).
      if (group.is('Empty') && !group.hasOffsets() && group.size === 0 && !this.pendingOffsets.hasGroup(group.groupId)) {
        this.deleteGroup(group, 'every offset expired and the group is empty');
      }
    }
  }

  private responder<T>(respond: Respond<T>): Respond<T> {
    return (response: T) => this.deliver(respond, response);
  }

  private deliver<T>(respond: Respond<T>, response: T): void {
    this.clock.scheduleCall(this.config.responseLatencyMs, respond, response);
  }

  private emit(
    group: ClassicGroup,
    kind: RebalanceEventKind,
    details: {
      member?: ClassicGroupMember;
      cause?: string;
      stateBefore?: ClassicGroupState;
      stateAfter?: ClassicGroupState;
      assignments?: RebalanceEvent['assignments'];
    },
  ): void {
    const event: RebalanceEvent = { groupId: group.groupId, time: this.clock.now, kind, generation: group.generationId };
    event.stateBefore = details.stateBefore ?? group.state;
    event.stateAfter = details.stateAfter ?? group.state;
    if (details.member) {
      event.memberId = details.member.memberId;
      event.groupInstanceId = details.member.groupInstanceId;
      event.clientId = details.member.clientId;
    }
    if (details.cause !== undefined) {
      event.cause = details.cause;
    }
    if (details.assignments) {
      event.assignments = details.assignments;
    }
    this.events.emit(event);
  }
}

/** The first protocol name listed twice, if any. */
function firstDuplicateProtocol(protocols: readonly JoinGroupProtocol[]): string | undefined {
  const seen = new Set<string>();
  for (const { name } of protocols) {
    if (seen.has(name)) {
      return name;
    }
    seen.add(name);
  }
  return undefined;
}
