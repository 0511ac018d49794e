import * as assert from 'node:assert/strict';
import type { ConsumerGroupHeartbeatRequestData } from '../../../../../../../src/protocol/messages/consumerGroupHeartbeatRequest';
import { newConsumerGroupMember, type ConsumerGroupMember } from '../../../../../../../src/simulator/coordinator/group/modern/consumer/consumerGroupMember';
import { InMemoryTopicImage, KafkaApiError, MemberState, reconcileMember } from '../../../../../../../src/simulator/coordinator/group/modern/consumer/index';
import { barTopicId, fooTopicId, partitionsAt } from './engineSupport';

type Topics = Array<[string, number[]]>;
const image = new InMemoryTopicImage([{ topicId: fooTopicId, name: 'foo', numPartitions: 10 }, { topicId: barTopicId, name: 'bar', numPartitions: 10 }]);

function member(state: MemberState, memberEpoch: number, previousMemberEpoch: number, assigned: Topics, pending: Topics = []): ConsumerGroupMember {
  return {
    ...newConsumerGroupMember('member'), state, memberEpoch, previousMemberEpoch, subscribedTopicNames: ['bar', 'foo'],
    assignedPartitions: partitionsAt(memberEpoch, ...assigned), partitionsPendingRevocation: partitionsAt(memberEpoch, ...pending),
  };
}

function owned(...topics: Topics): ConsumerGroupHeartbeatRequestData['topicPartitions'] {
  return topics.map(([topicId, partitions]) => ({ topicId, partitions }));
}

function build(from: ConsumerGroupMember, targetEpoch: number, target: Topics, partitionEpoch: (topicId: string) => number, ownedPartitions: ConsumerGroupHeartbeatRequestData['topicPartitions'] = null): ConsumerGroupMember {
  return reconcileMember(from, {
    metadataImage: image,
    targetAssignmentEpoch: targetEpoch,
    targetAssignment: new Map(target.map(([topicId, partitions]) => [topicId, new Set(partitions)])),
    resolvedRegularExpressions: new Map(),
    currentPartitionEpoch: (topicId) => partitionEpoch(topicId),
    ownedTopicPartitions: ownedPartitions,
  });
}

/** [state, epoch, previous epoch, assigned partitions, pending revocation], partition epochs left out. */
function summary(result: ConsumerGroupMember): [MemberState, number, number, Topics, Topics] {
  const plain = (assignment: ReadonlyMap<string, ReadonlyMap<number, number>>): Topics =>
    [...assignment].map(([topicId, partitions]): [string, number[]] => [topicId, [...partitions.keys()].sort((a, b) => a - b)]).sort(([a], [b]) => a.localeCompare(b));
  return [result.state, result.memberEpoch, result.previousMemberEpoch, plain(result.assignedPartitions), plain(result.partitionsPendingRevocation)];
}

const sorted = (topics: Topics): Topics => [...topics].sort(([a], [b]) => a.localeCompare(b));
const free = (): number => -1;
const taken = (): number => 10;

