import * as assert from 'node:assert/strict';
import { errorCodeOf } from '../../../../../../../src/protocol/errorCodes';
import { compileTopicRegex, ConsumerGroupHeartbeatHandler, consumerGroupRegexResolutionKey, KafkaApiError } from '../../../../../../../src/simulator/coordinator/group/modern/consumer/index';
import { barTopicId, engineContext, fooTopicId, recordTypes, responseAssignment, zarTopicId } from './engineSupport';

const groupId = 'fooup';
const join = { memberEpoch: 0, rebalanceTimeoutMs: 5000, topicPartitions: [] };

describe('KIP-848 regex subscriptions and topic changes', () => {
  it('accepts RE2 syntax and refuses what RE2/J refuses, with Kafka\'s message', () => {
    assert.ok(compileTopicRegex('foo.*').test('foo-1'));
    assert.equal(compileTopicRegex('foo').test('foo-1'), false, 'a regex matches the whole name');
    assert.ok(compileTopicRegex('(?i)FOO').test('foo'));
    assert.ok(compileTopicRegex('(?P<name>orders)-\\d+').test('orders-12'));
    assert.ok(compileTopicRegex('\\Qa.b\\E').test('a.b'));
    assert.equal(compileTopicRegex('\\Qa.b\\E').test('axb'), false);
    const refused = (regex: string): string => {
      try {
        compileTopicRegex(regex);
      } catch (error) {
        assert.ok(error instanceof KafkaApiError);
        assert.equal(error.errorCode, errorCodeOf('INVALID_REGULAR_EXPRESSION'));
        return error.message;
      }
      return 'accepted';
    };
    assert.equal(refused('(?=foo)bar'), 'SubscribedTopicRegex `(?=foo)bar` is not a valid regular expression: invalid or unsupported Perl syntax: `(?=`.');
    assert.equal(refused('(a)\\1'), 'SubscribedTopicRegex `(a)\\1` is not a valid regular expression: invalid escape sequence: `\\1`.');
    assert.equal(refused('a*+'), 'SubscribedTopicRegex `a*+` is not a valid regular expression: invalid nested repetition operator: `*+`.');
    assert.equal(refused('a{1001}'), 'SubscribedTopicRegex `a{1001}` is not a valid regular expression: invalid repeat count: `{1001}`.');
    assert.match(refused('(foo'), /^SubscribedTopicRegex `\(foo` is not a valid regular expression: /);
    // RE2 matches these in linear time; JavaScript could backtrack exponentially, so the simulator refuses them.
    assert.match(refused('(a+)+b'), /refuses a repeated group that repeats inside \(at 0\)/);
    assert.match(refused('x((ab)*c)*'), /\(at 1\)/);
    assert.ok(compileTopicRegex('(orders|payments)-[a-z]+').test('orders-eu'));
    assert.ok(compileTopicRegex('(ab)+[(*]').test('abab('));
  });

  it('resolves a regex after the join (Kafka resolves asynchronously), then again when a matching topic is created', () => {
    const context = engineContext({ topics: [{ topicId: fooTopicId, name: 'foo', numPartitions: 2 }, { topicId: barTopicId, name: 'bar', numPartitions: 2 }] });
    const joined = context.heartbeat({ groupId, memberId: 'm1', ...join, subscribedTopicRegex: 'f.*' });
    assert.equal(joined.response.memberEpoch, 2);
    assert.deepEqual(responseAssignment(joined.response), []);
    assert.ok(context.timer.isScheduled(consumerGroupRegexResolutionKey(groupId)));

    context.timer.advance(0);
    const resolution = context.written[context.written.length - 1];
    assert.deepEqual(recordTypes(resolution), ['ConsumerGroupRegularExpression', 'ConsumerGroupMetadata']);
    assert.deepEqual(resolution[0].value !== null && 'topics' in resolution[0].value ? resolution[0].value.topics : null, ['foo']);
    const group = context.handler.group(groupId);
    assert.equal(group?.groupEpoch, 3);
    assert.equal(group?.state, 'Assigning');

    const assigned = context.heartbeat({ groupId, memberId: 'm1', memberEpoch: 2 });
    assert.equal(assigned.response.memberEpoch, 3);
    assert.deepEqual(responseAssignment(assigned.response), [[fooTopicId, [0, 1]]]);

    context.image.put({ topicId: zarTopicId, name: 'fzar', numPartitions: 1 });
    context.handler.onTopicsChanged(['fzar']);
    context.timer.advance(0);
    assert.equal(group?.groupEpoch, 4);
    const grown = context.heartbeat({ groupId, memberId: 'm1', memberEpoch: 3 });
    assert.equal(grown.response.memberEpoch, 4);
    assert.deepEqual(responseAssignment(grown.response), [[fooTopicId, [0, 1]], [zarTopicId, [0]]].sort(([a], [b]) => String(a).localeCompare(String(b))));
  });

  it('drops a resolved regex (tombstone) when its last member leaves', () => {
    const context = engineContext({ topics: [{ topicId: fooTopicId, name: 'foo', numPartitions: 2 }] });
    context.heartbeat({ groupId, memberId: 'm1', ...join, subscribedTopicRegex: 'fo+' });
    context.heartbeat({ groupId, memberId: 'm2', ...join, subscribedTopicRegex: 'fo+' });
    context.timer.advance(0);
    assert.equal(context.handler.group(groupId)?.resolvedRegularExpressions.size, 1);
    assert.deepEqual(recordTypes(context.heartbeat({ groupId, memberId: 'm1', memberEpoch: -1 }).records), [
      'ConsumerGroupCurrentMemberAssignment tombstone', 'ConsumerGroupTargetAssignmentMember tombstone', 'ConsumerGroupMemberMetadata tombstone', 'ConsumerGroupMetadata',
    ]);
    assert.deepEqual(recordTypes(context.heartbeat({ groupId, memberId: 'm2', memberEpoch: -1 }).records), [
      'ConsumerGroupCurrentMemberAssignment tombstone', 'ConsumerGroupTargetAssignmentMember tombstone', 'ConsumerGroupMemberMetadata tombstone',
      'ConsumerGroupRegularExpression tombstone', 'ConsumerGroupMetadata',
    ]);
    const group = context.handler.group(groupId);
    assert.deepEqual([group?.resolvedRegularExpressions.size, group?.state], [0, 'Empty']);
  });

  it('a static member that rejoins with other topics bumps the group epoch', () => {
    const context = engineContext({ topics: [{ topicId: fooTopicId, name: 'foo', numPartitions: 2 }, { topicId: barTopicId, name: 'bar', numPartitions: 2 }] });
    context.heartbeat({ groupId, memberId: 'a1', instanceId: 'i', ...join, subscribedTopicNames: ['foo'] });
    context.heartbeat({ groupId, memberId: 'a1', instanceId: 'i', memberEpoch: -2 });
    const rejoin = context.heartbeat({ groupId, memberId: 'a2', instanceId: 'i', ...join, subscribedTopicNames: ['bar'] });
    assert.equal(rejoin.response.memberEpoch, 3);
    // It keeps nothing of foo: the revocation is immediate because a rejoining member owns nothing.
    assert.deepEqual(responseAssignment(rejoin.response), [[barTopicId, [0, 1]]]);
  });

  it('refuses an invalid regex on the heartbeat without creating the group', () => {

    const context = engineContext({ topics: [{ topicId: fooTopicId, name: 'foo', numPartitions: 2 }] });
    const response = context.handler.heartbeat({ apiVersion: 1, clientId: 'c', clientHost: '/127.0.0.1' }, {
      groupId, memberId: 'm1', memberEpoch: 0, instanceId: null, rackId: null, rebalanceTimeoutMs: 5000, subscribedTopicNames: null,
      subscribedTopicRegex: '(?!bar).*', serverAssignor: null, topicPartitions: [],
    });
    assert.equal(response.errorCode, errorCodeOf('INVALID_REGULAR_EXPRESSION'));
    assert.equal(context.handler.group(groupId), undefined);
    assert.equal(context.written.length, 0);
  });

  it('partition growth bumps the group epoch on the next heartbeat and assigns the new partitions', () => {
    const context = engineContext({ topics: [{ topicId: fooTopicId, name: 'foo', numPartitions: 2 }] });
    context.heartbeat({ groupId, memberId: 'm1', ...join, subscribedTopicNames: ['foo'] });
    context.image.put({ topicId: fooTopicId, name: 'foo', numPartitions: 4 });
    context.handler.onTopicsChanged(['foo']);
    const next = context.heartbeat({ groupId, memberId: 'm1', memberEpoch: 2 });
    assert.equal(next.response.memberEpoch, 3);
    assert.deepEqual(responseAssignment(next.response), [[fooTopicId, [0, 1, 2, 3]]]);
    // A change to a topic nobody subscribes to changes nothing.
    context.image.put({ topicId: barTopicId, name: 'bar', numPartitions: 1 });
    context.handler.onTopicsChanged(['bar']);
    assert.deepEqual(context.heartbeat({ groupId, memberId: 'm1', memberEpoch: 3 }).records, []);
  });

  it('a subscribed topic that is created later reaches the target assignment', () => {
    const context = engineContext({ topics: [{ topicId: fooTopicId, name: 'foo', numPartitions: 1 }] });
    context.heartbeat({ groupId, memberId: 'm1', ...join, subscribedTopicNames: ['foo', 'bar'] });
    context.image.put({ topicId: barTopicId, name: 'bar', numPartitions: 2 });
    context.handler.onTopicsChanged(['bar']);
    const next = context.heartbeat({ groupId, memberId: 'm1', memberEpoch: 2 });
    assert.equal(next.response.memberEpoch, 3);
    assert.deepEqual(responseAssignment(next.response), [[fooTopicId, [0]], [barTopicId, [0, 1]]].sort(([a], [b]) => String(a).localeCompare(String(b))));
  });
});

