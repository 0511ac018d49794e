/**
 * Group membership on the coordinator (Kafka's GroupMetadataManager): one map of groups by id, each
 * tagged with its type, type-checked lookups, and the classic group's requests: JoinGroup, SyncGroup,
 * Heartbeat, LeaveGroup, ListGroups, DescribeGroups. A KIP-848 consumer group plugs in as a second
 * `Group` type beside `ClassicGroup`.
 */
import type { VirtualClock } from './clock';
import { ClassicGroup, type ClassicGroupState } from './classicGroup';
import type { ClassicGroupMember } from './classicGroupMember';
import { ClassicGroupJoin } from './classicGroupJoin';
import { ClassicGroupSync } from './classicGroupSync';
import { ClassicRebalance } from './classicRebalance';
import type { CoordinatorConfig } from './coordinatorConfig';
import type { KafkaErrorCode } from './errors';
import type { Group } from './group';
import type { GroupEvents } from './groupEvents';
import type {
  DescribedGroup,
  HeartbeatRequest,
  HeartbeatResponse,
  JoinGroupRequest,
  JoinGroupResponse,
  LeaveGroupRequest,
  LeaveGroupResponse,
  ListGroupsRequest,
  ListGroupsResponse,
  Respond,
  SyncGroupRequest,
  SyncGroupResponse,
} from './protocol';
import type { SeededRandom } from './random';

const HEARTBEAT_OK: HeartbeatResponse = Object.freeze({ errorCode: 'NONE' });

function isClassicGroup(group: Group): group is ClassicGroup {
  return group.type === 'classic';
}

export class GroupMetadataManager {
  /** Every group by id, whatever its type; a deleted group leaves the map as it turns Dead. */
  private readonly groups = new Map<string, Group>();
  private readonly rebalance: ClassicRebalance;
  private readonly join: ClassicGroupJoin;
  private readonly sync: ClassicGroupSync;

  constructor(
    private readonly clock: VirtualClock,
    random: SeededRandom,
    config: CoordinatorConfig,
    private readonly events: GroupEvents,
  ) {
    this.rebalance = new ClassicRebalance(clock, config, events, (groupId) => this.classicGroup(groupId));
    this.join = new ClassicGroupJoin(random, config, events, this, this.rebalance);
    this.sync = new ClassicGroupSync(clock, events, this, this.rebalance);
  }

  // ---------------------------------------------------------------- lookups

  /** GroupMetadataManager.group: the group of any type, or undefined. */
  group(groupId: string): Group | undefined {
    return this.groups.get(groupId);
  }

  /** The classic group of this id; undefined when there is none or the group is of another type. */
  classicGroup(groupId: string): ClassicGroup | undefined {
    const group = this.groups.get(groupId);
    return group !== undefined && isClassicGroup(group) ? group : undefined;
  }

  /**
   * GroupMetadataManager.getOrMaybeCreateClassicGroup: the classic group, created Empty when it does
   * not exist and `createIfNotExists`; GROUP_ID_NOT_FOUND when it does not exist, or is of another type.
   */
  getOrMaybeCreateClassicGroup(groupId: string, createIfNotExists: boolean): ClassicGroup | 'GROUP_ID_NOT_FOUND' {
    const group = this.groups.get(groupId);
    if (group === undefined) {
      return createIfNotExists ? this.createClassicGroup(groupId) : 'GROUP_ID_NOT_FOUND';
    }
    return isClassicGroup(group) ? group : 'GROUP_ID_NOT_FOUND';
  }

  groupIds(): string[] {
    return [...this.groups.keys()];
  }

  allGroups(): Group[] {
    return [...this.groups.values()];
  }

  private createClassicGroup(groupId: string): ClassicGroup {
    const group = new ClassicGroup(groupId, this.clock.now, (g, from, to) => this.onTransition(g, from, to));
    this.groups.set(groupId, group);
    return group;
  }

  private onTransition(group: ClassicGroup, from: ClassicGroupState, to: ClassicGroupState): void {
    if (to === 'Dead') {
      return; // deleteGroup emits it with its cause
    }
    this.events.emit(group, 'state-changed', { stateBefore: from, stateAfter: to });
  }

