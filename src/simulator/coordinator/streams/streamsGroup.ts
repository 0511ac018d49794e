/**
 * A streams group's state (Kafka 4.4's StreamsGroup): epochs, topology, members, target assignment and who
 * holds each task, changed only by replaying the records of `__consumer_offsets` (records 17 and 19–23), as
 * Kafka's coordinator rebuilds its groups, so the state and the log cannot disagree. What Kafka keeps in
 * memory only (the configured topology, the metadata refresh deadline, task offsets, a shutdown request,
 * the endpoint information epoch) lives beside it.
 */
import type { StreamsGroupRecord } from '../../../timeline/streamsGroupRecords';
import type { ConfiguredTopology } from './topics/configuredTopology';
import { StreamsTopology } from './streamsTopology';
import {
  EMPTY_TASK_OFFSETS, isStreamsMemberReconciledTo, newStreamsGroupMember, withCurrentAssignment, withMemberMetadata,
  type MemberTaskOffsets, type StreamsGroupMember,
} from './streamsGroupMember';
import { EMPTY_TASKS, EMPTY_TASKS_WITH_EPOCHS, taskSetOf, type TasksTuple, type TasksTupleWithEpochs } from './tasksTuple';
import type { TaskOwners } from './currentAssignmentBuilder';

/** StreamsGroup.StreamsGroupState, as describe and ListGroups print it. */
export type StreamsGroupState = 'Empty' | 'NotReady' | 'Assigning' | 'Reconciling' | 'Stable' | 'Dead';

/** Subtopology → partition → holders. */
type Holders<T> = Map<string, Map<number, T>>;

export class StreamsGroup implements TaskOwners {
  state: StreamsGroupState = 'Empty';
  /** A new group starts at epoch 1, its target assignment too (TargetAssignmentMetadata.INITIAL). */
  groupEpoch = 1;
  metadataHash = 0n;
  validatedTopologyEpoch = -1;
  storedDescriptionTopologyEpoch = -1;
  failedDescriptionTopologyEpoch = -1;
  lastAssignmentConfigs: ReadonlyMap<string, string> = new Map();
  assignmentEpoch = 1;
  assignmentTimestamp = 0;
  topology: StreamsTopology | undefined;
  /** In memory only: recomputed when the topology or the topics change. */
  configuredTopology: ConfiguredTopology | undefined;
  /** When the topics' metadata is read again (DeadlineAndEpoch). */
  metadataRefreshDeadline = { deadlineMs: 0, epoch: 0 };
  shutdownRequestMemberId: string | undefined;
  endpointInformationEpoch = 0;
  readonly members = new Map<string, StreamsGroupMember>();
  /** Instance id → member id. */
  readonly staticMembers = new Map<string, string>();
  readonly targetAssignment = new Map<string, TasksTuple>();
  readonly taskOffsets = new Map<string, MemberTaskOffsets>();
  private readonly activeTaskToProcessId: Holders<string> = new Map();
  private readonly standbyTaskToProcessIds: Holders<Set<string>> = new Map();
  private readonly warmupTaskToProcessIds: Holders<Set<string>> = new Map();

  constructor(readonly groupId: string) {}

