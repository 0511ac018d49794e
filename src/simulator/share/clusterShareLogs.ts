/**
 * The simulated cluster's logs as share partitions read them: a partition's offsets by topic id, and the
 * dead-letter write of KIP-1191 (one record per archived record, appended to the dead-letter topic's partition
 * of the same number, modulo its partition count).
 */
import type { VirtualClock } from '../common/clock';
import type { SimCluster } from '../log/cluster';
import type { DeadLetterRecords } from './sharePartition';
import type { SharePartitionLogs } from './sharePartitionManager';

export function clusterShareLogs(cluster: SimCluster, clock: VirtualClock): SharePartitionLogs {
  return {
    offsets: (topicId, partition) => {
      const log = cluster.topicById(topicId)?.partitions[partition];
      return log === undefined ? undefined : { logStartOffset: log.logStartOffset, highWatermark: log.highWatermark };
    },
    offsetForTimestamp: (topicId, partition, timestampMs) => cluster.topicById(topicId)?.partitions[partition]?.offsetForTimestamp(timestampMs) ?? null,
    writeDeadLetters: (_groupId: string, _topicId: string, partition: number, records: DeadLetterRecords) => {
      const topic = cluster.topic(records.topic);
      if (topic === undefined || topic.partitions.length === 0) {
        throw new Error(`the dead-letter topic ${records.topic} does not exist`);
      }
      const log = topic.partitions[partition % topic.partitions.length];
      log.append(records.lastOffset - records.firstOffset + 1, clock.now);
    },
  };
}
