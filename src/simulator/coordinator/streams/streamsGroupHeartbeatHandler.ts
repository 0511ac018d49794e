/**
 * The streams-group half of Kafka 4.4's GroupMetadataManager (KIP-1071): StreamsGroupHeartbeat (join with
 * epoch 0 and the topology, heartbeats, leave with -1, a static member's temporary leave with -2), the topology
 * configured against the topics, the group epoch, the target assignment (after the initial rebalance delay,
 * at most once per assignment interval) and each member's reconciliation, the session and rebalance timeouts.
 * Every change is a list of records, written and then replayed into the group, as Kafka's coordinator does;
 * a refused request throws a KafkaApiError before writing anything.
 */
import { errorMessage } from '../../../protocol/errors';
import type { StreamsGroupHeartbeatRequestData } from '../../../protocol/messages/streamsGroupHeartbeatRequest';
import type { StreamsGroupHeartbeatResponseData, Status } from '../../../protocol/messages/streamsGroupHeartbeatResponse';
import type { OperationCause } from '../../../timeline/consumerGroupEvents';
import { KafkaApiError } from '../../common/errors';
import { computeMetadataHash } from '../group/modern/targetAssignmentBuilder';
import { StreamsCurrentAssignmentBuilder } from './currentAssignmentBuilder';
import { endpointToPartitions } from './endpointToPartitions';
import {
  throwIfInstanceIdIsFenced, throwIfRequestContainsInvalidTasks, throwIfStaticMemberIsUnknown, throwIfStreamsGroupHeartbeatRequestIsInvalid,
} from './heartbeatValidation';
import * as recordsOf from './records';
import * as causes from './streamsOperationCauses';
import { StreamsGroup } from './streamsGroup';
import {
  DEFAULT_STREAMS_GROUP_CONFIG, streamsAssignmentConfigs, streamsInitialRebalanceKey, streamsRebalanceTimeoutKey, streamsSessionTimeoutKey,
  type StreamsGroupConfig, type StreamsGroupHeartbeatHandlerOptions, type StreamsHeartbeatResult,
} from './streamsGroupConfig';
import {
  hasAssignedTasksChanged, hasUserEndpointChanged, isStreamsMemberReconciledTo,
  resetAssignedTasksEpochsToZero, streamsMemberEquals, StreamsMemberState, type StreamsGroupMember,
} from './streamsGroupMember';
import { dynamicStreamsMember, hasStreamsMemberMetadataChanged, staticStreamsMember, throwIfStreamsGroupIsFull, updatedTaskOffsets } from './streamsGroupMembership';
import { StreamsTopology, topologyRecordOf } from './streamsTopology';
import { buildStreamsTargetAssignment } from './targetAssignmentBuilder';
import { EMPTY_TASKS, EMPTY_TASKS_WITH_EPOCHS, sameTasks, sortedTaskIds, activeTaskSet, tasksFromHeartbeat, type TasksTuple } from './tasksTuple';
import { configureTopics } from './topics/internalTopicManager';
import { isTopologyReady, StreamsHeartbeatStatus, type ConfiguredTopology } from './topics/configuredTopology';

type Response = StreamsGroupHeartbeatResponseData;
type Result = StreamsHeartbeatResult<Response>;

const LEAVE_GROUP_MEMBER_EPOCH = -1;
const LEAVE_GROUP_STATIC_MEMBER_EPOCH = -2;

/** What a heartbeat's client context gives (RequestContext). */
export interface StreamsHeartbeatContext {
  apiVersion: number;
  clientId: string;
  /** As Kafka prints the client's InetAddress, e.g. "/127.0.0.1". */
  clientHost: string;
}

function emptyResponse(memberId: string, memberEpoch: number): Response {
  return {
    throttleTimeMs: 0, errorCode: 0, errorMessage: null, memberId, memberEpoch, heartbeatIntervalMs: 0, taskOffsetIntervalMs: 0, status: [],
    activeTasks: null, standbyTasks: null, warmupTasks: null, endpointInformationEpoch: 0, partitionsByUserEndpoint: null,
  };
}

/** StreamsGroupHeartbeatResult.forError */
export function streamsHeartbeatError(error: KafkaApiError): Result {
  return { response: { ...emptyResponse('', 0), memberId: '', errorCode: error.errorCode, errorMessage: error.message }, internalTopicsToBeCreated: new Map() };
}

