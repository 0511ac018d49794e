import * as assert from 'node:assert/strict';
import { PartitionAssignorError, type MemberSpec, type TopicMetadata } from '../../../../../../src/simulator/coordinator/group/assignor/index';
import { assertAssignment, member, run, topic1, topic2, topic3, topicsWith, tp } from './kafkaTestSupport';

/** Cases of Kafka 4.4's UniformHomogeneousAssignmentBuilderTest, with its expected assignments. */
describe('uniform assignor, homogeneous subscriptions (Kafka UniformHomogeneousAssignmentBuilderTest)', () => {
  const uniform = (members: MemberSpec[], topics: TopicMetadata[]) => run('uniform', 'HOMOGENEOUS', members, topics);

  it('gives nothing to a member subscribed to no topic', () => {
    assert.deepEqual(uniform([member('A', [])], topicsWith([topic1, 3])), {});
  });

  it('fails when a member subscribes to a topic missing from the metadata', () => {
    assert.throws(() => uniform([member('A', [topic2])], topicsWith([topic1, 3])),
      (error: Error) => error instanceof PartitionAssignorError && /doesn't exist in the topic metadata/.test(error.message));
  });

  it('first assignment, two members, two topics', () => {
    const actual = uniform([member('A', [topic1, topic3]), member('B', [topic1, topic3])], topicsWith([topic1, 3], [topic3, 2]));
    assertAssignment(actual, { A: [tp(topic3, 0, 1)], B: [tp(topic1, 0, 1, 2)] });
  });

  it('first assignment with more members than partitions leaves one member empty', () => {
    const actual = uniform([member('A', [topic3]), member('B', [topic3]), member('C', [topic3])], topicsWith([topic3, 2]));
    assertAssignment(actual, { A: [], B: [tp(topic3, 0)], C: [tp(topic3, 1)] });
  });

  it('reassignment of an unbalanced previous assignment', () => {
    const actual = uniform([
      member('A', [topic1, topic2], [tp(topic1, 0, 1), tp(topic2, 0, 1)]),
      member('B', [topic1, topic2], [tp(topic1, 2), tp(topic2, 2)]),
    ], topicsWith([topic1, 3], [topic2, 3]));
    assertAssignment(actual, { A: [tp(topic1, 0, 1), tp(topic2, 0)], B: [tp(topic1, 2), tp(topic2, 1, 2)] });
  });

  it('reassignment when partitions are added to both topics', () => {
    const actual = uniform([
      member('A', [topic1, topic2], [tp(topic1, 0, 2), tp(topic2, 0)]),
      member('B', [topic1, topic2], [tp(topic1, 1), tp(topic2, 1, 2)]),
    ], topicsWith([topic1, 6], [topic2, 5]));
    assertAssignment(actual, { A: [tp(topic1, 0, 2), tp(topic2, 0, 3, 4)], B: [tp(topic1, 1, 3, 4, 5), tp(topic2, 1, 2)] });
  });

  it('reassignment when a member joins two members on two topics', () => {
    const actual = uniform([
      member('A', [topic1, topic2], [tp(topic1, 0, 2), tp(topic2, 0)]),
      member('B', [topic1, topic2], [tp(topic1, 1), tp(topic2, 1, 2)]),
      member('C', [topic1, topic2]),
    ], topicsWith([topic1, 3], [topic2, 3]));
    assertAssignment(actual, { A: [tp(topic1, 0, 2)], B: [tp(topic1, 1), tp(topic2, 1)], C: [tp(topic2, 0, 2)] });
  });

  it('reassignment when one of three members left', () => {
    const actual = uniform([
      member('A', [topic1, topic2], [tp(topic1, 0), tp(topic2, 0)]),
      member('B', [topic1, topic2], [tp(topic1, 1), tp(topic2, 1)]),
    ], topicsWith([topic1, 3], [topic2, 3]));
    assertAssignment(actual, { A: [tp(topic1, 0), tp(topic2, 0, 2)], B: [tp(topic1, 1, 2), tp(topic2, 1)] });
  });

  it('reassignment when both members unsubscribe from a topic', () => {
    const actual = uniform([
      member('A', [topic2], [tp(topic1, 0), tp(topic2, 0)]),
      member('B', [topic2], [tp(topic1, 1), tp(topic2, 1)]),
    ], topicsWith([topic1, 2], [topic2, 2]));
    assertAssignment(actual, { A: [tp(topic2, 0)], B: [tp(topic2, 1)] });
  });

  it('keeps the first partitions a member over quota lists, in the order its set iterates them', () => {
    // 4 partitions, 2 members: quota 2 each. A owns all four, listed 3, 1, 0, 2: it keeps 3 and 1.
    const actual = uniform([member('A', [topic1], [tp(topic1, 3, 1, 0, 2)]), member('B', [topic1])], topicsWith([topic1, 4]));
    assertAssignment(actual, { A: [tp(topic1, 1, 3)], B: [tp(topic1, 0, 2)] });
  });

  it('leaves the extra partition to a later member that can fill it from what it owns (4.4)', () => {
    // 5 partitions, 2 members: one quota of 3, one of 2. A (first) owns one partition, B owns four. Before 4.4, A
    // took the extra slot and B had to give up two; now B keeps three and gives up only one.
    const actual = uniform([member('A', [topic1], [tp(topic1, 0)]), member('B', [topic1], [tp(topic1, 1, 2, 3, 4)])], topicsWith([topic1, 5]));
    assertAssignment(actual, { A: [tp(topic1, 0, 4)], B: [tp(topic1, 1, 2, 3)] });
  });
});
