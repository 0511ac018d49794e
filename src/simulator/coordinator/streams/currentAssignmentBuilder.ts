/**
 * Kafka 4.4's streams CurrentAssignmentBuilder: one step of a member's reconciliation towards its target
 * assignment. Tasks the member must give up are first asked back (UNREVOKED_TASKS) until the member no
 * longer reports them; a task still held elsewhere (an active task by any process, a standby or warm-up
 * by another member of this process) waits (UNRELEASED_TASKS). A standby or warm-up task that becomes
 * active on the same member, or a role swap within the member, happens at once, as 4.4 does.
 */
import { KafkaApiError } from '../../common/errors';
import { EMPTY_TASKS_WITH_EPOCHS, containsAnyTask, isEmptyTasks, isEmptyTasksWithEpochs, mergeTasksWithEpochs, type TaskSet, type TasksTuple, type TasksTupleWithEpochs } from './tasksTuple';
import { StreamsMemberState, withMemberEpoch, type StreamsGroupMember } from './streamsGroupMember';

/** Who holds a task now, across the group (StreamsGroup's task → process id maps). */
export interface TaskOwners {
  activeProcessId(subtopologyId: string, partition: number): string | undefined;
  standbyProcessIds(subtopologyId: string, partition: number): ReadonlySet<string>;
  warmupProcessIds(subtopologyId: string, partition: number): ReadonlySet<string>;
}

type MutableTaskSet = Map<string, Set<number>>;
type MutableTaskEpochs = Map<string, Map<number, number>>;

interface Difference<T> {
  assigned: Map<string, T>;
  pendingRevocation: Map<string, T>;
  pendingAssignment: Map<string, T>;
  hasUnreleased: boolean;
}

type IsUnreleased = (subtopologyId: string, partition: number) => boolean;

/**
 * computeAssignmentDifference, over one role's tasks keyed by partition (an active task's value is its
 * assignment epoch): kept = current ∩ target, revoked = current − kept, pending = target − kept − unreleased.
 */
function difference<T>(current: ReadonlyMap<string, ReadonlyMap<number, T>>, target: TaskSet, newValue: T, isUnreleased: IsUnreleased): Difference<Map<number, T>> {
  const result: Difference<Map<number, T>> = { assigned: new Map(), pendingRevocation: new Map(), pendingAssignment: new Map(), hasUnreleased: false };
  for (const subtopologyId of new Set([...target.keys(), ...current.keys()])) {
    const had = current.get(subtopologyId) ?? new Map<number, T>();
    const wanted = target.get(subtopologyId) ?? new Set<number>();
    const assigned = new Map([...had].filter(([p]) => wanted.has(p)));
    const revoked = new Map([...had].filter(([p]) => !assigned.has(p)));
    const pending = new Map<number, T>();
    for (const p of wanted) {
      if (assigned.has(p)) {
        continue;
      }
      if (isUnreleased(subtopologyId, p)) {
        result.hasUnreleased = true;
      } else {
        pending.set(p, newValue);
      }
    }
    for (const [map, partitions] of [[result.assigned, assigned], [result.pendingRevocation, revoked], [result.pendingAssignment, pending]] as const) {
      if (partitions.size > 0) {
        map.set(subtopologyId, partitions);
      }
    }
  }
  return result;
}

const asKeyed = (tasks: TaskSet): Map<string, Map<number, true>> => new Map([...tasks].map(([s, partitions]) => [s, new Map([...partitions].map((p) => [p, true as const]))]));
const asSets = (tasks: ReadonlyMap<string, ReadonlyMap<number, true>>): MutableTaskSet => new Map([...tasks].map(([s, partitions]) => [s, new Set(partitions.keys())]));

/** computeAssignmentDifference for standby and warm-up tasks. */
function setDifference(current: TaskSet, target: TaskSet, isUnreleased: IsUnreleased): Difference<Set<number>> {
  const keyed = difference(asKeyed(current), target, true as const, isUnreleased);
  return { assigned: asSets(keyed.assigned), pendingRevocation: asSets(keyed.pendingRevocation), pendingAssignment: asSets(keyed.pendingAssignment), hasUnreleased: keyed.hasUnreleased };
}

function has(tasks: ReadonlyMap<string, ReadonlySet<number>>, subtopologyId: string, partition: number): boolean {
  return tasks.get(subtopologyId)?.has(partition) ?? false;
}

function removeTask(tasks: MutableTaskSet, subtopologyId: string, partition: number): void {
  const partitions = tasks.get(subtopologyId);
  if (partitions !== undefined && partitions.delete(partition) && partitions.size === 0) {
    tasks.delete(subtopologyId);
  }
}

function addTask(tasks: MutableTaskSet, subtopologyId: string, partition: number): void {
  const partitions = tasks.get(subtopologyId) ?? new Set<number>();
  partitions.add(partition);
  tasks.set(subtopologyId, partitions);
}