/** Kafka 4.4's CurrentAssignmentBuilderTest, case by case. */
describe('CurrentAssignmentBuilder (Kafka CurrentAssignmentBuilderTest)', () => {
  const stable = member(MemberState.STABLE, 10, 10, [[fooTopicId, [1, 2, 3]], [barTopicId, [4, 5, 6]]]);

  it('testStableToStable', () => {
    assert.deepEqual(summary(build(stable, 11, [[fooTopicId, [1, 2, 3]], [barTopicId, [4, 5, 6]]], taken)),
      [MemberState.STABLE, 11, 10, sorted([[fooTopicId, [1, 2, 3]], [barTopicId, [4, 5, 6]]]), []]);
  });

  it('testStableToStableWithNewPartitions, new partitions at the target epoch', () => {
    const result = build(stable, 11, [[fooTopicId, [1, 2, 3, 4]], [barTopicId, [4, 5, 6, 7]]], free);
    assert.deepEqual(summary(result), [MemberState.STABLE, 11, 10, sorted([[fooTopicId, [1, 2, 3, 4]], [barTopicId, [4, 5, 6, 7]]]), []]);
    assert.equal(result.assignedPartitions.get(fooTopicId)?.get(4), 11);
    assert.equal(result.assignedPartitions.get(fooTopicId)?.get(1), 10);
  });

  it('testStableToUnrevokedPartitions', () => {
    assert.deepEqual(summary(build(stable, 11, [[fooTopicId, [2, 3, 4]], [barTopicId, [5, 6, 7]]], free)),
      [MemberState.UNREVOKED_PARTITIONS, 10, 10, sorted([[fooTopicId, [2, 3]], [barTopicId, [5, 6]]]), sorted([[fooTopicId, [1]], [barTopicId, [4]]])]);
  });

  it('testStableToUnreleasedPartitions', () => {
    assert.deepEqual(summary(build(stable, 11, [[fooTopicId, [1, 2, 3, 4]], [barTopicId, [4, 5, 6, 7]]], taken)),
      [MemberState.UNRELEASED_PARTITIONS, 11, 10, sorted([[fooTopicId, [1, 2, 3]], [barTopicId, [4, 5, 6]]]), []]);
  });

  it('testStableToUnreleasedPartitionsWithOwnedPartitionsNotHavingRevokedPartitions', () => {
    const result = build(stable, 11, [[fooTopicId, [1, 2, 3]], [barTopicId, [4, 5, 7]]], (topicId) => (topicId === barTopicId ? 10 : -1), owned());
    assert.deepEqual(summary(result), [MemberState.UNRELEASED_PARTITIONS, 11, 10, sorted([[fooTopicId, [1, 2, 3]], [barTopicId, [4, 5]]]), []]);
  });

  const unrevoked = member(MemberState.UNREVOKED_PARTITIONS, 10, 10, [[fooTopicId, [2, 3]], [barTopicId, [5, 6]]], [[fooTopicId, [1]], [barTopicId, [4]]]);

  it('testUnrevokedPartitionsToStable', () => {
    assert.deepEqual(summary(build(unrevoked, 11, [[fooTopicId, [2, 3]], [barTopicId, [5, 6]]], free, owned([fooTopicId, [2, 3]], [barTopicId, [5, 6]]))),
      [MemberState.STABLE, 11, 10, sorted([[fooTopicId, [2, 3]], [barTopicId, [5, 6]]]), []]);
  });

  it('testRemainsInUnrevokedPartitions: no owned partitions, or still owning a revoked one', () => {
    const target: Topics = [[fooTopicId, [3]], [barTopicId, [6]]];
    assert.equal(build(unrevoked, 12, target, free, null), unrevoked);
    assert.equal(build(unrevoked, 12, target, free, owned([fooTopicId, [1, 2, 3]], [barTopicId, [5, 6]])), unrevoked);
    assert.equal(build(unrevoked, 12, target, free, owned([fooTopicId, [2, 3]], [barTopicId, [4, 5, 6]])), unrevoked);
  });

  it('testUnrevokedPartitionsToUnrevokedPartitions: a new revocation round at the member\'s own epoch (4.4)', () => {
    assert.deepEqual(summary(build(unrevoked, 12, [[fooTopicId, [3]], [barTopicId, [6]]], free, owned([fooTopicId, [2, 3]], [barTopicId, [5, 6]]))),
      [MemberState.UNREVOKED_PARTITIONS, 10, 10, sorted([[fooTopicId, [3]], [barTopicId, [6]]]), sorted([[fooTopicId, [2]], [barTopicId, [5]]])]);
  });

  it('testUnrevokedPartitionsToUnreleasedPartitions', () => {
    const from = member(MemberState.UNREVOKED_PARTITIONS, 11, 10, [[fooTopicId, [2, 3]], [barTopicId, [5, 6]]]);
    assert.deepEqual(summary(build(from, 11, [[fooTopicId, [2, 3, 4]], [barTopicId, [5, 6, 7]]], taken, owned([fooTopicId, [2, 3]], [barTopicId, [5, 6]]))),
      [MemberState.UNRELEASED_PARTITIONS, 11, 11, sorted([[fooTopicId, [2, 3]], [barTopicId, [5, 6]]]), []]);
  });

  const unreleased = member(MemberState.UNRELEASED_PARTITIONS, 11, 11, [[fooTopicId, [2, 3]], [barTopicId, [5, 6]]]);

  it('testUnreleasedPartitionsToStable', () => {
    assert.deepEqual(summary(build(unreleased, 12, [[fooTopicId, [2, 3]], [barTopicId, [5, 6]]], taken)),
      [MemberState.STABLE, 12, 11, sorted([[fooTopicId, [2, 3]], [barTopicId, [5, 6]]]), []]);
  });

  it('testUnreleasedPartitionsToStableWithNewPartitions', () => {
    assert.deepEqual(summary(build(unreleased, 11, [[fooTopicId, [2, 3, 4]], [barTopicId, [5, 6, 7]]], free)),
      [MemberState.STABLE, 11, 11, sorted([[fooTopicId, [2, 3, 4]], [barTopicId, [5, 6, 7]]]), []]);
  });

  it('testUnreleasedPartitionsToUnreleasedPartitions', () => {
    assert.deepEqual(summary(build(unreleased, 11, [[fooTopicId, [2, 3, 4]], [barTopicId, [5, 6, 7]]], taken)), summary(unreleased));
  });

  it('testUnreleasedPartitionsToUnrevokedPartitions', () => {
    assert.deepEqual(summary(build(unreleased, 12, [[fooTopicId, [3]], [barTopicId, [6]]], taken)),
      [MemberState.UNREVOKED_PARTITIONS, 11, 11, sorted([[fooTopicId, [3]], [barTopicId, [6]]]), sorted([[fooTopicId, [2]], [barTopicId, [5]]])]);
  });

  it('testUnknownState: fenced until it rejoins with nothing owned', () => {
    const unknown = member(MemberState.UNKNOWN, 11, 11, [[fooTopicId, [3]], [barTopicId, [6]]], [[fooTopicId, [2]], [barTopicId, [5]]]);
    assert.throws(() => build(unknown, 12, [[fooTopicId, [3]], [barTopicId, [6]]], taken),
      (error: unknown) => error instanceof KafkaApiError && error.errorName === 'FENCED_MEMBER_EPOCH');
    assert.deepEqual(summary(build(unknown, 12, [[fooTopicId, [3]], [barTopicId, [6]]], () => 11, owned())),
      [MemberState.STABLE, 12, 11, sorted([[fooTopicId, [3]], [barTopicId, [6]]]), []]);
  });

  it('treats the target of a topic the member no longer subscribes to as empty', () => {
    const fooOnly = { ...stable, subscribedTopicNames: ['foo'] };
    assert.deepEqual(summary(build(fooOnly, 11, [[fooTopicId, [1, 2, 3]], [barTopicId, [4, 5, 6]]], free)),
      [MemberState.UNREVOKED_PARTITIONS, 10, 10, [[fooTopicId, [1, 2, 3]]], [[barTopicId, [4, 5, 6]]]]);
  });

  // Two cases the Java cross-check (bench/java/serverCrossCheck.ts --reconciliation) found.
  it('a stable member whose subscription became empty is rewritten even when it owned nothing (Kafka builds a new map)', () => {
    const empty = { ...member(MemberState.STABLE, 15, 14, []), subscribedTopicNames: [] };
    const result = reconcileMember(empty, {
      metadataImage: image, targetAssignmentEpoch: 15, targetAssignment: new Map(), hasSubscriptionChanged: true,
      resolvedRegularExpressions: new Map(), currentPartitionEpoch: free, ownedTopicPartitions: [],
    });
    assert.deepEqual(summary(result), [MemberState.STABLE, 15, 15, [], []]);
  });

  it('a subscription to names that are not topics is not an empty subscription (TopicIds.isEmpty)', () => {
    const notATopic = { ...member(MemberState.STABLE, 14, 13, []), subscribedTopicNames: ['not-a-topic'] };
    const result = reconcileMember(notATopic, {
      metadataImage: image, targetAssignmentEpoch: 14, targetAssignment: new Map(), hasSubscriptionChanged: true,
      resolvedRegularExpressions: new Map(), currentPartitionEpoch: free, ownedTopicPartitions: null,
    });
    assert.equal(result, notATopic);
  });
});
