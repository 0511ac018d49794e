/**
 * A member of a streams group (Kafka 4.4's StreamsGroupMember record and its Builder): one stream thread of a
 * Kafka Streams client, named by its process id, with its epochs, reconciliation state and tasks.
 */
import type { StreamsGroupCurrentMemberAssignmentValueData } from '../../../protocol/messages/streamsGroupCurrentMemberAssignmentValue';
import type { Member as DescribedMember } from '../../../protocol/messages/streamsGroupDescribeResponse';
import type { StreamsGroupMemberMetadataValueData } from '../../../protocol/messages/streamsGroupMemberMetadataValue';
import {
  activeTaskSet, EMPTY_TASKS_WITH_EPOCHS, sortedTaskIds, taskEpochsOf, taskSetOf, tasksWithEpochsEquals, type TaskSet, type TasksTuple, type TasksTupleWithEpochs,
} from './tasksTuple';

/** Streams' MemberState, with the byte Kafka writes in StreamsGroupCurrentMemberAssignmentValue.state. */
export enum StreamsMemberState {
  STABLE = 1,
  UNREVOKED_TASKS = 2,
  UNRELEASED_TASKS = 3,
  UNKNOWN = 127,
}

export function streamsMemberStateOf(value: number): StreamsMemberState {
  return value === 1 || value === 2 || value === 3 ? value : StreamsMemberState.UNKNOWN;
}

export interface Endpoint {
  host: string;
  port: number;
}

export interface StreamsGroupMember {
  readonly memberId: string;
  readonly memberEpoch: number;
  readonly previousMemberEpoch: number;
  readonly state: StreamsMemberState;
  readonly instanceId: string | null;
  readonly rackId: string | null;
  readonly clientId: string;
  readonly clientHost: string;
  readonly rebalanceTimeoutMs: number;
  readonly topologyEpoch: number;
  readonly processId: string;
  readonly userEndpoint: Endpoint | null;
  readonly clientTags: ReadonlyMap<string, string>;
  readonly assignedTasks: TasksTupleWithEpochs;
  readonly tasksPendingRevocation: TasksTupleWithEpochs;
}

/** StreamsGroupMember.Builder.withDefaults: a member about to join. */
export function newStreamsGroupMember(memberId: string): StreamsGroupMember {
  return {
    memberId, memberEpoch: 0, previousMemberEpoch: 0, state: StreamsMemberState.STABLE, instanceId: null, rackId: null, clientId: '', clientHost: '',
    rebalanceTimeoutMs: -1, topologyEpoch: -1, processId: '', userEndpoint: null, clientTags: new Map(),
    assignedTasks: EMPTY_TASKS_WITH_EPOCHS, tasksPendingRevocation: EMPTY_TASKS_WITH_EPOCHS,
  };
}

/** Builder.updateMemberEpoch: the new epoch, the old one kept as the previous. */
export function withMemberEpoch(member: StreamsGroupMember, memberEpoch: number): Pick<StreamsGroupMember, 'memberEpoch' | 'previousMemberEpoch'> {
  return { memberEpoch, previousMemberEpoch: member.memberEpoch };
}

function mapEquals(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  return a.size === b.size && [...a].every(([key, value]) => b.get(key) === value);
}

function endpointEquals(a: Endpoint | null, b: Endpoint | null): boolean {
  return a === b || (a !== null && b !== null && a.host === b.host && a.port === b.port);
}

/** The metadata StreamsGroupMemberMetadataValue persists. */
function metadataEquals(a: StreamsGroupMember, b: StreamsGroupMember): boolean {
  return a.instanceId === b.instanceId && a.rackId === b.rackId && a.clientId === b.clientId && a.clientHost === b.clientHost
    && a.rebalanceTimeoutMs === b.rebalanceTimeoutMs && a.topologyEpoch === b.topologyEpoch && a.processId === b.processId
    && endpointEquals(a.userEndpoint, b.userEndpoint) && mapEquals(a.clientTags, b.clientTags);
}

/** The record's equals: every field. */
export function streamsMemberEquals(a: StreamsGroupMember, b: StreamsGroupMember): boolean {
  return a.memberId === b.memberId && a.memberEpoch === b.memberEpoch && a.previousMemberEpoch === b.previousMemberEpoch && a.state === b.state
    && metadataEquals(a, b) && tasksWithEpochsEquals(a.assignedTasks, b.assignedTasks) && tasksWithEpochsEquals(a.tasksPendingRevocation, b.tasksPendingRevocation);
}

/** isReconciledTo */
export function isStreamsMemberReconciledTo(member: StreamsGroupMember, targetAssignmentEpoch: number): boolean {
  return member.state === StreamsMemberState.STABLE && member.memberEpoch === targetAssignmentEpoch;
}

/** hasAssignedTasksChanged */
export function hasAssignedTasksChanged(before: StreamsGroupMember, after: StreamsGroupMember): boolean {
  return !tasksWithEpochsEquals(before.assignedTasks, after.assignedTasks);
}

