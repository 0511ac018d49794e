import * as assert from 'node:assert/strict';
import { PartitionAssignorError, type MemberSpec, type SubscriptionType, type TopicMetadata } from '../../../../../../src/simulator/coordinator/group/assignor/index';
import { assertAssignment, member, run, topic1, topic2, topic3, topicsWith, tp } from './kafkaTestSupport';

/** Cases of Kafka's (group coordinator) RangeAssignorTest, with its expected assignments, and 4.4's rules. */
describe('server-side range assignor (Kafka RangeAssignorTest)', () => {
  const range = (type: SubscriptionType, members: MemberSpec[], topics: TopicMetadata[]) => run('range', type, members, topics);

  it('gives nothing to a member subscribed to no topic', () => {
    assert.deepEqual(range('HOMOGENEOUS', [member('A', [])], topicsWith([topic1, 3])), {});
  });

  it('fails when a member subscribes to a topic missing from the metadata', () => {
    assert.throws(() => range('HOMOGENEOUS', [member('A', [topic2])], topicsWith([topic1, 3])),
      (error: Error) => error instanceof PartitionAssignorError && error.message === 'Member is subscribed to a non-existent topic');
  });

  it('first assignment, two members, two topics, same subscriptions', () => {
    const actual = range('HOMOGENEOUS', [member('A', [topic1, topic3]), member('B', [topic1, topic3])], topicsWith([topic1, 3], [topic3, 2]));
    assertAssignment(actual, { A: [tp(topic1, 0, 1), tp(topic3, 0)], B: [tp(topic1, 2), tp(topic3, 1)] });
  });

  it('first assignment, three members, three topics, different subscriptions', () => {
    const actual = range('HETEROGENEOUS', [
      member('A', [topic1, topic2]),
      member('B', [topic3]),
      member('C', [topic2, topic3]),
    ], topicsWith([topic1, 3], [topic2, 3], [topic3, 2]));
    assertAssignment(actual, {
      A: [tp(topic1, 0, 1, 2), tp(topic2, 0, 1)],
      B: [tp(topic3, 0)],
      C: [tp(topic2, 2), tp(topic3, 1)],
    });
  });

  it('first assignment with more members than partitions', () => {
    const actual = range('HOMOGENEOUS', [member('A', [topic1, topic3]), member('B', [topic1, topic3]), member('C', [topic1, topic3])],
      topicsWith([topic1, 3], [topic3, 2]));
    assertAssignment(actual, { A: [tp(topic1, 0), tp(topic3, 0)], B: [tp(topic1, 1), tp(topic3, 1)], C: [tp(topic1, 2)] });
  });

  it('static membership: a member back with a new member id and the same instance id gets the same ranges', () => {
    const before = range('HOMOGENEOUS', [member('A', [topic1], [], 'instanceA'), member('B', [topic1], [], 'instanceB')], topicsWith([topic1, 3]));
    const after = range('HOMOGENEOUS', [member('memberA1', [topic1], [], 'instanceA'), member('B', [topic1], [], 'instanceB')], topicsWith([topic1, 3]));
    assert.deepEqual(after.memberA1, before.A);
    assert.deepEqual(after.B, before.B);
  });

  it('mixed static membership: static members first by instance id, then dynamic ones by member id', () => {
    const topics = topicsWith([topic1, 5]);
    const before = range('HOMOGENEOUS', [member('A', [topic1], [], 'instanceA'), member('C', [topic1], [], 'instanceC'), member('B', [topic1])], topics);
    const after = range('HOMOGENEOUS', [member('memberA1', [topic1], [], 'instanceA'), member('C', [topic1], [], 'instanceC'), member('B', [topic1])], topics);
    assert.deepEqual(after.memberA1, before.A);
    assert.deepEqual(after.B, before.B);
    assert.deepEqual(after.C, before.C);
    assertAssignment(after, { memberA1: [tp(topic1, 0, 1)], C: [tp(topic1, 2, 3)], B: [tp(topic1, 4)] });
  });

  it('reassignment when a member joins and there are fewer partitions than members', () => {
    const actual = range('HOMOGENEOUS', [
      member('A', [topic1, topic2], [tp(topic1, 0), tp(topic2, 0)]),
      member('B', [topic1, topic2], [tp(topic1, 1), tp(topic2, 1)]),
      member('C', [topic1, topic2]),
    ], topicsWith([topic1, 2], [topic2, 2]));
    assertAssignment(actual, { A: [tp(topic1, 0), tp(topic2, 0)], B: [tp(topic1, 1), tp(topic2, 1)] });
  });

  it('co-partitions: members on topics of equal size get the same partition numbers of each', () => {
    const actual = range('HOMOGENEOUS', [member('B', [topic2, topic1]), member('A', [topic1, topic2]), member('C', [topic1, topic2])],
      topicsWith([topic1, 7], [topic2, 7]));
    assertAssignment(actual, {
      A: [tp(topic1, 0, 1, 2), tp(topic2, 0, 1, 2)],
      B: [tp(topic1, 3, 4), tp(topic2, 3, 4)],
      C: [tp(topic1, 5, 6), tp(topic2, 5, 6)],
    });
  });

  it('ignores the current assignment: Kafka 4.4 recomputes the ranges every time', () => {
    const actual = range('HOMOGENEOUS', [member('A', [topic1], [tp(topic1, 2, 3)]), member('B', [topic1], [tp(topic1, 0, 1)])], topicsWith([topic1, 4]));
    assertAssignment(actual, { A: [tp(topic1, 0, 1)], B: [tp(topic1, 2, 3)] });
  });
});
