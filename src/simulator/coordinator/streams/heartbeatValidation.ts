/**
 * The checks a StreamsGroupHeartbeat passes before it changes anything, with Kafka 4.4's errors and messages
 * (GroupCoordinatorService.throwIfStreamsGroupHeartbeatRequestIsInvalid and the streams checks of
 * GroupMetadataManager).
 */
import type { StreamsGroupHeartbeatRequestData, TaskIds } from '../../../protocol/messages/streamsGroupHeartbeatRequest';
import { KafkaApiError } from '../../common/errors';
import type { StreamsGroupMember } from './streamsGroupMember';
import type { TaskSet } from './tasksTuple';
import type { ConfiguredSubtopology } from './topics/configuredTopology';

function invalid(message: string): KafkaApiError {
  return new KafkaApiError('INVALID_REQUEST', message);
}

function throwIfEmptyString(value: string | null, message: string): void {
  if (value !== null && value.trim() === '') {throw invalid(message);}
}

function throwIfNotEmptyCollection(value: readonly unknown[] | null, message: string): void {
  if (value === null || value.length > 0) {throw invalid(message);}
}

/** throwIfStreamsGroupHeartbeatRequestIsUsingUnsupportedFeatures and throwIfStreamsGroupHeartbeatRequestIsInvalid */
export function throwIfStreamsGroupHeartbeatRequestIsInvalid(request: StreamsGroupHeartbeatRequestData): void {
  for (const subtopology of request.topology?.subtopologies ?? []) {
    if (subtopology.sourceTopicRegex.length > 0) {throw invalid('Regular expressions for source topics are not supported yet.');}
  }
  throwIfEmptyString(request.memberId, "MemberId can't be empty.");
  throwIfEmptyString(request.groupId, "GroupId can't be empty.");
  throwIfEmptyString(request.instanceId, "InstanceId can't be empty.");
  throwIfEmptyString(request.rackId, "RackId can't be empty.");
  if (request.memberEpoch === 0) {
    if (request.rebalanceTimeoutMs === -1) {throw invalid('RebalanceTimeoutMs must be provided in first request.');}
    throwIfNotEmptyCollection(request.activeTasks, 'ActiveTasks must be empty when (re-)joining.');
    throwIfNotEmptyCollection(request.standbyTasks, 'StandbyTasks must be empty when (re-)joining.');
    throwIfNotEmptyCollection(request.warmupTasks, 'WarmupTasks must be empty when (re-)joining.');
    if (request.topology === null) {throw invalid('Topology must be non-null when (re-)joining.');}
    for (const subtopology of request.topology.subtopologies) {
      const sized = subtopology.stateChangelogTopics.find((topic) => topic.partitions !== 0);
      if (sized !== undefined) {
        throw new KafkaApiError('STREAMS_INVALID_TOPOLOGY', `Changelog topic ${sized.name} must have an undefined partition count, but it is set to ${sized.partitions}.`);
      }
    }
  } else if (request.memberEpoch === -2) {
    if (request.instanceId === null) {throw invalid("InstanceId can't be null.");}
  } else if (request.memberEpoch < -2) {
    throw invalid(`MemberEpoch is ${request.memberEpoch}, but must be greater than or equal to -2.`);
  }
  if (request.activeTasks !== null || request.standbyTasks !== null || request.warmupTasks !== null) {
    if (request.activeTasks === null || request.standbyTasks === null || request.warmupTasks === null) {
      throw invalid('If one task-type is non-null, all must be non-null.');
    }
  }
  if (request.memberEpoch !== 0 && request.topology !== null) {throw invalid('Topology can only be provided when (re-)joining.');}
}

function ownedWithin(owned: readonly TaskIds[] | null, has: (subtopologyId: string, partition: number) => boolean): boolean {
  return owned !== null && owned.every((tasks) => tasks.partitions.every((p) => has(tasks.subtopologyId, p)));
}

function fenced(message: string): KafkaApiError {
  return new KafkaApiError('FENCED_MEMBER_EPOCH', message);
}

/** throwIfStreamsGroupMemberEpochIsInvalid: a member one epoch behind may catch up if it owns no more than it had. */
export function throwIfStreamsGroupMemberEpochIsInvalid(member: StreamsGroupMember, receivedEpoch: number, request: StreamsGroupHeartbeatRequestData): void {
  if (receivedEpoch === 0) {
    return;
  }
  if (receivedEpoch > member.memberEpoch) {
    throw fenced(`The streams group member has a greater member epoch (${receivedEpoch}) than the one known by the group coordinator (${member.memberEpoch}). The member must abandon all its partitions and rejoin.`);
  }
  const assigned = member.assignedTasks;
  const inActive = (s: string, p: number) => (assigned.activeTasksWithEpochs).get(s)?.has(p) ?? false;
  const inSet = (tasks: TaskSet) => (s: string, p: number) => tasks.get(s)?.has(p) ?? false;
  const mayCatchUp = receivedEpoch === member.previousMemberEpoch
    && ownedWithin(request.activeTasks, inActive) && ownedWithin(request.standbyTasks, inSet(assigned.standbyTasks)) && ownedWithin(request.warmupTasks, inSet(assigned.warmupTasks));
  if (receivedEpoch < member.memberEpoch && !mayCatchUp) {
    throw fenced(`The streams group member has a smaller member epoch (${receivedEpoch}) than the one known by the group coordinator (${member.memberEpoch}). The member must abandon all its partitions and rejoin.`);
  }
}

/** throwIfRequestContainsInvalidTasks */
export function throwIfRequestContainsInvalidTasks(subtopologies: ReadonlyMap<string, ConfiguredSubtopology>, tasks: readonly TaskIds[] | null): void {
  for (const task of tasks ?? []) {
    const subtopology = subtopologies.get(task.subtopologyId);
    if (subtopology === undefined) {throw invalid(`Subtopology ${task.subtopologyId} does not exist in the topology.`);}
    const invalidTask = task.partitions.find((p) => p < 0 || p >= subtopology.numberOfTasks);
    if (invalidTask !== undefined) {
      throw invalid(`Task ${invalidTask} for subtopology ${task.subtopologyId} is invalid. Number of tasks for this subtopology: ${subtopology.numberOfTasks}`);
    }
  }
}

/** throwIfInstanceIdIsUnreleased: the instance id is still held by a member that did not leave with epoch -2. */
export function throwIfInstanceIdIsUnreleased(member: StreamsGroupMember, receivedMemberId: string, instanceId: string): void {
  if (member.memberEpoch !== -2) {
    throw new KafkaApiError('UNRELEASED_INSTANCE_ID', `Static member ${receivedMemberId} with instance id ${instanceId} cannot join the group because the instance id is owned by ${member.memberId} member.`);
  }
}

/** throwIfInstanceIdIsFenced */
export function throwIfInstanceIdIsFenced(member: StreamsGroupMember, receivedMemberId: string, instanceId: string): void {
  if (member.memberId !== receivedMemberId) {
    throw new KafkaApiError('FENCED_INSTANCE_ID', `Static member ${receivedMemberId} with instance id ${instanceId} was fenced by member ${member.memberId}.`);
  }
}

/** throwIfStaticMemberIsUnknown */
export function throwIfStaticMemberIsUnknown(member: StreamsGroupMember | undefined, instanceId: string): StreamsGroupMember {
  if (member === undefined) {throw new KafkaApiError('UNKNOWN_MEMBER_ID', `Instance id ${instanceId} is unknown.`);}
  return member;
}
