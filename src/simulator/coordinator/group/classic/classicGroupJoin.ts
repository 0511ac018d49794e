/**
 * JoinGroup for classic groups (GroupMetadataManager.classicGroupJoin and its paths: new and
 * existing members, KIP-394's MEMBER_ID_REQUIRED, static members replacing themselves). Reason
 * strings are Kafka's.
 */
import type { ClassicGroup } from './classicGroup';
import { ClassicGroupMember } from './classicGroupMember';
import { currentGenerationResponse, joinError } from './classicGroupResponses';
import type { ClassicRebalance } from './classicRebalance';
import type { CoordinatorConfig } from '../coordinatorConfig';
import { newEmptyGroupMetadataRecord, newGroupMetadataRecord } from '../coordinatorRecords';
import type { GroupEvents } from '../groupEvents';
import type { Group } from '../group';
import type { JoinGroupProtocol, JoinGroupRequest, JoinGroupResponse, Respond } from '../../../common/requests';
import type { SeededRandom } from '../../../common/random';

/** The client's reason as the coordinator's cause strings quote it. */
function joinReason(request: JoinGroupRequest): string {
  return request.reason ? request.reason : 'not provided';
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

/**
 * What a classic JoinGroup needs of the group metadata manager, which implements it: the group of an
 * id, a classic group made on demand, and the hand-over of a join to a consumer group (online migration).
 */
export interface ClassicJoinGroups {
  group(groupId: string): Group | undefined;
  getOrMaybeCreateClassicGroup(groupId: string, createIfNotExists: boolean): ClassicGroup | 'GROUP_ID_NOT_FOUND';
  classicGroupJoinToConsumerGroup(request: JoinGroupRequest, reply: Respond<JoinGroupResponse>): void;
}

export class ClassicGroupJoin {
  constructor(
    private readonly random: SeededRandom,
    private readonly config: CoordinatorConfig,
    private readonly events: GroupEvents,
    private readonly groups: ClassicJoinGroups,
    private readonly rebalance: ClassicRebalance,
  ) {}

  /** `reply` is already delayed by the response latency; a parked join is answered when the join phase completes. */
  classicGroupJoin(request: JoinGroupRequest, reply: Respond<JoinGroupResponse>): void {
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
    const existing = this.groups.group(request.groupId);
    if (existing !== undefined && existing.type === 'consumer') {
      // A consumer group serves members of the classic protocol too (online migration).
      this.groups.classicGroupJoinToConsumerGroup(request, reply);
      return;
    }
    if (existing !== undefined && existing.type !== 'classic') {
      // A group of another protocol: its members cannot be joined by a classic JoinGroup.
      reply(joinError(request.memberId, 'INCONSISTENT_GROUP_PROTOCOL'));
      return;
    }
    const isUnknownMember = request.memberId === '';
    // The group is created for an unknown member only; a member id naming no group is unknown.
    const group = this.groups.getOrMaybeCreateClassicGroup(request.groupId, isUnknownMember);
    if (typeof group === 'string') {
      reply(joinError(request.memberId, 'UNKNOWN_MEMBER_ID'));
      return;
    }
    if (existing === undefined) {
      // A new group is committed to the log at once (classicGroupJoinToClassicGroup).
      this.events.write(group.groupId, [newEmptyGroupMetadataRecord(group)]);
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
      const timer = this.rebalance.sessionTimer(group.groupId, newMemberId);
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
          reply(currentGenerationResponse(group, memberId, group.isLeader(memberId)));
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
          reply(currentGenerationResponse(group, memberId, false));
        }
        return;
      default:
        reply(joinError(memberId, 'UNKNOWN_MEMBER_ID'));
    }
  }

  private addMemberThenRebalanceOrCompleteJoin(request: JoinGroupRequest, group: ClassicGroup, memberId: string, reply: Respond<JoinGroupResponse>): void {
    const member = new ClassicGroupMember(
      memberId,
      request.groupInstanceId,
      request.clientId,
      request.clientHost,
      request.rebalanceTimeoutMs,
      request.sessionTimeoutMs,
      request.protocolType,
      request.protocols,
      this.rebalance.sessionTimer(group.groupId, memberId),
    );
    member.isNew = true;
    if (group.is('PreparingRebalance') && group.previousState === 'Empty') {
      group.newMemberAdded = true;
    }
    group.add(member, reply);
    // New members cannot heartbeat while their JoinGroup is parked: they get the 5-minute join timeout instead.
    member.heartbeat.reset(this.config.newMemberJoinTimeoutMs);
    this.events.emit(group, 'member-joined', { member, cause: `client reason: ${joinReason(request)}` });
    this.rebalance.maybePrepareRebalanceOrCompleteJoin(
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
    this.rebalance.maybePrepareRebalanceOrCompleteJoin(group, reason);
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
    const member = group.replaceStaticMember(instanceId, oldMemberId, newMemberId, this.rebalance.sessionTimer(group.groupId, newMemberId));
    member.heartbeat.reset(member.sessionTimeoutMs);
    group.updateMember(member, request.protocols, request.rebalanceTimeoutMs, request.sessionTimeoutMs, reply);
    const reason = joinReason(request);
    const replaced = `Static member ${oldMemberId} with instance id ${instanceId} replaced by ${newMemberId}`;

    if (group.is('Stable')) {
      if (group.protocolName === group.selectProtocol()) {
        // The replacement is persisted with the generation's assignment (updateStaticMemberThenRebalanceOrCompleteJoin).
        this.events.write(group.groupId, [newGroupMetadataRecord(group)]);
        this.events.emit(group, 'static-rejoin', { member, cause: `${replaced}; the group stays Stable (selected protocol unchanged), no rebalance` });
        const isLeader = group.isLeader(newMemberId);
        const supportsSkip = (request.apiVersion ?? 9) >= 9;
        group.completeJoin(member, {
          ...currentGenerationResponse(group, newMemberId, supportsSkip && isLeader),
          // Below v9 the reply names the old leader, so a returning leader acts as a follower.
          leader: supportsSkip ? (group.leaderId ?? '') : previousLeader,
          skipAssignment: supportsSkip && isLeader,
        });
        return;
      }
      this.events.emit(group, 'static-rejoin', { member, cause: `${replaced}; the selected protocol changes` });
      this.rebalance.maybePrepareRebalanceOrCompleteJoin(
        group,
        `Group's selectedProtocol will change because static member ${newMemberId} with instance id ${instanceId} joined with change of protocol; client reason: ${reason}`,
      );
      return;
    }
    this.events.emit(group, 'static-rejoin', { member, cause: `${replaced} during ${group.state}` });
    if (group.is('CompletingRebalance')) {
      this.rebalance.prepareRebalance(group, `Updating metadata for static member ${newMemberId} with instance id ${instanceId}; client reason: ${reason}`);
    } else {
      this.rebalance.maybeCompleteJoinPhase(group);
    }
  }
}
