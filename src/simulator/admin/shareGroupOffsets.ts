/**
 * A share group's offsets as Kafka 4.4's GroupCoordinatorService answers DescribeShareGroupOffsets: for the topics
 * asked (or, with none, every partition the group has initialized), the share coordinator's start offset and
 * leader epoch, and the lag as computeShareGroupLagAndBuildResponse computes it: the partition's latest offset
 * minus the start offset minus the delivery-complete count (-1 where the partition has no state). The group's
 * share configs as DescribeConfigs on the GROUP resource lists them.
 */
import type { Simulation } from '../simulation';
import type { ShareGroupSettings } from '../share/sharePartitionManager';

export interface ShareOffsetsPartition {
  partitionIndex: number;
  /** -1 where the partition has no share state. */
  startOffset: number;
  leaderEpoch: number;
  /** -1 where it cannot be computed. */
  lag: number;
}

export interface ShareOffsetsTopic {
  topicName: string;
  /** The zero id for a topic the cluster does not have. */
  topicId: string;
  partitions: ShareOffsetsPartition[];
}

const ZERO_UUID = 'AAAAAAAAAAAAAAAAAAAAAA';

/** describeShareGroupOffsets (named topics) or describeShareGroupAllOffsets (topics null), sorted by topic name. */
export function describeShareGroupOffsets(sim: Simulation, groupId: string, topics: readonly { topicName: string; partitions: readonly number[] }[] | null): ShareOffsetsTopic[] {
  const asked = topics ?? initializedPartitions(sim, groupId);
  return asked.map(({ topicName, partitions }): ShareOffsetsTopic => {
    const topic = sim.cluster.topic(topicName);
    if (topic === undefined) {
      return { topicName, topicId: ZERO_UUID, partitions: partitions.map((partitionIndex) => ({ partitionIndex, startOffset: -1, leaderEpoch: 0, lag: -1 })) };
    }
    return {
      topicName,
      topicId: topic.topicId,
      partitions: partitions.map((partitionIndex) => {
        const summary = sim.shareStates.summary(groupId, topic.topicId, partitionIndex);
        const log = topic.partitions[partitionIndex];
        const computable = summary.startOffset !== -1 && summary.deliveryCompleteCount !== -1 && log !== undefined;
        return {
          partitionIndex,
          startOffset: summary.startOffset,
          leaderEpoch: summary.leaderEpoch,
          lag: computable ? log.highWatermark - summary.startOffset - summary.deliveryCompleteCount : -1,
        };
      }),
    };
  }).sort((a, b) => (a.topicName < b.topicName ? -1 : a.topicName > b.topicName ? 1 : 0));
}

/** GroupMetadataManager.initializedShareGroupPartitions: what the share-state initialization finished, by topic name. */
function initializedPartitions(sim: Simulation, groupId: string): { topicName: string; partitions: number[] }[] {
  const initialized = sim.coordinator.shareGroup(groupId)?.statePartitionMetadata?.initializedTopics;
  if (initialized === undefined) {
    return [];
  }
  const result: { topicName: string; partitions: number[] }[] = [];
  for (const [topicId, value] of initialized) {
    const topic = sim.cluster.topicById(topicId);
    if (topic !== undefined) {
      result.push({ topicName: topic.name, partitions: [...value.partitions].sort((a, b) => a - b) });
    }
  }
  return result;
}

/** The group's share configs by name, as DescribeConfigs answers them (defaults included). */
export function shareGroupConfigEntries(settings: ShareGroupSettings): Record<string, string | null> {
  return {
    'share.auto.offset.reset': settings.autoOffsetReset,
    'share.isolation.level': settings.isolationLevel,
    'share.record.lock.duration.ms': String(settings.recordLockDurationMs),
    'share.delivery.count.limit': String(settings.deliveryCountLimit),
    'share.partition.max.record.locks': String(settings.partitionMaxRecordLocks),
    'share.renew.acknowledge.enable': String(settings.renewAcknowledgeEnable),
    'errors.deadletterqueue.topic.name': settings.deadLetterTopic ?? '',
  };
}
