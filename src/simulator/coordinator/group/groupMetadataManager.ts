/**
 * Group membership on the coordinator (Kafka's GroupMetadataManager): one map of groups by id, each
 * tagged with its type, type-checked lookups, and the classic group's requests: JoinGroup, SyncGroup,
 * Heartbeat, LeaveGroup, ListGroups, DescribeGroups; KIP-848 consumer groups beside them, their
 * ConsumerGroupHeartbeat and ConsumerGroupDescribe run by the consumer-group engine (modern/consumer/).
 */
import type { ConsumerGroupDescribeResponseData } from '../../../protocol/messages/consumerGroupDescribeResponse';
import type { ConsumerGroupHeartbeatRequestData } from '../../../protocol/messages/consumerGroupHeartbeatRequest';
import type { ConsumerGroupHeartbeatResponseData } from '../../../protocol/messages/consumerGroupHeartbeatResponse';
import { errorCodeOf } from '../../../protocol/errorCodes';
import { errorMessage } from '../../../protocol/errors';
import type { VirtualClock } from '../../common/clock';
import { ClassicGroup, type ClassicGroupState } from './classic/classicGroup';
import type { ClassicGroupMember } from './classic/classicGroupMember';
import { ClassicGroupJoin } from './classic/classicGroupJoin';
import { ClassicGroupSync } from './classic/classicGroupSync';
import { ClassicRebalance } from './classic/classicRebalance';
import type { CoordinatorConfig } from './coordinatorConfig';
import { newGroupMetadataTombstoneRecord, type CoordinatorRecord } from './coordinatorRecords';
import {
  ConsumerGroupHeartbeatHandler, type ConsumerGroup, type ConsumerGroupRecord, type HeartbeatContext, type TopicMetadataImage,
} from './modern/consumer';
import { ClassicProtocolMembers } from './modern/consumer/classicProtocolMembers';
import type { ClassicMemberSnapshot } from './modern/consumer/onlineMigration';
import { VirtualClockTimer } from './consumerGroupSeams';
import { CoordinatorConsumerGroup } from './modern/consumer/coordinatorConsumerGroup';
import type { KafkaErrorCode } from '../../common/errors';
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
} from '../../common/requests';
import { DEFAULT_CONSUMER_GROUP_MIGRATION_POLICY, OnlineMigration } from './onlineMigration';
import type { SeededRandom } from '../../common/random';
import { StreamsGroupRequests } from '../streams/streamsGroupRequests';
import { StreamsGroupEventRecorder } from '../streams/streamsGroupEvents';
import type { StreamsGroupConfig } from '../streams/streamsGroupConfig';
import { ShareGroupEventRecorder } from '../share/shareGroupEvents';
import type { OperationCause } from '../../../timeline/consumerGroupEvents';
import { ShareGroupRequests } from '../share/shareGroupRequests';
import type { ShareGroupConfig, ShareStatePersister } from '../share/shareGroupConfig';

const HEARTBEAT_OK: HeartbeatResponse = Object.freeze({ errorCode: 'NONE' });

function refusedHeartbeat(errorName: string, message: string): ConsumerGroupHeartbeatResponseData {
  return { throttleTimeMs: 0, errorCode: errorCodeOf(errorName), errorMessage: message, memberId: null, memberEpoch: 0, heartbeatIntervalMs: 0, assignment: null };
}

function isClassicGroup(group: Group): group is ClassicGroup {
  return group.type === 'classic';
}

function isConsumerGroup(group: Group): group is CoordinatorConsumerGroup {
  return group.type === 'consumer';
}

/** What KIP-848 groups need from the simulator: the topics they subscribe to and where their records go. */
export interface ConsumerGroupSeams {
  metadataImage: TopicMetadataImage;
  /** One batch of a group's records (its consumer-group records, with a conversion's classic record when it migrates). */
  records: (batch: readonly CoordinatorRecord[]) => void;
  /** The broker configs of streams groups (group.streams.*), Kafka 4.4's defaults otherwise. */
  streamsGroupConfig?: Partial<StreamsGroupConfig>;
  /** The broker configs of share groups (group.share.*), Kafka 4.4's defaults otherwise. */
  shareGroupConfig?: Partial<ShareGroupConfig>;
  /** Where share groups' partition state is created (the share coordinator). */
  sharePersister?: ShareStatePersister;
}

