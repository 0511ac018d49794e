/**
 * The simulated group coordinator's front door (Kafka's GroupCoordinatorService): the requests the
 * server, the simulated clients, the scenarios and the views send, each routed to the shard's group
 * or offset manager, and every response delivered through the event queue after the configured
 * latency. Group membership lives in groupMetadataManager.ts, offsets in offsetMetadataManager.ts,
 * housekeeping in groupCoordinatorShard.ts.
 */
import type { VirtualClock } from '../../common/clock';
import type { ConsumerGroupDescribeResponseData } from '../../../protocol/messages/consumerGroupDescribeResponse';
import type { ConsumerGroupHeartbeatRequestData } from '../../../protocol/messages/consumerGroupHeartbeatRequest';
import type { ConsumerGroupHeartbeatResponseData } from '../../../protocol/messages/consumerGroupHeartbeatResponse';
import type { DescribedGroup as StreamsDescribedGroup } from '../../../protocol/messages/streamsGroupDescribeResponse';
import type { StreamsGroupHeartbeatRequestData } from '../../../protocol/messages/streamsGroupHeartbeatRequest';
import type { StreamsGroupHeartbeatResponseData } from '../../../protocol/messages/streamsGroupHeartbeatResponse';
import type { StreamsGroup } from '../streams/streamsGroup';
import type { DescribedGroup as ShareDescribedGroup } from '../../../protocol/messages/shareGroupDescribeResponse';
import type { ShareGroupHeartbeatRequestData } from '../../../protocol/messages/shareGroupHeartbeatRequest';
import type { ShareGroupHeartbeatResponseData } from '../../../protocol/messages/shareGroupHeartbeatResponse';
import type { ShareGroup } from '../share/shareGroup';
import type { AlterShareOffsetsTopic, AlterShareOffsetsTopicResult, DeleteShareOffsetsTopicResult } from '../share/shareGroupOffsetRecords';
import type { StreamsHeartbeatResult } from '../streams/streamsGroupConfig';
import type { ClassicGroup } from './classic/classicGroup';
import { InMemoryTopicImage, type ConsumerGroup, type HeartbeatContext } from './modern/consumer';
import { DEFAULT_COORDINATOR_CONFIG, type CoordinatorConfig } from './coordinatorConfig';
import type { CoordinatorRecordWriter } from './coordinatorRecords';
import type { EventLog } from '../../common/eventLog';
import { GroupCoordinatorShard } from './groupCoordinatorShard';
import type { Group } from './group';
import type { ConsumerGroupSeams, GroupMetadataManager } from './groupMetadataManager';
import type { OffsetMetadataManager, PartitionExists } from './offsetMetadataManager';
import type {
  DeleteGroupsRequest,
  DeleteGroupsResponse,
  DescribedGroup,
  DescribeGroupsRequest,
  DescribeGroupsResponse,
  HeartbeatRequest,
  HeartbeatResponse,
  JoinGroupRequest,
  JoinGroupResponse,
  LeaveGroupRequest,
  LeaveGroupResponse,
  ListGroupsRequest,
  ListGroupsResponse,
  OffsetCommitRequest,
  OffsetCommitResponse,
  OffsetDeleteRequest,
  OffsetDeleteResponse,
  OffsetFetchRequest,
  OffsetFetchResponse,
  Respond,
  SyncGroupRequest,
  SyncGroupResponse,
  TxnOffsetCommitRequest,
} from '../../common/requests';
import type { SeededRandom } from '../../common/random';
import { KafkaApiError } from '../../common/errors';
import type { PendingTransactionalOffsets } from './transactionalOffsets';
import type { TransactionResult } from '../../log/transactionIndex';

export { DEFAULT_COORDINATOR_CONFIG, type CoordinatorConfig } from './coordinatorConfig';

export class GroupCoordinator {
  readonly config: CoordinatorConfig;
  private readonly shard: GroupCoordinatorShard;
  private readonly groups: GroupMetadataManager;
  private readonly offsets: OffsetMetadataManager;

  constructor(
    private readonly clock: VirtualClock,
    random: SeededRandom,
    events: EventLog,
    /** Whether a topic partition exists, for OffsetCommit validation. */
    partitionExists: PartitionExists,
    config: Partial<CoordinatorConfig> = {},
    /** The topics KIP-848 groups subscribe to and where their records go; none and nowhere by default. */
    consumerGroupSeams: ConsumerGroupSeams = { metadataImage: new InMemoryTopicImage(), records: () => undefined },
    /** Where classic groups' and offsets' records go (`__consumer_offsets`); nowhere by default. */
    records?: CoordinatorRecordWriter,
  ) {
    this.config = { ...DEFAULT_COORDINATOR_CONFIG, ...config };
    this.shard = new GroupCoordinatorShard(clock, random, events, partitionExists, this.config, consumerGroupSeams, records);
    this.groups = this.shard.groupMetadataManager;
    this.offsets = this.shard.offsetMetadataManager;
  }