function status(code: StreamsHeartbeatStatus, detail: string): Status {
  return { statusCode: code, statusDetail: detail };
}

function sameConfigs(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  return a.size === b.size && [...a].every(([key, value]) => b.get(key) === value);
}

export class StreamsGroupHeartbeatHandler {
  private readonly groups = new Map<string, StreamsGroup>();
  readonly config: StreamsGroupConfig;

  constructor(private readonly options: StreamsGroupHeartbeatHandlerOptions) {
    this.config = { ...DEFAULT_STREAMS_GROUP_CONFIG, ...options.config };
  }

  group(groupId: string): StreamsGroup | undefined {
    return this.groups.get(groupId);
  }

  groupIds(): string[] {
    return [...this.groups.keys()];
  }

  /** StreamsGroupHeartbeat: the response (an error response when refused, nothing changed). Never throws. */
  heartbeat(context: StreamsHeartbeatContext, request: StreamsGroupHeartbeatRequestData): Result {
    try {
      throwIfStreamsGroupHeartbeatRequestIsInvalid(request);
      if (request.memberEpoch === LEAVE_GROUP_MEMBER_EPOCH || request.memberEpoch === LEAVE_GROUP_STATIC_MEMBER_EPOCH) {
        return this.streamsGroupLeave(request);
      }
      return this.streamsGroupHeartbeat(context, request);
    } catch (error) {
      // Anything but a KafkaApiError is a bug of the engine; the client gets UNKNOWN_SERVER_ERROR, as from Kafka.
      return streamsHeartbeatError(error instanceof KafkaApiError ? error : new KafkaApiError('UNKNOWN_SERVER_ERROR', errorMessage(error)));
    }
  }

  /**
   * Kafka's onNewMetadataImage: groups whose topology names a changed topic read the topics again on their
   * next heartbeat (requestMetadataRefresh), which configures the topology anew and may bump the epoch.
   */
  onTopicsChanged(changedTopicNames?: Iterable<string>): void {
    const changed = changedTopicNames === undefined ? undefined : new Set(changedTopicNames);
    for (const group of this.groups.values()) {
      const required = group.topology?.requiredTopics() ?? new Set<string>();
      if (changed === undefined || [...changed].some((name) => required.has(name))) {
        group.metadataRefreshDeadline = { deadlineMs: 0, epoch: 0 };
      }
    }
  }

  /** Deletes an empty group the caller validated (DeleteGroups, or the cleanup of a group without offsets). */
  deleteGroup(groupId: string): void {
    const group = this.groups.get(groupId);
    if (group !== undefined) {
      this.options.timer.cancel(streamsInitialRebalanceKey(groupId));
      this.commit(group, recordsOf.streamsGroupTombstoneRecords(group), causes.GROUP_DELETED_CAUSE);
    }
  }

  private streamsGroupOrThrow(groupId: string): StreamsGroup {
    const group = this.groups.get(groupId);
    if (group === undefined) {
      throw new KafkaApiError('GROUP_ID_NOT_FOUND', `Streams group ${groupId} not found.`);
    }
    return group;
  }

