/** SyncGroup for classic groups (GroupMetadataManager.classicGroupSync): followers wait, the leader's assignment completes the round. */
import type { VirtualClock } from '../../../common/clock';
import type { ClassicGroup } from './classicGroup';
import { EMPTY_ASSIGNMENT, type ClassicGroupMember } from './classicGroupMember';
import { syncError } from './classicGroupResponses';
import type { ClassicRebalance } from './classicRebalance';
import { newGroupMetadataRecord } from '../coordinatorRecords';
import type { GroupEvents } from '../groupEvents';
import type { ConsumerAssignment, Respond, SyncGroupRequest, SyncGroupResponse } from '../../../common/requests';
import { partitionsMinus } from '../../../common/topicPartitionSet';

/** A SyncGroup naming another protocol type or name than the group's is refused. */
function isProtocolInconsistent(requested: string | null, current: string | null): boolean {
  return requested !== null && current !== null && requested !== current;
}

/** What a classic SyncGroup needs of the group metadata manager, which implements it: the classic group of an id. */
export interface ClassicSyncGroups {
  classicGroup(groupId: string): ClassicGroup | undefined;
}

export class ClassicGroupSync {
  constructor(
    private readonly clock: VirtualClock,
    private readonly events: GroupEvents,
    private readonly groups: ClassicSyncGroups,
    private readonly rebalance: ClassicRebalance,
  ) {}

  /** `reply` is already delayed by the response latency; a follower's is parked until the leader's assignment is stored. */
  classicGroupSync(request: SyncGroupRequest, reply: Respond<SyncGroupResponse>): void {
    const group = this.groups.classicGroup(request.groupId);
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
        this.rebalance.removePendingSyncMember(group, request.memberId);
        if (group.isLeader(request.memberId)) {
          this.storeLeaderAssignment(group, request);
        }
        return;
      case 'Stable':
        this.rebalance.removePendingSyncMember(group, request.memberId);
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
      if (!group.is('CompletingRebalance') || group.generationId !== generation || this.groups.classicGroup(group.groupId) !== group) {
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
      // The generation is persisted (still CompletingRebalance, with its time), then takes effect.
      this.events.write(group.groupId, [newGroupMetadataRecord(group)]);
      this.rebalance.propagateAssignment(group, 'NONE');
      group.transitionTo('Stable', this.clock.now);
      this.events.emit(group, 'sync-completed', {
        cause: `leader ${request.memberId} assigned ${changes.reduce((n, c) => n + c.assigned.length, 0)} partitions with ${group.protocolName}`,
        assignments: changes,
      });
    });
  }
}
