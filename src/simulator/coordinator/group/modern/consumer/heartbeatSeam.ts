/**
 * The seam of the KIP-848 engine: what its caller provides (clock, CoordinatorTimer, topics, where records
 * and events go) and passes with each request, and the timer keys it uses (Kafka's own key formats).
 */
import type { ConsumerGroup } from './consumerGroup';
import type { ConsumerGroupEventSink } from './consumerGroupEvents';
import type { ClassicMemberSnapshot } from './onlineMigration';
import type { PartitionAssignor } from './groupChanges';
import type { ConsumerGroupRecordSink } from './records';
import type { ConsumerGroupConfig, CoordinatorTimer, TopicMetadataImage } from './types';

/** What the request's transport knows: the negotiated version and the client (RequestContext). */
export interface HeartbeatContext {
  apiVersion: number;
  clientId: string;
  /** As Kafka prints the client's InetAddress, e.g. "/127.0.0.1". */
  clientHost: string;
}

export interface ConsumerGroupHeartbeatHandlerOptions {
  /** Milliseconds on the simulator's clock. */
  now: () => number;
  timer: CoordinatorTimer;
  metadataImage: TopicMetadataImage;
  records: ConsumerGroupRecordSink;
  events: ConsumerGroupEventSink;
  config?: Partial<ConsumerGroupConfig>;
  /** Replaces Kafka's server assignors (as Kafka's tests use MockPartitionAssignor); the real ones by default. */
  assignor?: PartitionAssignor;
  /** Member ids for version-0 joins that send none (Kafka: Uuid.randomUuid().toString()). */
  newMemberId: () => string;
  /**
   * Online downgrade (group.consumer.migration.policy): called before a member is fenced, or when a classic
   * static member replaces one of the consumer protocol (`joining`, which takes the leaving one's target
   * assignment); true when the caller has made a classic group of the members, after which the engine drops its group.
   */
  downgrade?: (group: ConsumerGroup, leavingMemberId: string, joining?: ClassicMemberSnapshot) => boolean;
}

export const consumerGroupSessionTimeoutKey = (groupId: string, memberId: string): string => `session-timeout-${groupId}-${memberId}`;
export const consumerGroupRebalanceTimeoutKey = (groupId: string, memberId: string): string => `rebalance-timeout-${groupId}-${memberId}`;
export const consumerGroupJoinKey = (groupId: string, memberId: string): string => `join-${groupId}-${memberId}`;
export const consumerGroupSyncKey = (groupId: string, memberId: string): string => `sync-${groupId}-${memberId}`;
export const consumerGroupRegexResolutionKey = (groupId: string): string => `regex-resolution-${groupId}`;

/** canComputeNextTargetAssignment: the first assignment, no batching, or the interval has passed. */
export function canComputeNextTargetAssignment(lastAssignmentTimestamp: number, assignmentIntervalMs: number, now: number): boolean {
  return lastAssignmentTimestamp === 0 || assignmentIntervalMs === 0 || now >= lastAssignmentTimestamp + assignmentIntervalMs;
}