  private streamsGroupHeartbeat(context: StreamsHeartbeatContext, request: StreamsGroupHeartbeatRequestData): Result {
    const now = this.options.now();
    const { groupId, memberId, memberEpoch, instanceId } = request;
    const records: recordsOf.StreamsGroupRecord[] = [];
    const returnedStatus: Status[] = [];
    const isJoining = memberEpoch === 0;
    const group = isJoining ? this.groups.get(groupId) ?? new StreamsGroup(groupId) : this.streamsGroupOrThrow(groupId);
    const wasPersisted = this.groups.has(groupId);
    if (isJoining) {
      throwIfStreamsGroupIsFull(group, instanceId, memberId, this.config.maxSize);
    }
    const cause = causes.heartbeatCause(group, request);
    const member = instanceId === null
      ? dynamicStreamsMember(group, request, isJoining)
      : staticStreamsMember(group, request, instanceId, isJoining, records);

    // 1. The member, updated with what the request sets.
    let updatedMember: StreamsGroupMember = {
      ...member,
      instanceId: instanceId ?? member.instanceId,
      rackId: request.rackId ?? member.rackId,
      rebalanceTimeoutMs: request.rebalanceTimeoutMs === -1 ? member.rebalanceTimeoutMs : request.rebalanceTimeoutMs,
      topologyEpoch: request.topology?.epoch ?? member.topologyEpoch,
      clientId: context.clientId,
      clientHost: context.clientHost,
      processId: request.processId ?? member.processId,
      clientTags: request.clientTags === null ? member.clientTags : new Map(request.clientTags.map(({ key, value }) => [key, value])),
      userEndpoint: isJoining || request.userEndpoint !== null ? (request.userEndpoint === null ? null : { host: request.userEndpoint.host, port: request.userEndpoint.port }) : member.userEndpoint,
    };
    let recompute = hasStreamsMemberMetadataChanged(group, instanceId, member, updatedMember, records);

    // 2. The topology: set by the first member, the same for every later one.
    const topology = this.maybeUpdateTopology(group, request, records);
    if (group.topology !== undefined && updatedMember.topologyEpoch < group.topology.topologyEpoch) {
      returnedStatus.push(status(StreamsHeartbeatStatus.STALE_TOPOLOGY, `The member's topology epoch ${updatedMember.topologyEpoch} is behind the group's topology epoch ${group.topology.topologyEpoch}.`));
    }

    // 3. The topology configured against the topics, again when they may have changed.
    let metadataHash = group.metadataHash;
    let configured = group.configuredTopology;
    let reconfigure = group.topology === undefined;
    if (reconfigure || configured === undefined || group.hasMetadataExpired(now)) {
      metadataHash = computeMetadataHash(topology.requiredTopics(), this.options.metadataImage);
      if (metadataHash !== group.metadataHash) {
        recompute = true;
        reconfigure = true;
      }
      if (reconfigure || configured === undefined) {
        configured = configureTopics(metadataHash, topology, this.options.metadataImage);
        group.configuredTopology = configured;
      }
    }
    const configuredTopology = configured;
    let validatedTopologyEpoch = -1;
    if (isTopologyReady(configuredTopology) && configuredTopology.subtopologies !== undefined) {
      validatedTopologyEpoch = topology.topologyEpoch;
      throwIfRequestContainsInvalidTasks(configuredTopology.subtopologies, request.activeTasks);
      throwIfRequestContainsInvalidTasks(configuredTopology.subtopologies, request.standbyTasks);
      throwIfRequestContainsInvalidTasks(configuredTopology.subtopologies, request.warmupTasks);
    }
    if (request.taskOffsets !== null || request.taskEndOffsets !== null) {
      group.taskOffsets.set(memberId, updatedTaskOffsets(group.memberTaskOffsets(memberId), request));
    }
    if (validatedTopologyEpoch !== group.validatedTopologyEpoch) {
      recompute = true;
    }
    const configs = streamsAssignmentConfigs(this.config);
    if (!recompute && !sameConfigs(configs, group.lastAssignmentConfigs)) {
      recompute = true;
    }
    // Kafka 4.4's AssignmentRefiner hands the target assignment back unchanged: a stable member off its target is refined.
    const refine = !recompute && group.state === 'Stable' && !sameTasks(group.targetAssignmentOf(memberId), updatedMember.assignedTasks);
    let groupEpoch = group.groupEpoch;
    if (recompute || refine) {
      groupEpoch += 1;
      records.push(recordsOf.newStreamsGroupMetadataRecord(group, groupEpoch, metadataHash, validatedTopologyEpoch, configs));
      group.metadataRefreshDeadline = { deadlineMs: now + 2_147_483_647, epoch: groupEpoch };
    }
    if (group.state === 'Empty' && this.config.initialRebalanceDelayMs > 0 && !this.options.timer.isScheduled(streamsInitialRebalanceKey(groupId))) {
      this.options.timer.schedule(streamsInitialRebalanceKey(groupId), this.config.initialRebalanceDelayMs, () => this.computeDelayedTargetAssignment(groupId));
    }

    // 4. The target assignment, when the group epoch moved past it.
    const target = this.maybeUpdateTargetAssignment(group, groupEpoch, updatedMember, configuredTopology, records, returnedStatus, configs, refine);
    const memberTarget = target.assignment.get(memberId) ?? EMPTY_TASKS;

    // 5. The member's next reconciliation step.
    updatedMember = this.maybeReconcile(group, updatedMember, target.epoch, memberTarget, request, records);
    this.options.timer.schedule(streamsSessionTimeoutKey(groupId, memberId), this.config.sessionTimeoutMs, () => this.fenceMemberOperation(groupId, memberId, causes.sessionExpiredCause(memberId)));
    if (request.shutdownApplication) {
      group.setShutdownRequestMemberId(memberId);
    }

    const response: Response = {
      ...emptyResponse(updatedMember.memberId, updatedMember.memberEpoch),
      heartbeatIntervalMs: this.config.heartbeatIntervalMs,
      taskOffsetIntervalMs: this.config.taskOffsetIntervalMs,
      acceptableRecoveryLag: BigInt(this.config.acceptableRecoveryLag),
    };
    const tasksChanged = hasAssignedTasksChanged(member, updatedMember);
    if (isJoining || tasksChanged) {
      response.activeTasks = sortedTaskIds(activeTaskSet(updatedMember.assignedTasks));
      response.standbyTasks = sortedTaskIds(updatedMember.assignedTasks.standbyTasks);
      response.warmupTasks = sortedTaskIds(updatedMember.assignedTasks.warmupTasks);
    }
    if (hasUserEndpointChanged(member, updatedMember) || (tasksChanged && updatedMember.userEndpoint !== null)) {
      group.endpointInformationEpoch += 1;
    }
    if (group.endpointInformationEpoch !== request.endpointInformationEpoch) {
      response.partitionsByUserEndpoint = endpointToPartitions(group, updatedMember, configuredTopology, this.options.metadataImage);
    }
    if (wasPersisted) {
      response.endpointInformationEpoch = group.endpointInformationEpoch;
    }
    let internalTopicsToBeCreated: Result['internalTopicsToBeCreated'] = new Map();
    if (configuredTopology.topicConfigurationError !== undefined) {
      internalTopicsToBeCreated = configuredTopology.internalTopicsToBeCreated;
      returnedStatus.push(status(configuredTopology.topicConfigurationError.status, configuredTopology.topicConfigurationError.message));
    }
    if (group.shutdownRequestMemberId !== undefined) {
      returnedStatus.push(status(StreamsHeartbeatStatus.SHUTDOWN_APPLICATION, `Streams group member ${group.shutdownRequestMemberId} encountered a fatal error and requested a shutdown for the entire application.`));
    }
    const requiredTags = configs.get('rack.aware.assignment.tags')?.trim() ?? '';
    if (context.apiVersion >= 1 && requiredTags !== '') {
      const missing = requiredTags.split(/\s*,\s*/).filter((tag) => !updatedMember.clientTags.has(tag));
      if (missing.length > 0) {
        returnedStatus.push(status(StreamsHeartbeatStatus.MISSING_CLIENT_TAGS, `Missing required client tags for rack-aware standby assignment: [${missing.join(', ')}]. Configure them via 'client.tag.<tagKey>' in your Streams config.`));
      }
    }
    response.status = returnedStatus;
    this.commit(group, records, cause);
    return { response, internalTopicsToBeCreated };
  }

