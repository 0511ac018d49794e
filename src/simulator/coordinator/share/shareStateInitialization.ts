/**
 * How Kafka 4.4's GroupMetadataManager gets a share group's partitions initialized in the share coordinator
 * before it assigns them: a heartbeat records the subscribed partitions not yet initialized as initializing
 * (maybeCreateInitializeShareGroupStateRequest) and asks the persister to create their state; its success is
 * written as initialized (initializeShareGroupState), and the next heartbeat bumps the group epoch so the
 * assignor hands them out (initializedAssignmentPending).
 */
import type { TopicMetadataImage, TopicPartitionSets } from '../group/modern/consumer/types';
import { newShareGroupStatePartitionMetadataRecord, type ShareGroupRecord } from './records';
import type { ShareGroup } from './shareGroup';
import { combineInitMaps, type InitMap, type InitMapValue } from './shareStatePartitions';

/** attachTopicName */
function attachTopicName(topicIds: Iterable<string>, metadataImage: TopicMetadataImage): Map<string, string> {
  return new Map([...topicIds].map((topicId) => [topicId, metadataImage.topicById(topicId)?.name ?? '<UNKNOWN>']));
}

/** initializedAssignmentPending: some subscribed, initialized partitions are in nobody's target assignment yet. */
export function initializedAssignmentPending(group: ShareGroup): boolean {
  const info = group.statePartitionMetadata;
  if (group.members.size === 0 || info === undefined || info.initializedTopics.size === 0) {
    return false;
  }
  const subscribed = group.subscribedTopicNames();
  if (subscribed.size === 0) {
    return false;
  }
  const currentAssigned = new Map<string, Set<number>>();
  for (const assignment of group.targetAssignment.values()) {
    for (const [topicId, partitions] of assignment) {
      const set = currentAssigned.get(topicId) ?? new Set<number>();
      partitions.forEach((p) => set.add(p));
      currentAssigned.set(topicId, set);
    }
  }
  for (const [topicId, value] of info.initializedTopics) {
    const assigned = currentAssigned.get(topicId);
    const sameAsAssigned = assigned !== undefined && assigned.size === value.partitions.size && [...assigned].every((p) => value.partitions.has(p));
    if (subscribed.has(value.name) && !sameAsAssigned) {
      return true;
    }
  }
  return false;
}

/** subscribedTopicsChangeMap: per subscribed topic, the partitions neither initialized nor recently asked for. */
export function subscribedTopicsChangeMap(group: ShareGroup, topicNames: Iterable<string>, metadataImage: TopicMetadataImage, now: number, retryIntervalMs: number): Map<string, InitMapValue> {
  const info = group.statePartitionMetadata;
  const recent = new Map([...(info?.initializingTopics ?? [])].filter(([, value]) => now - value.timestamp < retryIntervalMs));
  const alreadyInitialized = info === undefined ? new Map<string, InitMapValue>() : combineInitMaps(info.initializedTopics, recent);
  const changes = new Map<string, InitMapValue>();
  for (const name of topicNames) {
    const topic = metadataImage.topicByName(name);
    if (topic === undefined) {
      continue;
    }
    const done = alreadyInitialized.get(topic.topicId)?.partitions ?? new Set<number>();
    if (done.size < topic.numPartitions && !changes.has(topic.topicId)) {
      const partitions = new Set([...Array(topic.numPartitions).keys()].filter((p) => !done.has(p)));
      changes.set(topic.topicId, { name: topic.name, partitions, timestamp: now });
    }
  }
  return changes;
}

/** addInitializingTopicsRecords: the record that marks `changes` as initializing; a topic being deleted is no longer. */
export function initializingTopicsRecord(group: ShareGroup, changes: InitMap, metadataImage: TopicMetadataImage): ShareGroupRecord {
  const info = group.statePartitionMetadata;
  if (info === undefined) {
    return newShareGroupStatePartitionMetadataRecord(group.groupId, changes, new Map(), new Map());
  }
  const initializing = combineInitMaps(info.initializingTopics, changes);
  const deleting = [...info.deletingTopics].filter((topicId) => !initializing.has(topicId));
  return newShareGroupStatePartitionMetadataRecord(group.groupId, initializing, info.initializedTopics, attachTopicName(deleting, metadataImage));
}

/** initializeShareGroupState: the persister created the state of these partitions; they move from initializing to initialized. */
export function initializedTopicsRecords(group: ShareGroup, topicPartitions: TopicPartitionSets, metadataImage: TopicMetadataImage, now: number): ShareGroupRecord[] {
  if (topicPartitions.size === 0) {
    return [];
  }
  // attachInitValue: the names from the image, stamped now.
  const enriched = new Map([...topicPartitions].map(([topicId, partitions]): [string, InitMapValue] =>
    [topicId, { name: metadataImage.topicById(topicId)?.name ?? '<UNKNOWN>', partitions, timestamp: now }]));
  const info = group.statePartitionMetadata;
  if (info === undefined) {
    return [newShareGroupStatePartitionMetadataRecord(group.groupId, new Map(), enriched, new Map())];
  }
  const initialized = combineInitMaps(info.initializedTopics, enriched);
  const initializing = new Map<string, InitMapValue>();
  for (const [topicId, value] of info.initializingTopics) {
    const remaining = new Set([...value.partitions].filter((p) => topicPartitions.get(topicId)?.has(p) !== true));
    if (remaining.size > 0) {
      initializing.set(topicId, { ...value, partitions: remaining });
    }
  }
  return [newShareGroupStatePartitionMetadataRecord(group.groupId, initializing, initialized, attachTopicName(info.deletingTopics, metadataImage))];
}