  /** Kafka's replay of one record (GroupMetadataManager.replay); a tombstone of the epoch makes the group Dead. */
  replay(record: StreamsGroupRecord): void {
    switch (record.type) {
      case 'StreamsGroupMetadata':
        if (record.value === null) {
          this.state = 'Dead';
          return;
        }
        this.groupEpoch = record.value.epoch;
        this.metadataHash = record.value.metadataHash;
        this.validatedTopologyEpoch = record.value.validatedTopologyEpoch ?? -1;
        this.storedDescriptionTopologyEpoch = record.value.storedDescriptionTopologyEpoch ?? -1;
        this.failedDescriptionTopologyEpoch = record.value.failedDescriptionTopologyEpoch ?? -1;
        this.lastAssignmentConfigs = new Map((record.value.lastAssignmentConfigs ?? []).map(({ key, value }) => [key, value]));
        break;
      case 'StreamsGroupTopology':
        this.topology = record.value === null ? undefined : StreamsTopology.fromRecord(record.value);
        break;
      case 'StreamsGroupMemberMetadata':
        if (record.value === null) {
          this.removeMember(record.key.memberId);
        } else {
          this.updateMember(withMemberMetadata(this.members.get(record.key.memberId) ?? newStreamsGroupMember(record.key.memberId), record.value));
        }
        break;
      case 'StreamsGroupTargetAssignmentMetadata':
        this.assignmentEpoch = record.value === null ? -1 : record.value.assignmentEpoch;
        this.assignmentTimestamp = record.value === null ? 0 : Number(record.value.assignmentTimestamp);
        break;
      case 'StreamsGroupTargetAssignmentMember':
        if (record.value === null) {
          this.targetAssignment.delete(record.key.memberId);
        } else {
          const value = record.value;
          this.targetAssignment.set(record.key.memberId, { activeTasks: taskSetOf(value.activeTasks), standbyTasks: taskSetOf(value.standbyTasks), warmupTasks: taskSetOf(value.warmupTasks) });
        }
        break;
      case 'StreamsGroupCurrentMemberAssignment': {
        const member = this.members.get(record.key.memberId);
        if (record.value !== null) {
          this.updateMember(withCurrentAssignment(member ?? newStreamsGroupMember(record.key.memberId), record.value));
        } else if (member !== undefined) {
          this.updateMember({ ...member, memberEpoch: -1, previousMemberEpoch: -1, assignedTasks: EMPTY_TASKS_WITH_EPOCHS, tasksPendingRevocation: EMPTY_TASKS_WITH_EPOCHS });
        }
        break;
      }
    }
    this.maybeUpdateGroupState();
  }

  member(memberId: string): StreamsGroupMember | undefined {
    return this.members.get(memberId);
  }

  staticMember(instanceId: string): StreamsGroupMember | undefined {
    const memberId = this.staticMembers.get(instanceId);
    return memberId === undefined ? undefined : this.members.get(memberId);
  }

  /** targetAssignment(memberId, instanceId): a static member rejoining takes its predecessor's. */
  targetAssignmentOf(memberId: string, instanceId: string | null = null): TasksTuple {
    if (instanceId === null) {
      return this.targetAssignment.get(memberId) ?? EMPTY_TASKS;
    }
    const previous = this.staticMember(instanceId);
    return previous === undefined ? EMPTY_TASKS : this.targetAssignment.get(previous.memberId) ?? EMPTY_TASKS;
  }

  memberTaskOffsets(memberId: string): MemberTaskOffsets {
    return this.taskOffsets.get(memberId) ?? EMPTY_TASK_OFFSETS;
  }

  activeProcessId(subtopologyId: string, partition: number): string | undefined {
    return this.activeTaskToProcessId.get(subtopologyId)?.get(partition);
  }

  standbyProcessIds(subtopologyId: string, partition: number): ReadonlySet<string> {
    return this.standbyTaskToProcessIds.get(subtopologyId)?.get(partition) ?? new Set();
  }

  warmupProcessIds(subtopologyId: string, partition: number): ReadonlySet<string> {
    return this.warmupTaskToProcessIds.get(subtopologyId)?.get(partition) ?? new Set();
  }

  currentTopologyEpoch(): number {
    return this.topology?.topologyEpoch ?? -1;
  }

  /** hasMetadataExpired */
  hasMetadataExpired(now: number): boolean {
    return now >= this.metadataRefreshDeadline.deadlineMs || this.groupEpoch < this.metadataRefreshDeadline.epoch;
  }

  setShutdownRequestMemberId(memberId: string): void {
    this.shutdownRequestMemberId ??= memberId;
  }

