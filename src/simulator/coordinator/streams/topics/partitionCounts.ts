/**
 * How Kafka 4.4's broker decides the partition counts of a streams topology's internal topics: repartition
 * topics from the subtopologies that write them (RepartitionTopics), copartitioned topics made equal
 * (CopartitionedTopicsEnforcer), changelog topics one partition per task (ChangelogTopics). Errors carry
 * Kafka's messages: StreamsInvalidTopologyException as STREAMS_INVALID_TOPOLOGY, a bad existing topic as
 * INCORRECTLY_PARTITIONED_TOPICS.
 */
import { KafkaApiError } from '../../../common/errors';
import type { Subtopology } from '../streamsTopology';
import { StreamsHeartbeatStatus, TopicConfigurationError } from './configuredTopology';

/** A topic's partition count: the cluster's, or the one decided for an internal topic not created yet. */
export type PartitionCountOf = (topic: string) => number | undefined;

function invalidTopology(message: string): KafkaApiError {
  return new KafkaApiError('STREAMS_INVALID_TOPOLOGY', message);
}

function incorrectlyPartitioned(message: string): TopicConfigurationError {
  return new TopicConfigurationError(StreamsHeartbeatStatus.INCORRECTLY_PARTITIONED_TOPICS, message);
}

function sourceTopicsOf(subtopology: Subtopology): string[] {
  return [...subtopology.sourceTopics, ...subtopology.repartitionSourceTopics.map((t) => t.name)];
}

/** RepartitionTopics.computePartitionCount: the largest of the subtopology's known source counts. */
function partitionCountOfSources(subtopology: Subtopology, decided: ReadonlyMap<string, number>, countOf: PartitionCountOf): number | undefined {
  let count: number | undefined;
  for (const topic of subtopology.repartitionSourceTopics) {
    const candidate = decided.get(topic.name);
    if (candidate !== undefined && (count === undefined || candidate > count)) {count = candidate;}
  }
  for (const topic of subtopology.sourceTopics) {
    const candidate = countOf(topic);
    if (candidate !== undefined && (count === undefined || candidate > count)) {count = candidate;}
  }
  return count;
}

/** RepartitionTopics.setup */
export function repartitionTopicPartitionCounts(subtopologies: readonly Subtopology[], countOf: PartitionCountOf): Map<string, number> {
  const missing = new Set<string>();
  for (const s of subtopologies) {
    const repartition = new Set(s.repartitionSourceTopics.map((t) => t.name));
    s.sourceTopics.filter((t) => !repartition.has(t) && countOf(t) === undefined).forEach((t) => missing.add(t));
  }
  if (missing.size > 0) {
    throw new Error(`Missing source topics: ${[...missing].join(', ')}`);
  }
  const counts = new Map<string, number>();
  subtopologies.forEach((s) => s.repartitionSourceTopics.filter((t) => t.partitions !== 0).forEach((t) => counts.set(t.name, t.partitions)));
  let needed: boolean;
  do {
    needed = false;
    let progress = false;
    for (const s of subtopologies) {
      for (const sink of s.repartitionSinkTopics) {
        if (counts.has(sink)) {continue;}
        const count = partitionCountOfSources(s, counts, countOf);
        if (count === undefined) {
          needed = true;
        } else {
          counts.set(sink, count);
          progress = true;
        }
      }
    }
    if (!progress && needed) {
      throw invalidTopology('Failed to compute number of partitions for all repartition topics. There may be loops in the topology that cannot be resolved.');
    }
  } while (needed);
  if (subtopologies.some((s) => s.repartitionSourceTopics.some((t) => !counts.has(t.name)))) {
    throw invalidTopology('Failed to compute number of partitions for all repartition topics, because a repartition source topic is never used as a sink topic.');
  }
  return counts;
}

function countOrFail(countOf: PartitionCountOf, topic: string): number {
  const count = countOf(topic);
  if (count === undefined) {
    throw new Error(`Number of partitions is not set for topic: ${topic}`);
  }
  return count;
}

function sortedEntries(counts: ReadonlyMap<string, number>): string {
  return `{${[...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([t, n]) => `${t}=${n}`).join(', ')}}`;
}

/** CopartitionedTopicsEnforcer.enforce for one copartition group: the counts its repartition topics get. */
export function enforceCopartitioning(group: ReadonlySet<string>, fixed: ReadonlySet<string>, flexible: ReadonlySet<string>, countOf: PartitionCountOf): Map<string, number> {
  if (group.size === 0) {
    return new Map();
  }
  const repartition = new Map([...group].filter((t) => fixed.has(t) || flexible.has(t)).map((t) => [t, countOrFail(countOf, t)] as const));
  const others = new Map([...group].filter((t) => !repartition.has(t)).map((t) => [t, countOrFail(countOf, t)] as const));
  let count: number;
  if (repartition.size === group.size) {
    if (fixed.size > 0) {
      const fixedTopics = [...fixed];
      count = countOrFail(countOf, fixedTopics[0]);
      if (fixedTopics.some((t) => countOrFail(countOf, t) !== count)) {
        throw incorrectlyPartitioned(`Following topics do not have the same number of partitions: [${sortedEntries(repartition)}]`);
      }
    } else {
      count = Math.max(0, ...repartition.values());
      if (count === 0) {
        throw invalidTopology(`All topics in the copartition group had undefined partition number: [${[...repartition.keys()].join(', ')}]`);
      }
    }
  } else {
    count = [...others.values()][0];
    if ([...others.values()].some((n) => n !== count)) {
      throw incorrectlyPartitioned(`Following topics do not have the same number of partitions: [${sortedEntries(others)}]`);
    }
  }
  const result = new Map<string, number>();
  for (const [topic, current] of repartition) {
    result.set(topic, count);
    if (fixed.has(topic) && current !== count) {
      throw incorrectlyPartitioned(`Number of partitions [${current}] of repartition topic [${topic}] doesn't match number of partitions [${count}] of the source topic.`);
    }
  }
  return result;
}

/** ChangelogTopics.setup: each changelog topic has one partition per task of its subtopology. */
export function changelogTopicPartitionCounts(subtopologies: readonly Subtopology[], countOf: PartitionCountOf): Map<string, number> {
  const counts = new Map<string, number>();
  for (const s of subtopologies) {
    const sources = sourceTopicsOf(s);
    if (sources.length === 0) {
      throw invalidTopology(`No source topics found for subtopology ${s.subtopologyId}`);
    }
    const tasks = Math.max(...sources.map((t) => {
      const count = countOf(t);
      if (count === undefined) {throw new Error(`No partition count for source topic ${t}`);}
      return count;
    }));
    s.stateChangelogTopics.forEach((t) => counts.set(t.name, tasks));
  }
  return counts;
}

/** InternalTopicManager.computeNumberOfTasks: the most partitions among the subtopology's sources. */
export function numberOfTasks(subtopology: Subtopology, countOf: PartitionCountOf): number {
  const sources = sourceTopicsOf(subtopology);
  if (sources.length === 0) {
    throw new Error('Subtopology does not contain any source topics');
  }
  return Math.max(...sources.map((t) => countOrFail(countOf, t)));
}

/** The topics each copartition group names (indexes into the subtopology's source and repartition-source lists). */
export function copartitionGroupsOf(subtopology: Subtopology): Array<Set<string>> {
  return subtopology.copartitionGroups.map((g) => new Set([
    ...g.sourceTopics.map((i) => subtopology.sourceTopics[i]),
    ...g.repartitionSourceTopics.map((i) => subtopology.repartitionSourceTopics[i]?.name),
  ].filter((t): t is string => t !== undefined)));
}
