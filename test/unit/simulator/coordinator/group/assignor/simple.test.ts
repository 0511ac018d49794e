import * as assert from 'node:assert/strict';
import { assign, PartitionAssignorError, type GroupSpec, type MemberSpec, type SubscriptionType, type TopicMetadata } from '../../../../../../src/simulator/coordinator/group/assignor/index';
import { assertAssignment, member, plain, topic1, topic2, topic3, topicsWith, tp, type PlainAssignment, type TopicPartitions } from './kafkaTestSupport';

/**
 * Kafka 4.4's share-group SimpleAssignor on small cases worked out by hand (member ids A, B, C, D iterate in that
 * order in Kafka's HashMap, so member index 0 is A).
 */
describe('simple assignor (share groups, KIP-932)', () => {
  const simple = (type: SubscriptionType, members: MemberSpec[], topics: TopicMetadata[], allowed?: TopicPartitions[]): PlainAssignment => {
    const groupSpec: GroupSpec = { members, subscriptionType: type };
    if (allowed !== undefined) {
      groupSpec.topicPartitionAllowedMap = allowed;
    }
    return plain(assign('simple', groupSpec, topics));
  };
  const partitionsOf = (result: PlainAssignment, memberId: string, topicId: string): number[] => result[memberId]?.[topicId] ?? [];

  it('shares a partition among all members when there are more members than partitions', () => {
    // desiredSharing = ceil(3 members / 1 partition) = 3; each member wants 1.
    const actual = simple('HOMOGENEOUS', [member('A', [topic1]), member('B', [topic1]), member('C', [topic1])], topicsWith([topic1, 1]));
    assertAssignment(actual, { A: [tp(topic1, 0)], B: [tp(topic1, 0)], C: [tp(topic1, 0)] });
  });

  it('splits partitions evenly when there are more partitions than members, each to one member', () => {
    const actual = simple('HOMOGENEOUS', [member('A', [topic1]), member('B', [topic1])], topicsWith([topic1, 4]));
    const a = partitionsOf(actual, 'A', topic1);
    const b = partitionsOf(actual, 'B', topic1);
    assert.equal(a.length, 2);
    assert.equal(b.length, 2);
    assert.deepEqual([...a, ...b].sort(), [0, 1, 2, 3]);
  });

  it('keeps a balanced current assignment as it is', () => {
    const actual = simple('HOMOGENEOUS', [
      member('A', [topic1], [tp(topic1, 3, 0)]),
      member('B', [topic1], [tp(topic1, 2, 1)]),
    ], topicsWith([topic1, 4]));
    assertAssignment(actual, { A: [tp(topic1, 0, 3)], B: [tp(topic1, 1, 2)] });
  });

  it('takes an over-shared partition from its first holders and gives the other partition to them and the newcomer', () => {
    // 4 members, 2 partitions: desiredSharing 2, each member wants 1. Partition 0 has 3 holders: A (index 0) loses it.
    const actual = simple('HOMOGENEOUS', [
      member('A', [topic1], [tp(topic1, 0)]),
      member('B', [topic1], [tp(topic1, 0)]),
      member('C', [topic1], [tp(topic1, 0)]),
      member('D', [topic1]),
    ], topicsWith([topic1, 2]));
    assertAssignment(actual, { A: [tp(topic1, 1)], B: [tp(topic1, 0)], C: [tp(topic1, 0)], D: [tp(topic1, 1)] });
  });

  it('assigns only partitions with initialized share state, but lets a member keep one it holds', () => {
    // Only 1 and 3 are assignable: each member wants 1. A's partition 0 still counts (Kafka keeps held partitions
    // of subscribed topics), so only B gets one, the first of 1 and 3 in the map's order.
    const actual = simple('HOMOGENEOUS', [member('A', [topic1], [tp(topic1, 0)]), member('B', [topic1])],
      topicsWith([topic1, 4]), [tp(topic1, 1, 3)]);
    assertAssignment(actual, { A: [tp(topic1, 0)], B: [tp(topic1, 1)] });
    const fresh = simple('HOMOGENEOUS', [member('A', [topic1]), member('B', [topic1])], topicsWith([topic1, 4]), [tp(topic1, 1, 3)]);
    assert.deepEqual([...partitionsOf(fresh, 'A', topic1), ...partitionsOf(fresh, 'B', topic1)].sort(), [1, 3]);
    assert.deepEqual(simple('HOMOGENEOUS', [member('A', [topic1])], topicsWith([topic1, 4]), []), {});
  });

  it('fails as Kafka 4.4 does when the unfilled members run out while a partition wants more', () => {
    // One assignable partition wanting 2 members; A is already full with partition 1, so B is the only taker.
    assert.throws(() => simple('HOMOGENEOUS', [member('A', [topic1], [tp(topic1, 1)]), member('B', [topic1])],
      topicsWith([topic1, 2]), [tp(topic1, 0)]),
    (error: Error) => error instanceof PartitionAssignorError && /NoSuchElementException/.test(error.message));
  });

  it('drops unsubscribed topics in the homogeneous case but keeps topics nobody subscribes to in the heterogeneous one', () => {
    const topics = topicsWith([topic1, 2], [topic2, 1], [topic3, 1]);
    assertAssignment(simple('HOMOGENEOUS', [member('A', [topic1], [tp(topic2, 0)]), member('B', [topic1])], topics),
      { A: [tp(topic1, 0)], B: [tp(topic1, 1)] });
    assertAssignment(simple('HETEROGENEOUS', [member('A', [topic1], [tp(topic2, 0)]), member('B', [topic3])], topics),
      { A: [tp(topic1, 0, 1), tp(topic2, 0)], B: [tp(topic3, 0)] });
  });

  it('balances each topic among its own subscribers in the heterogeneous case', () => {
    // topic1: A and C want one partition each; topic2: B and C.
    const actual = simple('HETEROGENEOUS', [member('A', [topic1]), member('B', [topic2]), member('C', [topic1, topic2])],
      topicsWith([topic1, 2], [topic2, 2]));
    assertAssignment(actual, { A: [tp(topic1, 0)], B: [tp(topic2, 0)], C: [tp(topic1, 1), tp(topic2, 1)] });
  });

  it('takes a topic from a member that no longer subscribes to it', () => {
    const actual = simple('HETEROGENEOUS', [member('A', [topic1], [tp(topic1, 0, 1), tp(topic2, 0)]), member('B', [topic2])],
      topicsWith([topic1, 2], [topic2, 1]));
    assertAssignment(actual, { A: [tp(topic1, 0, 1)], B: [tp(topic2, 0)] });
  });

  it('gives nothing without members or subscriptions, and fails for a subscribed topic missing from the metadata', () => {
    assert.deepEqual(simple('HOMOGENEOUS', [], topicsWith([topic1, 3])), {});
    assert.deepEqual(simple('HOMOGENEOUS', [member('A', [], [tp(topic1, 0)])], topicsWith([topic1, 3])), {});
    assert.throws(() => simple('HETEROGENEOUS', [member('A', [topic2]), member('B', [])], topicsWith([topic1, 3])),
      (error: Error) => error instanceof PartitionAssignorError && /doesn't exist in the topic metadata/.test(error.message));
  });

  it('lets share-group members share a partition, which consumer groups still reject, and checks the allowed map', () => {
    const shared = { members: [member('A', [topic1], [tp(topic1, 0)]), member('B', [topic1], [tp(topic1, 0)])], subscriptionType: 'HOMOGENEOUS' as const };
    assert.equal(assign('simple', shared, topicsWith([topic1, 1])).size, 2);
    for (const name of ['uniform', 'range'] as const) {
      assert.throws(() => assign(name, shared, topicsWith([topic1, 1])), /assigned to both A and B/);
      assert.throws(() => assign(name, { ...shared, members: [member('A', [topic1])], topicPartitionAllowedMap: [] }, topicsWith([topic1, 1])),
        /Only a share group spec/);
    }
    const rejects = (groupSpec: GroupSpec, message: RegExp): void => {
      assert.throws(() => assign('simple', groupSpec, topicsWith([topic1, 2])), (error: Error) => error instanceof PartitionAssignorError && message.test(error.message));
    };
    rejects({ ...shared, members: [member('A', [topic1], [tp(topic1, 0, 0)])] }, /lists partition 0 of topic .* twice/);
    rejects({ ...shared, topicPartitionAllowedMap: [tp(topic1, 0), tp(topic1, 1)] }, /appears twice in the topicPartitionAllowedMap/);
    rejects({ ...shared, topicPartitionAllowedMap: [tp(topic1, -1)] }, /invalid list of assignable partitions/);
  });
});