/** grantNow: a pending task goes straight to the assigned ones. */
function grantNow(pending: MutableTaskSet, assigned: MutableTaskSet, subtopologyId: string, partition: number): void {
  removeTask(pending, subtopologyId, partition);
  addTask(assigned, subtopologyId, partition);
}

export class StreamsCurrentAssignmentBuilder {
  private targetAssignmentEpoch = 0;
  private targetAssignment: TasksTuple | undefined;
  private owners: TaskOwners | undefined;
  /** The tasks the member reported; undefined when the heartbeat did not carry them. */
  private ownedTasks: TasksTuple | undefined;

  constructor(private readonly member: StreamsGroupMember) {}

  withTargetAssignment(targetAssignmentEpoch: number, targetAssignment: TasksTuple): this {
    this.targetAssignmentEpoch = targetAssignmentEpoch;
    this.targetAssignment = targetAssignment;
    return this;
  }

  withCurrentTaskOwners(owners: TaskOwners): this {
    this.owners = owners;
    return this;
  }

  withOwnedAssignment(owned: TasksTuple | undefined): this {
    this.ownedTasks = owned;
    return this;
  }

  build(): StreamsGroupMember {
    const member = this.member;
    switch (member.state) {
      case StreamsMemberState.STABLE:
        return member.memberEpoch !== this.targetAssignmentEpoch ? this.computeNextAssignment(member.memberEpoch, member.assignedTasks) : member;
      case StreamsMemberState.UNREVOKED_TASKS:
        if (this.hasNotReleased(member.tasksPendingRevocation)) {
          return member;
        }
        return this.computeNextAssignment(member.memberEpoch + 1, member.assignedTasks);
      case StreamsMemberState.UNRELEASED_TASKS:
        return this.computeNextAssignment(member.memberEpoch, member.assignedTasks);
      case StreamsMemberState.UNKNOWN:
        if (this.ownedTasks === undefined || !isEmptyTasks(this.ownedTasks)) {
          throw new KafkaApiError('FENCED_MEMBER_EPOCH', 'The streams group member is in a unknown state. The member must abandon all its tasks and rejoin.');
        }
        return this.computeNextAssignment(this.targetAssignmentEpoch, member.assignedTasks);
    }
  }

  private get target(): TasksTuple {
    if (this.targetAssignment === undefined) {
      throw new Error('StreamsCurrentAssignmentBuilder: no target assignment');
    }
    return this.targetAssignment;
  }

  private get taskOwners(): TaskOwners {
    if (this.owners === undefined) {
      throw new Error('StreamsCurrentAssignmentBuilder: no task owners');
    }
    return this.owners;
  }

  private hasNotReleased(pendingRevocation: TasksTupleWithEpochs): boolean {
    return this.ownedTasks === undefined || containsAnyTask(this.ownedTasks, pendingRevocation);
  }

  private heldByAnotherMemberOnThisProcess(processIds: ReadonlySet<string>, memberTasks: TaskSet, subtopologyId: string, partition: number): boolean {
    return processIds.has(this.member.processId) && !has(memberTasks, subtopologyId, partition);
  }

  private computeNextAssignment(memberEpoch: number, assigned: TasksTupleWithEpochs): StreamsGroupMember {
    const owners = this.taskOwners;
    const processId = this.member.processId;
    const target = this.target;
    const active = difference(assigned.activeTasksWithEpochs, target.activeTasks, this.targetAssignmentEpoch, (s, p) =>
      owners.activeProcessId(s, p) !== undefined
      || this.heldByAnotherMemberOnThisProcess(owners.standbyProcessIds(s, p), assigned.standbyTasks, s, p)
      || this.heldByAnotherMemberOnThisProcess(owners.warmupProcessIds(s, p), assigned.warmupTasks, s, p));
    const standby = setDifference(assigned.standbyTasks, target.standbyTasks, (s, p) =>
      (owners.activeProcessId(s, p) === processId && !(assigned.activeTasksWithEpochs.get(s)?.has(p) ?? false))
      || owners.standbyProcessIds(s, p).has(processId)
      || this.heldByAnotherMemberOnThisProcess(owners.warmupProcessIds(s, p), assigned.warmupTasks, s, p));
    const warmup = setDifference(assigned.warmupTasks, target.warmupTasks, (s, p) =>
      owners.activeProcessId(s, p) === processId
      || this.heldByAnotherMemberOnThisProcess(owners.standbyProcessIds(s, p), assigned.standbyTasks, s, p)
      || owners.warmupProcessIds(s, p).has(processId));

    // demoteActiveTasksToStandby: an active task that becomes a standby of this member needs no wait.
    for (const [s, epochs] of assigned.activeTasksWithEpochs) {
      for (const p of epochs.keys()) {
        if (has(standby.pendingAssignment, s, p)) {grantNow(standby.pendingAssignment, standby.assigned, s, p);}
      }
    }
    this.convertReplicaRole(assigned.standbyTasks, standby.pendingRevocation, warmup.pendingAssignment, warmup.assigned);
    this.convertReplicaRole(assigned.warmupTasks, warmup.pendingRevocation, standby.pendingAssignment, standby.assigned);
    const pendingRevocation = this.applyPromotionsToActive(assigned, active.pendingRevocation, standby.pendingRevocation, warmup.pendingRevocation, active.pendingAssignment, standby.assigned, warmup.assigned);
    return this.buildNewMember(
      memberEpoch,
      pendingRevocation,
      { activeTasksWithEpochs: active.assigned, standbyTasks: standby.assigned, warmupTasks: warmup.assigned },
      { activeTasksWithEpochs: active.pendingAssignment, standbyTasks: standby.pendingAssignment, warmupTasks: warmup.pendingAssignment },
      active.hasUnreleased || standby.hasUnreleased || warmup.hasUnreleased,
    );
  }

