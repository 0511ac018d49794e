import type { ConsumerGroupConfig, ConsumerGroupMigrationPolicy } from './modern/consumer';

/** The simulated group coordinator's broker settings (group.* and offsets.* configs). */
export interface CoordinatorConfig {
  /** The group.consumer.* settings of KIP-848 groups (Kafka 4.4's defaults where not given). */
  consumerGroup?: Partial<ConsumerGroupConfig>;
  /** group.consumer.migration.policy: which online conversions between classic and consumer groups run (Kafka's default: bidirectional). */
  consumerGroupMigrationPolicy?: ConsumerGroupMigrationPolicy;
  /** group.initial.rebalance.delay.ms */
  initialRebalanceDelayMs: number;
  /** group.min.session.timeout.ms */
  minSessionTimeoutMs: number;
  /** group.max.session.timeout.ms */
  maxSessionTimeoutMs: number;
  /** group.max.size */
  maxGroupSize: number;
  /** CLASSIC_GROUP_NEW_MEMBER_JOIN_TIMEOUT_MS */
  newMemberJoinTimeoutMs: number;
  /** offset.metadata.max.bytes (compared with the metadata's UTF-16 length, as Kafka does) */
  offsetMetadataMaxBytes: number;
  /** offsets.retention.minutes, in ms */
  offsetsRetentionMs: number;
  /** offsets.retention.check.interval.ms */
  offsetsRetentionCheckIntervalMs: number;
  /** Latency added to every response. */
  responseLatencyMs: number;
}

export const DEFAULT_COORDINATOR_CONFIG: CoordinatorConfig = {
  initialRebalanceDelayMs: 3000,
  minSessionTimeoutMs: 6000,
  maxSessionTimeoutMs: 1800000,
  maxGroupSize: Number.MAX_SAFE_INTEGER,
  newMemberJoinTimeoutMs: 300000,
  offsetMetadataMaxBytes: 4096,
  offsetsRetentionMs: 7 * 24 * 3600 * 1000,
  offsetsRetentionCheckIntervalMs: 600000,
  responseLatencyMs: 0,
};
