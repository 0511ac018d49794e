/**
 * A streams member's tasks by role (Kafka 4.4's TasksTuple and TasksTupleWithEpochs): subtopology id →
 * partitions, for active, standby and warm-up tasks. The current assignment keeps, for each active task,
 * the epoch it was assigned in (KIP-1071's assignment epochs), against which offset commits are checked.
 */
import type { TaskIds as HeartbeatTaskIds } from '../../../protocol/messages/streamsGroupHeartbeatRequest';

/** Subtopology id → task partitions. */
export type TaskSet = ReadonlyMap<string, ReadonlySet<number>>;
/** Subtopology id → task partition → the epoch the task was assigned in. */
export type TaskEpochs = ReadonlyMap<string, ReadonlyMap<number, number>>;

/** TasksTuple: a target assignment or the tasks a member reports owning. */
export interface TasksTuple {
  readonly activeTasks: TaskSet;
  readonly standbyTasks: TaskSet;
  readonly warmupTasks: TaskSet;
}

/** TasksTupleWithEpochs: a member's current assignment, or its tasks pending revocation. */
export interface TasksTupleWithEpochs {
  readonly activeTasksWithEpochs: TaskEpochs;
  readonly standbyTasks: TaskSet;
  readonly warmupTasks: TaskSet;
}

export const EMPTY_TASKS: TasksTuple = Object.freeze({ activeTasks: new Map(), standbyTasks: new Map(), warmupTasks: new Map() });
export const EMPTY_TASKS_WITH_EPOCHS: TasksTupleWithEpochs = Object.freeze({ activeTasksWithEpochs: new Map(), standbyTasks: new Map(), warmupTasks: new Map() });

export function isEmptyTasks(tasks: TasksTuple): boolean {
  return tasks.activeTasks.size === 0 && tasks.standbyTasks.size === 0 && tasks.warmupTasks.size === 0;
}

export function isEmptyTasksWithEpochs(tasks: TasksTupleWithEpochs): boolean {
  return tasks.activeTasksWithEpochs.size === 0 && tasks.standbyTasks.size === 0 && tasks.warmupTasks.size === 0;
}

function intersects(partitions: ReadonlySet<number>, others: Iterable<number> | undefined): boolean {
  if (others === undefined) {
    return false;
  }
  for (const partition of others) {
    if (partitions.has(partition)) {
      return true;
    }
  }
  return false;
}

function anyShared(owned: TaskSet, other: TaskSet): boolean {
  return [...owned].some(([subtopologyId, partitions]) => intersects(partitions, other.get(subtopologyId)));
}

/** TasksTuple.containsAny: whether the owned tasks still include any of these (in the same role). */
export function containsAnyTask(owned: TasksTuple, other: TasksTupleWithEpochs): boolean {
  return [...owned.activeTasks].some(([subtopologyId, partitions]) => intersects(partitions, other.activeTasksWithEpochs.get(subtopologyId)?.keys()))
    || anyShared(owned.standbyTasks, other.standbyTasks)
    || anyShared(owned.warmupTasks, other.warmupTasks);
}

export function taskSetEquals(a: TaskSet, b: TaskSet): boolean {
  if (a.size !== b.size) {
    return false;
  }
  for (const [subtopologyId, partitions] of a) {
    const others = b.get(subtopologyId);
    if (others === undefined || others.size !== partitions.size || [...partitions].some((p) => !others.has(p))) {
      return false;
    }
  }
  return true;
}

function taskEpochsEquals(a: TaskEpochs, b: TaskEpochs): boolean {
  if (a.size !== b.size) {
    return false;
  }
  for (const [subtopologyId, epochs] of a) {
    const others = b.get(subtopologyId);
    if (others === undefined || others.size !== epochs.size || [...epochs].some(([p, epoch]) => others.get(p) !== epoch)) {
      return false;
    }
  }
  return true;
}

export function tasksEquals(a: TasksTuple, b: TasksTuple): boolean {
  return taskSetEquals(a.activeTasks, b.activeTasks) && taskSetEquals(a.standbyTasks, b.standbyTasks) && taskSetEquals(a.warmupTasks, b.warmupTasks);
}

export function tasksWithEpochsEquals(a: TasksTupleWithEpochs, b: TasksTupleWithEpochs): boolean {
  return taskEpochsEquals(a.activeTasksWithEpochs, b.activeTasksWithEpochs) && taskSetEquals(a.standbyTasks, b.standbyTasks) && taskSetEquals(a.warmupTasks, b.warmupTasks);
}

/** The active tasks without their epochs. */
export function activeTaskSet(tasks: TasksTupleWithEpochs): TaskSet {
  return new Map([...tasks.activeTasksWithEpochs].map(([subtopologyId, epochs]) => [subtopologyId, new Set(epochs.keys())]));
}

