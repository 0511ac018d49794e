import { strict as assert } from 'node:assert';
import type { ClusterConnection } from '../../../src/kafka/clusterConnection';
import { GroupLoader } from '../../../src/kafka/groupLoader';
import { GROUP_ID_NOT_FOUND } from '../../../src/kafka/groupTypes';
import { addShareOffsetsAndConfigs, describeShareGroups, shareConfigs, shareOffsetRows, sharePartitions } from '../../../src/kafka/shareGroups';
import { describeStreamsGroups } from '../../../src/kafka/streamsGroups';
import { taskPartitions } from '../../../src/model/streamsGroupInfo';
import { errorCodeOf } from '../../../src/protocol/errorCodes';
import { errorMessage } from '../../../src/protocol/errors';
import { defaultDescribedGroup as defaultConsumerGroup } from '../../../src/protocol/messages/consumerGroupDescribeResponse';
import { defaultDescribedGroup as defaultClassicGroup } from '../../../src/protocol/messages/describeGroupsResponse';
import { defaultDescribeConfigsResourceResult } from '../../../src/protocol/messages/describeConfigsResponse';
import { defaultDescribedGroup as defaultShareGroup, defaultMember as defaultShareMember } from '../../../src/protocol/messages/shareGroupDescribeResponse';
import {
  defaultDescribedGroup as defaultStreamsGroup,
  defaultMember as defaultStreamsMember,
  defaultSubtopology,
  defaultTopicInfo,
} from '../../../src/protocol/messages/streamsGroupDescribeResponse';
import { KAFKA_44_VERSIONS, fakeBroker, type FakeRequest } from './groupTypesFakeBroker';

const GROUP_AUTHORIZATION_FAILED = errorCodeOf('GROUP_AUTHORIZATION_FAILED');
const UNKNOWN_TOPIC_OR_PARTITION = errorCodeOf('UNKNOWN_TOPIC_OR_PARTITION');

function partition(partitionIndex: number, startOffset: bigint, lag: bigint, errorCode = 0) {
  return { partitionIndex, startOffset, leaderEpoch: 0, lag, errorCode, errorMessage: null };
}

function shareBroker(configsAnswer: (r: FakeRequest) => unknown) {
  return fakeBroker(KAFKA_44_VERSIONS, (r) => {
    switch (r.apiKey) {
      case 77:
        return {
          throttleTimeMs: 0,
          groups: [
            {
              ...defaultShareGroup(),
              groupId: 'q',
              groupState: 'Stable',
              groupEpoch: 3,
              assignmentEpoch: 3,
              assignorName: 'simple',
              members: [
                { ...defaultShareMember(), memberId: 'm1', memberEpoch: 3, clientId: 'c', subscribedTopicNames: ['t'], assignment: { topicPartitions: [{ topicId: 'AAAAAAAAAAAAAAAAAAAAAA', topicName: 't', partitions: [0, 1] }] } },
                { ...defaultShareMember(), memberId: 'm2', memberEpoch: 3, clientId: 'c', subscribedTopicNames: ['t'], assignment: { topicPartitions: [{ topicId: 'AAAAAAAAAAAAAAAAAAAAAA', topicName: 't', partitions: [1] }] } },
              ],
            },
          ],
        };
      case 90:
        assert.deepEqual(r.body, { groups: [{ groupId: 'q', topics: null }] });
        return {
          throttleTimeMs: 0,
          groups: [{ groupId: 'q', errorCode: 0, errorMessage: null, topics: [{ topicName: 't', topicId: 'AAAAAAAAAAAAAAAAAAAAAA', partitions: [partition(1, 7n, 2n), partition(0, 5n, 0n)] }] }],
        };
      case 32:
        return configsAnswer(r);
      default:
        throw new Error(`unexpected API ${r.apiKey}`);
    }
  });
}

