import * as assert from 'node:assert/strict';
import { PartitionAssignorError, type MemberSpec, type TopicMetadata } from '../../../../../../src/simulator/coordinator/group/assignor/index';
import { assertAssignment, member, run, topic1, topic2, topic3, topic4, topicsWith, tp } from './kafkaTestSupport';

/**
 * Cases of Kafka's UniformHeterogeneousAssignmentBuilderTest, with its expected assignments. Kafka's test orders
 * members A, B, C by name; a HashMap of these one-letter ids iterates them in that order too.
 */
describe('uniform assignor, heterogeneous subscriptions (Kafka UniformHeterogeneousAssignmentBuilderTest)', () => {
  const uniform = (members: MemberSpec[], topics: TopicMetadata[]) => run('uniform', 'HETEROGENEOUS', members, topics);

  it('gives nothing to members subscribed to no topic', () => {
    assert.deepEqual(uniform([member('A', []), member('B', [])], topicsWith([topic1, 3])), {});
  });

  it('fails when members subscribe to topics missing from the metadata', () => {
    assert.throws(() => uniform([member('A', [topic1]), member('B', [topic2])], topicsWith([topic1, 3])),
      (error: Error) => error instanceof PartitionAssignorError && /doesn't exist in the topic metadata/.test(error.message));
  });

  it('first assignment, two members, two topics', () => {
    const actual = uniform([member('A', [topic1, topic3]), member('B', [topic3])], topicsWith([topic1, 3], [topic3, 6]));
    assertAssignment(actual, { A: [tp(topic1, 0, 1, 2), tp(topic3, 4)], B: [tp(topic3, 0, 1, 2, 3, 5)] });
  });

  it('first assignment with more members than partitions', () => {
    const actual = uniform([member('A', [topic3]), member('B', [topic3]), member('C', [topic1])], topicsWith([topic3, 1], [topic1, 2]));
    assertAssignment(actual, { A: [tp(topic3, 0)], B: [], C: [tp(topic1, 0, 1)] });
  });

  it('reassignment of an unbalanced previous assignment, two members on three topics', () => {
    const actual = uniform([
      member('A', [topic1], [tp(topic1, 0, 1, 2)]),
      member('B', [topic1, topic2], [tp(topic1, 3), tp(topic2, 0)]),
      member('C', [topic1, topic2, topic3], [tp(topic1, 4, 5), tp(topic2, 1, 2, 3), tp(topic3, 0, 1, 2, 3)]),
    ], topicsWith([topic1, 6], [topic2, 4], [topic3, 4]));
    assertAssignment(actual, {
      A: [tp(topic1, 0, 1, 2, 5)],
      B: [tp(topic1, 3), tp(topic2, 0, 1, 2, 3)],
      C: [tp(topic1, 4), tp(topic3, 0, 1, 2, 3)],
    });
  });

  it('reassignment when partitions are added', () => {
    const actual = uniform([
      member('A', [topic1, topic3], [tp(topic1, 0, 1, 2, 3), tp(topic3, 0, 1)]),
      member('B', [topic1, topic2, topic3, topic4], [tp(topic2, 0, 1, 2), tp(topic4, 0, 1, 2)]),
    ], topicsWith([topic1, 6], [topic2, 5], [topic3, 3], [topic4, 3]));
    assertAssignment(actual, {
      A: [tp(topic1, 0, 1, 2, 3, 4, 5), tp(topic3, 0, 1, 2)],
      B: [tp(topic2, 0, 1, 2, 3, 4), tp(topic4, 0, 1, 2)],
    });
  });

  it('reassignment when a member joins and partitions are added', () => {
    const actual = uniform([
      member('A', [topic1], [tp(topic1, 0, 2), tp(topic2, 0)]),
      member('B', [topic1, topic2], [tp(topic1, 1), tp(topic2, 1, 2)]),
      member('C', [topic1, topic2]),
    ], topicsWith([topic1, 6], [topic2, 7]));
    assertAssignment(actual, {
      A: [tp(topic1, 0, 2, 3, 4, 5)],
      B: [tp(topic1, 1), tp(topic2, 1, 2, 6)],
      C: [tp(topic2, 0, 3, 4, 5)],
    });
  });

  it('numbers members in memberIds() order (Java HashMap order of their ids), which breaks ties', () => {
    // One partition, two subscribers with nothing yet: the one numbered first gets it.
    const winner = (first: string, second: string): string[] =>
      Object.keys(uniform([member(first, [topic1, topic2]), member(second, [topic1])], topicsWith([topic1, 1], [topic2, 0])));
    // "B" is put in first, but HashMap iterates "A" (bucket 1) before "B" (bucket 2).
    assert.deepEqual(winner('B', 'A'), ['A']);
    // "Aa" and "BB" have the same String.hashCode: one bucket, iterated in insertion order.
    assert.deepEqual(winner('Aa', 'BB'), ['Aa']);
    assert.deepEqual(winner('BB', 'Aa'), ['BB']);
  });
});
