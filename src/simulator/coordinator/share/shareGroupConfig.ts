/**
 * The broker configs that shape share groups (GroupCoordinatorConfig of Kafka 4.4, with its defaults) and the seam
 * the share engine is given by its caller.
 */
import type { OperationCause } from '../../../timeline/consumerGroupEvents';
import type { CoordinatorTimer, TopicMetadataImage, TopicPartitionSets } from '../group/modern/consumer/types';
import type { ShareGroupRecord } from './records';

export interface ShareGroupConfig {
  /** group.share.session.timeout.ms */
  sessionTimeoutMs: number;
  /** group.share.heartbeat.interval.ms */
  heartbeatIntervalMs: number;
  /** group.share.max.size */
  maxSize: number;
  /** group.share.assignment.interval.ms: target assignments are computed at most this often. */
  assignmentIntervalMs: number;
  /** group.share.initialize.retry.interval.ms: partitions still initializing after this long are asked for again. */
  initializeRetryIntervalMs: number;
}

export const DEFAULT_SHARE_GROUP_CONFIG: ShareGroupConfig = Object.freeze({
  sessionTimeoutMs: 45_000,
  heartbeatIntervalMs: 5_000,
  maxSize: 200,
  assignmentIntervalMs: 1_000,
  initializeRetryIntervalMs: 30_000,
});

export interface ShareGroupHeartbeatHandlerOptions {
  /** Milliseconds on the simulator's clock. */
  now: () => number;
  timer: CoordinatorTimer;
  metadataImage: TopicMetadataImage;
  /** Where the engine's records go (the group's `__consumer_offsets` partition), in Kafka's order. */
  records: (groupId: string, records: readonly ShareGroupRecord[], cause: OperationCause) => void;
  config?: Partial<ShareGroupConfig>;
  /** The share coordinator, where the state of newly assigned partitions is created; none: it always succeeds. */
  persister?: ShareStatePersister;
}

/**
 * The share coordinator as the group coordinator calls it (Persister). initializeState: each partition's state
 * at the group epoch with its start offset (-1 for a topic the group never had: share.auto.offset.reset decides;
 * 0 for new partitions of a known topic; the requested one for AlterShareGroupOffsets). deleteState: the
 * partitions' state goes. A throw leaves the partitions as they were recorded (initializing, deleting).
 */
export interface ShareStatePersister {
  initializeState(groupId: string, stateEpoch: number, startOffsets: ReadonlyMap<string, ReadonlyMap<number, number>>): void;
  deleteState(groupId: string, partitions: TopicPartitionSets): void;
}

/** GroupMetadataManager.groupSessionTimeoutKey */
export const shareSessionTimeoutKey = (groupId: string, memberId: string): string => `session-timeout-${groupId}-${memberId}`;
/** The timer task GroupCoordinatorService adds to initialize the share state a heartbeat asked for. */
export const sharePersisterInitializeKey = (groupId: string, groupEpoch: number): string => `share-persister-initialize-${groupId}-${groupEpoch}`;
