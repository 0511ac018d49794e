import { javaStringHashCode } from '../../../../protocol/offsetsPartition';
import { JavaHashOrder } from '../../../common/javaHashOrder';
import { JavaPriorityQueue } from '../../../common/javaPriorityQueue';
import { tableSizeFor } from '../../group/assignor/javaHashSet';
import { ProcessState, taskIdText, taskKey, type TaskId } from './processState';
import {
  TaskAssignorError, type StreamsGroupAssignment, type StreamsGroupSpec, type StreamsMemberAssignment,
  type StreamsMemberSpec, type SubtopologyDescription,
} from './types';

/**
 * Kafka 4.4's StickyTaskAssignor (org.apache.kafka.coordinator.group.streams.assignor), the streams groups'
 * default task assignor, ported step for step: active tasks go back to their previous member, then to a member
 * that held them as standby (or reports local state for them), then to the least loaded process; standby tasks
 * (num.standby.replicas) go to the previous active member, then a previous standby member, then the least loaded
 * process without the task. Java's HashMap and PriorityQueue orders are kept wherever they decide ties.
 * Kafka 4.4's class assigns no warm-up tasks and ignores a member's warm-up tasks, end offsets and rack tags.
 */

export const STICKY_ASSIGNOR_NAME = 'sticky';

interface Member {
  readonly processId: string;
  readonly memberId: string;
}

interface StandbyCandidate {
  readonly member: Member;
  readonly isPrevStandby: boolean;
  readonly offsetSum: number;
}

interface StandbyToAssign {
  readonly taskId: TaskId;
  readonly remainingReplicas: number;
}

interface LocalState {
  activeTaskToPrevMember: Map<string, Member>;
  standbyTaskToPrevMember: Map<string, Member[]>;
  processIdToState: Map<string, ProcessState>;
  /** processIdToState's keys in Java's iteration order (a HashMap sized by the member count). */
  processOrder: JavaHashOrder<string>;
  numStandbyReplicas: number;
  totalActiveTasks: number;
  totalTasks: number;
  totalMembersWithActiveTaskCapacity: number;
  totalMembersWithTaskCapacity: number;
  activeTasksPerMember: number;
  totalTasksPerMember: number;
}

/** Standbys rank ahead of members only known through reported offsets; then the most caught-up first. */
function standbyCandidateOrder(a: StandbyCandidate, b: StandbyCandidate): number {
  return (a.isPrevStandby ? 0 : 1) - (b.isPrevStandby ? 0 : 1) || Math.sign(b.offsetSum - a.offsetSum);
}

/** Java's String.compareTo and Integer.compare, as the Comparator chains of Kafka's sorts use them. */
function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const byPartitionThenSubtopology = (a: TaskId, b: TaskId): number =>
  a.partition - b.partition || compareStrings(a.subtopologyId, b.subtopologyId);
const bySubtopologyThenPartition = (a: TaskId, b: TaskId): number =>
  compareStrings(a.subtopologyId, b.subtopologyId) || a.partition - b.partition;
const processByLoad = (a: ProcessState, b: ProcessState): number => a.load() - b.load();

/** StickyTaskAssignor.assign: the target assignment of every member of the group. */
export function assignStickyTasks(
  groupSpec: StreamsGroupSpec,
  subtopologies: readonly SubtopologyDescription[],
): StreamsGroupAssignment {
  const localState = initialize(groupSpec, subtopologies);
  assignActive(localState, taskIds(subtopologies, true));
  if (localState.numStandbyReplicas > 0) {
    assignStandby(localState, taskIds(subtopologies, false));
  }
  return buildGroupAssignment(localState, groupSpec.members);
}

function taskIds(subtopologies: readonly SubtopologyDescription[], isActive: boolean): TaskId[] {
  const result: TaskId[] = [];
  for (const subtopology of subtopologies) {
    if (isActive || subtopology.stateful) {
      for (let i = 0; i < subtopology.numTasks; i++) {
        result.push({ subtopologyId: subtopology.subtopologyId, partition: i });
      }
    }
  }
  return result;
}

