import * as assert from 'node:assert/strict';
import { KafkaApiError } from '../../../../../../src/simulator/common/errors';
import { InMemoryTopicImage } from '../../../../../../src/simulator/coordinator/group/modern/topicImage';
import { StreamsTopology, type Subtopology, type TopicInfo } from '../../../../../../src/simulator/coordinator/streams/streamsTopology';
import { StreamsHeartbeatStatus } from '../../../../../../src/simulator/coordinator/streams/topics/configuredTopology';
import { configureTopics } from '../../../../../../src/simulator/coordinator/streams/topics/internalTopicManager';

const info = (name: string, partitions = 0): TopicInfo => ({ name, partitions, replicationFactor: 0, topicConfigs: [] });

function subtopology(id: string, parts: Partial<Subtopology>): Subtopology {
  return { subtopologyId: id, sourceTopics: [], sourceTopicRegex: [], stateChangelogTopics: [], repartitionSinkTopics: [], repartitionSourceTopics: [], copartitionGroups: [], ...parts };
}

const topology = (...subtopologies: Subtopology[]) => new StreamsTopology(0, new Map(subtopologies.map((s) => [s.subtopologyId, s])));
let nextId = 0;
const image = (topics: Record<string, number>) => new InMemoryTopicImage(Object.entries(topics).map(([name, numPartitions]) => ({ name, numPartitions, topicId: `id${nextId++}` })));

describe('InternalTopicManager.configureTopics (Kafka 4.4)', () => {
  it('sizes a repartition chain from its sources and changelogs by tasks', () => {
    const t = topology(
      subtopology('0', { sourceTopics: ['a', 'b'], repartitionSinkTopics: ['r1'] }),
      subtopology('1', { repartitionSourceTopics: [info('r1')], repartitionSinkTopics: ['r2'], stateChangelogTopics: [info('c1')] }),
      subtopology('2', { repartitionSourceTopics: [info('r2')], stateChangelogTopics: [info('c2')] }),
    );
    const configured = configureTopics(0n, t, image({ a: 3, b: 6 }));
    assert.equal(configured.topicConfigurationError?.status, StreamsHeartbeatStatus.MISSING_INTERNAL_TOPICS);
    assert.deepEqual([...configured.internalTopicsToBeCreated.values()].map((x) => [x.name, x.numberOfPartitions]).sort(), [['c1', 6], ['c2', 6], ['r1', 6], ['r2', 6]]);
    assert.deepEqual([...(configured.subtopologies ?? new Map()).values()].map((s) => s.numberOfTasks), [6, 6, 6]);
  });

  it('is ready once the internal topics exist with the decided counts', () => {
    const t = topology(subtopology('0', { sourceTopics: ['a'], stateChangelogTopics: [info('c')] }));
    assert.equal(configureTopics(0n, t, image({ a: 2, c: 2 })).topicConfigurationError, undefined);
    const wrong = configureTopics(0n, t, image({ a: 2, c: 5 }));
    assert.equal(wrong.topicConfigurationError?.status, StreamsHeartbeatStatus.INCORRECTLY_PARTITIONED_TOPICS);
    assert.equal(wrong.topicConfigurationError?.message, 'Existing topic c has different number of partitions: expected 2, found 5');
  });

  it('refuses copartitioned sources of different sizes', () => {
    const t = topology(subtopology('0', { sourceTopics: ['a', 'b'], copartitionGroups: [{ sourceTopics: [0, 1], sourceTopicRegex: [], repartitionSourceTopics: [] }] }));
    const configured = configureTopics(0n, t, image({ a: 2, b: 3 }));
    assert.equal(configured.topicConfigurationError?.status, StreamsHeartbeatStatus.INCORRECTLY_PARTITIONED_TOPICS);
    assert.equal(configured.topicConfigurationError?.message, 'Following topics do not have the same number of partitions: [{a=2, b=3}]');
    assert.equal(configured.subtopologies, undefined);
  });

  it('sizes a flexible repartition topic like the source it is copartitioned with', () => {
    const t = topology(
      subtopology('0', { sourceTopics: ['a'], repartitionSinkTopics: ['r'] }),
      subtopology('1', { sourceTopics: ['b'], repartitionSourceTopics: [info('r')], copartitionGroups: [{ sourceTopics: [0], sourceTopicRegex: [], repartitionSourceTopics: [0] }] }),
    );
    const configured = configureTopics(0n, t, image({ a: 8, b: 4 }));
    assert.equal(configured.internalTopicsToBeCreated.get('r')?.numberOfPartitions, 4);
  });

  it('names missing sources, and refuses a repartition topic nobody writes or a loop', () => {
    const missing = configureTopics(0n, topology(subtopology('0', { sourceTopics: ['x', 'y', 'z', 'w'] })), image({}));
    assert.equal(missing.topicConfigurationError?.message, 'Source topics w, x, y and 1 additional topics are missing.');
    const orphan = topology(subtopology('0', { repartitionSourceTopics: [info('r')] }));
    assert.throws(() => configureTopics(0n, orphan, image({})), (e: unknown) => e instanceof KafkaApiError && e.errorName === 'STREAMS_INVALID_TOPOLOGY'
      && e.message === 'Failed to compute number of partitions for all repartition topics, because a repartition source topic is never used as a sink topic.');
    const loop = topology(
      subtopology('0', { repartitionSourceTopics: [info('r1')], repartitionSinkTopics: ['r2'] }),
      subtopology('1', { repartitionSourceTopics: [info('r2')], repartitionSinkTopics: ['r1'] }),
    );
    assert.throws(() => configureTopics(0n, loop, image({})), (e: unknown) => e instanceof KafkaApiError
      && e.message === 'Failed to compute number of partitions for all repartition topics. There may be loops in the topology that cannot be resolved.');
  });
});
