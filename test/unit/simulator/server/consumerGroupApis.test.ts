/** ConsumerGroupHeartbeat and ConsumerGroupDescribe over the wire, with the generated codecs a client would use. */
import assert from 'node:assert/strict';
import { errorCodeOf } from '../../../../src/protocol/errorCodes';
import { ConsumerGroupDescribeRequest } from '../../../../src/protocol/messages/consumerGroupDescribeRequest';
import { ConsumerGroupDescribeResponse } from '../../../../src/protocol/messages/consumerGroupDescribeResponse';
import { ConsumerGroupHeartbeatRequest, type ConsumerGroupHeartbeatRequestData } from '../../../../src/protocol/messages/consumerGroupHeartbeatRequest';
import { ConsumerGroupHeartbeatResponse } from '../../../../src/protocol/messages/consumerGroupHeartbeatResponse';
import { codecExchange, coordinatorPort, startServer, type ServerUnderTest } from './serverTestKit';

const GROUP = 'wire-kip848';

function joinRequest(memberId: string): ConsumerGroupHeartbeatRequestData {
  return {
    groupId: GROUP, memberId, memberEpoch: 0, instanceId: null, rackId: null, rebalanceTimeoutMs: 30000,
    subscribedTopicNames: ['orders'], subscribedTopicRegex: null, serverAssignor: null, topicPartitions: [],
  };
}

describe('simulator Kafka server: KIP-848 consumer groups', function () {
  this.timeout(20000);
  let env: ServerUnderTest;

  before(async () => {
    env = await startServer();
  });

  after(async () => {
    await env?.stop();
  });

  it('joins a member with ConsumerGroupHeartbeat v1 and describes it with ConsumerGroupDescribe v1', async () => {
    const port = coordinatorPort(env, GROUP);
    const joined = await codecExchange(port, ConsumerGroupHeartbeatRequest, ConsumerGroupHeartbeatResponse, 1, joinRequest('wire-member-0000000000'));
    assert.equal(joined.errorCode, 0, joined.errorMessage ?? '');
    assert.equal(joined.memberId, 'wire-member-0000000000');
    assert.equal(joined.memberEpoch, 2);
    assert.equal(joined.heartbeatIntervalMs, 5000);
    assert.deepEqual(joined.assignment?.topicPartitions.map((t) => t.partitions), [[0, 1, 2]]);

    const described = await codecExchange(port, ConsumerGroupDescribeRequest, ConsumerGroupDescribeResponse, 1, { groupIds: [GROUP, 'missing'], includeAuthorizedOperations: false });
    const [group, missing] = described.groups;
    assert.equal(group.errorCode, 0);
    assert.equal(group.groupState, 'Stable');
    assert.equal(group.groupEpoch, 2);
    assert.equal(group.members[0].clientId, 'codec-test');
    assert.equal(group.members[0].clientHost, '/127.0.0.1');
    assert.equal(missing.errorCode, errorCodeOf('GROUP_ID_NOT_FOUND'));
  });

  it('answers NOT_COORDINATOR from a broker that does not own the group', async () => {
    const coordinator = env.sim.cluster.coordinatorFor(GROUP).nodeId;
    const other = env.server.endpoints().find((endpoint) => endpoint.nodeId !== coordinator);
    assert.ok(other);
    const refused = await codecExchange(other.port, ConsumerGroupHeartbeatRequest, ConsumerGroupHeartbeatResponse, 1, joinRequest('wire-member-0000000001'));
    assert.equal(refused.errorCode, errorCodeOf('NOT_COORDINATOR'));
  });
});
