/**
 * The storage side of the broker: each partition's log of batches with its high watermark, LSO and
 * transaction index (org.apache.kafka.storage.internals.log: UnifiedLog, TransactionIndex, the log
 * cleaner's compaction), the records a coordinator stores in `__consumer_offsets` (kept as built, keyed
 * and encoded through the writer's RecordSerde), and the cluster's brokers and topics (the metadata image).
 * It knows neither the coordinator nor the clients.
 */
export { SimCluster, type SimTopic } from './cluster';
export { PartitionLog, type StoredRecords } from './partitionLog';
export { CoordinatorRecordLog } from './coordinatorRecordLog';
export type { RecordSerde, StoredBatch } from './storedBatches';
export { TransactionIndex } from './transactionIndex';
