/**
 * AlterShareGroupOffsets and DeleteShareGroupOffsets as Kafka 4.4's GroupMetadataManager prepares them
 * (alterShareGroupOffsets, sharePartitionsEligibleForOffsetDeletion, completeDeleteShareGroupOffsets): which
 * partitions each request touches, the per-partition and per-topic answers, and the
 * ShareGroupStatePartitionMetadata record that marks them initializing or deleting before the share
 * coordinator is asked to write or delete their state.
 */
import type { TopicMetadataImage } from '../group/modern/consumer/types';
import { newShareGroupStatePartitionMetadataRecord, type ShareGroupRecord } from './records';
import type { ShareGroup } from './shareGroup';
import { initializingTopicsRecord } from './shareStateInitialization';
import type { InitMapValue } from './shareStatePartitions';

export interface AlterShareOffsetsTopic {
  topicName: string;
  partitions: readonly { partitionIndex: number; startOffset: number }[];
}

export interface ShareOffsetsPartitionResult {
  partitionIndex: number;
  /** Errors name, 'NONE' on success. */
  error: string;
}

export interface AlterShareOffsetsTopicResult {
  topicName: string;
  /** Absent for a topic the cluster does not have. */
  topicId?: string;
  partitions: ShareOffsetsPartitionResult[];
}

/** What an alteration writes and asks of the share coordinator. */
export interface AlterShareOffsetsPlan {
  records: ShareGroupRecord[];
  topics: AlterShareOffsetsTopicResult[];
  /** Topic id → partition → the new start offset. */
  offsets: Map<string, Map<number, number>>;
}

/** GroupMetadataManager.alterShareGroupOffsets for a group the caller checked is empty. */
export function alterShareGroupOffsetsPlan(group: ShareGroup, topics: readonly AlterShareOffsetsTopic[], metadataImage: TopicMetadataImage, now: number): AlterShareOffsetsPlan {
  const initializing = new Map<string, InitMapValue>();
  const offsets = new Map<string, Map<number, number>>();
  const results = topics.map((topic): AlterShareOffsetsTopicResult => {
    const metadata = metadataImage.topicByName(topic.topicName);
    if (metadata === undefined) {
      return { topicName: topic.topicName, partitions: topic.partitions.map((p) => ({ partitionIndex: p.partitionIndex, error: 'UNKNOWN_TOPIC_OR_PARTITION' })) };
    }
    const valid = topic.partitions.filter((p) => p.partitionIndex >= 0 && p.partitionIndex < metadata.numPartitions);
    for (const p of valid) {
      const byPartition = offsets.get(metadata.topicId) ?? new Map<number, number>();
      byPartition.set(p.partitionIndex, p.startOffset);
      offsets.set(metadata.topicId, byPartition);
    }
    initializing.set(metadata.topicId, { name: topic.topicName, partitions: new Set(valid.map((p) => p.partitionIndex)), timestamp: now });
    return {
      topicName: topic.topicName,
      topicId: metadata.topicId,
      partitions: topic.partitions.map((p) => ({ partitionIndex: p.partitionIndex, error: valid.includes(p) ? 'NONE' : 'UNKNOWN_TOPIC_OR_PARTITION' })),
    };
  });
  // addInitializingTopicsRecords: nothing to write when no topic was known.
  const records = initializing.size === 0 ? [] : [initializingTopicsRecord(group, initializing, metadataImage)];
  return { records, topics: results, offsets };
}

export interface DeleteShareOffsetsTopicResult {
  topicName: string;
  topicId?: string;
  error: string;
  errorMessage: string | null;
}

/** What a deletion writes and asks of the share coordinator. */
export interface DeleteShareOffsetsPlan {
  records: ShareGroupRecord[];
  /** The topics refused at once. */
  errors: DeleteShareOffsetsTopicResult[];
  /** Topic id → the partitions whose state to delete, with the topic's name. */
  toDelete: Map<string, { name: string; partitions: number[] }>;
}

function attachTopicNames(topicIds: Iterable<string>, metadataImage: TopicMetadataImage): Map<string, string> {
  return new Map([...topicIds].map((topicId) => [topicId, metadataImage.topicById(topicId)?.name ?? '<UNKNOWN>']));
}

/** GroupMetadataManager.sharePartitionsEligibleForOffsetDeletion: initialized topics move to deleting. */
export function deleteShareGroupOffsetsPlan(group: ShareGroup, topicNames: readonly string[], metadataImage: TopicMetadataImage): DeleteShareOffsetsPlan {
  const info = group.statePartitionMetadata;
  const toDelete = new Map<string, { name: string; partitions: number[] }>();
  if (info === undefined) {
    return { records: [], errors: [], toDelete };
  }
  const initialized = new Map(info.initializedTopics);
  const deleting = new Set(info.deletingTopics);
  const errors: DeleteShareOffsetsTopicResult[] = [];
  for (const topicName of topicNames) {
    const metadata = metadataImage.topicByName(topicName);
    if (metadata === undefined) {
      errors.push({ topicName, error: 'UNKNOWN_TOPIC_OR_PARTITION', errorMessage: 'This server does not host this topic-partition.' });
    } else if (initialized.has(metadata.topicId)) {
      toDelete.set(metadata.topicId, { name: topicName, partitions: [...(initialized.get(metadata.topicId)?.partitions ?? [])].sort((a, b) => a - b) });
      initialized.delete(metadata.topicId);
      deleting.add(metadata.topicId);
    } else if (deleting.has(metadata.topicId)) {
      toDelete.set(metadata.topicId, { name: topicName, partitions: [...Array(metadata.numPartitions).keys()] });
    } else {
      errors.push({ topicName, error: 'UNKNOWN_TOPIC_OR_PARTITION', errorMessage: 'There is no offset information to delete.' });
    }
  }
  const records = [newShareGroupStatePartitionMetadataRecord(group.groupId, info.initializingTopics, initialized, attachTopicNames(deleting, metadataImage))];
  return { records, errors, toDelete };
}

/** GroupMetadataManager.completeDeleteShareGroupOffsets: the deleted topics leave the deleting set. */
export function completeDeleteShareGroupOffsetsRecord(group: ShareGroup, deletedTopicIds: ReadonlySet<string>, metadataImage: TopicMetadataImage): ShareGroupRecord[] {
  const info = group.statePartitionMetadata;
  if (info === undefined) {
    return [];
  }
  const deleting = [...info.deletingTopics].filter((topicId) => !deletedTopicIds.has(topicId));
  return [newShareGroupStatePartitionMetadataRecord(group.groupId, info.initializingTopics, info.initializedTopics, attachTopicNames(deleting, metadataImage))];
}