  /** TxnOffsetCommit offsets waiting for their transaction's marker. */
  get pendingOffsets(): PendingTransactionalOffsets {
    return this.offsets.pendingOffsets;
  }

  /** Read-only access for views: the live classic group object, or undefined. */
  group(groupId: string): ClassicGroup | undefined {
    return this.groups.classicGroup(groupId);
  }

  /** Read-only access for views: the live KIP-848 consumer group, or undefined. */
  consumerGroup(groupId: string): ConsumerGroup | undefined {
    return this.groups.consumerGroup(groupId);
  }

  /** The committed offsets of the group of any type (topic → partition → offset), or undefined. */
  committedOffsets(groupId: string): Group['offsets'] | undefined {
    return this.groups.group(groupId)?.offsets;
  }

  groupIds(): string[] {
    return this.groups.groupIds();
  }

  /** Topics were created, deleted or grew: consumer groups subscribed to them reassign. */
  onTopicsChanged(topicNames?: Iterable<string>): void {
    this.groups.onTopicsChanged(topicNames);
  }

  /** A topic was deleted: the groups' offsets of it go, and the groups that use it see the change. */
  onTopicDeleted(topic: string): void {
    this.offsets.onTopicDeleted(topic);
    this.groups.onTopicsChanged([topic]);
  }

  dispose(): void {
    this.shard.dispose();
  }

  // ---------------------------------------------------------------- group membership

  joinGroup(request: JoinGroupRequest, respond: Respond<JoinGroupResponse>): void {
    this.groups.classicGroupJoin(request, this.responder(respond));
  }

  syncGroup(request: SyncGroupRequest, respond: Respond<SyncGroupResponse>): void {
    this.groups.classicGroupSync(request, this.responder(respond));
  }

  heartbeat(request: HeartbeatRequest, respond: Respond<HeartbeatResponse>): void {
    this.deliver(respond, this.groups.classicGroupHeartbeat(request));
  }

  leaveGroup(request: LeaveGroupRequest, respond: Respond<LeaveGroupResponse>): void {
    this.groups.classicGroupLeave(request, this.responder(respond));
  }

  /** ConsumerGroupHeartbeat (KIP-848); `context.clientHost` as Kafka prints it, e.g. "/127.0.0.1". */
  consumerGroupHeartbeat(context: HeartbeatContext, request: ConsumerGroupHeartbeatRequestData, respond: Respond<ConsumerGroupHeartbeatResponseData>): void {
    this.deliver(respond, this.groups.consumerGroupHeartbeat(context, request));
  }

  consumerGroupDescribe(groupIds: readonly string[], respond: Respond<ConsumerGroupDescribeResponseData['groups']>): void {
    this.deliver(respond, this.groups.consumerGroupDescribe(groupIds));
  }

  /** ConsumerGroupDescribe for one group, synchronously (views read it between events). */
  consumerGroupDescribeNow(groupId: string): ConsumerGroupDescribeResponseData['groups'][number] {
    return this.groups.consumerGroupDescribe([groupId])[0];
  }

  /** StreamsGroupHeartbeat (KIP-1071), with the internal topics the broker is to create. */
  streamsGroupHeartbeat(context: HeartbeatContext, request: StreamsGroupHeartbeatRequestData, respond: Respond<StreamsHeartbeatResult<StreamsGroupHeartbeatResponseData>>): void {
    this.deliver(respond, this.groups.streams.heartbeat(context, request));
  }

  streamsGroupDescribe(groupIds: readonly string[], respond: Respond<StreamsDescribedGroup[]>): void {
    this.deliver(respond, this.groups.streams.describe(groupIds));
  }

  /** StreamsGroupDescribe for one group, synchronously (views read it between events). */
  streamsGroupDescribeNow(groupId: string): StreamsDescribedGroup {
    return this.groups.streams.describe([groupId])[0];
  }

  /** Read-only access for views: the live streams group, or undefined. */
  streamsGroup(groupId: string): StreamsGroup | undefined {
    return this.groups.streams.streamsGroup(groupId);
  }

