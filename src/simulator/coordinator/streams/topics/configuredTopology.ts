/**
 * A streams topology configured against the cluster's topics (Kafka 4.4's ConfiguredTopology,
 * ConfiguredSubtopology, ConfiguredInternalTopic and TopicConfigurationException): how many tasks each
 * subtopology has, the internal topics with their decided partition counts, which of them are still to be
 * created, or why the topology cannot run yet (the heartbeat's status).
 */
import type { Subtopology as DescribedSubtopology } from '../../../../protocol/messages/streamsGroupDescribeResponse';
import { compare } from '../streamsTopology';

/** StreamsGroupHeartbeatResponse.Status codes of Kafka 4.4. */
export enum StreamsHeartbeatStatus {
  STALE_TOPOLOGY = 0,
  MISSING_SOURCE_TOPICS = 1,
  INCORRECTLY_PARTITIONED_TOPICS = 2,
  MISSING_INTERNAL_TOPICS = 3,
  SHUTDOWN_APPLICATION = 4,
  ASSIGNMENT_DELAYED = 5,
  MISSING_CLIENT_TAGS = 6,
}

/** TopicConfigurationException: the topology is valid but the topics are not (yet) as it needs them. */
export class TopicConfigurationError extends Error {
  constructor(readonly status: StreamsHeartbeatStatus, message: string) {
    super(message);
    this.name = 'TopicConfigurationError';
  }
}

/** ConfiguredInternalTopic, and the CreatableTopic the broker creates from it. */
export type { ConfiguredInternalTopic } from '../../../common/requests';
import type { ConfiguredInternalTopic } from '../../../common/requests';

export interface ConfiguredSubtopology {
  numberOfTasks: number;
  sourceTopics: ReadonlySet<string>;
  repartitionSourceTopics: ReadonlyMap<string, ConfiguredInternalTopic>;
  repartitionSinkTopics: ReadonlySet<string>;
  stateChangelogTopics: ReadonlyMap<string, ConfiguredInternalTopic>;
}

export interface ConfiguredTopology {
  topologyEpoch: number;
  metadataHash: bigint;
  /** Sorted by id; absent when the topics could not be configured. */
  subtopologies?: ReadonlyMap<string, ConfiguredSubtopology>;
  internalTopicsToBeCreated: ReadonlyMap<string, ConfiguredInternalTopic>;
  topicConfigurationError?: TopicConfigurationError;
}

/** ConfiguredTopology.isReady */
export function isTopologyReady(topology: ConfiguredTopology): boolean {
  return topology.topicConfigurationError === undefined;
}

function describedTopic(topic: ConfiguredInternalTopic): DescribedSubtopology['stateChangelogTopics'][number] {
  return {
    name: topic.name,
    partitions: topic.numberOfPartitions,
    replicationFactor: topic.replicationFactor ?? 0,
    topicConfigs: [...topic.topicConfigs].map(([key, value]) => ({ key, value })),
  };
}

/** ConfiguredSubtopology.asStreamsGroupDescribeSubtopology, in subtopology order. */
export function describedConfiguredSubtopologies(subtopologies: ReadonlyMap<string, ConfiguredSubtopology>): DescribedSubtopology[] {
  return [...subtopologies].map(([subtopologyId, s]) => ({
    subtopologyId,
    sourceTopics: [...s.sourceTopics].sort(compare),
    repartitionSinkTopics: [...s.repartitionSinkTopics].sort(compare),
    repartitionSourceTopics: [...s.repartitionSourceTopics.values()].map(describedTopic).sort((a, b) => compare(a.name, b.name)),
    stateChangelogTopics: [...s.stateChangelogTopics.values()].map(describedTopic).sort((a, b) => compare(a.name, b.name)),
  }));
}

/** InternalTopicManager.summarizeTopics: at most three names, then a count. */
export function summarizeTopics(topics: Iterable<string>): string {
  const all = [...topics];
  if (all.length === 0) {
    return '<none>';
  }
  const shown = all.slice(0, 3).join(', ');
  return all.length > 3 ? `${shown} and ${all.length - 3} additional topics` : shown;
}
