/**
 * Kafka 4.4's InternalTopicManager.configureTopics: checks a streams topology against the cluster's topics.
 * Source topics must exist; internal topics get their partition counts (partitionCounts.ts); the ones
 * missing are returned to be created (the broker creates them, KafkaApis' createStreamsInternalTopics),
 * and an existing one with another partition count makes the topology INCORRECTLY_PARTITIONED_TOPICS.
 */
import type { TopicMetadataImage } from '../../group/modern/consumer/types';
import type { StreamsTopology, Subtopology, TopicInfo } from '../streamsTopology';
import {
  StreamsHeartbeatStatus, summarizeTopics, TopicConfigurationError, type ConfiguredInternalTopic, type ConfiguredSubtopology, type ConfiguredTopology,
} from './configuredTopology';
import {
  changelogTopicPartitionCounts, copartitionGroupsOf, enforceCopartitioning, numberOfTasks, repartitionTopicPartitionCounts, type PartitionCountOf,
} from './partitionCounts';

function throwOnMissingSourceTopics(topology: StreamsTopology, image: TopicMetadataImage): void {
  const missing = new Set<string>();
  for (const s of topology.subtopologies.values()) {
    s.sourceTopics.filter((t) => image.topicByName(t) === undefined).forEach((t) => missing.add(t));
  }
  if (missing.size > 0) {
    throw new TopicConfigurationError(StreamsHeartbeatStatus.MISSING_SOURCE_TOPICS, `Source topics ${summarizeTopics([...missing].sort())} are missing.`);
  }
}

function decidePartitionCounts(topology: StreamsTopology, image: TopicMetadataImage): Map<string, number> {
  const decided = new Map<string, number>();
  const countOf: PartitionCountOf = (topic) => image.topicByName(topic)?.numPartitions ?? decided.get(topic);
  const subtopologies = [...topology.subtopologies.values()];
  repartitionTopicPartitionCounts(subtopologies, countOf).forEach((n, t) => decided.set(t, n));
  const repartitionSources = subtopologies.flatMap((s) => s.repartitionSourceTopics);
  const fixed = new Set(repartitionSources.filter((t) => t.partitions !== 0).map((t) => t.name));
  const flexible = new Set(repartitionSources.filter((t) => t.partitions === 0).map((t) => t.name));
  for (const s of subtopologies) {
    for (const group of copartitionGroupsOf(s)) {
      enforceCopartitioning(group, fixed, flexible, countOf).forEach((n, t) => decided.set(t, n));
    }
  }
  changelogTopicPartitionCounts(subtopologies, countOf).forEach((n, t) => decided.set(t, n));
  return decided;
}

/** fromPersistedTopicInfo: a partition count of 0 means "as decided". */
function configuredInternalTopic(topic: TopicInfo, decided: ReadonlyMap<string, number>): ConfiguredInternalTopic {
  const partitions = topic.partitions === 0 ? decided.get(topic.name) : topic.partitions;
  if (partitions === undefined) {
    throw new Error(`Number of partitions must be set for topic ${topic.name}`);
  }
  return {
    name: topic.name,
    numberOfPartitions: partitions,
    ...(topic.replicationFactor === 0 ? {} : { replicationFactor: topic.replicationFactor }),
    topicConfigs: new Map(topic.topicConfigs.map(({ key, value }) => [key, value])),
  };
}

function configuredSubtopology(s: Subtopology, countOf: PartitionCountOf, decided: ReadonlyMap<string, number>): ConfiguredSubtopology {
  return {
    numberOfTasks: numberOfTasks(s, countOf),
    sourceTopics: new Set(s.sourceTopics),
    repartitionSourceTopics: new Map(s.repartitionSourceTopics.map((t) => [t.name, configuredInternalTopic(t, decided)])),
    repartitionSinkTopics: new Set(s.repartitionSinkTopics),
    stateChangelogTopics: new Map(s.stateChangelogTopics.map((t) => [t.name, configuredInternalTopic(t, decided)])),
  };
}

function missingInternalTopics(subtopologies: ReadonlyMap<string, ConfiguredSubtopology>, topology: StreamsTopology, image: TopicMetadataImage): Map<string, ConfiguredInternalTopic> {
  const toCreate = new Map<string, ConfiguredInternalTopic>();
  for (const s of subtopologies.values()) {
    s.repartitionSourceTopics.forEach((t) => toCreate.set(t.name, t));
    s.stateChangelogTopics.forEach((t) => toCreate.set(t.name, t));
  }
  for (const topic of topology.requiredTopics()) {
    const existing = image.topicByName(topic);
    const expected = toCreate.get(topic);
    if (existing === undefined) {continue;}
    toCreate.delete(topic);
    if (expected !== undefined && existing.numPartitions !== expected.numberOfPartitions) {
      throw new TopicConfigurationError(
        StreamsHeartbeatStatus.INCORRECTLY_PARTITIONED_TOPICS,
        `Existing topic ${topic} has different number of partitions: expected ${expected.numberOfPartitions}, found ${existing.numPartitions}`,
      );
    }
  }
  return toCreate;
}

/**
 * InternalTopicManager.configureTopics. A topic problem is returned in the configured topology (the
 * heartbeat reports it as a status); an invalid topology throws STREAMS_INVALID_TOPOLOGY.
 */
export function configureTopics(metadataHash: bigint, topology: StreamsTopology, image: TopicMetadataImage): ConfiguredTopology {
  try {
    throwOnMissingSourceTopics(topology, image);
    const decided = decidePartitionCounts(topology, image);
    const countOf: PartitionCountOf = (topic) => image.topicByName(topic)?.numPartitions ?? decided.get(topic);
    const ids = [...topology.subtopologies.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const subtopologies = new Map(ids.map((id) => [id, configuredSubtopology(topology.subtopologies.get(id) as Subtopology, countOf, decided)]));
    const toCreate = missingInternalTopics(subtopologies, topology, image);
    const base = { topologyEpoch: topology.topologyEpoch, metadataHash, subtopologies, internalTopicsToBeCreated: toCreate };
    return toCreate.size === 0
      ? base
      : { ...base, topicConfigurationError: new TopicConfigurationError(StreamsHeartbeatStatus.MISSING_INTERNAL_TOPICS, `Internal topics are missing: ${summarizeTopics(toCreate.keys())}`) };
  } catch (error) {
    if (error instanceof TopicConfigurationError) {
      return { topologyEpoch: topology.topologyEpoch, metadataHash, internalTopicsToBeCreated: new Map(), topicConfigurationError: error };
    }
    throw error;
  }
}
