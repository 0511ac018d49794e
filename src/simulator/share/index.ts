/**
 * KIP-932 share partitions as a Kafka 4.4 broker keeps them on each partition's leader (kafka.server.share:
 * SharePartition with its in-flight batches and record states, SharePartitionManager with the share sessions
 * of ShareSessionCache), and the share coordinator's state of each share partition (ShareStateStore, after
 * org.apache.kafka.coordinator.share.ShareCoordinatorShard). It reads the logs and knows neither the group
 * coordinator nor the clients; the group coordinator reaches the state only through its persister seam.
 */
export { SharePartition, type SharePartitionConfig, type PersistedShareState, type ShareStateWrite } from './sharePartition';
export { SharePartitionManager, DEFAULT_SHARE_GROUP_SETTINGS, type ShareGroupSettings } from './sharePartitionManager';
export { ShareStateStore, combineStateBatches } from './shareStateStore';
export { ShareSessionCache, type ShareSession } from './shareSessionCache';
export { clusterShareLogs } from './clusterShareLogs';
export type { InFlightRange } from './inFlightRecords';
export { AcknowledgeType, type RecordState } from './recordState';