  // ---------------------------------------------------------------- classic group requests

  classicGroupJoin(request: JoinGroupRequest, reply: Respond<JoinGroupResponse>): void {
    this.join.classicGroupJoin(request, reply);
  }

  classicGroupSync(request: SyncGroupRequest, reply: Respond<SyncGroupResponse>): void {
    this.sync.classicGroupSync(request, reply);
  }

  classicGroupHeartbeat(request: HeartbeatRequest): HeartbeatResponse {
    const group = this.classicGroup(request.groupId);
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
    this.rebalance.rescheduleMemberHeartbeat(member);
    return group.is('PreparingRebalance') ? { errorCode: 'REBALANCE_IN_PROGRESS' } : HEARTBEAT_OK;
  }

  /** The leave reasons quoted in the cause strings are the clients' own (LeaveGroup v5+), "not provided" otherwise. */
  classicGroupLeave(request: LeaveGroupRequest, reply: Respond<LeaveGroupResponse>): void {
    const group = this.classicGroup(request.groupId);
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
          this.rebalance.removeLeavingMember(group, target, reason);
        }
      } else if (group.isPendingMember(identity.memberId)) {
        group.remove(identity.memberId);
      } else {
        const error = group.validateMember(identity.memberId, identity.groupInstanceId);
        if (error === 'NONE') {
          this.rebalance.removeLeavingMember(group, identity.memberId, reason);
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
        this.rebalance.maybePrepareRebalanceOrCompleteJoin(group, `explicit \`LeaveGroup\` request for (${left.join(', ')}) members.`);
      } else if (group.is('PreparingRebalance')) {
        this.rebalance.maybeCompleteJoinPhase(group);
      }
    }
    reply({ errorCode: 'NONE', members: results });
  }

  /** OffsetCommit keeps a classic member's session alive in Stable and PreparingRebalance (OffsetMetadataManager.commitOffset). */
  rescheduleClassicGroupMemberHeartbeat(group: Group, memberId: string): void {
    if (!isClassicGroup(group) || !(group.is('Stable') || group.is('PreparingRebalance'))) {
      return;
    }
    const member = group.members.get(memberId);
    if (member) {
      this.rebalance.rescheduleMemberHeartbeat(member);
    }
  }

  // ---------------------------------------------------------------- admin

  listGroups(request: ListGroupsRequest): ListGroupsResponse {
    const filter = request.statesFilter && request.statesFilter.length > 0 ? new Set(request.statesFilter) : null;
    const groups = [...this.groups.values()]
      .filter((g) => g.state !== 'Dead' && (!filter || filter.has(g.state)))
      .map((g) => ({ groupId: g.groupId, protocolType: g.protocolType ?? '', groupState: g.state, groupType: g.type }));
    return { errorCode: 'NONE', groups };
  }

  /** DescribeGroups for one group; one that does not exist is Dead with no members, as Kafka answers below v6. */
  describeGroup(groupId: string): DescribedGroup {
    const group = this.classicGroup(groupId);
    if (!group) {
      return { errorCode: 'NONE', groupId, groupState: 'Dead', protocolType: '', protocolData: '', members: [] };
    }
    return group.describe();
  }

  /** GroupMetadataManager.validateDeleteGroup */
  validateDeleteGroup(groupId: string): KafkaErrorCode {
    const group = this.groups.get(groupId);
    return group ? group.validateDeleteGroup() : 'GROUP_ID_NOT_FOUND';
  }

  /** Removes the group (its tombstone): it turns Dead and leaves the map; its offsets are the caller's to drop. */
  deleteGroup(groupId: string, cause: string): void {
    const group = this.classicGroup(groupId);
    if (!group) {
      return;
    }
    this.clock.cancel(group.joinTimer);
    this.clock.cancel(group.syncTimer);
    const from = group.state;
    group.transitionTo('Dead', this.clock.now);
    this.groups.delete(groupId);
    this.events.emit(group, 'state-changed', { cause, stateBefore: from, stateAfter: 'Dead' });
  }
}