function initialize(groupSpec: StreamsGroupSpec, subtopologies: readonly SubtopologyDescription[]): LocalState {
  const numStandbyReplicas = groupSpec.configs.numStandbyReplicas;
  if (!Number.isInteger(numStandbyReplicas) || numStandbyReplicas < 0) {
    throw new TaskAssignorError(`num.standby.replicas must be a non-negative integer, not ${numStandbyReplicas}`);
  }
  let totalActiveTasks = 0;
  let totalTasks = 0;
  const seenSubtopologies = new Set<string>();
  for (const subtopology of subtopologies) {
    if (seenSubtopologies.has(subtopology.subtopologyId)) {
      throw new TaskAssignorError(`Subtopology ${subtopology.subtopologyId} is described twice.`);
    }
    seenSubtopologies.add(subtopology.subtopologyId);
    if (!Number.isInteger(subtopology.numTasks) || subtopology.numTasks < 0) {
      throw new TaskAssignorError(`Subtopology ${subtopology.subtopologyId} has ${subtopology.numTasks} input partitions.`);
    }
    totalTasks += subtopology.numTasks;
    totalActiveTasks += subtopology.numTasks;
    if (subtopology.stateful) {
      totalTasks += subtopology.numTasks * numStandbyReplicas;
    }
  }
  const memberCount = groupSpec.members.length;
  const localState: LocalState = {
    activeTaskToPrevMember: new Map(),
    standbyTaskToPrevMember: new Map(),
    processIdToState: new Map(),
    processOrder: new JavaHashOrder<string>(tableSizeFor(memberCount)),
    numStandbyReplicas,
    totalActiveTasks,
    totalTasks,
    totalMembersWithActiveTaskCapacity: memberCount,
    totalMembersWithTaskCapacity: memberCount,
    activeTasksPerMember: computeTasksPerMember(totalActiveTasks, memberCount),
    totalTasksPerMember: computeTasksPerMember(totalTasks, memberCount),
  };

  const seenMembers = new Set<string>();
  const standbyCandidates = new Map<string, StandbyCandidate[]>();
  for (const memberSpec of groupSpec.members) {
    if (seenMembers.has(memberSpec.memberId)) {
      throw new TaskAssignorError(`Member ${memberSpec.memberId} appears twice in the group spec.`);
    }
    seenMembers.add(memberSpec.memberId);
    const member: Member = { processId: memberSpec.processId, memberId: memberSpec.memberId };
    let processState = localState.processIdToState.get(member.processId);
    if (processState === undefined) {
      processState = new ProcessState(member.processId);
      localState.processIdToState.set(member.processId, processState);
    }
    localState.processOrder.addByComputeIfAbsent(member.processId, javaStringHashCode(member.processId));
    processState.addMember(member.memberId);

    for (const { subtopologyId, partitions } of memberSpec.activeTasks ?? []) {
      for (const partition of partitions) {
        localState.activeTaskToPrevMember.set(taskKey({ subtopologyId, partition }), member);
      }
    }
    collectStandbyCandidates(standbyCandidates, memberSpec, member);
  }

  for (const [task, candidates] of standbyCandidates) {
    // Array.prototype.sort is stable, as Java's List.sort.
    candidates.sort(standbyCandidateOrder);
    localState.standbyTaskToPrevMember.set(task, candidates.map((candidate) => candidate.member));
  }
  return localState;
}

function addCandidate(candidates: Map<string, StandbyCandidate[]>, task: TaskId, candidate: StandbyCandidate): void {
  const key = taskKey(task);
  const list = candidates.get(key);
  if (list === undefined) {
    candidates.set(key, [candidate]);
  } else {
    list.push(candidate);
  }
}

function collectStandbyCandidates(
  candidates: Map<string, StandbyCandidate[]>,
  memberSpec: StreamsMemberSpec,
  member: Member,
): void {
  const offsets = new Map<string, number>();
  for (const { subtopologyId, partition, offsetSum } of memberSpec.taskOffsets ?? []) {
    offsets.set(taskKey({ subtopologyId, partition }), offsetSum);
  }
  const standbys = new Set<string>();
  // Previous standby tasks, with the reported offset sum (0, maximum lag, when none is reported).
  for (const { subtopologyId, partitions } of memberSpec.standbyTasks ?? []) {
    for (const partition of partitions) {
      const task = { subtopologyId, partition };
      standbys.add(taskKey(task));
      addCandidate(candidates, task, { member, isPrevStandby: true, offsetSum: offsets.get(taskKey(task)) ?? 0 });
    }
  }
  // A member restarted with a fresh member id has an empty target assignment; its reported offsets still make it a
  // weaker standby candidate for the tasks whose state it has on disk.
  for (const { subtopologyId, partition, offsetSum } of memberSpec.taskOffsets ?? []) {
    const task = { subtopologyId, partition };
    if (!standbys.has(taskKey(task))) {
      addCandidate(candidates, task, { member, isPrevStandby: false, offsetSum });
    }
  }
}