describe('KIP-848 assignment batching, describe and replay', () => {
  it('group.consumer.assignment.interval.ms: the group stays Assigning until the interval has passed', () => {
    const context = engineContext({ topics: [{ topicId: fooTopicId, name: 'foo', numPartitions: 4 }], config: { assignmentIntervalMs: 1000 } });
    context.timer.advance(1000);
    context.heartbeat({ groupId, memberId: 'm1', ...join, subscribedTopicNames: ['foo'] });
    context.timer.advance(500);
    const early = context.heartbeat({ groupId, memberId: 'm2', ...join, subscribedTopicNames: ['foo'] });
    const group = context.handler.group(groupId);
    assert.deepEqual([group?.groupEpoch, group?.assignmentEpoch, group?.state], [3, 2, 'Assigning']);
    assert.equal(early.response.memberEpoch, 2);
    assert.deepEqual(responseAssignment(early.response), []);
    context.timer.advance(500);
    const later = context.heartbeat({ groupId, memberId: 'm1', memberEpoch: 2 });
    assert.equal(group?.assignmentEpoch, 3);
    assert.deepEqual(responseAssignment(later.response), [[fooTopicId, [0, 1]]]);
  });

  it('ConsumerGroupDescribe gives the state, epochs, assignor and each member\'s assignment and target with names', () => {
    const context = engineContext({ topics: [{ topicId: fooTopicId, name: 'foo', numPartitions: 2 }] });
    context.heartbeat({ groupId, memberId: 'm1', ...join, subscribedTopicNames: ['foo'], instanceId: 'i1', rackId: 'r1' });
    const [described, unknown] = context.handler.consumerGroupDescribe([groupId, 'nope']);
    assert.equal(described.groupState, 'Stable');
    assert.deepEqual([described.groupEpoch, described.assignmentEpoch, described.assignorName], [2, 2, 'uniform']);
    assert.deepEqual(described.members.map((m) => [m.memberId, m.instanceId, m.rackId, m.memberEpoch, m.clientId, m.clientHost, m.memberType]),
      [['m1', 'i1', 'r1', 2, 'client', '/127.0.0.1', 1]]);
    assert.deepEqual(described.members[0].assignment.topicPartitions, [{ topicId: fooTopicId, topicName: 'foo', partitions: [0, 1] }]);
    assert.deepEqual(described.members[0].targetAssignment.topicPartitions, [{ topicId: fooTopicId, topicName: 'foo', partitions: [0, 1] }]);
    assert.equal(unknown.errorCode, errorCodeOf('GROUP_ID_NOT_FOUND'));
  });

  it('replaying the records it wrote rebuilds the same group (what a coordinator loading __consumer_offsets sees)', () => {
    const topics = [{ topicId: fooTopicId, name: 'foo', numPartitions: 3 }, { topicId: barTopicId, name: 'bar', numPartitions: 2 }];
    const context = engineContext({ topics });
    context.heartbeat({ groupId, memberId: 'm1', ...join, subscribedTopicNames: ['foo', 'bar'] });
    context.heartbeat({ groupId, memberId: 'm2', ...join, subscribedTopicNames: ['foo'], instanceId: 'i2' });
    context.heartbeat({ groupId, memberId: 'm1', memberEpoch: 2 });
    const copy = engineContext({ topics, seed: context.written.flat() });
    assert.deepEqual(copy.handler.consumerGroupDescribe([groupId]), context.handler.consumerGroupDescribe([groupId]));
    assert.ok(copy.handler instanceof ConsumerGroupHeartbeatHandler);
  });

  it('emits the timeline of a join: member joined, epoch bumped, new target, epoch step, state change', () => {
    const context = engineContext({ topics: [{ topicId: fooTopicId, name: 'foo', numPartitions: 2 }] });
    context.heartbeat({ groupId, memberId: 'm1', ...join, subscribedTopicNames: ['foo'] });
    assert.deepEqual(context.events.map((event) => event.kind), ['member-joined', 'rebalance-started', 'sync-completed', 'assignment-changed', 'state-changed']);
    const step = context.events[3];
    assert.deepEqual(step.assignments, [{ memberId: 'm1', groupInstanceId: null, revoked: [], assigned: [{ topic: 'foo', partition: 0 }, { topic: 'foo', partition: 1 }] }]);
    assert.deepEqual([context.events[4].stateBefore, context.events[4].stateAfter], ['Empty', 'Stable']);
  });
});
