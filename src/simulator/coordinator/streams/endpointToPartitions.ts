/**
 * Kafka 4.4's EndpointToPartitionsManager: for Interactive Queries, each member's user endpoint
 * (application.server) with the input partitions of its active and of its standby and warm-up tasks.
 */
import type { EndpointToPartitions, TopicPartition } from '../../../protocol/messages/streamsGroupHeartbeatResponse';
import type { TopicMetadataImage } from '../group/modern/consumer/types';
import type { StreamsGroup } from './streamsGroup';
import type { StreamsGroupMember } from './streamsGroupMember';
import { activeTaskSet, type TaskSet } from './tasksTuple';
import type { ConfiguredSubtopology, ConfiguredTopology } from './topics/configuredTopology';

function topicPartitions(tasks: TaskSet, subtopologies: ReadonlyMap<string, ConfiguredSubtopology>, image: TopicMetadataImage): TopicPartition[] {
  const result: TopicPartition[] = [];
  for (const [subtopologyId, partitions] of tasks) {
    const subtopology = subtopologies.get(subtopologyId);
    if (subtopology === undefined) {continue;}
    for (const topic of new Set([...subtopology.sourceTopics, ...subtopology.repartitionSourceTopics.keys()])) {
      const count = image.topicByName(topic)?.numPartitions ?? 0;
      const inTopic = [...partitions].filter((p) => p < count).sort((a, b) => a - b);
      if (inTopic.length > 0) {result.push({ topic, partitions: inTopic });}
    }
  }
  return result;
}

function memberEndpoint(member: StreamsGroupMember, subtopologies: ReadonlyMap<string, ConfiguredSubtopology>, image: TopicMetadataImage): EndpointToPartitions | undefined {
  if (member.userEndpoint === null) {
    return undefined;
  }
  const assigned = member.assignedTasks;
  const replicas = new Map<string, Set<number>>();
  for (const tasks of [assigned.standbyTasks, assigned.warmupTasks]) {
    tasks.forEach((partitions, s) => replicas.set(s, new Set([...(replicas.get(s) ?? []), ...partitions])));
  }
  return {
    userEndpoint: { ...member.userEndpoint },
    activePartitions: topicPartitions(activeTaskSet(assigned), subtopologies, image),
    standbyPartitions: topicPartitions(replicas, subtopologies, image),
  };
}

/**
 * buildEndpointToPartitions: every other member's endpoint (not a static member it replaces), then the updated member's. A topology not yet
 * configured maps no task to partitions (Kafka 4.4 would fail the heartbeat there).
 */
export function endpointToPartitions(group: StreamsGroup, updated: StreamsGroupMember, topology: ConfiguredTopology, image: TopicMetadataImage): EndpointToPartitions[] {
  const subtopologies = topology.subtopologies ?? new Map<string, ConfiguredSubtopology>();
  const others = [...group.members.values()].filter((m) => m.memberId !== updated.memberId && (m.instanceId === null || m.instanceId !== updated.instanceId));
  return [...others, updated].map((m) => memberEndpoint(m, subtopologies, image)).filter((e): e is EndpointToPartitions => e !== undefined);
}