function compacted(tasks: readonly TaskId[] | undefined): Map<string, number[]> {
  const result = new Map<string, number[]>();
  for (const { subtopologyId, partition } of tasks ?? []) {
    const partitions = result.get(subtopologyId);
    if (partitions === undefined) {
      result.set(subtopologyId, [partition]);
    } else {
      partitions.push(partition);
    }
  }
  for (const partitions of result.values()) {
    partitions.sort((a, b) => a - b);
  }
  return result;
}

function buildGroupAssignment(localState: LocalState, members: readonly StreamsMemberSpec[]): StreamsGroupAssignment {
  const result: StreamsGroupAssignment = new Map();
  for (const { memberId, processId } of members) {
    const processState = localState.processIdToState.get(processId) as ProcessState;
    const assignment: StreamsMemberAssignment = {
      activeTasks: compacted(processState.assignedActiveTasksByMember().get(memberId)),
      standbyTasks: compacted(processState.assignedStandbyTasksByMember().get(memberId)),
    };
    result.set(memberId, assignment);
  }
  return result;
}

function processOf(localState: LocalState, member: Member): ProcessState {
  return localState.processIdToState.get(member.processId) as ProcessState;
}

/** Gives `task` to `member` as active if its quota allows; true when it did. */
function tryActive(localState: LocalState, member: Member | null | undefined, task: TaskId): boolean {
  if (member === null || member === undefined) {
    return false;
  }
  const processState = processOf(localState, member);
  if (processState.memberTaskCount(member.memberId) >= localState.activeTasksPerMember) {
    return false;
  }
  const newActiveTasks = processState.addTask(member.memberId, task, true);
  maybeUpdateActiveTasksPerMember(localState, newActiveTasks);
  maybeUpdateTotalTasksPerMember(localState, newActiveTasks);
  return true;
}

function assignActive(localState: LocalState, activeTasks: TaskId[]): void {
  // Assuming the current assignment pairs same partitions (range-based): by partition first.
  let remaining = [...activeTasks].sort(byPartitionThenSubtopology);
  // 1. Existing active tasks back to the member that had them.
  remaining = remaining.filter((task) => !tryActive(localState, localState.activeTaskToPrevMember.get(taskKey(task)), task));
  // 2. Then to a member that has seen the task (as standby, or through its reported offsets).
  remaining = remaining.filter((task) => !tryActive(localState,
    findPrevMemberWithLeastLoad(localState, localState.standbyTaskToPrevMember.get(taskKey(task)), null), task));

  // 3. The rest, range-like (by subtopology), to the least loaded process.
  remaining.sort(bySubtopologyThenPartition);
  const processes = new JavaPriorityQueue<ProcessState>(processByLoad);
  processes.addAll(localState.processOrder.keys().map((processId) => localState.processIdToState.get(processId) as ProcessState));
  for (const task of remaining) {
    const processWithLeastLoad = processes.poll();
    if (processWithLeastLoad === undefined) {
      throw new TaskAssignorError(`No process available to assign active task ${taskIdText(task)}.`);
    }
    const newTaskCount = processWithLeastLoad.addTaskToLeastLoadedMember(task, true);
    if (newTaskCount === -1) {
      throw new TaskAssignorError(`No member available to assign active task ${taskIdText(task)}.`);
    }
    maybeUpdateActiveTasksPerMember(localState, newTaskCount);
    maybeUpdateTotalTasksPerMember(localState, newTaskCount);
    processes.add(processWithLeastLoad);
  }
}

function maybeUpdateActiveTasksPerMember(localState: LocalState, activeTasksNo: number): void {
  if (activeTasksNo === localState.activeTasksPerMember) {
    localState.totalMembersWithActiveTaskCapacity--;
    localState.totalActiveTasks -= activeTasksNo;
    localState.activeTasksPerMember = computeTasksPerMember(localState.totalActiveTasks, localState.totalMembersWithActiveTaskCapacity);
  }
}

function maybeUpdateTotalTasksPerMember(localState: LocalState, taskNo: number): void {
  if (taskNo === localState.totalTasksPerMember) {
    localState.totalMembersWithTaskCapacity--;
    localState.totalTasks -= taskNo;
    localState.totalTasksPerMember = computeTasksPerMember(localState.totalTasks, localState.totalMembersWithTaskCapacity);
  }
}

