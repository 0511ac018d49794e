/** ShareGroupHeartbeat and ShareGroupDescribe over the wire, with the generated codecs a KafkaShareConsumer would use. */
import assert from 'node:assert/strict';
import { errorCodeOf } from '../../../../src/protocol/errorCodes';
import { ShareGroupDescribeRequest } from '../../../../src/protocol/messages/shareGroupDescribeRequest';
import { ShareGroupDescribeResponse } from '../../../../src/protocol/messages/shareGroupDescribeResponse';
import { ShareGroupHeartbeatRequest, type ShareGroupHeartbeatRequestData } from '../../../../src/protocol/messages/shareGroupHeartbeatRequest';
import { ShareGroupHeartbeatResponse } from '../../../../src/protocol/messages/shareGroupHeartbeatResponse';
import { absentGroupOnSameCoordinator, codecExchange, coordinatorPort, serverForSuite } from './serverTestKit';

const GROUP = 'wire-share';

function heartbeat(memberId: string, memberEpoch: number): ShareGroupHeartbeatRequestData {
  return { groupId: GROUP, memberId, memberEpoch, rackId: null, subscribedTopicNames: memberEpoch === 0 ? ['orders'] : null };
}

describe('simulator Kafka server: KIP-932 share groups', function () {
  this.timeout(20000);
  const suite = serverForSuite();

  it('joins, gets every partition once their share state is initialized, is described, and leaves', async () => {
    const env = suite.env;
    const port = coordinatorPort(env, GROUP);
    const memberId = 'shareMemberId000000000';
    const joined = await codecExchange(port, ShareGroupHeartbeatRequest, ShareGroupHeartbeatResponse, 1, heartbeat(memberId, 0));
    assert.equal(joined.errorCode, 0, joined.errorMessage ?? '');
    assert.equal(joined.heartbeatIntervalMs, 5000);
    assert.deepEqual(joined.assignment, { topicPartitions: [] });

    // Poll, with a bound, until the share state of the partitions is initialized and they are assigned.
    let response = joined;
    const deadline = Date.now() + 10_000;
    while ((response.assignment?.topicPartitions ?? []).length === 0) {
      assert.ok(Date.now() < deadline, `no partitions by the deadline: epoch ${response.memberEpoch}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      response = await codecExchange(port, ShareGroupHeartbeatRequest, ShareGroupHeartbeatResponse, 1, heartbeat(memberId, response.memberEpoch));
      assert.equal(response.errorCode, 0, response.errorMessage ?? '');
    }
    const partitions = env.sim.cluster.topic('orders')?.partitions.length ?? 0;
    assert.deepEqual(response.assignment?.topicPartitions[0].partitions, Array.from({ length: partitions }, (_, i) => i));

    const absent = absentGroupOnSameCoordinator(env, GROUP);
    const described = await codecExchange(port, ShareGroupDescribeRequest, ShareGroupDescribeResponse, 1, { groupIds: [GROUP, absent], includeAuthorizedOperations: false });
    const [group, missing] = described.groups;
    assert.deepEqual([group.errorCode, group.groupState, group.assignorName, group.members[0].clientId], [0, 'Stable', 'simple', 'codec-test']);
    assert.deepEqual(group.members[0].assignment.topicPartitions.map((t) => [t.topicName, t.partitions.length]), [['orders', partitions]]);
    assert.deepEqual([missing.errorCode, missing.errorMessage], [errorCodeOf('GROUP_ID_NOT_FOUND'), `Group ${absent} not found.`]);

    const left = await codecExchange(port, ShareGroupHeartbeatRequest, ShareGroupHeartbeatResponse, 1, heartbeat(memberId, -1));
    assert.deepEqual([left.errorCode, left.memberEpoch], [0, -1]);
    assert.equal(env.sim.coordinator.shareGroup(GROUP)?.state, 'Empty');
  });

  it('answers NOT_COORDINATOR from a broker that does not own the group', async () => {
    const env = suite.env;
    const other = env.server.endpoints().find((endpoint) => endpoint.nodeId !== env.sim.cluster.coordinatorFor(GROUP).nodeId);
    assert.ok(other);
    const refused = await codecExchange(other.port, ShareGroupHeartbeatRequest, ShareGroupHeartbeatResponse, 1, heartbeat('shareMemberId000000001', 0));
    assert.equal(refused.errorCode, errorCodeOf('NOT_COORDINATOR'));
  });
});
