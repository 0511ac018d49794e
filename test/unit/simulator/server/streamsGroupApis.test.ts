/** StreamsGroupHeartbeat and StreamsGroupDescribe over the wire, with the generated codecs a Streams client would use. */
import assert from 'node:assert/strict';
import { errorCodeOf } from '../../../../src/protocol/errorCodes';
import { StreamsGroupDescribeRequest } from '../../../../src/protocol/messages/streamsGroupDescribeRequest';
import { StreamsGroupDescribeResponse } from '../../../../src/protocol/messages/streamsGroupDescribeResponse';
import { StreamsGroupHeartbeatRequest, type StreamsGroupHeartbeatRequestData } from '../../../../src/protocol/messages/streamsGroupHeartbeatRequest';
import { StreamsGroupHeartbeatResponse, type StreamsGroupHeartbeatResponseData } from '../../../../src/protocol/messages/streamsGroupHeartbeatResponse';
import { absentGroupOnSameCoordinator, codecExchange, coordinatorPort, startServer, type ServerUnderTest } from './serverTestKit';

const GROUP = 'wire-streams';
const CHANGELOG = `${GROUP}-counts-changelog`;

function heartbeat(memberId: string, memberEpoch: number, owned: StreamsGroupHeartbeatResponseData['activeTasks'] = []): StreamsGroupHeartbeatRequestData {
  const joining = memberEpoch === 0;
  return {
    groupId: GROUP, memberId, memberEpoch, endpointInformationEpoch: 0, instanceId: null, rackId: null, rebalanceTimeoutMs: joining ? 30000 : -1,
    topology: joining ? {
      epoch: 0,
      subtopologies: [{
        subtopologyId: '0', sourceTopics: ['orders'], sourceTopicRegex: [], repartitionSinkTopics: [], repartitionSourceTopics: [], copartitionGroups: [],
        stateChangelogTopics: [{ name: CHANGELOG, partitions: 0, replicationFactor: 0, topicConfigs: [] }],
      }],
    } : null,
    activeTasks: owned, standbyTasks: [], warmupTasks: [], processId: joining ? 'process-a' : null, userEndpoint: null, clientTags: joining ? [] : null,
    taskOffsets: null, taskEndOffsets: null, shutdownApplication: false,
  };
}

describe('simulator Kafka server: KIP-1071 streams groups', function () {
  this.timeout(20000);
  let env: ServerUnderTest;

  before(async () => {
    env = await startServer();
  });

  after(async () => {
    await env?.stop();
  });

  it('creates the missing changelog topic, then assigns every task to the one member', async () => {
    const port = coordinatorPort(env, GROUP);
    const joined = await codecExchange(port, StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse, 1, heartbeat('streams-member-000000', 0));
    assert.equal(joined.errorCode, 0, joined.errorMessage ?? '');
    assert.ok(joined.status?.some((s) => s.statusCode === 3 && s.statusDetail === `Internal topics are missing: ${CHANGELOG}`), JSON.stringify(joined.status));
    assert.equal(env.sim.cluster.topic(CHANGELOG)?.partitions.length, 3, 'one changelog partition per task, as the broker creates it');

    // Poll, with a bound, until the initial rebalance delay is over and the tasks arrive.
    let response = joined;
    const deadline = Date.now() + 10_000;
    while ((response.activeTasks ?? []).length === 0) {
      assert.ok(Date.now() < deadline, `no tasks by the deadline: ${JSON.stringify(response.status)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      response = await codecExchange(port, StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse, 1, heartbeat('streams-member-000000', response.memberEpoch));
      assert.equal(response.errorCode, 0, response.errorMessage ?? '');
    }
    assert.deepEqual(response.activeTasks, [{ subtopologyId: '0', partitions: [0, 1, 2] }]);

    // A group id that does not exist, on the same coordinator (another one would answer NOT_COORDINATOR).
    const absent = absentGroupOnSameCoordinator(env, GROUP);
    const described = await codecExchange(port, StreamsGroupDescribeRequest, StreamsGroupDescribeResponse, 1, { groupIds: [GROUP, absent], includeAuthorizedOperations: false });
    const [group, missing] = described.groups;
    assert.equal(group.errorCode, 0);
    assert.equal(group.groupState, 'Stable');
    assert.equal(group.members[0].processId, 'process-a');
    assert.equal(group.members[0].clientId, 'codec-test');
    assert.deepEqual(group.topology?.subtopologies?.[0].stateChangelogTopics.map((t) => [t.name, t.partitions]), [[CHANGELOG, 3]]);
    assert.equal(missing.errorCode, errorCodeOf('GROUP_ID_NOT_FOUND'));
    assert.equal(missing.errorMessage, `Group ${absent} not found.`);

    const left = await codecExchange(port, StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse, 1, { ...heartbeat('streams-member-000000', -1), activeTasks: null, standbyTasks: null, warmupTasks: null });
    assert.equal(left.errorCode, 0, left.errorMessage ?? "");
    assert.equal(left.memberEpoch, -1);
    assert.equal(env.sim.coordinator.streamsGroup(GROUP)?.state, 'Empty');
  });

  it('answers NOT_COORDINATOR from a broker that does not own the group', async () => {
    const other = env.server.endpoints().find((endpoint) => endpoint.nodeId !== env.sim.cluster.coordinatorFor(GROUP).nodeId);
    assert.ok(other);
    const refused = await codecExchange(other.port, StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse, 1, heartbeat('streams-member-000001', 0));
    assert.equal(refused.errorCode, errorCodeOf('NOT_COORDINATOR'));
  });
});