function mergeTaskSets(a: TaskSet, b: TaskSet): Map<string, Set<number>> {
  const merged = new Map<string, Set<number>>();
  for (const tasks of [a, b]) {
    for (const [subtopologyId, partitions] of tasks) {
      const set = merged.get(subtopologyId) ?? new Set<number>();
      partitions.forEach((p) => set.add(p));
      merged.set(subtopologyId, set);
    }
  }
  return merged;
}

/** TasksTupleWithEpochs.merge: b's epochs win for a task in both. */
export function mergeTasksWithEpochs(a: TasksTupleWithEpochs, b: TasksTupleWithEpochs): TasksTupleWithEpochs {
  const active = new Map<string, Map<number, number>>();
  for (const tasks of [a.activeTasksWithEpochs, b.activeTasksWithEpochs]) {
    for (const [subtopologyId, epochs] of tasks) {
      const map = active.get(subtopologyId) ?? new Map<number, number>();
      epochs.forEach((epoch, p) => map.set(p, epoch));
      active.set(subtopologyId, map);
    }
  }
  return { activeTasksWithEpochs: active, standbyTasks: mergeTaskSets(a.standbyTasks, b.standbyTasks), warmupTasks: mergeTaskSets(a.warmupTasks, b.warmupTasks) };
}

/** TasksTuple.sameTasks: the same tasks in each role, whatever the epochs. */
export function sameTasks(target: TasksTuple, current: TasksTupleWithEpochs): boolean {
  return taskSetEquals(target.activeTasks, activeTaskSet(current)) && taskSetEquals(target.standbyTasks, current.standbyTasks) && taskSetEquals(target.warmupTasks, current.warmupTasks);
}

/** Task lists as the messages carry them: subtopology id and partitions. */
export interface TaskIdList {
  subtopologyId: string;
  partitions: number[];
}

export function taskSetOf(list: readonly TaskIdList[]): Map<string, Set<number>> {
  return new Map(list.map((task) => [task.subtopologyId, new Set(task.partitions)]));
}

/** TasksTuple.fromHeartbeatRequest */
export function tasksFromHeartbeat(active: readonly HeartbeatTaskIds[], standby: readonly HeartbeatTaskIds[], warmup: readonly HeartbeatTaskIds[]): TasksTuple {
  return { activeTasks: taskSetOf(active), standbyTasks: taskSetOf(standby), warmupTasks: taskSetOf(warmup) };
}

/** Records and responses list subtopologies by id and partitions ascending. */
export function sortedTaskIds(tasks: TaskSet): TaskIdList[] {
  return [...tasks].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([subtopologyId, partitions]) => ({ subtopologyId, partitions: [...partitions].sort((x, y) => x - y) }));
}

/** Active tasks with their assignment epochs, as StreamsGroupCurrentMemberAssignmentValue writes them. */
export function sortedTaskIdsWithEpochs(tasks: TaskEpochs): Array<TaskIdList & { assignmentEpochs: number[] }> {
  return [...tasks].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([subtopologyId, epochs]) => {
    const sorted = [...epochs].sort(([x], [y]) => x - y);
    return { subtopologyId, partitions: sorted.map(([p]) => p), assignmentEpochs: sorted.map(([, epoch]) => epoch) };
  });
}

/**
 * TasksTupleWithEpochs.parseActiveTasksWithEpochs: a record of an older writer (no epochs, or a count that
 * does not match) gives every task the member epoch.
 */
export function taskEpochsOf(list: ReadonlyArray<TaskIdList & { assignmentEpochs?: number[] | null }>, memberEpoch: number): Map<string, Map<number, number>> {
  return new Map(list.map((task) => {
    const epochs = task.assignmentEpochs;
    const aligned = epochs !== undefined && epochs !== null && epochs.length === task.partitions.length;
    return [task.subtopologyId, new Map(task.partitions.map((p, i) => [p, aligned ? epochs[i] : memberEpoch]))];
  }));
}

/** Kafka's taskAssignmentToString: "[0-1, 0-2@3]", for logs and errors. */
export function tasksText(tasks: TasksTupleWithEpochs): string {
  const active = sortedTaskIdsWithEpochs(tasks.activeTasksWithEpochs).flatMap((t) => t.partitions.map((p, i) => `${t.subtopologyId}-${p}@${t.assignmentEpochs[i]}`));
  const list = (set: TaskSet) => sortedTaskIds(set).flatMap((t) => t.partitions.map((p) => `${t.subtopologyId}-${p}`));
  return `(active=[${active.join(', ')}], standby=[${list(tasks.standbyTasks).join(', ')}], warmup=[${list(tasks.warmupTasks).join(', ')}])`;
}