describe('kafka/shareGroups', () => {
  it('reads members sharing a partition, start offsets and lag, and the share configs', async () => {
    const broker = shareBroker((r) => {
      assert.deepEqual(r.body, { resources: [{ resourceType: 32, resourceName: 'q', configurationKeys: null }], includeSynonyms: false, includeDocumentation: false });
      const config = (name: string, value: string) => ({ ...defaultDescribeConfigsResourceResult(), name, value });
      return {
        throttleTimeMs: 0,
        results: [
          {
            errorCode: 0,
            errorMessage: null,
            resourceType: 32,
            resourceName: 'q',
            configs: [
              config('share.record.lock.duration.ms', '30000'),
              config('consumer.session.timeout.ms', '45000'),
              config('share.auto.offset.reset', 'earliest'),
              config('errors.deadletterqueue.topic.name', 'dlq'),
            ],
          },
        ],
      };
    });
    const described = await describeShareGroups(broker, ['q']);
    await addShareOffsetsAndConfigs(broker, described);
    const [q] = described;
    assert.equal(q.error, undefined);
    assert.equal(q.state, 'Stable');
    assert.deepEqual(q.members.map((m) => m.assignment.map((tp) => tp.partition)), [[0, 1], [1]]);
    assert.deepEqual(q.shareGroup?.partitions, [
      { topic: 't', partition: 0, startOffset: 5, leaderEpoch: 0, lag: 0 },
      { topic: 't', partition: 1, startOffset: 7, leaderEpoch: 0, lag: 2 },
    ]);
    assert.deepEqual(q.shareGroup?.configs, {
      autoOffsetReset: 'earliest',
      recordLockDurationMs: 30000,
      deliveryCountLimit: null,
      deadLetterTopic: 'dlq',
      all: { 'errors.deadletterqueue.topic.name': 'dlq', 'share.auto.offset.reset': 'earliest', 'share.record.lock.duration.ms': '30000' },
    });
  });

  it('keeps the offsets when the configs are refused, and says why', async () => {
    const broker = shareBroker(() => ({ throttleTimeMs: 0, results: [{ errorCode: GROUP_AUTHORIZATION_FAILED, errorMessage: null, resourceType: 32, resourceName: 'q', configs: [] }] }));
    const described = await describeShareGroups(broker, ['q']);
    await addShareOffsetsAndConfigs(broker, described);
    assert.equal(described[0].shareGroup?.partitions.length, 2);
    assert.match(described[0].shareGroup?.configs.configsError ?? '', /^GROUP_AUTHORIZATION_FAILED/);
    assert.equal(described[0].shareGroup?.configs.all, null);
  });

  it('gives a partition with no share state no start offset and no lag, and a v0 answer (Kafka 4.1) no lag', () => {
    const { partitions, errors } = sharePartitions({
      groupId: 'q',
      errorCode: 0,
      errorMessage: null,
      topics: [{ topicName: 't', topicId: 'AAAAAAAAAAAAAAAAAAAAAA', partitions: [partition(0, -1n, -1n), partition(1, 4n, -1n), partition(2, 0n, 0n, UNKNOWN_TOPIC_OR_PARTITION)] }],
    });
    assert.deepEqual(partitions, [
      { topic: 't', partition: 0, startOffset: null, leaderEpoch: null, lag: null },
      { topic: 't', partition: 1, startOffset: 4, leaderEpoch: 0, lag: null },
    ]);
    assert.match(errors[0], /t-2: UNKNOWN_TOPIC_OR_PARTITION/);
  });

  it('shows the start offset where a consumer group has its committed offset, and the broker lag, not end - start', () => {
    const rows = shareOffsetRows([{ topic: 't', partition: 0, startOffset: 5, leaderEpoch: 0, lag: 1 }], () => ({ logStartOffset: 0, logEndOffset: 9 }));
    assert.deepEqual(rows, [{ topic: 't', partition: 0, committedOffset: 5, logStartOffset: 0, logEndOffset: 9, lag: 1, ownerMemberId: null }]);
  });

  it('reads unset and unknown configs as null', () => {
    const configs = shareConfigs({ 'errors.deadletterqueue.topic.name': '', 'share.record.lock.duration.ms': 'x' });
    assert.equal(configs.deadLetterTopic, null);
    assert.equal(configs.recordLockDurationMs, null);
    assert.equal(configs.autoOffsetReset, null);
  });
});

describe('kafka/streamsGroups', () => {
  const topology = {
    epoch: 0,
    subtopologies: [
      { ...defaultSubtopology(), subtopologyId: '0', sourceTopics: ['in'], repartitionSinkTopics: ['app-rep'] },
      { ...defaultSubtopology(), subtopologyId: '1', repartitionSourceTopics: [{ ...defaultTopicInfo(), name: 'app-rep' }], stateChangelogTopics: [{ ...defaultTopicInfo(), name: 'app-counts-changelog' }] },
    ],
  };
  const tasks = (entries: Array<[string, number[]]>) => entries.map(([subtopologyId, partitions]) => ({ subtopologyId, partitions }));

  it('reads members with process, tags and tasks, the topology, and active tasks as the partitions they read', async () => {
    const broker = fakeBroker(KAFKA_44_VERSIONS, () => ({
      throttleTimeMs: 0,
      groups: [
        {
          ...defaultStreamsGroup(),
          groupId: 'app',
          groupState: 'NotReady',
          groupEpoch: 4,
          assignmentEpoch: 3,
          topology,
          assignorName: 'sticky',
          members: [
            {
              ...defaultStreamsMember(),
              memberId: 'm',
              memberEpoch: 3,
              processId: 'p-1',
              clientTags: [{ key: 'zone', value: 'a' }],
              assignment: { activeTasks: tasks([['1', [1]], ['0', [2, 0]]]), standbyTasks: tasks([['1', [0]]]), warmupTasks: [] },
              targetAssignment: { activeTasks: tasks([['0', [0]]]), standbyTasks: [], warmupTasks: [] },
            },
          ],
        },
      ],
    }));
    const [app] = await describeStreamsGroups(broker, ['app']);
    assert.equal(broker.requests[0].apiVersion, 1);
    assert.equal(app.state, 'NotReady');
    assert.equal(app.assignor, 'sticky');
    const info = app.streamsGroup;
    assert.deepEqual(info?.topology?.subtopologies[1], { subtopologyId: '1', sourceTopics: [], repartitionSinkTopics: [], repartitionSourceTopics: ['app-rep'], stateChangelogTopics: ['app-counts-changelog'] });
    assert.deepEqual(info?.members[0].assignment.active, tasks([['0', [0, 2]], ['1', [1]]]));
    assert.deepEqual(info?.members[0].clientTags, { zone: 'a' });
    assert.deepEqual(app.members[0].assignment, [
      { topic: 'app-rep', partition: 1 },
      { topic: 'in', partition: 0 },
      { topic: 'in', partition: 2 },
    ]);
    assert.deepEqual(app.members[0].targetAssignment, [{ topic: 'in', partition: 0 }]);
    assert.deepEqual(app.members[0].subscription, ['app-rep', 'in']);
  });

  it('maps no partitions for a subtopology the topology does not list', () => {
    assert.deepEqual(taskPartitions(tasks([['9', [0]]]), []), []);
  });

  it('sends v0 to Kafka 4.1 (no assignor name there)', async () => {
    const broker = fakeBroker({ 89: [0, 0] }, () => ({ throttleTimeMs: 0, groups: [{ ...defaultStreamsGroup(), groupId: 'app', groupState: 'Empty' }] }));
    const [app] = await describeStreamsGroups(broker, ['app']);
    assert.equal(broker.requests[0].apiVersion, 0);
    assert.equal(app.streamsGroup?.assignorName, null);
    assert.equal(app.streamsGroup?.topology, null);
  });
});

