/**
 * Plain data and injected seams of the KIP-848 consumer-group engine (Kafka 4.4's
 * org.apache.kafka.coordinator.group.modern.consumer package and the consumer-group half of
 * GroupMetadataManager). Topic ids are Kafka Uuids in their base64 text; partitions are numbers.
 */
export { KafkaApiError } from '../../../../common/errors';
export { LEAVE_GROUP_MEMBER_EPOCH, LEAVE_GROUP_STATIC_MEMBER_EPOCH } from '../../../../common/requests';

/** MemberState, with the byte Kafka writes in ConsumerGroupCurrentMemberAssignmentValue.state. */
export enum MemberState {
  STABLE = 0,
  UNREVOKED_PARTITIONS = 1,
  UNRELEASED_PARTITIONS = 2,
  UNKNOWN = 127,
}

/**
 * ClassicMemberMetadata of the ConsumerGroupMemberMetadata record: a member that joined a consumer group
 * with JoinGroup (the classic protocol) keeps its session timeout and its protocols (each with its
 * ConsumerProtocol subscription bytes); null for a member of the consumer protocol.
 */
export interface ClassicMemberMetadata {
  readonly sessionTimeoutMs: number;
  readonly supportedProtocols: ReadonlyArray<{ readonly name: string; readonly metadata: Uint8Array }>;
}

/** group.consumer.migration.policy (ConsumerGroupMigrationPolicy): which online conversions are allowed. */
export const CONSUMER_GROUP_MIGRATION_POLICIES = ['bidirectional', 'upgrade', 'downgrade', 'disabled'] as const;

export type ConsumerGroupMigrationPolicy = (typeof CONSUMER_GROUP_MIGRATION_POLICIES)[number];

export function isUpgradeEnabled(policy: ConsumerGroupMigrationPolicy): boolean {
  return policy === 'bidirectional' || policy === 'upgrade';
}

export function isDowngradeEnabled(policy: ConsumerGroupMigrationPolicy): boolean {
  return policy === 'bidirectional' || policy === 'downgrade';
}

/** Assigned partitions with the epoch each was assigned at: topic id → partition → assignment epoch. */
export type PartitionEpochs = ReadonlyMap<string, ReadonlyMap<number, number>>;

/** A target assignment (Kafka's modern.Assignment): topic id → partitions. */
export type TopicPartitionSets = ReadonlyMap<string, ReadonlySet<number>>;

/** One topic of the metadata image, as CoordinatorMetadataImage.TopicMetadata gives it. */
export interface TopicInfo {
  topicId: string;
  name: string;
  numPartitions: number;
}

/**
 * The topics the coordinator knows (Kafka's metadata image). The caller owns it and calls
 * ConsumerGroupHeartbeatHandler.onTopicsChanged() after topics are created, deleted or grow.
 */
export interface TopicMetadataImage {
  topicByName(name: string): TopicInfo | undefined;
  topicById(topicId: string): TopicInfo | undefined;
  /** Every topic name, in any order (regexes are resolved against them). */
  topicNames(): Iterable<string>;
}

/**
 * Kafka's CoordinatorTimer: one task per key; scheduling a key again replaces its task. Tasks run
 * on the caller's clock (the simulator's virtual clock) and call back into the handler.
 */
export interface CoordinatorTimer {
  schedule(key: string, delayMs: number, task: () => void): void;
  cancel(key: string): void;
  isScheduled(key: string): boolean;
}

/** The broker side of the group configs that shape a consumer group (GroupCoordinatorConfig, Kafka 4.4 defaults). */
export interface ConsumerGroupConfig {
  /** group.consumer.session.timeout.ms */
  sessionTimeoutMs: number;
  /** group.consumer.heartbeat.interval.ms */
  heartbeatIntervalMs: number;
  /** group.consumer.max.size */
  maxSize: number;
  /** group.consumer.assignors; the first one is the default. */
  assignors: ReadonlyArray<'uniform' | 'range'>;
  /** group.consumer.assignment.interval.ms: the least time between two target assignments of a group (0: none). */
  assignmentIntervalMs: number;
}

export const DEFAULT_CONSUMER_GROUP_CONFIG: ConsumerGroupConfig = {
  sessionTimeoutMs: 45000,
  heartbeatIntervalMs: 5000,
  maxSize: 2147483647,
  assignors: ['uniform', 'range'],
  assignmentIntervalMs: 1000,
};

/** Deep copy of a PartitionEpochs as mutable maps. */
export function copyPartitionEpochs(source: PartitionEpochs): Map<string, Map<number, number>> {
  return new Map([...source].map(([topicId, partitions]) => [topicId, new Map(partitions)]));
}

export function partitionEpochsEqual(a: PartitionEpochs, b: PartitionEpochs): boolean {
  if (a.size !== b.size) {
    return false;
  }
  for (const [topicId, partitions] of a) {
    const other = b.get(topicId);
    if (other?.size !== partitions.size) {
      return false;
    }
    for (const [partition, epoch] of partitions) {
      if (other.get(partition) !== epoch) {
        return false;
      }
    }
  }
  return true;
}

export function topicPartitionSetsEqual(a: TopicPartitionSets, b: TopicPartitionSets): boolean {
  if (a.size !== b.size) {
    return false;
  }
  for (const [topicId, partitions] of a) {
    const other = b.get(topicId);
    if (other?.size !== partitions.size || [...partitions].some((partition) => !other.has(partition))) {
      return false;
    }
  }
  return true;
}

/** Whether two assignments hold the same partitions, whatever their epochs (ModernGroupMember.hasAssignedPartitionsChanged). */
export function samePartitions(a: PartitionEpochs, b: PartitionEpochs): boolean {
  if (a.size !== b.size) {
    return false;
  }
  for (const [topicId, partitions] of a) {
    const other = b.get(topicId);
    if (other?.size !== partitions.size || [...partitions.keys()].some((partition) => !other.has(partition))) {
      return false;
    }
  }
  return true;
}