  private updateMember(member: StreamsGroupMember): void {
    const old = this.members.get(member.memberId);
    this.members.set(member.memberId, member);
    if (old !== undefined) {
      this.removeTaskProcessIds(old.assignedTasks, old.processId);
      this.removeTaskProcessIds(old.tasksPendingRevocation, old.processId);
      if (old.instanceId !== null) {this.staticMembers.delete(old.instanceId);}
    }
    this.addTaskProcessIds(member.assignedTasks, member.processId);
    this.addTaskProcessIds(member.tasksPendingRevocation, member.processId);
    if (member.instanceId !== null) {this.staticMembers.set(member.instanceId, member.memberId);}
  }

  private removeMember(memberId: string): void {
    const old = this.members.get(memberId);
    if (old === undefined) {
      return;
    }
    this.members.delete(memberId);
    this.removeTaskProcessIds(old.assignedTasks, old.processId);
    this.removeTaskProcessIds(old.tasksPendingRevocation, old.processId);
    if (old.instanceId !== null) {this.staticMembers.delete(old.instanceId);}
    this.taskOffsets.delete(memberId);
  }

  private addTaskProcessIds(tasks: TasksTupleWithEpochs, processId: string): void {
    for (const [s, epochs] of tasks.activeTasksWithEpochs) {
      const byPartition = this.activeTaskToProcessId.get(s) ?? new Map<number, string>();
      epochs.forEach((_epoch, p) => byPartition.set(p, processId));
      this.activeTaskToProcessId.set(s, byPartition);
    }
    for (const [tasksOfRole, holders] of [[tasks.standbyTasks, this.standbyTaskToProcessIds], [tasks.warmupTasks, this.warmupTaskToProcessIds]] as const) {
      for (const [s, partitions] of tasksOfRole) {
        const byPartition = holders.get(s) ?? new Map<number, Set<string>>();
        partitions.forEach((p) => byPartition.set(p, (byPartition.get(p) ?? new Set<string>()).add(processId)));
        holders.set(s, byPartition);
      }
    }
  }

  /** A task moved to another process in the meantime keeps its new holder (Kafka only logs it). */
  private removeTaskProcessIds(tasks: TasksTupleWithEpochs, processId: string): void {
    for (const [s, epochs] of tasks.activeTasksWithEpochs) {
      const byPartition = this.activeTaskToProcessId.get(s);
      if (byPartition === undefined) {continue;}
      epochs.forEach((_epoch, p) => {
        if (byPartition.get(p) === processId) {byPartition.delete(p);}
      });
      if (byPartition.size === 0) {this.activeTaskToProcessId.delete(s);}
    }
    for (const [tasksOfRole, holders] of [[tasks.standbyTasks, this.standbyTaskToProcessIds], [tasks.warmupTasks, this.warmupTaskToProcessIds]] as const) {
      for (const [s, partitions] of tasksOfRole) {
        const byPartition = holders.get(s);
        if (byPartition === undefined) {continue;}
        partitions.forEach((p) => byPartition.get(p)?.delete(processId));
        if (byPartition.size === 0) {holders.delete(s);}
      }
    }
  }

  /** maybeUpdateGroupState */
  private maybeUpdateGroupState(): void {
    if (this.state === 'Dead') {
      return;
    }
    if (this.members.size === 0) {
      this.state = 'Empty';
      this.shutdownRequestMemberId = undefined;
    } else if (this.topology === undefined || this.topology.topologyEpoch !== this.validatedTopologyEpoch) {
      this.state = 'NotReady';
    } else if (this.groupEpoch > this.assignmentEpoch) {
      this.state = 'Assigning';
    } else {
      const reconciled = [...this.members.values()].every((m) => isStreamsMemberReconciledTo(m, this.assignmentEpoch));
      this.state = reconciled ? 'Stable' : 'Reconciling';
    }
  }
}