  /** maybeUpdateTopology: 4.4 accepts the group's topology again, or an older epoch, but no change to it. */
  private maybeUpdateTopology(group: StreamsGroup, request: StreamsGroupHeartbeatRequestData, records: recordsOf.StreamsGroupRecord[]): StreamsTopology {
    if (request.topology !== null) {
      const fromRequest = StreamsTopology.fromHeartbeatRequest(request.topology);
      if (group.topology === undefined) {
        records.push(recordsOf.newStreamsGroupTopologyRecord(group.groupId, topologyRecordOf(request.topology)));
        return fromRequest;
      }
      if (group.topology.topologyEpoch > request.topology.epoch) {
        return group.topology;
      }
      if (!group.topology.equals(fromRequest)) {
        throw new KafkaApiError('INVALID_REQUEST', 'Topology updates are not supported yet.');
      }
      return group.topology;
    }
    if (group.topology === undefined) {
      throw new KafkaApiError('UNKNOWN_SERVER_ERROR', 'The topology is null and the group topology is also null.');
    }
    return group.topology;
  }

  /** maybeUpdateStreamsTargetAssignment: the epoch and assignment the members reconcile towards. */
  private maybeUpdateTargetAssignment(
    group: StreamsGroup,
    groupEpoch: number,
    updatedMember: StreamsGroupMember | undefined,
    topology: ConfiguredTopology,
    records: recordsOf.StreamsGroupRecord[],
    returnedStatus: Status[] | undefined,
    configs: ReadonlyMap<string, string>,
    refineOnly: boolean,
  ): { epoch: number; assignment: ReadonlyMap<string, TasksTuple> } {
    if (this.options.timer.isScheduled(streamsInitialRebalanceKey(group.groupId))) {
      returnedStatus?.push(status(StreamsHeartbeatStatus.ASSIGNMENT_DELAYED, 'Assignment delayed due to the configured initial rebalance delay.'));
      return { epoch: group.assignmentEpoch, assignment: new Map() };
    }
    const members = new Map(group.members);
    const targets = new Map(group.targetAssignment);
    if (updatedMember !== undefined) {
      this.overlayMember(group, members, targets, updatedMember);
    }
    if (group.assignmentEpoch >= groupEpoch) {
      return { epoch: group.assignmentEpoch, assignment: targets };
    }
    if (refineOnly && group.assignmentEpoch >= group.groupEpoch) {
      records.push(recordsOf.newStreamsGroupTargetAssignmentMetadataRecord(group.groupId, groupEpoch, group.assignmentTimestamp));
      return { epoch: groupEpoch, assignment: targets };
    }
    const now = this.options.now();
    const interval = this.config.assignmentIntervalMs;
    if (!(group.assignmentTimestamp === 0 || interval === 0 || now >= group.assignmentTimestamp + interval)) {
      returnedStatus?.push(status(StreamsHeartbeatStatus.ASSIGNMENT_DELAYED, 'Assignment delayed due to the configured assignment interval.'));
      return { epoch: group.assignmentEpoch, assignment: targets };
    }
    const result = buildStreamsTargetAssignment({ groupId: group.groupId, groupEpoch, members, targetAssignment: targets, taskOffsets: group.taskOffsets, topology, configs, now });
    records.push(...result.records);
    return { epoch: groupEpoch, assignment: result.targetAssignment };
  }