/** The classic records of an online migration, written in the batch of the consumer group's records, as Kafka writes them. */
interface PendingConversion {
  groupId: string;
  /** convertToConsumerGroup: the classic group's tombstone, before the consumer group's records. */
  before: CoordinatorRecord[];
  /** convertToClassicGroup: the classic group's GroupMetadata record, after the consumer group's tombstones. */
  after: CoordinatorRecord[];
}

/** Kafka's Uuid.randomUuid().toString(): 16 random bytes in URL-safe base64 without padding. */
function kafkaUuid(random: SeededRandom): string {
  return Buffer.from(random.uuid().replace(/-/g, ''), 'hex').toString('base64url');
}

export class GroupMetadataManager {
  /** Every group by id, whatever its type; a deleted group leaves the map as it turns Dead. */
  private readonly groups = new Map<string, Group>();
  /** The migration whose classic records go in the next batch of its group (set and taken within one operation). */
  private conversion: PendingConversion | null = null;
  private readonly rebalance: ClassicRebalance;
  private readonly join: ClassicGroupJoin;
  private readonly sync: ClassicGroupSync;
  private readonly consumerGroups: ConsumerGroupHeartbeatHandler;
  private readonly migration: OnlineMigration;
  /** KIP-1071 streams groups: their heartbeat, describe and engine (../streams/). */
  readonly streams: StreamsGroupRequests;
  /** KIP-932 share groups: their heartbeat, describe and engine (../share/). */
  readonly share: ShareGroupRequests;