function assignStandbyToMemberWithLeastLoad(localState: LocalState, queue: JavaPriorityQueue<ProcessState>, task: TaskId): boolean {
  const processWithLeastLoad = queue.poll();
  if (processWithLeastLoad === undefined) {
    return false;
  }
  let found = false;
  if (!processWithLeastLoad.hasTask(task)) {
    const newTaskCount = processWithLeastLoad.addTaskToLeastLoadedMember(task, false);
    if (newTaskCount !== -1) {
      found = true;
      maybeUpdateTotalTasksPerMember(localState, newTaskCount);
    }
  } else if (!queue.isEmpty()) {
    found = assignStandbyToMemberWithLeastLoad(localState, queue, task);
  }
  queue.add(processWithLeastLoad);
  return found;
}

/**
 * The previous member with the least load (a member replaces the first candidate only when both its process load
 * and its own load are lower, as in Kafka), skipping processes that already have `standbyTask`; null if none.
 */
function findPrevMemberWithLeastLoad(localState: LocalState, members: readonly Member[] | undefined, standbyTask: TaskId | null): Member | null {
  let candidate: Member | null = null;
  let candidateProcessLoad = Number.MAX_VALUE;
  let candidateMemberLoad = Number.MAX_VALUE;
  for (const member of members ?? []) {
    const processState = processOf(localState, member);
    if (standbyTask !== null && processState.hasTask(standbyTask)) {
      continue;
    }
    const newProcessLoad = processState.load();
    const newMemberLoad = processState.memberTaskCount(member.memberId);
    if (candidate === null || (newProcessLoad < candidateProcessLoad && newMemberLoad < candidateMemberLoad)) {
      candidateProcessLoad = newProcessLoad;
      candidateMemberLoad = newMemberLoad;
      candidate = member;
    }
  }
  return candidate;
}

/** Gives `task` to `member` as standby if its process lacks it and the member's quota allows; true when it did. */
function tryStandby(localState: LocalState, member: Member | null | undefined, task: TaskId): boolean {
  if (member === null || member === undefined) {
    return false;
  }
  const processState = processOf(localState, member);
  if (processState.hasTask(task) || processState.memberTaskCount(member.memberId) >= localState.totalTasksPerMember) {
    return false;
  }
  maybeUpdateTotalTasksPerMember(localState, processState.addTask(member.memberId, task, false));
  return true;
}

function assignStandby(localState: LocalState, standbyTasks: TaskId[]): void {
  const toLeastLoaded: StandbyToAssign[] = [];
  // Range-based current assignment assumed: by partition first, both keys descending (Kafka's reversed()).
  const sorted = [...standbyTasks].sort((a, b) => byPartitionThenSubtopology(b, a));
  for (const task of sorted) {
    for (let i = 0; i < localState.numStandbyReplicas; i++) {
      if (tryStandby(localState, localState.activeTaskToPrevMember.get(taskKey(task)), task)) {
        continue;
      }
      const prevStandbyMembers = localState.standbyTaskToPrevMember.get(taskKey(task));
      if (tryStandby(localState, findPrevMemberWithLeastLoad(localState, prevStandbyMembers, task), task)) {
        continue;
      }
      toLeastLoaded.push({ taskId: task, remainingReplicas: localState.numStandbyReplicas - i });
      break;
    }
  }

  // Range-like: by subtopology, both keys descending.
  toLeastLoaded.sort((a, b) => bySubtopologyThenPartition(b.taskId, a.taskId));
  const processes = new JavaPriorityQueue<ProcessState>(processByLoad);
  processes.addAll(localState.processOrder.keys().map((processId) => localState.processIdToState.get(processId) as ProcessState));
  for (const toAssign of toLeastLoaded) {
    for (let i = 0; i < toAssign.remainingReplicas; i++) {
      // Kafka logs a warning here (not enough capacity for the standby replicas) and moves on.
      if (!assignStandbyToMemberWithLeastLoad(localState, processes, toAssign.taskId)) {
        break;
      }
    }
  }
}

function computeTasksPerMember(numberOfTasks: number, numberOfMembers: number): number {
  if (numberOfMembers === 0) {
    return 0;
  }
  // Java's int division (truncating) and remainder, which keep their sign rules if a count ever goes negative.
  return Math.trunc(numberOfTasks / numberOfMembers) + (numberOfTasks % numberOfMembers > 0 ? 1 : 0);
}