/** hasEpochRelevantMemberConfigChanged: what makes a static member's rejoin bump the group epoch. */
export function hasEpochRelevantMemberConfigChanged(before: StreamsGroupMember, after: StreamsGroupMember): boolean {
  return before.topologyEpoch !== after.topologyEpoch || before.rackId !== after.rackId || !mapEquals(before.clientTags, after.clientTags) || before.processId !== after.processId;
}

/** hasUserEndpointChanged */
export function hasUserEndpointChanged(before: StreamsGroupMember | undefined, after: StreamsGroupMember): boolean {
  return !endpointEquals(before?.userEndpoint ?? null, after.userEndpoint);
}

/** Builder.resetAssignedTasksEpochsToZero: a static member leaving for a while keeps its tasks at epoch 0. */
export function resetAssignedTasksEpochsToZero(tasks: TasksTupleWithEpochs): TasksTupleWithEpochs {
  if (tasks.activeTasksWithEpochs.size === 0) {
    return tasks;
  }
  const active = new Map([...tasks.activeTasksWithEpochs].map(([subtopologyId, epochs]) => [subtopologyId, new Map([...epochs.keys()].map((p) => [p, 0]))]));
  return { ...tasks, activeTasksWithEpochs: active };
}

/** Builder.updateWith(StreamsGroupMemberMetadataValue) */
export function withMemberMetadata(member: StreamsGroupMember, value: StreamsGroupMemberMetadataValueData): StreamsGroupMember {
  return {
    ...member,
    instanceId: value.instanceId, rackId: value.rackId, clientId: value.clientId, clientHost: value.clientHost,
    rebalanceTimeoutMs: value.rebalanceTimeoutMs, topologyEpoch: value.topologyEpoch, processId: value.processId,
    userEndpoint: value.userEndpoint === null ? null : { host: value.userEndpoint.host, port: value.userEndpoint.port },
    clientTags: new Map(value.clientTags.map(({ key, value: v }) => [key, v])),
  };
}

/** Builder.updateWith(StreamsGroupCurrentMemberAssignmentValue) */
export function withCurrentAssignment(member: StreamsGroupMember, value: StreamsGroupCurrentMemberAssignmentValueData): StreamsGroupMember {
  return {
    ...member,
    memberEpoch: value.memberEpoch,
    previousMemberEpoch: value.previousMemberEpoch,
    state: streamsMemberStateOf(value.state),
    assignedTasks: { activeTasksWithEpochs: taskEpochsOf(value.activeTasks, value.memberEpoch), standbyTasks: taskSetOf(value.standbyTasks), warmupTasks: taskSetOf(value.warmupTasks) },
    tasksPendingRevocation: {
      activeTasksWithEpochs: taskEpochsOf(value.activeTasksPendingRevocation, value.memberEpoch),
      standbyTasks: taskSetOf(value.standbyTasksPendingRevocation),
      warmupTasks: taskSetOf(value.warmupTasksPendingRevocation),
    },
  };
}

function describedTasks(active: TaskSet, standby: TaskSet, warmup: TaskSet): DescribedMember['assignment'] {
  return { activeTasks: sortedTaskIds(active), standbyTasks: sortedTaskIds(standby), warmupTasks: sortedTaskIds(warmup) };
}

/** Task offsets a member reported (MemberTaskOffsets), by subtopology and partition. */
export interface MemberTaskOffsets {
  readonly taskOffsets: ReadonlyMap<string, ReadonlyMap<number, bigint>>;
  readonly taskEndOffsets: ReadonlyMap<string, ReadonlyMap<number, bigint>>;
}

export const EMPTY_TASK_OFFSETS: MemberTaskOffsets = Object.freeze({ taskOffsets: new Map(), taskEndOffsets: new Map() });

function describedOffsets(offsets: ReadonlyMap<string, ReadonlyMap<number, bigint>>): DescribedMember['taskOffsets'] {
  return [...offsets].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .flatMap(([subtopologyId, byPartition]) => [...byPartition].sort(([a], [b]) => a - b).map(([partition, offset]) => ({ subtopologyId, partition, offset })));
}

/** asStreamsGroupDescribeMember */
export function describeStreamsMember(member: StreamsGroupMember, target: TasksTuple | undefined, offsets: MemberTaskOffsets): DescribedMember {
  const assigned = member.assignedTasks;
  return {
    memberId: member.memberId,
    memberEpoch: member.memberEpoch,
    instanceId: member.instanceId,
    rackId: member.rackId,
    clientId: member.clientId,
    clientHost: member.clientHost,
    topologyEpoch: member.topologyEpoch,
    processId: member.processId,
    userEndpoint: member.userEndpoint === null ? null : { ...member.userEndpoint },
    clientTags: [...member.clientTags].map(([key, value]) => ({ key, value })),
    taskOffsets: describedOffsets(offsets.taskOffsets),
    taskEndOffsets: describedOffsets(offsets.taskEndOffsets),
    assignment: describedTasks(activeTaskSet(assigned), assigned.standbyTasks, assigned.warmupTasks),
    targetAssignment: target === undefined ? { activeTasks: [], standbyTasks: [], warmupTasks: [] } : describedTasks(target.activeTasks, target.standbyTasks, target.warmupTasks),
    isClassic: false,
  };
}