  constructor(
    private readonly clock: VirtualClock,
    random: SeededRandom,
    config: CoordinatorConfig,
    private readonly events: GroupEvents,
    seams: ConsumerGroupSeams,
  ) {
    const consumerGroupOptions = {
      now: () => clock.now,
      timer: new VirtualClockTimer(clock),
      metadataImage: seams.metadataImage,
      records: (batch: readonly ConsumerGroupRecord[]) => this.writeConsumerGroupBatch(batch, seams.records),
      events: (event: Parameters<GroupEvents['append']>[0]) => events.append(event),
      newMemberId: () => kafkaUuid(random),
      config: config.consumerGroup,
      downgrade: (group: ConsumerGroup, leavingMemberId: string, joining?: ClassicMemberSnapshot) => this.migration.maybeDowngrade(group, leavingMemberId, joining),
    };
    this.consumerGroups = new ConsumerGroupHeartbeatHandler(consumerGroupOptions);
    this.rebalance = new ClassicRebalance(clock, config, events, (groupId) => this.classicGroup(groupId));
    this.migration = new OnlineMigration({
      clock,
      rebalance: this.rebalance,
      metadataImage: seams.metadataImage,
      policy: config.consumerGroupMigrationPolicy ?? DEFAULT_CONSUMER_GROUP_MIGRATION_POLICY,
      classicGroupMaxSize: config.maxGroupSize,
      consumerGroupMaxSize: this.consumerGroups.config.maxSize,
      replaceWithClassicGroup: (groupId) => {
        this.groups.delete(groupId);
        return this.createClassicGroup(groupId);
      },
      offsetsOf: (groupId) => this.groups.get(groupId),
      writeAfterConsumerGroupTombstones: (groupId, records) => {
        this.conversion = { groupId, before: [], after: [...records] };
      },
    }, new ClassicProtocolMembers(this.consumerGroups, consumerGroupOptions));
    this.join = new ClassicGroupJoin(random, config, events, this, this.rebalance);
    // What the streams and share engines are given: the clock, the timer, the topics, and where their batches go.
    const engineSeams = <R extends CoordinatorRecord>(recorder: { record(groupId: string, batch: readonly R[], cause: OperationCause): void }) => ({
      now: () => clock.now,
      timer: consumerGroupOptions.timer,
      metadataImage: seams.metadataImage,
      records: (groupId: string, batch: readonly R[], cause: OperationCause) => {
        seams.records(batch);
        recorder.record(groupId, batch, cause);
      },
    });
    const registry = { get: (groupId: string) => this.groups.get(groupId), set: (groupId: string, group: Group) => this.groups.set(groupId, group) };
    this.streams = new StreamsGroupRequests({ ...registry, deleteClassicGroup: (groupId, cause) => this.deleteGroup(groupId, cause) }, {
      ...engineSeams(new StreamsGroupEventRecorder((event) => events.append(event), () => clock.now)),
      config: seams.streamsGroupConfig,
    });
    this.share = new ShareGroupRequests(registry, {
      ...engineSeams(new ShareGroupEventRecorder((event) => events.append(event), () => clock.now, seams.metadataImage)),
      config: seams.shareGroupConfig,
      persister: seams.sharePersister,
    });
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

  /** The KIP-848 engine's group of this id (members, epochs, assignments); undefined for any other type. */
  consumerGroup(groupId: string): ConsumerGroup | undefined {
    const group = this.groups.get(groupId);
    return group !== undefined && isConsumerGroup(group) ? this.consumerGroups.group(groupId) : undefined;
  }

  groupIds(): string[] {
    return [...this.groups.keys()];
  }

  allGroups(): Group[] {
    return [...this.groups.values()];
  }

  /** A consumer group's batch, with the classic records of the migration under way for its group in it. */
  private writeConsumerGroupBatch(batch: readonly ConsumerGroupRecord[], write: ConsumerGroupSeams['records']): void {
    const conversion = this.conversion;
    if (conversion !== null && batch.length > 0 && batch[0].key.groupId === conversion.groupId) {
      this.conversion = null;
      write([...conversion.before, ...batch, ...conversion.after]);
      return;
    }
    write(batch);
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

  /**
   * JoinGroup to a consumer group (GroupMetadataManager.classicGroupJoin): a non-empty one serves the member
   * with the classic protocol; an empty one is replaced by a classic group, which keeps its offsets.
   */
  classicGroupJoinToConsumerGroup(request: JoinGroupRequest, reply: Respond<JoinGroupResponse>): void {
    const existing = this.groups.get(request.groupId);
    if (existing !== undefined && isConsumerGroup(existing) && existing.isEmpty()) {
      this.deleteGroup(request.groupId, `replaced by classic group ${request.groupId}`);
      const group = this.createClassicGroup(request.groupId);
      existing.offsets.forEach((partitions, topic) => partitions.forEach((offset, partition) => group.commit(topic, partition, offset)));
      this.join.classicGroupJoin(request, reply);
      return;
    }
    reply(this.migration.join(request));
  }

  classicGroupSync(request: SyncGroupRequest, reply: Respond<SyncGroupResponse>): void {
    const existing = this.groups.get(request.groupId);
    if (existing !== undefined && isConsumerGroup(existing) && !existing.isEmpty()) {
      reply(this.migration.sync(request));
      return;
    }
    this.sync.classicGroupSync(request, reply);
  }

  classicGroupHeartbeat(request: HeartbeatRequest): HeartbeatResponse {
    const existing = this.groups.get(request.groupId);
    if (existing !== undefined && isConsumerGroup(existing)) {
      return this.migration.heartbeat(request);
    }
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
    const existing = this.groups.get(request.groupId);
    if (existing !== undefined && isConsumerGroup(existing)) {
      reply(this.migration.leave(request));
      return;
    }
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

  // ---------------------------------------------------------------- consumer group requests

  /**
   * GroupMetadataManager.consumerGroupHeartbeat. A classic group's id is refused unless the group is empty
   * and this is a join: then the consumer group takes its place and its committed offsets
   * (maybeDeleteEmptyClassicGroup); a share or streams group's id is refused. Never throws.
   */
  consumerGroupHeartbeat(context: HeartbeatContext, request: ConsumerGroupHeartbeatRequestData): ConsumerGroupHeartbeatResponseData {
    const existing = this.groups.get(request.groupId);
    const replaced = existing !== undefined && isClassicGroup(existing) ? existing : undefined;
    const joining = request.memberEpoch === 0;
    const upgrading = replaced !== undefined && joining && !replaced.isEmpty() && this.migration.canUpgrade(replaced);
    // getOrMaybeCreateConsumerGroup: a share or streams group's id is never taken over.
    const otherModernType = existing !== undefined && !isClassicGroup(existing) && !isConsumerGroup(existing);
    if (otherModernType || (replaced !== undefined && !(replaced.isEmpty() && joining) && !upgrading)) {
      return refusedHeartbeat('GROUP_ID_NOT_FOUND', `Group ${request.groupId} is not a consumer group.`);
    }
    let upgrade;
    try {
      upgrade = upgrading ? this.migration.upgrade(replaced) : undefined;
    } catch (error) {
      return refusedHeartbeat('GROUP_ID_NOT_FOUND', errorMessage(error));
    }
    if (upgrading) {
      this.conversion = { groupId: request.groupId, before: [newGroupMetadataTombstoneRecord(request.groupId)], after: [] };
    }
    const response = this.consumerGroups.heartbeat(context, request, upgrade);
    this.conversion = null; // a refused join wrote nothing
    if (response.errorCode === 0 && !(existing !== undefined && isConsumerGroup(existing))) {
      const group = new CoordinatorConsumerGroup(request.groupId, () => this.consumerGroups.group(request.groupId));
      if (replaced !== undefined) {
        replaced.offsets.forEach((partitions, topic) => partitions.forEach((offset, partition) => group.commit(topic, partition, offset)));
        if (upgrading) {
          // Its tombstone went in the join's batch; the group lives on as a consumer group, so no Dead.
          this.migration.retireClassicGroup(replaced);
          this.clock.cancel(replaced.joinTimer);
          this.clock.cancel(replaced.syncTimer);
          this.groups.delete(request.groupId);
        } else {
          this.deleteGroup(request.groupId, `replaced by consumer group ${request.groupId}`);
        }
      }
      this.groups.set(request.groupId, group);
    }
    return response;
  }

  /** ConsumerGroupDescribe: a group of another type is GROUP_ID_NOT_FOUND, as Kafka answers. */
  consumerGroupDescribe(groupIds: readonly string[]): ConsumerGroupDescribeResponseData['groups'] {
    return groupIds.flatMap((groupId) => {
      const group = this.groups.get(groupId);
      if (group !== undefined && !isConsumerGroup(group)) {
        const [unknown] = this.consumerGroups.consumerGroupDescribe([groupId]);
        return [{ ...unknown, errorMessage: `Group ${groupId} is not a consumer group.` }];
      }
      return this.consumerGroups.consumerGroupDescribe([groupId]);
    });
  }

  /** Kafka's onNewMetadataImage for consumer groups: topics were created, deleted or grew. */
  onTopicsChanged(topicNames?: Iterable<string>): void {
    const names = topicNames === undefined ? undefined : [...topicNames];
    this.consumerGroups.onTopicsChanged(names);
    this.streams.handler.onTopicsChanged(names);
    this.share.handler.onTopicsChanged(names);
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
    const existing = this.groups.get(groupId);
    if (existing !== undefined && isConsumerGroup(existing)) {
      this.consumerGroups.deleteGroup(groupId, cause);
      this.groups.delete(groupId);
      return;
    }
    if (existing?.type === 'streams') {
      this.streams.handler.deleteGroup(groupId);
      this.groups.delete(groupId);
      return;
    }
    if (existing?.type === 'share') {
      this.share.handler.deleteGroup(groupId);
      this.groups.delete(groupId);
      return;
    }
    const group = this.classicGroup(groupId);
    if (!group) {
      return;
    }
    this.clock.cancel(group.joinTimer);
    this.clock.cancel(group.syncTimer);
    const from = group.state;
    this.events.write(groupId, [newGroupMetadataTombstoneRecord(groupId)]);
    group.transitionTo('Dead', this.clock.now);
    this.groups.delete(groupId);
    this.events.emit(group, 'state-changed', { cause, stateBefore: from, stateAfter: 'Dead' });
  }
}
