import * as assert from 'node:assert/strict';
import { errorCodeOf } from '../../../../../src/protocol/errorCodes';
import type { ShareGroupHeartbeatResponseData } from '../../../../../src/protocol/messages/shareGroupHeartbeatResponse';
import type { DescribedGroup } from '../../../../../src/protocol/messages/shareGroupDescribeResponse';
import type { ListGroupsResponse } from '../../../../../src/simulator/common/requests';
import { Simulation } from '../../../../../src/simulator/simulation';
import { context, request } from './shareFixtures';

function heartbeat(simulation: Simulation, memberId: string, memberEpoch: number, groupId = 'queue'): ShareGroupHeartbeatResponseData {
  let response: ShareGroupHeartbeatResponseData | undefined;
  simulation.coordinator.shareGroupHeartbeat({ apiVersion: 1, ...context }, request(memberId, memberEpoch, { groupId }), (r) => {
    response = r;
  });
  simulation.runUntil(simulation.now + 10);
  assert.ok(response, 'the coordinator answered');
  return response;
}

describe('share groups in the GroupCoordinator (Kafka 4.4 GroupMetadataManager beside the other group types)', () => {
  it('joins a share group, lists it as share, describes it, and draws its timeline from the records', () => {
    const simulation = new Simulation({ seed: 5 });
    simulation.createTopic('orders', 3);
    const joined = heartbeat(simulation, 'm1', 0);
    assert.equal(joined.errorCode, 0);
    simulation.runUntil(simulation.now + 1_000);
    const assigned = heartbeat(simulation, 'm1', joined.memberEpoch);
    assert.equal(assigned.assignment?.topicPartitions[0].partitions.length, 3);

    let listed: ListGroupsResponse | undefined;
    simulation.coordinator.listGroups({}, (r) => {
      listed = r;
    });
    simulation.runUntil(simulation.now + 10);
    assert.deepEqual(listed?.groups.find((g) => g.groupId === 'queue'), { groupId: 'queue', protocolType: 'share', groupState: 'Stable', groupType: 'share' });

    const described = simulation.coordinator.shareGroupDescribeNow('queue');
    assert.deepEqual([described.errorCode, described.groupState, described.groupEpoch, described.members.length], [0, 'Stable', 2, 1]);
    let both: DescribedGroup[] = [];
    simulation.coordinator.shareGroupDescribe(['queue', 'nope'], (r) => {
      both = r;
    });
    simulation.runUntil(simulation.now + 10);
    assert.deepEqual(both.map((g) => [g.groupId, g.errorCode, g.errorMessage]), [['queue', 0, null], ['nope', errorCodeOf('GROUP_ID_NOT_FOUND'), 'Group nope not found.']]);

    const events = simulation.events.forGroup('queue');
    const joinedEvent = events.find((e) => e.memberId === 'm1' && e.cause === 'Member m1 joins the share group using the share protocol.');
    assert.ok(joinedEvent, `a join event, among ${events.map((e) => e.kind).join(', ')}`);
    assert.ok(events.some((e) => (e.assignments ?? []).some((a) => a.memberId === 'm1')), 'the assignment of the partitions is drawn');
    simulation.dispose();
  });

  it('refuses a share heartbeat for a group of another type, and a consumer heartbeat for a share group', () => {
    const simulation = new Simulation({ seed: 5 });
    simulation.createTopic('orders', 1);
    let consumerError: [number, string | null] | undefined;
    const consumerRequest = {
      groupId: 'queue', memberId: 'c1', memberEpoch: 0, instanceId: null, rackId: null, rebalanceTimeoutMs: 30_000, subscribedTopicNames: ['orders'],
      subscribedTopicRegex: null, serverAssignor: null, topicPartitions: [],
    };
    simulation.coordinator.consumerGroupHeartbeat({ apiVersion: 1, ...context }, consumerRequest, () => undefined);
    simulation.runUntil(simulation.now + 10);
    const refused = heartbeat(simulation, 'm1', 0);
    assert.deepEqual([refused.errorCode, refused.errorMessage], [errorCodeOf('GROUP_ID_NOT_FOUND'), 'Group queue is not a share group.']);
    assert.equal(simulation.coordinator.shareGroupDescribeNow('queue').errorMessage, 'Group queue is not a share group.');

    heartbeat(simulation, 'm1', 0, 'shared');
    simulation.coordinator.consumerGroupHeartbeat({ apiVersion: 1, ...context }, { ...consumerRequest, groupId: 'shared' }, (r) => {
      consumerError = [r.errorCode, r.errorMessage];
    });
    simulation.runUntil(simulation.now + 10);
    assert.deepEqual(consumerError, [errorCodeOf('GROUP_ID_NOT_FOUND'), 'Group shared is not a consumer group.']);
    simulation.dispose();
  });
});
