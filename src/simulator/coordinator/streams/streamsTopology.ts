/**
 * A streams group's topology as the coordinator keeps it (Kafka 4.4's StreamsTopology): the subtopologies a
 * member sent in its first heartbeat, stored as StreamsGroupTopologyValue, with the source topics (external
 * and repartition) mapped to their subtopology. A topology is set once per epoch; 4.4 refuses updates.
 */
import type { Topology as HeartbeatTopology, TopicInfo as HeartbeatTopicInfo } from '../../../protocol/messages/streamsGroupHeartbeatRequest';
import type { Subtopology as DescribedSubtopology, TopicInfo as DescribedTopicInfo } from '../../../protocol/messages/streamsGroupDescribeResponse';
import type { StreamsGroupTopologyValueData, Subtopology, TopicInfo } from '../../../protocol/messages/streamsGroupTopologyValue';

export type { Subtopology, TopicInfo } from '../../../protocol/messages/streamsGroupTopologyValue';

export class StreamsTopology {
  /** Source and repartition-source topic → its subtopology. */
  readonly sourceTopicMap: ReadonlyMap<string, Subtopology>;

  constructor(readonly topologyEpoch: number, readonly subtopologies: ReadonlyMap<string, Subtopology>) {
    if (topologyEpoch < 0) {
      throw new Error('Topology epoch must be non-negative.');
    }
    const sources = new Map<string, Subtopology>();
    for (const subtopology of subtopologies.values()) {
      subtopology.sourceTopics.forEach((topic) => sources.set(topic, subtopology));
      subtopology.repartitionSourceTopics.forEach((topic) => sources.set(topic.name, subtopology));
    }
    this.sourceTopicMap = sources;
  }

  /** StreamsTopology.fromRecord */
  static fromRecord(value: StreamsGroupTopologyValueData): StreamsTopology {
    return new StreamsTopology(value.epoch, new Map(value.subtopologies.map((s) => [s.subtopologyId, s])));
  }

  /** StreamsTopology.fromHeartbeatRequest */
  static fromHeartbeatRequest(topology: HeartbeatTopology): StreamsTopology {
    return StreamsTopology.fromRecord(topologyRecordOf(topology));
  }

  /** requiredTopics: every source, repartition-source and changelog topic. */
  requiredTopics(): Set<string> {
    const topics = new Set<string>();
    for (const s of this.subtopologies.values()) {
      s.sourceTopics.forEach((t) => topics.add(t));
      s.repartitionSourceTopics.forEach((t) => topics.add(t.name));
      s.stateChangelogTopics.forEach((t) => topics.add(t.name));
    }
    return topics;
  }

  /** The record's equals: epoch and every subtopology field for field, lists in order. */
  equals(other: StreamsTopology): boolean {
    if (this.topologyEpoch !== other.topologyEpoch || this.subtopologies.size !== other.subtopologies.size) {
      return false;
    }
    for (const [id, subtopology] of this.subtopologies) {
      const theirs = other.subtopologies.get(id);
      if (theirs === undefined || canonical(subtopology) !== canonical(theirs)) {
        return false;
      }
    }
    return true;
  }

  /** asStreamsGroupDescribeTopology: what describe shows before the topology is configured (partitions as sent). */
  describedSubtopologies(): DescribedSubtopology[] {
    return [...this.subtopologies].sort(([a], [b]) => compare(a, b)).map(([subtopologyId, s]) => ({
      subtopologyId,
      sourceTopics: [...s.sourceTopics].sort(compare),
      repartitionSinkTopics: [...s.repartitionSinkTopics].sort(compare),
      repartitionSourceTopics: s.repartitionSourceTopics.map(describedTopicInfo).sort((a, b) => compare(a.name, b.name)),
      stateChangelogTopics: s.stateChangelogTopics.map(describedTopicInfo).sort((a, b) => compare(a.name, b.name)),
    }));
  }
}

export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function describedTopicInfo(topic: TopicInfo): DescribedTopicInfo {
  return { name: topic.name, partitions: topic.partitions, replicationFactor: topic.replicationFactor, topicConfigs: topic.topicConfigs.map(({ key, value }) => ({ key, value })) };
}

/** The fields the generated record compares, without the codec's unknown tagged fields. */
function canonical(s: Subtopology): string {
  const info = (t: TopicInfo) => [t.name, t.partitions, t.replicationFactor, t.topicConfigs.map((c) => [c.key, c.value])];
  return JSON.stringify([
    s.subtopologyId, s.sourceTopics, s.sourceTopicRegex, s.stateChangelogTopics.map(info), s.repartitionSinkTopics, s.repartitionSourceTopics.map(info),
    s.copartitionGroups.map((g) => [g.sourceTopics, g.sourceTopicRegex, g.repartitionSourceTopics]),
  ]);
}

function topicInfoOf(topic: HeartbeatTopicInfo): TopicInfo {
  return { name: topic.name, partitions: topic.partitions, replicationFactor: topic.replicationFactor, topicConfigs: topic.topicConfigs.map(({ key, value }) => ({ key, value })) };
}

/** StreamsCoordinatorRecordHelpers.convertToStreamsGroupTopologyRecord */
export function topologyRecordOf(topology: HeartbeatTopology): StreamsGroupTopologyValueData {
  return {
    epoch: topology.epoch,
    subtopologies: topology.subtopologies.map((s) => ({
      subtopologyId: s.subtopologyId,
      sourceTopics: [...s.sourceTopics],
      sourceTopicRegex: [...s.sourceTopicRegex],
      repartitionSinkTopics: [...s.repartitionSinkTopics],
      repartitionSourceTopics: s.repartitionSourceTopics.map(topicInfoOf),
      stateChangelogTopics: s.stateChangelogTopics.map(topicInfoOf),
      copartitionGroups: s.copartitionGroups.map((g) => ({ sourceTopics: [...g.sourceTopics], sourceTopicRegex: [...g.sourceTopicRegex], repartitionSourceTopics: [...g.repartitionSourceTopics] })),
    })),
  };
}