  /** UpdatedMembersAndTargetAssignmentView.addOrUpdateMember: a static member replacing another takes its place and target. */
  private overlayMember(group: StreamsGroup, members: Map<string, StreamsGroupMember>, targets: Map<string, TasksTuple>, member: StreamsGroupMember): void {
    members.set(member.memberId, member);
    const previousId = member.instanceId === null ? undefined : group.staticMembers.get(member.instanceId);
    if (previousId !== undefined && previousId !== member.memberId) {
      const previousTarget = targets.get(previousId);
      if (previousTarget !== undefined) {targets.set(member.memberId, previousTarget);}
      members.delete(previousId);
      targets.delete(previousId);
    }
  }

  /** computeDelayedTargetAssignment: the initial rebalance delay is over. */
  private computeDelayedTargetAssignment(groupId: string): void {
    const group = this.groups.get(groupId);
    if (group === undefined || group.state === 'Empty' || group.configuredTopology === undefined || group.groupEpoch <= group.assignmentEpoch) {
      return;
    }
    const records: recordsOf.StreamsGroupRecord[] = [];
    this.maybeUpdateTargetAssignment(group, group.groupEpoch, undefined, group.configuredTopology, records, undefined, group.lastAssignmentConfigs, false);
    this.commit(group, records, causes.DELAYED_ASSIGNMENT_CAUSE);
  }

  /** maybeReconcile, with the rebalance timeout while the member must revoke tasks. */
  private maybeReconcile(group: StreamsGroup, member: StreamsGroupMember, targetEpoch: number, target: TasksTuple, request: StreamsGroupHeartbeatRequestData, records: recordsOf.StreamsGroupRecord[]): StreamsGroupMember {
    if (isStreamsMemberReconciledTo(member, targetEpoch)) {
      return member;
    }
    const owned = request.activeTasks !== null && request.standbyTasks !== null && request.warmupTasks !== null
      ? tasksFromHeartbeat(request.activeTasks, request.standbyTasks, request.warmupTasks)
      : undefined;
    const updated = new StreamsCurrentAssignmentBuilder(member).withTargetAssignment(targetEpoch, target).withCurrentTaskOwners(group).withOwnedAssignment(owned).build();
    if (!streamsMemberEquals(updated, member)) {
      records.push(recordsOf.newStreamsGroupCurrentAssignmentRecord(group.groupId, updated));
      const key = streamsRebalanceTimeoutKey(group.groupId, updated.memberId);
      if (updated.state === StreamsMemberState.UNREVOKED_TASKS) {
        const epoch = updated.memberEpoch;
        this.options.timer.schedule(key, updated.rebalanceTimeoutMs, () => this.rebalanceTimeout(group.groupId, updated.memberId, epoch, updated.rebalanceTimeoutMs));
      } else {
        this.options.timer.cancel(key);
      }
    }
    return updated;
  }

