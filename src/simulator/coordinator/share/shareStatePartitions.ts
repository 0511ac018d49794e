/**
 * Which partitions' share state a group has in `__share_group_state` (Kafka 4.4's
 * ShareGroup.ShareGroupStatePartitionMetadataInfo, kept by GroupMetadataManager beside the group and written as
 * ShareGroupStatePartitionMetadata, record 15): partitions being initialized, initialized, and topics being
 * deleted. Only initialized partitions are assignable, so a share group's members get partitions only once the
 * share coordinator has created their state.
 */
import type { ShareGroupStatePartitionMetadataValueData } from '../../../protocol/messages/shareGroupStatePartitionMetadataValue';
import type { TopicPartitionSets } from '../group/modern/consumer/types';

/** ShareGroup.InitMapValue: the topic's name, partitions and when they were recorded (replay time, not persisted). */
export interface InitMapValue {
  readonly name: string;
  readonly partitions: ReadonlySet<number>;
  readonly timestamp: number;
}

/** Topic id → what is initializing or initialized. */
export type InitMap = ReadonlyMap<string, InitMapValue>;

export interface ShareGroupStatePartitionMetadataInfo {
  readonly initializingTopics: InitMap;
  readonly initializedTopics: InitMap;
  readonly deletingTopics: ReadonlySet<string>;
}

/** GroupMetadataManager.replay(ShareGroupStatePartitionMetadataKey, value): each entry stamped with the replay time. */
export function statePartitionMetadataOf(value: ShareGroupStatePartitionMetadataValueData, now: number): ShareGroupStatePartitionMetadataInfo {
  const initMap = (topics: ShareGroupStatePartitionMetadataValueData['initializingTopics']): InitMap =>
    new Map(topics.map(({ topicId, topicName, partitions }) => [topicId, { name: topicName, partitions: new Set(partitions), timestamp: now }]));
  return {
    initializingTopics: initMap(value.initializingTopics),
    initializedTopics: initMap(value.initializedTopics),
    deletingTopics: new Set(value.deletingTopics.map(({ topicId }) => topicId)),
  };
}

/** GroupMetadataManager.combineInitMaps: the union per topic; an initializing entry's name and timestamp win. */
export function combineInitMaps(initialized: InitMap, initializing: InitMap): Map<string, InitMapValue> {
  const combined = new Map<string, InitMapValue>();
  for (const topicId of new Set([...initialized.keys(), ...initializing.keys()])) {
    const done = initialized.get(topicId);
    const pending = initializing.get(topicId);
    combined.set(topicId, {
      name: pending?.name ?? done?.name ?? 'UNKNOWN',
      partitions: new Set([...(done?.partitions ?? []), ...(pending?.partitions ?? [])]),
      timestamp: pending?.timestamp ?? done?.timestamp ?? -1,
    });
  }
  return combined;
}

/** GroupMetadataManager.stripInitValue */
export function stripInitValue(initMap: InitMap): TopicPartitionSets {
  return new Map([...initMap].map(([topicId, value]) => [topicId, value.partitions]));
}
