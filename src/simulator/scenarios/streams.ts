/**
 * A Kafka Streams word count (group.protocol=streams, KIP-1071) scaled out and hit by a crash: two
 * instances run it, a third starts at 30 s, the second is killed at 70 s (its threads stop without
 * leaving, so the coordinator fences them when group.streams.session.timeout.ms runs out) and comes
 * back at 140 s with the same process id. One standby replica per stateful task shows which process
 * each counting task would fail over to.
 */
import type { Scenario } from './scenarioSchema';

export const STREAMS_APPLICATION_ID = 'word-count';
export const STREAMS_SCALE_OUT_AT_MS = 30_000;
export const STREAMS_CRASH_AT_MS = 70_000;
export const STREAMS_RESTART_AT_MS = 140_000;

export const STREAMS_SCENARIO: Scenario = {
  name: 'streams',
  description: 'A Kafka Streams app (streams group) scaled from 2 to 3 instances, one killed and restarted',
  seed: 1071,
  durationMs: 180_000,
  cluster: { brokers: 3, host: '127.0.0.1', basePort: 9092, clusterId: 'sim-streams-cluster' },
  streamsGroup: { numStandbyReplicas: 1 },
  topics: [{ name: 'sentences', partitions: 6, initialRecords: 6000 }],
  streamsApps: [{
    applicationId: STREAMS_APPLICATION_ID,
    subtopologies: [
      // flatMapValues(split).groupBy(word): the words go through a repartition topic...
      { id: '0', sourceTopics: ['sentences'], repartitionSinks: ['words'] },
      // ...to be counted in a state store, backed by its changelog topic.
      { id: '1', repartitionSources: ['words'], stores: ['counts'] },
    ],
    instances: [
      { id: 'word-count-1', threads: 2, processingTimeMs: 20 },
      { id: 'word-count-2', processingTimeMs: 20 },
    ],
  }],
  producers: [{ id: 'sentences-producer', topic: 'sentences', recordsPerSecond: 60 }],
  actions: [
    { atMs: STREAMS_SCALE_OUT_AT_MS, type: 'startStreamsInstance', app: STREAMS_APPLICATION_ID, instance: { id: 'word-count-3', processingTimeMs: 20 } },
    { atMs: STREAMS_CRASH_AT_MS, type: 'crash', consumer: 'word-count-2' },
    { atMs: STREAMS_RESTART_AT_MS, type: 'restart', consumer: 'word-count-2' },
  ],
};