  private rebalanceTimeout(groupId: string, memberId: string, memberEpoch: number, rebalanceTimeoutMs: number): void {
    const group = this.groups.get(groupId);
    const member = group?.member(memberId);
    if (group !== undefined && member !== undefined && member.memberEpoch === memberEpoch) {
      this.fenceMember(group, member, causes.rebalanceTimeoutCause(memberId, memberEpoch, rebalanceTimeoutMs));
    }
  }

  /** streamsGroupLeave */
  private streamsGroupLeave(request: StreamsGroupHeartbeatRequestData): Result {
    const group = this.streamsGroupOrThrow(request.groupId);
    if (request.shutdownApplication) {
      group.setShutdownRequestMemberId(request.memberId);
    }
    const response = { ...emptyResponse(request.memberId, request.memberEpoch) };
    const result = { response, internalTopicsToBeCreated: new Map() };
    if (request.instanceId === null) {
      const member = group.member(request.memberId);
      if (member === undefined) {
        throw new KafkaApiError('UNKNOWN_MEMBER_ID', `Member ${request.memberId} is not a member of group ${group.groupId}.`);
      }
      this.fenceMember(group, member, causes.leaveCause(member.memberId, null, false));
      return result;
    }
    const member = throwIfStaticMemberIsUnknown(group.staticMember(request.instanceId), request.instanceId);
    throwIfInstanceIdIsFenced(member, request.memberId, request.instanceId);
    if (request.memberEpoch === LEAVE_GROUP_STATIC_MEMBER_EPOCH) {
      // A static member leaving for a while keeps its tasks (at epoch 0) for its successor.
      const leaving: StreamsGroupMember = { ...member, memberEpoch: LEAVE_GROUP_STATIC_MEMBER_EPOCH, tasksPendingRevocation: EMPTY_TASKS_WITH_EPOCHS, assignedTasks: resetAssignedTasksEpochsToZero(member.assignedTasks) };
      this.commit(group, [recordsOf.newStreamsGroupCurrentAssignmentRecord(group.groupId, leaving)], causes.leaveCause(member.memberId, request.instanceId, true));
      return { response: { ...response, memberId: member.memberId, memberEpoch: LEAVE_GROUP_STATIC_MEMBER_EPOCH }, internalTopicsToBeCreated: new Map() };
    }
    this.fenceMember(group, member, causes.leaveCause(member.memberId, request.instanceId, false));
    return result;
  }

  /** streamsGroupFenceMemberOperation: a timer's fence, which finds nothing when the member is gone. */
  private fenceMemberOperation(groupId: string, memberId: string, cause: OperationCause): void {
    const group = this.groups.get(groupId);
    const member = group?.member(memberId);
    if (group !== undefined && member !== undefined) {
      this.fenceMember(group, member, cause);
    }
  }

  /** streamsGroupFenceMember: the member's records go, the group epoch moves on (and the assignment epoch with the last member). */
  private fenceMember(group: StreamsGroup, member: StreamsGroupMember, cause: OperationCause): void {
    const records = recordsOf.removeStreamsMemberRecords(group.groupId, member.memberId);
    const groupEpoch = group.groupEpoch + 1;
    records.push(recordsOf.newStreamsGroupMetadataRecord(group, groupEpoch, group.metadataHash, group.validatedTopologyEpoch, group.lastAssignmentConfigs));
    if (group.members.size === 1) {
      records.push(recordsOf.newStreamsGroupTargetAssignmentMetadataRecord(group.groupId, groupEpoch, 0));
    }
    this.options.timer.cancel(streamsSessionTimeoutKey(group.groupId, member.memberId));
    this.options.timer.cancel(streamsRebalanceTimeoutKey(group.groupId, member.memberId));
    this.commit(group, records, cause);
  }

  /** Writes the records, then replays them into the group (which joins the map, or leaves it when Dead). */
  private commit(group: StreamsGroup, records: readonly recordsOf.StreamsGroupRecord[], cause: OperationCause): void {
    if (records.length === 0) {
      return;
    }
    this.options.records(group.groupId, records, cause);
    records.forEach((record) => group.replay(record));
    if (group.state === 'Dead') {
      this.groups.delete(group.groupId);
    } else {
      this.groups.set(group.groupId, group);
    }
  }
}
