import * as assert from 'node:assert/strict';
import { errorCodeOf } from '../../../../../../../src/protocol/errorCodes';
import { PartitionAssignorError } from '../../../../../../../src/simulator/coordinator/group/assignor/index';
import { MemberState } from '../../../../../../../src/simulator/coordinator/group/modern/consumer/index';
import {
  barTopicId, engineContext, fooTopicId, lastCurrentAssignment, MockPartitionAssignor, recordTypes, responseAssignment, seedGroup, sortedTopics,
} from './engineSupport';

const topics = [{ topicId: fooTopicId, name: 'foo', numPartitions: 6 }, { topicId: barTopicId, name: 'bar', numPartitions: 3 }];
const groupId = 'fooup';

/** GroupMetadataManagerTest's consumer-group cases (Kafka 4.4), with their expected epochs, states and assignments. */
describe('KIP-848 consumer group heartbeat (Kafka GroupMetadataManagerTest)', () => {
  it('testMemberJoinsEmptyConsumerGroup: epoch 2 (a new group starts at 1), the whole assignment, Kafka\'s records in order', () => {
    const context = engineContext({ topics });
    const { response, records } = context.heartbeat({
      groupId, memberId: 'member-1', memberEpoch: 0, rebalanceTimeoutMs: 5000, serverAssignor: 'range',
      subscribedTopicNames: ['foo', 'bar'], topicPartitions: [],
    });
    assert.equal(response.errorCode, 0);
    assert.equal(response.memberEpoch, 2);
    assert.equal(response.heartbeatIntervalMs, 5000);
    assert.deepEqual(responseAssignment(response), sortedTopics([[fooTopicId, [0, 1, 2, 3, 4, 5]], [barTopicId, [0, 1, 2]]]));
    assert.deepEqual(recordTypes(records), [
      'ConsumerGroupMemberMetadata', 'ConsumerGroupMetadata', 'ConsumerGroupTargetAssignmentMember',
      'ConsumerGroupTargetAssignmentMetadata', 'ConsumerGroupCurrentMemberAssignment',
    ]);
    const current = lastCurrentAssignment(records);
    assert.deepEqual([current.memberEpoch, current.previousMemberEpoch, current.state], [2, 0, MemberState.STABLE]);
    assert.equal(context.handler.group(groupId)?.state, 'Stable');
    assert.equal(context.handler.group(groupId)?.assignmentEpoch, 2);
  });

  it('testReconciliationProcess: revoke before assign, epochs advance one member at a time', () => {
    const assignor = new MockPartitionAssignor();
    const context = engineContext({
      topics,
      assignor: assignor.assign,
      seed: seedGroup(groupId, 10, [
        { memberId: 'm1', memberEpoch: 10, previousMemberEpoch: 9, subscribedTopicNames: ['foo', 'bar'], serverAssignorName: 'range', assigned: [[fooTopicId, [0, 1, 2]], [barTopicId, [0, 1]]] },
        { memberId: 'm2', memberEpoch: 10, previousMemberEpoch: 9, subscribedTopicNames: ['foo', 'bar'], serverAssignorName: 'range', assigned: [[fooTopicId, [3, 4, 5]], [barTopicId, [2]]] },
      ]),
    });
    assignor.prepare({
      m1: [[fooTopicId, [0, 1]], [barTopicId, [0]]],
      m2: [[fooTopicId, [2, 3]], [barTopicId, [2]]],
      m3: [[fooTopicId, [4, 5]], [barTopicId, [1]]],
    });
    const group = context.handler.group(groupId);
    assert.equal(group?.state, 'Stable');

    // Member 3 joins: epoch 11, nothing free yet, UNRELEASED_PARTITIONS.
    let result = context.heartbeat({ groupId, memberId: 'm3', memberEpoch: 0, rebalanceTimeoutMs: 5000, subscribedTopicNames: ['foo', 'bar'], serverAssignor: 'range', topicPartitions: [] });
    assert.equal(result.response.memberEpoch, 11);
    assert.deepEqual(responseAssignment(result.response), []);
    assert.deepEqual(lastCurrentAssignment(result.records), { memberId: 'm3', memberEpoch: 11, previousMemberEpoch: 0, state: MemberState.UNRELEASED_PARTITIONS, assigned: [], pending: [] });
    assert.equal(group?.state, 'Reconciling');

    // Member 1 stays at epoch 10 and must revoke foo-2 and bar-1.
    result = context.heartbeat({ groupId, memberId: 'm1', memberEpoch: 10 });
    assert.equal(result.response.memberEpoch, 10);
    assert.deepEqual(responseAssignment(result.response), sortedTopics([[fooTopicId, [0, 1]], [barTopicId, [0]]]));
    assert.deepEqual(lastCurrentAssignment(result.records), {
      memberId: 'm1', memberEpoch: 10, previousMemberEpoch: 10, state: MemberState.UNREVOKED_PARTITIONS,
      assigned: sortedTopics([[fooTopicId, [0, 1]], [barTopicId, [0]]]), pending: sortedTopics([[fooTopicId, [2]], [barTopicId, [1]]]),
    });

    // Member 2 stays at epoch 10 and must revoke foo-4 and foo-5.
    result = context.heartbeat({ groupId, memberId: 'm2', memberEpoch: 10 });
    assert.deepEqual(responseAssignment(result.response), sortedTopics([[fooTopicId, [3]], [barTopicId, [2]]]));
    assert.deepEqual(lastCurrentAssignment(result.records), {
      memberId: 'm2', memberEpoch: 10, previousMemberEpoch: 10, state: MemberState.UNREVOKED_PARTITIONS,
      assigned: sortedTopics([[fooTopicId, [3]], [barTopicId, [2]]]), pending: [[fooTopicId, [4, 5]]],
    });

    // Member 3 still waits; only its previous epoch moves.
    result = context.heartbeat({ groupId, memberId: 'm3', memberEpoch: 11 });
    assert.equal(result.response.assignment, null);
    assert.deepEqual(lastCurrentAssignment(result.records), { memberId: 'm3', memberEpoch: 11, previousMemberEpoch: 11, state: MemberState.UNRELEASED_PARTITIONS, assigned: [], pending: [] });

    // Member 1 acknowledges the revocation: epoch 11, STABLE.
    result = context.heartbeat({ groupId, memberId: 'm1', memberEpoch: 10, topicPartitions: [{ topicId: fooTopicId, partitions: [0, 1] }, { topicId: barTopicId, partitions: [0] }] });
    assert.equal(result.response.memberEpoch, 11);
    assert.equal(result.response.assignment, null);
    assert.deepEqual(lastCurrentAssignment(result.records), {
      memberId: 'm1', memberEpoch: 11, previousMemberEpoch: 10, state: MemberState.STABLE, assigned: sortedTopics([[fooTopicId, [0, 1]], [barTopicId, [0]]]), pending: [],
    });
    assert.equal(group?.state, 'Reconciling');

    // Member 2 heartbeats without acknowledging: nothing is written.
    result = context.heartbeat({ groupId, memberId: 'm2', memberEpoch: 10 });
    assert.equal(result.response.memberEpoch, 10);
    assert.deepEqual(result.records, []);

    // Member 3 gets bar-1, released by member 1, and keeps waiting for foo-4 and foo-5.
    result = context.heartbeat({ groupId, memberId: 'm3', memberEpoch: 11 });
    assert.deepEqual(responseAssignment(result.response), [[barTopicId, [1]]]);
    assert.deepEqual(lastCurrentAssignment(result.records), { memberId: 'm3', memberEpoch: 11, previousMemberEpoch: 11, state: MemberState.UNRELEASED_PARTITIONS, assigned: [[barTopicId, [1]]], pending: [] });

    // Member 3 again: member 2 has not released anything yet.
    result = context.heartbeat({ groupId, memberId: 'm3', memberEpoch: 11 });
    assert.equal(result.response.assignment, null);
    assert.deepEqual(result.records, []);

    // Member 2 acknowledges: epoch 11, STABLE, and gets foo-2 released by member 1.
    result = context.heartbeat({ groupId, memberId: 'm2', memberEpoch: 10, topicPartitions: [{ topicId: fooTopicId, partitions: [3] }, { topicId: barTopicId, partitions: [2] }] });
    assert.equal(result.response.memberEpoch, 11);
    assert.deepEqual(responseAssignment(result.response), sortedTopics([[fooTopicId, [2, 3]], [barTopicId, [2]]]));
    assert.deepEqual(lastCurrentAssignment(result.records), {
      memberId: 'm2', memberEpoch: 11, previousMemberEpoch: 10, state: MemberState.STABLE, assigned: sortedTopics([[fooTopicId, [2, 3]], [barTopicId, [2]]]), pending: [],
    });

    // Member 3 gets everything and the group is stable.
    result = context.heartbeat({ groupId, memberId: 'm3', memberEpoch: 11, topicPartitions: [{ topicId: barTopicId, partitions: [1] }] });
    assert.deepEqual(responseAssignment(result.response), sortedTopics([[fooTopicId, [4, 5]], [barTopicId, [1]]]));
    assert.deepEqual(lastCurrentAssignment(result.records), {
      memberId: 'm3', memberEpoch: 11, previousMemberEpoch: 11, state: MemberState.STABLE, assigned: sortedTopics([[fooTopicId, [4, 5]], [barTopicId, [1]]]), pending: [],
    });
    assert.equal(group?.state, 'Stable');
  });

  it('testNewMemberIsRejectedWithMaximumMembersIsReached: GROUP_MAX_SIZE_REACHED, nothing written', () => {
    const context = engineContext({
      topics,
      config: { maxSize: 2 },
      seed: seedGroup(groupId, 10, [
        { memberId: 'm1', memberEpoch: 10, previousMemberEpoch: 9, subscribedTopicNames: ['foo'], assigned: [[fooTopicId, [0, 1, 2]]] },
        { memberId: 'm2', memberEpoch: 10, previousMemberEpoch: 9, subscribedTopicNames: ['foo'], assigned: [[fooTopicId, [3, 4, 5]]] },
      ]),
    });
    const response = context.handler.heartbeat({ apiVersion: 1, clientId: 'c', clientHost: '/127.0.0.1' }, {
      groupId, memberId: 'm3', memberEpoch: 0, instanceId: null, rackId: null, rebalanceTimeoutMs: 5000, subscribedTopicNames: ['foo'],
      subscribedTopicRegex: null, serverAssignor: 'range', topicPartitions: [],
    });
    assert.equal(response.errorCode, errorCodeOf('GROUP_MAX_SIZE_REACHED'));
    assert.equal(response.errorMessage, 'The consumer group has reached its maximum capacity of 2 members.');
    assert.equal(context.written.length, 0);
    assert.equal(context.handler.group(groupId)?.members.size, 2);
  });

  it('testPartitionAssignorExceptionOnRegularHeartbeat: UNKNOWN_SERVER_ERROR with Kafka\'s message, nothing written', () => {
    const context = engineContext({ topics, assignor: () => { throw new PartitionAssignorError('Assignment failed.'); } });
    const response = context.handler.heartbeat({ apiVersion: 1, clientId: 'c', clientHost: '/127.0.0.1' }, {
      groupId, memberId: 'm1', memberEpoch: 0, instanceId: null, rackId: null, rebalanceTimeoutMs: 5000, subscribedTopicNames: ['foo', 'bar'],
      subscribedTopicRegex: null, serverAssignor: null, topicPartitions: [],
    });
    assert.equal(response.errorCode, errorCodeOf('UNKNOWN_SERVER_ERROR'));
    assert.equal(response.errorMessage, 'Failed to compute a new target assignment for epoch 2: Assignment failed.');
    assert.equal(context.written.length, 0);
    assert.equal(context.handler.group(groupId), undefined);
  });
});