  /** convertReplicaRole: a standby becoming a warm-up of the same member (or back) swaps at once. */
  private convertReplicaRole(outgoing: TaskSet, outgoingRevocation: MutableTaskSet, incomingPending: MutableTaskSet, incomingAssigned: MutableTaskSet): void {
    for (const [s, partitions] of outgoing) {
      for (const p of partitions) {
        if (has(incomingPending, s, p)) {
          grantNow(incomingPending, incomingAssigned, s, p);
          removeTask(outgoingRevocation, s, p);
        }
      }
    }
  }

  /**
   * applyPromotionsToActive: a standby or warm-up task becoming active on this member is not revoked; it is
   * kept in its old role until the active task is granted (this step, unless something must be revoked first).
   */
  private applyPromotionsToActive(
    assigned: TasksTupleWithEpochs,
    activeRevocation: MutableTaskEpochs,
    standbyRevocation: MutableTaskSet,
    warmupRevocation: MutableTaskSet,
    activePending: MutableTaskEpochs,
    standbyAssigned: MutableTaskSet,
    warmupAssigned: MutableTaskSet,
  ): TasksTupleWithEpochs {
    const targetActive = this.target.activeTasks;
    for (const [tasks, revocation] of [[assigned.standbyTasks, standbyRevocation], [assigned.warmupTasks, warmupRevocation]] as const) {
      for (const [s, partitions] of tasks) {
        for (const p of partitions) {
          if (has(targetActive, s, p)) {removeTask(revocation, s, p);}
        }
      }
    }
    const pendingRevocation: TasksTupleWithEpochs = { activeTasksWithEpochs: activeRevocation, standbyTasks: standbyRevocation, warmupTasks: warmupRevocation };
    const hasTasksToBeRevoked = !isEmptyTasksWithEpochs(pendingRevocation) && this.hasNotReleased(pendingRevocation);
    for (const [tasks, kept] of [[assigned.standbyTasks, standbyAssigned], [assigned.warmupTasks, warmupAssigned]] as const) {
      for (const [s, partitions] of tasks) {
        for (const p of partitions) {
          const promotedThisStep = !hasTasksToBeRevoked && (activePending.get(s)?.has(p) ?? false);
          if (has(targetActive, s, p) && !promotedThisStep) {addTask(kept, s, p);}
        }
      }
    }
    return pendingRevocation;
  }

  private buildNewMember(
    memberEpoch: number,
    pendingRevocation: TasksTupleWithEpochs,
    assigned: TasksTupleWithEpochs,
    pendingAssignment: TasksTupleWithEpochs,
    hasUnreleasedTasks: boolean,
  ): StreamsGroupMember {
    const member = this.member;
    if (!isEmptyTasksWithEpochs(pendingRevocation) && this.hasNotReleased(pendingRevocation)) {
      return { ...member, ...withMemberEpoch(member, memberEpoch), state: StreamsMemberState.UNREVOKED_TASKS, assignedTasks: assigned, tasksPendingRevocation: pendingRevocation };
    }
    const done = { ...withMemberEpoch(member, this.targetAssignmentEpoch), tasksPendingRevocation: EMPTY_TASKS_WITH_EPOCHS };
    if (!isEmptyTasksWithEpochs(pendingAssignment)) {
      const state = hasUnreleasedTasks ? StreamsMemberState.UNRELEASED_TASKS : StreamsMemberState.STABLE;
      return { ...member, ...done, state, assignedTasks: mergeTasksWithEpochs(assigned, pendingAssignment) };
    }
    return { ...member, ...done, state: hasUnreleasedTasks ? StreamsMemberState.UNRELEASED_TASKS : StreamsMemberState.STABLE, assignedTasks: assigned };
  }
}
