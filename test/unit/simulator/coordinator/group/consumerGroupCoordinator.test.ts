import { strict as assert } from 'node:assert';
import { errorCodeOf } from '../../../../../src/protocol/errorCodes';
import type { ConsumerGroupHeartbeatRequestData } from '../../../../../src/protocol/messages/consumerGroupHeartbeatRequest';
import type { ConsumerGroupHeartbeatResponseData } from '../../../../../src/protocol/messages/consumerGroupHeartbeatResponse';
import { offsetsPartitionFor } from '../../../../../src/protocol/offsetsPartition';
import { OFFSETS_TOPIC, OFFSETS_TOPIC_PARTITIONS } from '../../../../../src/simulator/log/cluster';
import type { GroupCoordinator } from '../../../../../src/simulator/coordinator/group/groupCoordinator';
import type { Respond } from '../../../../../src/simulator/common/requests';
import { describeSimGroup, listSimGroups } from '../../../../../src/simulator/admin/groupDetailMapper';
import { Simulation } from '../../../../../src/simulator/simulation';
import { heartbeatRequest } from './modern/consumer/engineSupport';

const CONTEXT = { apiVersion: 1, clientId: 'java-consumer', clientHost: '/127.0.0.1' };
const GROUP = 'kip848';

/** Sends one request through the coordinator and runs the clock until its response is delivered. */
function ask<R, T>(sim: Simulation, send: (request: R, respond: Respond<T>) => void, request: R): T {
  let answer: T | undefined;
  send(request, (response) => {
    answer = response;
  });
  sim.advance(0);
  assert.ok(answer !== undefined, 'no response delivered');
  return answer;
}

function heartbeat(sim: Simulation, request: ConsumerGroupHeartbeatRequestData): ConsumerGroupHeartbeatResponseData {
  return ask(sim, (body: ConsumerGroupHeartbeatRequestData, respond: Respond<ConsumerGroupHeartbeatResponseData>) => sim.coordinator.consumerGroupHeartbeat(CONTEXT, body, respond), request);
}

/** The coordinator's request methods, bound so that `ask` can call them. */
function bound(sim: Simulation): Pick<GroupCoordinator, 'listGroups' | 'offsetFetch' | 'deleteGroups' | 'consumerGroupDescribe' | 'offsetCommit' | 'joinGroup'> {
  const c = sim.coordinator;
  return {
    listGroups: c.listGroups.bind(c), offsetFetch: c.offsetFetch.bind(c), deleteGroups: c.deleteGroups.bind(c),
    consumerGroupDescribe: c.consumerGroupDescribe.bind(c), offsetCommit: c.offsetCommit.bind(c), joinGroup: c.joinGroup.bind(c),
  };
}

function join(sim: Simulation, memberId: string, groupId = GROUP): ConsumerGroupHeartbeatResponseData {
  return heartbeat(sim, heartbeatRequest({ groupId, memberId, memberEpoch: 0, rebalanceTimeoutMs: 30000, subscribedTopicNames: ['orders'], topicPartitions: [] }));
}

function commit(sim: Simulation, memberId: string, epoch: number): string {
  const response = ask(sim, bound(sim).offsetCommit, {
    groupId: GROUP, generationId: epoch, memberId, groupInstanceId: null, topics: [{ name: 'orders', partitions: [{ partition: 0, offset: 7 }] }],
  });
  return response.topics[0].partitions[0].errorCode;
}

function offsetsPartitionEnd(sim: Simulation, groupId: string): number {
  return sim.cluster.partition(OFFSETS_TOPIC, offsetsPartitionFor(groupId, OFFSETS_TOPIC_PARTITIONS))?.highWatermark ?? -1;
}