describe('GroupLoader on Kafka 4.x group types', () => {
  const connection = { errorText: errorMessage, isConnectionFailure: () => false } as unknown as ClusterConnection;
  const loader = new GroupLoader(connection, { logger: { debug() {}, info() {}, warn() {}, error() {} }, concurrency: 1, generationOf: () => undefined });

  it('describes a share group asked for alone (no listing) as a share group, not as the Dead classic group DescribeGroups calls it', async () => {
    const broker = fakeBroker(KAFKA_44_VERSIONS, (r) => {
      const ids = (r.body as { groupIds?: string[] }).groupIds ?? [];
      switch (r.apiKey) {
        case 15:
          return { throttleTimeMs: 0, groups: (r.body as { groups: string[] }).groups.map((groupId) => ({ ...defaultClassicGroup(), groupId, groupState: 'Dead', errorCode: GROUP_ID_NOT_FOUND, errorMessage: `Group ${groupId} is not a classic group.` })) };
        case 69:
          return { throttleTimeMs: 0, groups: ids.map((groupId) => ({ ...defaultConsumerGroup(), groupId, errorCode: GROUP_ID_NOT_FOUND })) };
        case 77:
          return { throttleTimeMs: 0, groups: ids.map((groupId) => ({ ...defaultShareGroup(), groupId, groupState: 'Empty', assignorName: 'simple' })) };
        case 90:
          return { throttleTimeMs: 0, groups: [{ groupId: 'q', errorCode: 0, errorMessage: null, topics: [] }] };
        case 32:
          return { throttleTimeMs: 0, results: [] };
        default:
          throw new Error(`unexpected API ${r.apiKey}`);
      }
    });
    const [q] = await loader.describeOnCoordinator(broker, null, ['q'], new Map());
    assert.equal(q.typed?.groupType, 'share');
    assert.equal(q.typed?.state, 'Empty');
  });

  it('routes listed share and streams groups to their describes, and a refused one to an error, not Dead', async () => {
    const broker = fakeBroker({ ...KAFKA_44_VERSIONS, 77: [1, 1] }, (r) => {
      switch (r.apiKey) {
        case 77:
          return { throttleTimeMs: 0, groups: [{ ...defaultShareGroup(), groupId: 'q', groupState: 'Dead', errorCode: GROUP_AUTHORIZATION_FAILED }] };
        case 89:
          return { throttleTimeMs: 0, groups: [{ ...defaultStreamsGroup(), groupId: 's', groupState: 'Stable' }] };
        default:
          throw new Error(`unexpected API ${r.apiKey}`);
      }
    });
    const listed = new Map([
      ['q', { groupId: 'q', protocolType: 'share', groupState: 'Stable', groupType: 'share' }],
      ['s', { groupId: 's', protocolType: 'streams', groupState: 'Stable', groupType: 'streams' }],
    ]);
    const [q, s] = await loader.describeOnCoordinator(broker, null, ['q', 's'], listed);
    assert.equal(q.typed?.state, 'Unknown');
    assert.match(q.typed?.error ?? '', /GROUP_AUTHORIZATION_FAILED/);
    assert.equal(s.typed?.state, 'Stable');
    assert.deepEqual(broker.requests.map((r) => r.apiKey).sort(), [77, 89]);
  });
});