  /** ShareGroupHeartbeat (KIP-932). */
  shareGroupHeartbeat(context: HeartbeatContext, request: ShareGroupHeartbeatRequestData, respond: Respond<ShareGroupHeartbeatResponseData>): void {
    this.deliver(respond, this.groups.share.heartbeat(context, request));
  }

  shareGroupDescribe(groupIds: readonly string[], respond: Respond<ShareDescribedGroup[]>): void {
    this.deliver(respond, this.groups.share.describe(groupIds));
  }

  /** ShareGroupDescribe for one group, synchronously (views read it between events). */
  shareGroupDescribeNow(groupId: string): ShareDescribedGroup {
    return this.groups.share.describe([groupId])[0];
  }

  /** AlterShareGroupOffsets of one group, answered through the event queue: per topic, or the group's error. */
  alterShareGroupOffsets(groupId: string, topics: readonly AlterShareOffsetsTopic[], respond: Respond<AlterShareOffsetsTopicResult[] | KafkaApiError>): void {
    this.deliver(respond, GroupCoordinator.attempt(() => this.groups.share.alterOffsets(groupId, topics)));
  }

  /** DeleteShareGroupOffsets of one group's whole topics, answered through the event queue. */
  deleteShareGroupOffsets(groupId: string, topicNames: readonly string[], respond: Respond<DeleteShareOffsetsTopicResult[] | KafkaApiError>): void {
    this.deliver(respond, GroupCoordinator.attempt(() => this.groups.share.deleteOffsets(groupId, topicNames)));
  }

  /** Read-only access for views: the live share group, or undefined. */
  shareGroup(groupId: string): ShareGroup | undefined {
    return this.groups.share.shareGroup(groupId);
  }

  // ---------------------------------------------------------------- offsets

  offsetCommit(request: OffsetCommitRequest, respond: Respond<OffsetCommitResponse>): void {
    this.offsets.commitOffset(request, this.responder(respond));
  }

  /** sendOffsetsToTransaction: the offsets stay pending for the producer until its transaction ends. */
  txnOffsetCommit(request: TxnOffsetCommitRequest, respond: Respond<OffsetCommitResponse>): void {
    this.offsets.commitTransactionalOffset(request, this.responder(respond));
  }

  /** The transaction marker reaching the group (WriteTxnMarkers). */
  completeTransaction(groupId: string, producerId: number, result: TransactionResult): void {
    this.shard.replayEndTransactionMarker(groupId, producerId, result);
  }

  /** The groups holding offsets of `producerId`'s open transaction (where WriteTxnMarkers on `__consumer_offsets` lands). */
  groupsInTransaction(producerId: number): string[] {
    return this.shard.groupsInTransaction(producerId);
  }

  offsetFetch(request: OffsetFetchRequest, respond: Respond<OffsetFetchResponse>): void {
    this.deliver(respond, this.offsets.fetchOffsets(request));
  }

  offsetDelete(request: OffsetDeleteRequest, respond: Respond<OffsetDeleteResponse>): void {
    this.deliver(respond, this.offsets.deleteOffsets(request));
  }

  // ---------------------------------------------------------------- admin

  listGroups(request: ListGroupsRequest, respond: Respond<ListGroupsResponse>): void {
    this.deliver(respond, this.groups.listGroups(request));
  }

  describeGroups(request: DescribeGroupsRequest, respond: Respond<DescribeGroupsResponse>): void {
    this.deliver(respond, { groups: request.groups.map((id) => this.describeGroupNow(id)) });
  }

  /** DescribeGroups for one group, synchronously (views read it between events). */
  describeGroupNow(groupId: string): DescribedGroup {
    return this.groups.describeGroup(groupId);
  }

  deleteGroups(request: DeleteGroupsRequest, respond: Respond<DeleteGroupsResponse>): void {
    this.deliver(respond, this.shard.deleteGroups(request));
  }

  /** The operation's result, or the KafkaApiError it refused with (any other throw is an engine bug, as UNKNOWN_SERVER_ERROR). */
  private static attempt<T>(operation: () => T): T | KafkaApiError {
    try {
      return operation();
    } catch (error) {
      return error instanceof KafkaApiError ? error : new KafkaApiError('UNKNOWN_SERVER_ERROR', String(error));
    }
  }

  private responder<T>(respond: Respond<T>): Respond<T> {
    return (response: T) => this.deliver(respond, response);
  }

  private deliver<T>(respond: Respond<T>, response: T): void {
    this.clock.scheduleCall(this.config.responseLatencyMs, respond, response);
  }
}
