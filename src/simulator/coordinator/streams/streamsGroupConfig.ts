/**
 * The broker configs that shape streams groups (GroupCoordinatorConfig of Kafka 4.4, with its defaults), the
 * assignment configs a group's epoch records, and the seam the streams engine is given by its caller.
 */
import type { OperationCause } from '../../../timeline/consumerGroupEvents';
import type { CoordinatorTimer, TopicMetadataImage } from '../group/modern/consumer/types';
import type { StreamsGroupRecord } from './records';

export interface StreamsGroupConfig {
  /** group.streams.session.timeout.ms */
  sessionTimeoutMs: number;
  /** group.streams.heartbeat.interval.ms */
  heartbeatIntervalMs: number;
  /** group.streams.max.size */
  maxSize: number;
  /** group.streams.num.standby.replicas */
  numStandbyReplicas: number;
  /** group.streams.rack.aware.assignment.tags */
  rackAwareAssignmentTags: readonly string[];
  /** group.streams.initial.rebalance.delay.ms: the first assignment of an empty group waits this long for more members. */
  initialRebalanceDelayMs: number;
  /** group.streams.assignment.interval.ms: target assignments are computed at most this often. */
  assignmentIntervalMs: number;
  /** group.streams.task.offset.interval.ms */
  taskOffsetIntervalMs: number;
  /** group.streams.acceptable.recovery.lag */
  acceptableRecoveryLag: number;
}

export const DEFAULT_STREAMS_GROUP_CONFIG: StreamsGroupConfig = Object.freeze({
  sessionTimeoutMs: 45_000,
  heartbeatIntervalMs: 5_000,
  maxSize: 2_147_483_647,
  numStandbyReplicas: 0,
  rackAwareAssignmentTags: [],
  initialRebalanceDelayMs: 3_000,
  assignmentIntervalMs: 1_000,
  taskOffsetIntervalMs: 60_000,
  acceptableRecoveryLag: 10_000,
});

/** streamsGroupAssignmentConfigs: what the assignor is configured with, in key order (a TreeMap). */
export function streamsAssignmentConfigs(config: StreamsGroupConfig): Map<string, string> {
  const configs = new Map<string, string>([['num.standby.replicas', String(config.numStandbyReplicas)]]);
  if (config.rackAwareAssignmentTags.length > 0) {
    configs.set('rack.aware.assignment.tags', config.rackAwareAssignmentTags.join(','));
  }
  return configs;
}

export interface StreamsGroupHeartbeatHandlerOptions {
  /** Milliseconds on the simulator's clock. */
  now: () => number;
  timer: CoordinatorTimer;
  metadataImage: TopicMetadataImage;
  /** Where the engine's records go (the group's `__consumer_offsets` partition), in Kafka's order. */
  records: (groupId: string, records: readonly StreamsGroupRecord[], cause: OperationCause) => void;
  config?: Partial<StreamsGroupConfig>;
}

export type { StreamsHeartbeatResult } from '../../common/requests';

export const streamsSessionTimeoutKey = (groupId: string, memberId: string): string => `session-timeout-${groupId}-${memberId}`;
export const streamsRebalanceTimeoutKey = (groupId: string, memberId: string): string => `rebalance-timeout-${groupId}-${memberId}`;
export const streamsInitialRebalanceKey = (groupId: string): string => `initial-rebalance-timeout-${groupId}`;
