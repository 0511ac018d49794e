import { javaStringHashCode } from '../../../../protocol/offsetsPartition';
import { JavaHashOrder } from '../../../common/javaHashOrder';
import { JavaPriorityQueue } from '../../../common/javaPriorityQueue';
import { TaskAssignorError } from './types';

/** TaskId (a record of org.apache.kafka.coordinator.group.streams.assignor). */
export interface TaskId {
  readonly subtopologyId: string;
  readonly partition: number;
}

/** A TaskId as a Map/Set key (TaskId's record equality). */
export function taskKey(task: TaskId): string {
  return `${task.partition}\u0000${task.subtopologyId}`;
}

/** TaskId.toString() (Kafka 4.4: subtopology id and partition joined by an underscore, checked against the jar). */
export function taskIdText(task: TaskId): string {
  return `${task.subtopologyId}_${task.partition}`;
}

interface MemberLoad {
  readonly memberId: string;
  taskCount: number;
}

/**
 * ProcessState (Kafka 4.4): one Streams client with its member threads, its load (tasks per member) and the tasks
 * given to it so far. `memberToTaskCounts` is a HashMap in Kafka and the least-loaded-member heap is built from its
 * iteration order, so that order is kept here as Java's.
 */
export class ProcessState {
  /** Number of members. */
  private capacity = 0;
  private loadValue = Number.MAX_VALUE;
  private taskCount = 0;
  private readonly memberToTaskCounts = new Map<string, number>();
  private readonly memberOrder = new JavaHashOrder<string>();
  private readonly assignedActiveTasks = new Map<string, TaskId[]>();
  private readonly assignedStandbyTasks = new Map<string, TaskId[]>();
  private readonly assignedTasks = new Set<string>();
  private membersByLoad: JavaPriorityQueue<MemberLoad> | null = null;

  constructor(readonly processId: string) {}

  load(): number {
    return this.loadValue;
  }

  /** The member's task count; the member must belong to this process, as in Kafka (where null would throw). */
  memberTaskCount(memberId: string): number {
    const count = this.memberToTaskCounts.get(memberId);
    if (count === undefined) {
      throw new TaskAssignorError(`Member ${memberId} is not a member of process ${this.processId}.`);
    }
    return count;
  }

  assignedActiveTasksByMember(): ReadonlyMap<string, readonly TaskId[]> {
    return this.assignedActiveTasks;
  }

  assignedStandbyTasksByMember(): ReadonlyMap<string, readonly TaskId[]> {
    return this.assignedStandbyTasks;
  }

  /** Assigns a task to a member of this process; returns the member's task count after it. */
  addTask(memberId: string, task: TaskId, isActive: boolean): number {
    const newTaskCount = this.addTaskInternal(memberId, task, isActive);
    // As in Kafka: a task given to a chosen member would unorder the heap, so it is dropped and rebuilt on demand.
    this.membersByLoad = null;
    return newTaskCount;
  }

  private addTaskInternal(memberId: string, task: TaskId, isActive: boolean): number {
    this.taskCount += 1;
    this.assignedTasks.add(taskKey(task));
    const byMember = isActive ? this.assignedActiveTasks : this.assignedStandbyTasks;
    const tasks = byMember.get(memberId);
    if (tasks === undefined) {
      byMember.set(memberId, [task]);
    } else {
      // Kafka's set never sees a task twice for one member: actives are placed once, standbys after hasTask.
      tasks.push(task);
    }
    const newTaskCount = this.memberTaskCount(memberId) + 1;
    this.memberToTaskCounts.set(memberId, newTaskCount);
    this.computeLoad();
    return newTaskCount;
  }

  /** Assigns a task to the least loaded member; returns that member's task count after it, or -1 without members. */
  addTaskToLeastLoadedMember(task: TaskId, isActive: boolean): number {
    if (this.memberToTaskCounts.size === 0) {
      return -1;
    }
    if (this.memberToTaskCounts.size === 1) {
      return this.addTaskInternal(this.memberOrder.first() as string, task, isActive);
    }
    if (this.membersByLoad === null) {
      // Map.Entry.comparingByValue(), filled in the HashMap's iteration order.
      this.membersByLoad = new JavaPriorityQueue<MemberLoad>((a, b) => a.taskCount - b.taskCount);
      for (const memberId of this.memberOrder.keys()) {
        this.membersByLoad.add({ memberId, taskCount: this.memberTaskCount(memberId) });
      }
    }
    const member = this.membersByLoad.poll();
    if (member === undefined) {
      throw new TaskAssignorError(`No members available to assign task ${taskIdText(task)}`);
    }
    const newTaskCount = this.addTaskInternal(member.memberId, task, isActive);
    member.taskCount = newTaskCount;
    this.membersByLoad.add(member);
    return newTaskCount;
  }

  private computeLoad(): void {
    this.loadValue = this.capacity <= 0 ? -1 : this.taskCount / this.capacity;
  }

  addMember(memberId: string): void {
    this.memberToTaskCounts.set(memberId, 0);
    this.memberOrder.add(memberId, javaStringHashCode(memberId));
    this.capacity++;
    this.computeLoad();
  }

  hasTask(task: TaskId): boolean {
    return this.assignedTasks.has(taskKey(task));
  }
}
