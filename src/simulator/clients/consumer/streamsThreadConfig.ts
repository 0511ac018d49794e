/**
 * The checks of a simulated Kafka Streams thread's settings (group.protocol=streams): its process id and
 * topology, and the consumer settings Streams leaves to the broker (group.streams.session.timeout.ms and
 * group.streams.heartbeat.interval.ms are group configs, the assignor is the coordinator's).
 */
import type { ConsumerSpec, StreamsThreadSpec } from '../../common/control';

type Issue = { field: keyof ConsumerSpec; message: string };

const BROKER_DECIDES: ReadonlyArray<readonly [keyof ConsumerSpec, string]> = [
  ['assignors', 'partition.assignment.strategy (the coordinator assigns tasks)'],
  ['groupRemoteAssignor', 'group.remote.assignor (the coordinator assigns tasks)'],
  ['subscribedTopicRegex', 'a regex subscription (the topology names its source topics)'],
  ['topics', 'topics (the topology names its source topics)'],
  ['sessionTimeoutMs', 'session.timeout.ms (the broker\'s group.streams.session.timeout.ms)'],
  ['heartbeatIntervalMs', 'heartbeat.interval.ms (the broker\'s group.streams.heartbeat.interval.ms)'],
];

function topicList(value: unknown): value is string[] {
  return value === undefined || (Array.isArray(value) && value.every((name) => typeof name === 'string' && name.length > 0));
}

/** What is wrong with a Streams thread's spec; empty when nothing is. */
export function streamsThreadIssues(spec: Partial<Record<keyof ConsumerSpec, unknown>>): Issue[] {
  const given = (field: keyof ConsumerSpec): boolean => spec[field] !== undefined && !(Array.isArray(spec[field]) && spec[field].length === 0);
  const issues: Issue[] = BROKER_DECIDES.filter(([field]) => given(field))
    .map(([field, what]) => ({ field, message: `${what} cannot be set when group.protocol=streams` }));
  const streams = spec.streams as { processId?: unknown; subtopologies?: unknown } | undefined;
  if (streams === undefined || streams === null || typeof streams !== 'object') {
    return [...issues, { field: 'streams', message: 'group.protocol=streams needs streams: { processId, subtopologies }' }];
  }
  if (typeof streams.processId !== 'string' || streams.processId.length === 0) {
    issues.push({ field: 'streams', message: `processId must be a non-empty string, got ${JSON.stringify(streams.processId)}` });
  }
  if (!Array.isArray(streams.subtopologies) || streams.subtopologies.length === 0) {
    return [...issues, { field: 'streams', message: 'subtopologies must be a non-empty list' }];
  }
  const ids = new Set<string>();
  streams.subtopologies.forEach((raw: unknown, i: number) => {
    const s = (raw ?? {}) as Record<string, unknown>;
    const where = `subtopologies[${i}]`;
    if (typeof s.id !== 'string' || s.id.length === 0) {
      issues.push({ field: 'streams', message: `${where}.id must be a non-empty string` });
    } else if (ids.has(s.id)) {
      issues.push({ field: 'streams', message: `${where}.id "${s.id}" is used twice` });
    } else {
      ids.add(s.id);
    }
    for (const key of ['sourceTopics', 'repartitionSourceTopics', 'repartitionSinkTopics', 'stateChangelogTopics']) {
      if (!topicList(s[key]) || (key === 'sourceTopics' && s[key] === undefined)) {
        issues.push({ field: 'streams', message: `${where}.${key} must be a list of topic names` });
      }
    }
    const sources = [...(Array.isArray(s.sourceTopics) ? s.sourceTopics : []), ...(Array.isArray(s.repartitionSourceTopics) ? s.repartitionSourceTopics : [])];
    if (sources.length === 0) {
      issues.push({ field: 'streams', message: `${where} reads nothing: give it sourceTopics or repartitionSourceTopics` });
    }
  });
  return issues;
}

/** commit.interval.ms: Kafka Streams' default under at-least-once. */
export const STREAMS_COMMIT_INTERVAL_MS = 30_000;

/** A checked spec's own copy, with the optional lists filled in. */
export function streamsThreadCopy(spec: StreamsThreadSpec): StreamsThreadSpec {
  return {
    processId: spec.processId,
    subtopologies: spec.subtopologies.map((s) => ({
      id: s.id,
      sourceTopics: [...s.sourceTopics],
      repartitionSourceTopics: [...(s.repartitionSourceTopics ?? [])],
      repartitionSinkTopics: [...(s.repartitionSinkTopics ?? [])],
      stateChangelogTopics: [...(s.stateChangelogTopics ?? [])],
    })),
  };
}
