/** What the streams-engine tests share: a word-count topology, heartbeat requests, a handler on a virtual clock. */
import type { StreamsGroupHeartbeatRequestData, Topology } from '../../../../../src/protocol/messages/streamsGroupHeartbeatRequest';
import type { RebalanceEvent } from '../../../../../src/model/types';
import { VirtualClock } from '../../../../../src/simulator/common/clock';
import { VirtualClockTimer } from '../../../../../src/simulator/coordinator/group/consumerGroupSeams';
import { InMemoryTopicImage } from '../../../../../src/simulator/coordinator/group/modern/topicImage';
import type { StreamsGroupRecord } from '../../../../../src/simulator/coordinator/streams/records';
import type { StreamsGroupConfig } from '../../../../../src/simulator/coordinator/streams/streamsGroupConfig';
import { StreamsGroupEventRecorder } from '../../../../../src/simulator/coordinator/streams/streamsGroupEvents';
import { StreamsGroupHeartbeatHandler } from '../../../../../src/simulator/coordinator/streams/streamsGroupHeartbeatHandler';

export const context = { apiVersion: 1, clientId: 'app-StreamThread-1-consumer', clientHost: '/127.0.0.1' };

/** A word-count shape: `input` feeds subtopology 0, which repartitions into subtopology 1 with a store. */
export const topology: Topology = {
  epoch: 0,
  subtopologies: [
    {
      subtopologyId: '0', sourceTopics: ['input'], sourceTopicRegex: [], stateChangelogTopics: [], repartitionSinkTopics: ['app-repartition'],
      repartitionSourceTopics: [], copartitionGroups: [],
    },
    {
      subtopologyId: '1', sourceTopics: [], sourceTopicRegex: [], repartitionSinkTopics: [], copartitionGroups: [],
      repartitionSourceTopics: [{ name: 'app-repartition', partitions: 0, replicationFactor: 0, topicConfigs: [] }],
      stateChangelogTopics: [{ name: 'app-store-changelog', partitions: 0, replicationFactor: 0, topicConfigs: [{ key: 'cleanup.policy', value: 'compact' }] }],
    },
  ],
};

export function request(memberId: string, memberEpoch: number, extra: Partial<StreamsGroupHeartbeatRequestData> = {}): StreamsGroupHeartbeatRequestData {
  return {
    groupId: 'app', memberId, memberEpoch, endpointInformationEpoch: 0, instanceId: null, rackId: null, rebalanceTimeoutMs: memberEpoch === 0 ? 30_000 : -1,
    topology: memberEpoch === 0 ? topology : null, activeTasks: memberEpoch === 0 ? [] : null, standbyTasks: memberEpoch === 0 ? [] : null, warmupTasks: memberEpoch === 0 ? [] : null,
    processId: memberEpoch === 0 ? `process-${memberId}` : null, userEndpoint: null, clientTags: memberEpoch === 0 ? [] : null, taskOffsets: null, taskEndOffsets: null,
    shutdownApplication: false, ...extra,
  };
}

/** A handler whose records are kept and turned into timeline events, as the simulator's coordinator does. */
export function setup(config?: Partial<StreamsGroupConfig>) {
  const clock = new VirtualClock();
  const image = new InMemoryTopicImage([{ topicId: 'inputTopicId000000000A', name: 'input', numPartitions: 4 }]);
  const written: StreamsGroupRecord[] = [];
  const events: RebalanceEvent[] = [];
  const recorder = new StreamsGroupEventRecorder((event) => events.push(event), () => clock.now);
  const handler = new StreamsGroupHeartbeatHandler({
    now: () => clock.now, timer: new VirtualClockTimer(clock), metadataImage: image, config,
    records: (groupId, records, cause) => {
      written.push(...records);
      recorder.record(groupId, records, cause);
    },
  });
  return { clock, image, written, events, handler };
}

/** What the broker creates when the first heartbeat names the internal topics. */
export function createInternalTopics(image: InMemoryTopicImage): void {
  image.put({ topicId: 'repartitionTopicId0000A', name: 'app-repartition', numPartitions: 4 });
  image.put({ topicId: 'changelogTopicId000000A', name: 'app-store-changelog', numPartitions: 4 });
}

export const codes = (response: { status: Array<{ statusCode: number }> | null }) => (response.status ?? []).map((s) => s.statusCode);
export type Tasks = Array<{ subtopologyId: string; partitions: number[] }> | null;
export const count = (tasks: Tasks) => (tasks ?? []).reduce((n, t) => n + t.partitions.length, 0);
