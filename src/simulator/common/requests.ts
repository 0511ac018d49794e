/**
 * Requests and responses of the simulated group coordinator, shaped after Kafka's own messages
 * (JoinGroup v9, SyncGroup v5, Heartbeat v4, LeaveGroup v5, OffsetCommit v9, OffsetFetch v8, ...)
 * so that a wire-protocol front end can map onto them one to one. Protocol metadata and
 * assignments are carried decoded (ConsumerProtocol Subscription / Assignment).
 */
import type { GroupState, TopicPartition } from '../../model/types';
import type { KafkaErrorCode } from './errors';

/** Group.GroupType */
export type GroupType = 'classic' | 'consumer' | 'share' | 'streams';

/** ConsumerGroupHeartbeatRequest's sentinel epochs: a member leaving, a static member leaving for now. */
export const LEAVE_GROUP_MEMBER_EPOCH = -1;
export const LEAVE_GROUP_STATIC_MEMBER_EPOCH = -2;

/** ConsumerProtocol Subscription, decoded. */
export interface ConsumerSubscription {
  topics: string[];
  ownedPartitions: TopicPartition[];
  /** Generation in which ownedPartitions were held; -1 when none. */
  generationId: number;
  userData?: string;
}

/** ConsumerProtocol Assignment, decoded. */
export interface ConsumerAssignment {
  partitions: TopicPartition[];
  userData?: string;
}

export interface JoinGroupProtocol {
  name: string;
  metadata: ConsumerSubscription;
}

/** Who sent a request: Kafka takes these from the request header and the connection. */
export interface ClientContext {
  clientId: string;
  /** Client address as Kafka prints it, e.g. "/127.0.0.1". */
  clientHost: string;
}

export interface JoinGroupRequest extends ClientContext {
  groupId: string;
  sessionTimeoutMs: number;
  rebalanceTimeoutMs: number;
  /** "" for a member joining for the first time. */
  memberId: string;
  groupInstanceId: string | null;
  protocolType: string;
  protocols: JoinGroupProtocol[];
  /** Client's rejoin reason (JoinGroup v8+). */
  reason?: string;
  /** Request version; v4+ asks for MEMBER_ID_REQUIRED, v9+ allows skipAssignment. Default 9. */
  apiVersion?: number;
}

export interface JoinGroupResponseMember {
  memberId: string;
  groupInstanceId: string | null;
  metadata: ConsumerSubscription;
}

export interface JoinGroupResponse {
  errorCode: KafkaErrorCode;
  generationId: number;
  protocolType: string | null;
  protocolName: string | null;
  leader: string;
  skipAssignment: boolean;
  memberId: string;
  /** Filled for the leader only. */
  members: JoinGroupResponseMember[];
}

export interface SyncGroupRequest {
  groupId: string;
  generationId: number;
  memberId: string;
  groupInstanceId: string | null;
  protocolType: string | null;
  protocolName: string | null;
  /** The leader's computed assignment; empty from followers. */
  assignments: Array<{ memberId: string; assignment: ConsumerAssignment }>;
}

export interface SyncGroupResponse {
  errorCode: KafkaErrorCode;
  protocolType: string | null;
  protocolName: string | null;
  assignment: ConsumerAssignment;
}

export interface HeartbeatRequest {
  groupId: string;
  generationId: number;
  memberId: string;
  groupInstanceId: string | null;
}

export interface HeartbeatResponse {
  errorCode: KafkaErrorCode;
}

export interface LeaveGroupMemberIdentity {
  /** "" with a groupInstanceId set: admin removal of a static member. */
  memberId: string;
  groupInstanceId: string | null;
  reason?: string;
}

export interface LeaveGroupRequest {
  groupId: string;
  members: LeaveGroupMemberIdentity[];
}

export interface LeaveGroupResponse {
  errorCode: KafkaErrorCode;
  members: Array<{ memberId: string; groupInstanceId: string | null; errorCode: KafkaErrorCode }>;
}

