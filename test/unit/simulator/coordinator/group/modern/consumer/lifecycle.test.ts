import * as assert from 'node:assert/strict';
import { errorCodeOf } from '../../../../../../../src/protocol/errorCodes';
import {
  consumerGroupRebalanceTimeoutKey, consumerGroupSessionTimeoutKey, MemberState,
} from '../../../../../../../src/simulator/coordinator/group/modern/consumer/index';
import { barTopicId, engineContext, fooTopicId, lastCurrentAssignment, recordTypes, responseAssignment, seedGroup, sortedTopics } from './engineSupport';

const topics = [{ topicId: fooTopicId, name: 'foo', numPartitions: 6 }, { topicId: barTopicId, name: 'bar', numPartitions: 3 }];
const groupId = 'fooup';
const join = { memberEpoch: 0, rebalanceTimeoutMs: 5000, subscribedTopicNames: ['foo', 'bar'], topicPartitions: [] };

/** Kafka GroupMetadataManagerTest's member lifecycle cases: leave, static members, timers. */
describe('KIP-848 member lifecycle (Kafka GroupMetadataManagerTest)', () => {
  it('testLeavingMemberBumpsGroupEpoch: tombstones, epoch + 1, then the others reassign', () => {
    const context = engineContext({
      topics,
      seed: seedGroup(groupId, 10, [
        { memberId: 'm1', memberEpoch: 10, previousMemberEpoch: 9, subscribedTopicNames: ['foo', 'bar'], assigned: [[fooTopicId, [0, 1, 2]], [barTopicId, [0, 1]]] },
        { memberId: 'm2', memberEpoch: 10, previousMemberEpoch: 9, subscribedTopicNames: ['foo', 'bar'], assigned: [[fooTopicId, [3, 4, 5]], [barTopicId, [2]]] },
      ]),
    });
    const { response, records } = context.heartbeat({ groupId, memberId: 'm2', memberEpoch: -1 });
    assert.deepEqual([response.memberId, response.memberEpoch, response.assignment], ['m2', -1, null]);
    assert.deepEqual(recordTypes(records), [
      'ConsumerGroupCurrentMemberAssignment tombstone', 'ConsumerGroupTargetAssignmentMember tombstone',
      'ConsumerGroupMemberMetadata tombstone', 'ConsumerGroupMetadata',
    ]);
    const group = context.handler.group(groupId);
    assert.equal(group?.groupEpoch, 11);
    assert.equal(group?.state, 'Assigning');
    assert.equal(context.timer.isScheduled(consumerGroupSessionTimeoutKey(groupId, 'm2')), false);
    // Member 1's next heartbeat computes the new target: it gets everything at epoch 11.
    const next = context.heartbeat({ groupId, memberId: 'm1', memberEpoch: 10 });
    assert.equal(next.response.memberEpoch, 11);
    assert.deepEqual(responseAssignment(next.response), sortedTopics([[fooTopicId, [0, 1, 2, 3, 4, 5]], [barTopicId, [0, 1, 2]]]));
    assert.equal(group?.state, 'Stable');
    assert.ok(context.events.some((event) => event.kind === 'member-left' && event.memberId === 'm2'));
  });

  it('refuses unknown members and epochs the coordinator does not know, changing nothing', () => {
    const context = engineContext({
      topics,
      seed: seedGroup(groupId, 10, [{ memberId: 'm1', memberEpoch: 10, previousMemberEpoch: 9, subscribedTopicNames: ['foo'], assigned: [[fooTopicId, [0, 1]]] }]),
    });
    const send = (request: Parameters<typeof context.heartbeat>[0]): [string | null, number] => {
      const response = context.handler.heartbeat({ apiVersion: 1, clientId: 'c', clientHost: '/127.0.0.1' }, {
        memberEpoch: 0, instanceId: null, rackId: null, rebalanceTimeoutMs: -1, subscribedTopicNames: null, subscribedTopicRegex: null,
        serverAssignor: null, topicPartitions: null, ...request,
      });
      return [response.errorMessage, response.errorCode];
    };
    assert.deepEqual(send({ groupId, memberId: 'nobody', memberEpoch: 3 }), ['Member nobody is not a member of group fooup.', errorCodeOf('UNKNOWN_MEMBER_ID')]);
    assert.deepEqual(send({ groupId: 'other', memberId: 'm1', memberEpoch: 3 }), ['Consumer group other not found.', errorCodeOf('GROUP_ID_NOT_FOUND')]);
    assert.deepEqual(send({ groupId, memberId: 'm1', memberEpoch: 11 }), [
      'The consumer group member has a greater member epoch (11) than the one known by the group coordinator (10). The member must abandon all its partitions and rejoin.', errorCodeOf('FENCED_MEMBER_EPOCH')]);
    assert.deepEqual(send({ groupId, memberId: 'm1', memberEpoch: 8 }), [
      'The consumer group member has a smaller member epoch (8) than the one known by the group coordinator (10). The member must abandon all its partitions and rejoin.', errorCodeOf('FENCED_MEMBER_EPOCH')]);
    assert.deepEqual(send({ groupId, memberId: '', memberEpoch: 0 }), ["MemberId can't be empty.", errorCodeOf('INVALID_REQUEST')]);
    assert.deepEqual(send({ groupId, memberId: 'x', memberEpoch: 0, subscribedTopicNames: ['foo'] }), ['RebalanceTimeoutMs must be provided in first request.', errorCodeOf('INVALID_REQUEST')]);
    assert.deepEqual(send({ groupId, memberId: 'x', memberEpoch: 0, rebalanceTimeoutMs: 5000, subscribedTopicNames: ['foo'] }), ['TopicPartitions must be empty when (re-)joining.', errorCodeOf('INVALID_REQUEST')]);
    assert.deepEqual(send({ groupId, memberId: 'x', memberEpoch: 0, rebalanceTimeoutMs: 5000, topicPartitions: [] }),
      ['Either SubscribedTopicNames or SubscribedTopicRegex must be non-null when (re-)joining.', errorCodeOf('INVALID_REQUEST')]);
    assert.deepEqual(send({ groupId, memberId: 'x', memberEpoch: -3 }), ['MemberEpoch is invalid.', errorCodeOf('INVALID_REQUEST')]);
    assert.deepEqual(send({ groupId, memberId: 'x', memberEpoch: -2 }), ["InstanceId can't be null.", errorCodeOf('INVALID_REQUEST')]);
    assert.deepEqual(send({ groupId, memberId: 'x', memberEpoch: 0, rebalanceTimeoutMs: 5000, subscribedTopicNames: ['foo'], topicPartitions: [], serverAssignor: 'sticky' }),
      ['ServerAssignor sticky is not supported. Supported assignors: uniform, range.', errorCodeOf('UNSUPPORTED_ASSIGNOR')]);
    assert.equal(context.written.length, 0);
    // The previous epoch is accepted when the member owns a subset of its assignment (a lost response).
    assert.deepEqual(send({ groupId, memberId: 'm1', memberEpoch: 9, topicPartitions: [{ topicId: fooTopicId, partitions: [0] }] }), [null, 0]);
  });

  it('static member: -2 keeps its partitions, the rejoin replaces it from epoch 0 and inherits its assignment', () => {
    const context = engineContext({ topics });
    const first = context.heartbeat({ groupId, memberId: 'a1', instanceId: 'instance-a', ...join });
    assert.equal(first.response.memberEpoch, 2);
    const refused = context.handler.heartbeat({ apiVersion: 1, clientId: 'c', clientHost: '/127.0.0.1' }, {
      groupId, memberId: 'a2', memberEpoch: 0, instanceId: 'instance-a', rackId: null, rebalanceTimeoutMs: 5000,
      subscribedTopicNames: ['foo', 'bar'], subscribedTopicRegex: null, serverAssignor: null, topicPartitions: [],
    });
    assert.equal(refused.errorMessage, 'Static member a2 with instance id instance-a cannot join the group because the instance id is owned by a1 member.');

    const leave = context.heartbeat({ groupId, memberId: 'a1', instanceId: 'instance-a', memberEpoch: -2 });
    assert.equal(leave.response.memberEpoch, -2);
    assert.deepEqual(recordTypes(leave.records), ['ConsumerGroupCurrentMemberAssignment']);
    assert.equal(lastCurrentAssignment(leave.records).memberEpoch, -2);
    assert.equal(context.handler.group(groupId)?.groupEpoch, 2);

    const rejoin = context.heartbeat({ groupId, memberId: 'a2', instanceId: 'instance-a', ...join });
    assert.deepEqual(recordTypes(rejoin.records), [
      'ConsumerGroupCurrentMemberAssignment tombstone', 'ConsumerGroupTargetAssignmentMember tombstone', 'ConsumerGroupMemberMetadata tombstone',
      'ConsumerGroupMemberMetadata', 'ConsumerGroupTargetAssignmentMember', 'ConsumerGroupCurrentMemberAssignment', 'ConsumerGroupCurrentMemberAssignment',
    ]);
    // Same subscription: no new group epoch; the new member takes the old one's partitions at epoch 2.
    assert.equal(rejoin.response.memberEpoch, 2);
    assert.deepEqual(responseAssignment(rejoin.response), sortedTopics([[fooTopicId, [0, 1, 2, 3, 4, 5]], [barTopicId, [0, 1, 2]]]));
    const group = context.handler.group(groupId);
    assert.deepEqual([...(group?.members.keys() ?? [])], ['a2']);
    assert.equal(group?.staticMembers.get('instance-a'), 'a2');
    assert.equal(context.timer.isScheduled(consumerGroupSessionTimeoutKey(groupId, 'a1')), false);
    assert.ok(context.events.some((event) => event.kind === 'static-rejoin' && event.memberId === 'a2'));
  });

  it('testSessionTimeoutLifecycle: the session timer moves with each heartbeat and fences on expiry', () => {
    const context = engineContext({ topics });
    context.heartbeat({ groupId, memberId: 'm1', ...join });
    const key = consumerGroupSessionTimeoutKey(groupId, 'm1');
    assert.equal(context.timer.deadline(key), 45000);
    context.timer.advance(20000);
    context.heartbeat({ groupId, memberId: 'm1', memberEpoch: 2 });
    assert.equal(context.timer.deadline(key), 65000);
    context.timer.advance(44999);
    assert.equal(context.handler.group(groupId)?.members.size, 1);
    context.timer.advance(1);
    const group = context.handler.group(groupId);
    assert.equal(group?.members.size, 0);
    assert.equal(group?.groupEpoch, 3);
    assert.equal(group?.state, 'Empty');
    const expired = context.events.find((event) => event.kind === 'member-expired');
    assert.equal(expired?.cause, 'Member m1 fenced from the group because the member session expired.');
  });

  it('testRebalanceTimeoutLifecycle: a member that does not revoke in time is fenced; its partitions go to the other', () => {
    const context = engineContext({ topics: [{ topicId: fooTopicId, name: 'foo', numPartitions: 3 }], config: { sessionTimeoutMs: 45000 } });
    const fooJoin = { ...join, rebalanceTimeoutMs: 12000, subscribedTopicNames: ['foo'] };
    context.heartbeat({ groupId, memberId: 'm1', ...fooJoin });
    context.timer.advance(1000);
    const second = context.heartbeat({ groupId, memberId: 'm2', ...fooJoin });
    assert.equal(second.response.memberEpoch, 3);
    const revoking = context.heartbeat({ groupId, memberId: 'm1', memberEpoch: 2 });
    assert.equal(revoking.response.memberEpoch, 2);
    assert.equal(lastCurrentAssignment(revoking.records).state, MemberState.UNREVOKED_PARTITIONS);
    const key = consumerGroupRebalanceTimeoutKey(groupId, 'm1');
    assert.equal(context.timer.deadline(key), 13000);
    // Member 2 keeps heartbeating; member 1 never acknowledges.
    for (let time = 1000; time + 5000 < 13000; time += 5000) {
      context.timer.advance(5000);
      context.heartbeat({ groupId, memberId: 'm2', memberEpoch: 3 });
    }
    assert.equal(context.handler.group(groupId)?.members.size, 2);
    context.timer.advance(2000);
    const group = context.handler.group(groupId);
    assert.deepEqual([...(group?.members.keys() ?? [])], ['m2']);
    assert.equal(group?.groupEpoch, 4);
    const fenced = context.events.find((event) => event.kind === 'poll-timeout');
    assert.equal(fenced?.cause, 'Member m1 fenced from the group because it failed to transition from epoch 2 within 12000ms.');
    const last = context.heartbeat({ groupId, memberId: 'm2', memberEpoch: 3 });
    assert.equal(last.response.memberEpoch, 4);
    assert.deepEqual(responseAssignment(last.response), [[fooTopicId, [0, 1, 2]]]);
  });

  it('never lets two members own a partition while it moves', () => {
    const context = engineContext({ topics });
    context.heartbeat({ groupId, memberId: 'm1', ...join });
    context.heartbeat({ groupId, memberId: 'm2', ...join });
    const group = context.handler.group(groupId);
    const m2Before = group?.member('m2');
    assert.equal(m2Before?.state, MemberState.UNRELEASED_PARTITIONS);
    assert.equal(m2Before?.assignedPartitions.size, 0);
    const m1 = context.heartbeat({ groupId, memberId: 'm1', memberEpoch: 2 });
    const kept = responseAssignment(m1.response) ?? [];
    // Member 2 gets nothing until member 1 reports the revocation done.
    assert.equal(responseAssignment(context.heartbeat({ groupId, memberId: 'm2', memberEpoch: 3 }).response), null);
    context.heartbeat({ groupId, memberId: 'm1', memberEpoch: 2, topicPartitions: kept.map(([topicId, partitions]) => ({ topicId, partitions })) });
    const m2 = context.heartbeat({ groupId, memberId: 'm2', memberEpoch: 3 });
    const all = [...kept, ...(responseAssignment(m2.response) ?? [])].flatMap(([topicId, partitions]) => partitions.map((p) => `${topicId}-${p}`));
    assert.equal(new Set(all).size, 9);
    assert.equal(all.length, 9);
    assert.equal(group?.state, 'Stable');
  });
});