describe('the coordinator runs KIP-848 consumer groups beside classic ones', () => {
  let sim: Simulation;

  beforeEach(() => {
    sim = new Simulation();
    sim.createTopic('orders', 3);
  });

  afterEach(() => sim.dispose());

  it('joins a member, lists the group as a consumer group and writes its records to the group\'s __consumer_offsets partition', () => {
    const before = offsetsPartitionEnd(sim, GROUP);
    const response = join(sim, 'member-a');
    assert.equal(response.errorCode, 0);
    assert.equal(response.memberEpoch, 2);
    assert.equal(response.assignment?.topicPartitions.flatMap((t) => t.partitions).length, 3);
    const listed = ask(sim, bound(sim).listGroups, {});
    assert.deepEqual(listed.groups, [{ groupId: GROUP, protocolType: 'consumer', groupState: 'Stable', groupType: 'consumer' }]);
    assert.ok(offsetsPartitionEnd(sim, GROUP) > before, 'no record reached __consumer_offsets');
    assert.ok(sim.events.forGroup(GROUP).some((event) => event.kind === 'member-joined'));
    assert.equal(sim.coordinator.consumerGroup(GROUP)?.members.get('member-a')?.memberEpoch, 2);
  });

  it('validates the member epoch of an OffsetCommit and refuses an admin commit while the group has members', () => {
    join(sim, 'member-a');
    assert.equal(commit(sim, 'member-a', 0), 'STALE_MEMBER_EPOCH');
    assert.equal(commit(sim, 'member-b', 1), 'UNKNOWN_MEMBER_ID');
    assert.equal(commit(sim, '', -1), 'UNKNOWN_MEMBER_ID');
    assert.equal(commit(sim, 'member-a', 2), 'NONE');
    const fetched = ask(sim, bound(sim).offsetFetch, { groupId: GROUP, topics: null });
    assert.equal(fetched.topics[0].partitions[0].committedOffset, 7);
  });

  it('fences a member whose session expires on the virtual clock, then lets the empty group be deleted', () => {
    join(sim, 'member-a');
    const refused = ask(sim, bound(sim).deleteGroups, { groupsNames: [GROUP] });
    assert.equal(refused.results[0].errorCode, 'NON_EMPTY_GROUP');
    sim.advance(45001);
    assert.equal(sim.coordinator.consumerGroup(GROUP)?.state, 'Empty');
    assert.ok(sim.events.forGroup(GROUP).some((event) => event.kind === 'member-expired'));
    assert.equal(commit(sim, '', -1), 'NONE');
    const deleted = ask(sim, bound(sim).deleteGroups, { groupsNames: [GROUP] });
    assert.equal(deleted.results[0].errorCode, 'NONE');
    assert.equal(sim.coordinator.consumerGroup(GROUP), undefined);
    assert.deepEqual(ask(sim, bound(sim).listGroups, {}).groups, []);
  });

  it('serves a classic JoinGroup inside a consumer group (KIP-394 first) and describes only groups of its type', () => {
    join(sim, 'member-a');
    const classicJoin = ask(sim, bound(sim).joinGroup, {
      groupId: GROUP, memberId: '', groupInstanceId: null, protocolType: 'consumer', sessionTimeoutMs: 10000, rebalanceTimeoutMs: 30000,
      clientId: 'classic', clientHost: '/127.0.0.1', protocols: [{ name: 'range', metadata: { topics: ['orders'], ownedPartitions: [], generationId: -1 } }],
    });
    assert.equal(classicJoin.errorCode, 'MEMBER_ID_REQUIRED');
    const described = ask(sim, bound(sim).consumerGroupDescribe, ['nobody', GROUP]);
    assert.equal(described[0].errorCode, errorCodeOf('GROUP_ID_NOT_FOUND'));
    assert.equal(described[1].groupState, 'Stable');
  });

  it('lets a consumer group take over the id and the offsets of an empty classic group', () => {
    assert.equal(commit(sim, '', -1), 'NONE');
    assert.equal(sim.coordinator.group(GROUP)?.type, 'classic');
    assert.equal(join(sim, 'member-a').errorCode, 0);
    assert.equal(sim.coordinator.group(GROUP), undefined);
    const fetched = ask(sim, bound(sim).offsetFetch, { groupId: GROUP, topics: null });
    assert.equal(fetched.topics[0].partitions[0].committedOffset, 7);
  });

  it('refuses a consumer-group heartbeat for a classic group that has members when the migration policy forbids the upgrade', () => {
    sim.dispose();
    sim = new Simulation({ coordinator: { consumerGroupMigrationPolicy: 'disabled' } });
    sim.createTopic('orders', 3);
    sim.addConsumer({ groupId: GROUP, topics: ['orders'] });
    sim.advance(10000);
    const response = join(sim, 'member-a');
    assert.equal(response.errorCode, errorCodeOf('GROUP_ID_NOT_FOUND'));
    assert.equal(response.errorMessage, `Group ${GROUP} is not a consumer group.`);
  });

  it('reassigns when a subscribed topic is created after the join', () => {
    const first = join(sim, 'member-a');
    assert.equal(first.memberEpoch, 2);
    sim.createTopic('later', 2);
    const response = heartbeat(sim, heartbeatRequest({ groupId: GROUP, memberId: 'member-a', memberEpoch: 2, subscribedTopicNames: ['orders', 'later'] }));
    assert.equal(response.errorCode, 0);
    assert.equal(response.memberEpoch, 3);
    assert.equal(response.assignment?.topicPartitions.flatMap((t) => t.partitions).length, 5);
  });

  it('is described for the views with the fields KafkaSource gives a real consumer group', () => {
    join(sim, 'member-a');
    assert.equal(commit(sim, 'member-a', 2), 'NONE');
    const detail = describeSimGroup(sim, GROUP);
    assert.equal(detail.groupType, 'consumer');
    assert.equal(detail.protocolType, 'consumer');
    assert.equal(detail.state, 'Stable');
    assert.equal(detail.generation, 2);
    assert.equal(detail.assignor, 'uniform');
    assert.equal(detail.memberCount, 1);
    const [member] = detail.members;
    assert.equal(member.memberEpoch, 2);
    assert.equal(member.clientHost, '/127.0.0.1');
    assert.deepEqual(member.targetAssignment, member.assignment);
    assert.equal(member.assignment.length, 3);
    assert.deepEqual(detail.offsets.map((row) => [row.partition, row.ownerMemberId, row.committedOffset]), [[0, 'member-a', 7], [1, 'member-a', null], [2, 'member-a', null]]);
    assert.equal(detail.consumerGroup?.assignmentEpoch, 2);
    assert.equal(detail.consumerGroup?.members[0].reconciling, false);
    assert.deepEqual(listSimGroups(sim).map((g) => [g.groupId, g.groupType, g.state, g.memberCount]), [[GROUP, 'consumer', 'Stable', 1]]);
  });
});