export interface OffsetCommitPartition {
  partition: number;
  offset: number;
  /** -1 when unknown. */
  leaderEpoch?: number;
  metadata?: string | null;
}

export interface OffsetCommitRequest {
  groupId: string;
  /** -1 for admin and manual-assignment commits. */
  generationId: number;
  memberId: string;
  groupInstanceId: string | null;
  topics: Array<{ name: string; partitions: OffsetCommitPartition[] }>;
}

/** TxnOffsetCommit: a transactional producer's sendOffsetsToTransaction, carrying the consumer's group metadata. */
export interface TxnOffsetCommitRequest extends OffsetCommitRequest {
  transactionalId: string;
  producerId: number;
  /** -1 or missing when not known. */
  producerEpoch?: number;
}

export interface OffsetCommitResponse {
  topics: Array<{ name: string; partitions: Array<{ partition: number; errorCode: KafkaErrorCode }> }>;
}

export interface OffsetFetchRequest {
  groupId: string;
  /** Null fetches every committed partition. */
  topics: Array<{ name: string; partitions: number[] }> | null;
  requireStable?: boolean;
}

export interface OffsetFetchPartition {
  partition: number;
  /** -1 when nothing is committed. */
  committedOffset: number;
  committedLeaderEpoch: number;
  metadata: string;
  errorCode: KafkaErrorCode;
}

export interface OffsetFetchResponse {
  errorCode: KafkaErrorCode;
  topics: Array<{ name: string; partitions: OffsetFetchPartition[] }>;
}

export interface ListGroupsRequest {
  /** Only groups in these states; all when empty or omitted. */
  statesFilter?: GroupState[];
}

export interface ListGroupsResponse {
  errorCode: KafkaErrorCode;
  groups: Array<{ groupId: string; protocolType: string; groupState: GroupState; groupType: GroupType }>;
}

export interface DescribedGroupMember {
  memberId: string;
  groupInstanceId: string | null;
  clientId: string;
  clientHost: string;
  /** The member's metadata for the selected protocol. */
  metadata: ConsumerSubscription | null;
  assignment: ConsumerAssignment;
}

export interface DescribedGroup {
  errorCode: KafkaErrorCode;
  groupId: string;
  groupState: GroupState;
  protocolType: string;
  /** The selected protocol (assignor), "" when none. */
  protocolData: string;
  members: DescribedGroupMember[];
}

export interface DescribeGroupsRequest {
  groups: string[];
}

export interface DescribeGroupsResponse {
  groups: DescribedGroup[];
}

export interface DeleteGroupsRequest {
  groupsNames: string[];
}

export interface DeleteGroupsResponse {
  results: Array<{ groupId: string; errorCode: KafkaErrorCode }>;
}

export interface OffsetDeleteRequest {
  groupId: string;
  topics: Array<{ name: string; partitions: number[] }>;
}

export interface OffsetDeleteResponse {
  errorCode: KafkaErrorCode;
  topics: Array<{ name: string; partitions: Array<{ partition: number; errorCode: KafkaErrorCode }> }>;
}

/** Responses arrive through the event queue, never synchronously inside the request call. */
export type Respond<T> = (response: T) => void;

/** An internal topic of a streams group's topology as the coordinator configured it (ConfiguredInternalTopic). */
export interface ConfiguredInternalTopic {
  name: string;
  numberOfPartitions: number;
  /** Absent: the broker's default (CreateTopics' -1). */
  replicationFactor?: number;
  topicConfigs: ReadonlyMap<string, string>;
}

/** The answer to a StreamsGroupHeartbeat with the internal topics the broker must create (StreamsGroupHeartbeatResult). */
export interface StreamsHeartbeatResult<R> {
  response: R;
  internalTopicsToBeCreated: ReadonlyMap<string, ConfiguredInternalTopic>;
}
