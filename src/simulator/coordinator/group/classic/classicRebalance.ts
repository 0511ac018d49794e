/**
 * The classic group's rebalance machinery (GroupMetadataManager: prepareRebalance,
 * completeClassicGroupJoin, the join and sync timers, heartbeat and pending-sync expiration,
 * propagateAssignment). The JoinGroup, SyncGroup and LeaveGroup paths drive it.
 */
import { Deadline, type VirtualClock } from '../../../common/clock';
import type { ClassicGroup } from './classicGroup';
import { EMPTY_ASSIGNMENT, type ClassicGroupMember } from './classicGroupMember';
import { currentGenerationResponse, joinError } from './classicGroupResponses';
import type { CoordinatorConfig } from '../coordinatorConfig';
import { newGroupMetadataRecord } from '../coordinatorRecords';
import type { KafkaErrorCode } from '../../../common/errors';
import type { GroupEvents } from '../groupEvents';

/** The live classic group of this id, if any: timers look their group up again when they fire. */
export type ClassicGroupLookup = (groupId: string) => ClassicGroup | undefined;

export class ClassicRebalance {
  constructor(
    private readonly clock: VirtualClock,
    private readonly config: CoordinatorConfig,
    private readonly events: GroupEvents,
    private readonly lookup: ClassicGroupLookup,
  ) {}

  /** A member's session timer: its expiry removes the member (onClassicGroupMemberHeartbeatExpiration). */
  sessionTimer(groupId: string, memberId: string): Deadline {
    return new Deadline(this.clock, () => this.expireMemberHeartbeat(groupId, memberId));
  }

  /** rescheduleClassicGroupMemberHeartbeat */
  rescheduleMemberHeartbeat(member: ClassicGroupMember): void {
    member.heartbeat.reset(member.sessionTimeoutMs);
  }

  maybePrepareRebalanceOrCompleteJoin(group: ClassicGroup, reason: string): void {
    if (group.canRebalance()) {
      this.prepareRebalance(group, reason);
    } else {
      this.maybeCompleteJoinPhase(group);
    }
  }

  prepareRebalance(group: ClassicGroup, reason: string): void {
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
    this.events.emit(group, 'rebalance-started', { cause: reason });
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
    const group = this.lookup(groupId);
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

  maybeCompleteJoinPhase(group: ClassicGroup): void {
    // The initial rebalance (previous state Empty) completes only through its timer.
    if (group.is('PreparingRebalance') && group.previousState !== 'Empty' && group.hasAllMembersJoined()) {
      this.completeJoin(group);
    }
  }

  private completeJoinById(groupId: string): void {
    const group = this.lookup(groupId);
    if (group) {
      this.completeJoin(group);
    }
  }

  /** completeClassicGroupJoin: drop who did not rejoin, start the next generation, answer every parked join. */
  private completeJoin(group: ClassicGroup): void {
    this.clock.cancel(group.joinTimer);
    group.joinTimer = null;
    // Dynamic members that did not rejoin in time are dropped; static ones stay.
    for (const member of [...group.members.values()]) {
      if (!member.awaitingJoin && !member.isStatic) {
        group.remove(member.memberId);
        this.events.emit(group, 'member-expired', {
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
      this.events.write(group.groupId, [newGroupMetadataRecord(group)]);
      return;
    }
    for (const member of group.members.values()) {
      group.completeJoin(member, currentGenerationResponse(group, member.memberId, group.isLeader(member.memberId)));
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

  removePendingSyncMember(group: ClassicGroup, memberId: string): void {
    group.pendingSyncMembers.delete(memberId);
    if (group.hasReceivedSyncFromAllMembers()) {
      this.clock.cancel(group.syncTimer);
      group.syncTimer = null;
    }
  }

  private expirePendingSync(groupId: string, generationId: number): void {
    const group = this.lookup(groupId);
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
        this.events.emit(group, 'member-expired', { member: removed, cause: reason });
      }
    }
    this.prepareRebalance(group, reason);
  }

  private expireMemberHeartbeat(groupId: string, memberId: string): void {
    const group = this.lookup(groupId);
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
    this.events.emit(group, 'member-expired', { member, cause: reason });
    if (group.is('Stable') || group.is('CompletingRebalance')) {
      this.maybePrepareRebalanceOrCompleteJoin(group, reason);
    } else if (group.is('PreparingRebalance') && group.hasAllMembersJoined()) {
      this.completeJoin(group);
    }
  }

  /** A member leaves (LeaveGroup): its parked join is answered UNKNOWN_MEMBER_ID. */
  removeLeavingMember(group: ClassicGroup, memberId: string, reason: string): void {
    const member = group.members.get(memberId);
    if (!member) {
      return;
    }
    group.completeJoin(member, joinError('', 'UNKNOWN_MEMBER_ID'));
    group.remove(memberId);
    this.events.emit(group, 'member-left', { member, cause: reason });
  }

  private resetAndPropagateAssignmentWithError(group: ClassicGroup, error: KafkaErrorCode): void {
    for (const member of group.members.values()) {
      member.assignment = EMPTY_ASSIGNMENT;
    }
    this.propagateAssignment(group, error);
  }

  propagateAssignment(group: ClassicGroup, error: KafkaErrorCode): void {
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
}
