import * as assert from 'node:assert/strict';
import { errorCodeOf } from '../../../../../src/protocol/errorCodes';
import { MemberState } from '../../../../../src/simulator/coordinator/group/modern/consumer/types';
import { ShareGroup } from '../../../../../src/simulator/coordinator/share/shareGroup';
import { describeShareGroup } from '../../../../../src/simulator/coordinator/share/shareGroupDescribe';
import { context, ORDERS_TOPIC_ID, partitionsOf, request, setup } from './shareFixtures';

/** A member's join, the share state's initialization (a tick later) and the heartbeat that gets the partitions. */
function joinAndAssign(env: ReturnType<typeof setup>, memberId: string) {
  const joined = env.handler.heartbeat(context, request(memberId, 0));
  env.clock.advance(1_000);
  return { joined, assigned: env.handler.heartbeat(context, request(memberId, joined.memberEpoch)) };
}

describe('ShareGroupHeartbeatHandler (Kafka 4.4 GroupMetadataManager.shareGroupHeartbeat)', () => {
  it('assigns nothing before the share state is initialized, then every partition to the first member', () => {
    const env = setup();
    const { joined, assigned } = joinAndAssign(env, 'm1');
    assert.equal(joined.errorCode, 0);
    assert.equal(joined.memberEpoch, 1, 'the join bumps the epoch to 1, which the initial target assignment already reached');
    assert.deepEqual(joined.assignment, { topicPartitions: [] }, 'a join always gets its assignment, empty here');
    assert.equal(joined.heartbeatIntervalMs, 5_000);
    const group = env.handler.group('queue') as ShareGroup;
    assert.deepEqual([...(group.statePartitionMetadata?.initializedTopics.get(ORDERS_TOPIC_ID)?.partitions ?? [])].sort(), [0, 1, 2, 3]);
    assert.equal(group.statePartitionMetadata?.initializingTopics.size, 0);
    assert.equal(assigned.memberEpoch, 2, 'newly initialized partitions bump the epoch (initializedAssignmentPending)');
    assert.deepEqual(partitionsOf(assigned), [0, 1, 2, 3]);
    assert.equal(group.state, 'Stable');
    assert.equal(group.member('m1')?.state, MemberState.STABLE);
  });

  it('splits the partitions between two members at once, with SimpleAssignor', () => {
    const env = setup();
    const m1 = joinAndAssign(env, 'm1').assigned;
    env.clock.advance(1_000);
    const m2 = env.handler.heartbeat(context, request('m2', 0));
    assert.equal(m2.memberEpoch, 3);
    const m1Next = env.handler.heartbeat(context, request('m1', m1.memberEpoch));
    assert.equal(m1Next.memberEpoch, 3, 'm1 takes its new target at once: nothing waits for a revocation');
    const both = [...partitionsOf(m2), ...partitionsOf(m1Next)].sort();
    assert.deepEqual(both, [0, 1, 2, 3], 'each partition to one member (4 partitions, 2 members)');
    assert.equal(partitionsOf(m2).length, 2);
    assert.equal(partitionsOf(m1Next).length, 2);
    const nothingNew = env.handler.heartbeat(context, request('m1', m1Next.memberEpoch));
    assert.equal(nothingNew.assignment, null, 'an unchanged assignment is not sent again');
  });

  it('moves a leaving member\'s partitions to the other, and an empty group keeps its epoch', () => {
    const env = setup();
    joinAndAssign(env, 'm1');
    env.clock.advance(1_000);
    const m2 = env.handler.heartbeat(context, request('m2', 0));
    const left = env.handler.heartbeat(context, request('m2', -1));
    assert.deepEqual({ errorCode: left.errorCode, memberId: left.memberId, memberEpoch: left.memberEpoch }, { errorCode: 0, memberId: 'm2', memberEpoch: -1 });
    const group = env.handler.group('queue') as ShareGroup;
    assert.equal(group.member('m2'), undefined);
    assert.equal(group.groupEpoch, m2.memberEpoch + 1);
    env.clock.advance(1_000);
    const m1 = env.handler.heartbeat(context, request('m1', group.member('m1')?.memberEpoch ?? 0));
    assert.equal(m1.memberEpoch, group.groupEpoch);
    assert.equal(m1.assignment, null, 'm1 never heartbeated at the epoch that halved its target, so it still holds all four');
    assert.deepEqual([...(group.member('m1')?.assignedPartitions.get(ORDERS_TOPIC_ID) ?? [])].sort(), [0, 1, 2, 3]);
    env.handler.heartbeat(context, request('m1', -1));
    assert.equal(group.state, 'Empty');
    assert.equal(group.assignmentEpoch, group.groupEpoch, 'the last leave writes the target epoch too');
  });

  it('fences a member at the session timeout (45 s), not before', () => {
    const env = setup();
    joinAndAssign(env, 'm1');
    const group = env.handler.group('queue') as ShareGroup;
    env.clock.advance(43_000);
    assert.notEqual(group.member('m1'), undefined);
    env.clock.advance(2_000);
    assert.equal(group.member('m1'), undefined);
    assert.equal(group.state, 'Empty');
    assert.equal(env.batches.at(-1)?.cause.text, 'Member m1 fenced from the group because the member session expired.');
    assert.equal(env.batches.at(-1)?.cause.removal, 'member-expired');
  });

  it('writes records that rebuild the same group', () => {
    const env = setup();
    joinAndAssign(env, 'm1');
    env.clock.advance(1_000);
    env.handler.heartbeat(context, request('m2', 0, { rackId: 'rack-a' }));
    const replayed = new ShareGroup('queue');
    env.written.forEach((record) => replayed.replay(record, env.clock.now));
    const live = env.handler.group('queue') as ShareGroup;
    assert.equal(replayed.state, live.state);
    assert.equal(replayed.groupEpoch, live.groupEpoch);
    assert.equal(replayed.assignmentEpoch, live.assignmentEpoch);
    assert.deepEqual(replayed.members, live.members);
    assert.deepEqual(replayed.targetAssignment, live.targetAssignment);
    // Kafka stamps the share-state entries with the replay time, not a logged one.
    const withoutTimestamps = (group: ShareGroup) => [...(group.statePartitionMetadata?.initializedTopics ?? [])].map(([id, v]) => [id, v.name, [...v.partitions]]);
    assert.deepEqual(withoutTimestamps(replayed), withoutTimestamps(live));
    const types = env.written.map((r) => r.type);
    assert.deepEqual(types.slice(0, 4), ['ShareGroupMemberMetadata', 'ShareGroupMetadata', 'ShareGroupCurrentMemberAssignment', 'ShareGroupStatePartitionMetadata'],
      'a join: the subscription, the epoch, the member\'s epoch, the partitions to initialize');
  });

  it('refuses bad requests with Kafka\'s codes and messages, writing nothing', () => {
    const env = setup({ maxSize: 1 });
    const refused = (memberId: string, memberEpoch: number, extra = {}) => {
      const response = env.handler.heartbeat(context, request(memberId, memberEpoch, extra));
      return [response.errorCode, response.errorMessage];
    };
    const invalid = errorCodeOf('INVALID_REQUEST');
    assert.deepEqual(refused('', 0), [invalid, "MemberId can't be empty."]);
    assert.deepEqual(refused('m1', 0, { groupId: ' ' }), [invalid, "GroupId can't be empty."]);
    assert.deepEqual(refused('m1', 0, { rackId: '' }), [invalid, "RackId can't be empty."]);
    assert.deepEqual(refused('m1', 0, { subscribedTopicNames: [] }), [invalid, 'SubscribedTopicNames must be set in first request.']);
    assert.deepEqual(refused('m1', -2), [invalid, 'MemberEpoch is invalid.']);
    assert.deepEqual(refused('m1', 1), [errorCodeOf('GROUP_ID_NOT_FOUND'), 'Share group queue not found.']);
    assert.deepEqual(refused('m1', -1), [errorCodeOf('GROUP_ID_NOT_FOUND'), 'Group queue not found.']);
    assert.equal(env.written.length, 0);
    env.handler.heartbeat(context, request('m1', 0));
    assert.deepEqual(refused('m2', 0), [errorCodeOf('GROUP_MAX_SIZE_REACHED'), 'The share group has reached its maximum capacity of 1 members.']);
    assert.deepEqual(refused('m2', 1), [errorCodeOf('GROUP_MAX_SIZE_REACHED'), 'The share group has reached its maximum capacity of 1 members.']);
    assert.deepEqual(refused('m1', 5), [errorCodeOf('FENCED_MEMBER_EPOCH'),
      'The share group member has a greater member epoch (5) than the one known by the group coordinator (1). The member must abandon all its partitions and rejoin.']);
    env.clock.advance(1_000);
    env.handler.heartbeat(context, request('m1', 1));
    assert.equal(env.handler.group('queue')?.member('m1')?.memberEpoch, 2);
    assert.equal(refused('m1', 3)[0], errorCodeOf('FENCED_MEMBER_EPOCH'));
    const previous = env.handler.heartbeat(context, request('m1', 1));
    assert.deepEqual([previous.errorCode, previous.memberEpoch], [0, 2], 'the previous epoch is still accepted (a lost response)');
    const { handler } = setup();
    handler.heartbeat(context, request('m1', 0));
    const ghost = handler.heartbeat(context, request('ghost', -1));
    assert.deepEqual([ghost.errorCode, ghost.errorMessage], [errorCodeOf('UNKNOWN_MEMBER_ID'), 'Member ghost is not a member of group queue.']);
  });

  it('describes the group as ShareGroup.asDescribedGroup does', () => {
    const env = setup();
    joinAndAssign(env, 'm1');
    const described = describeShareGroup(env.handler.group('queue') as ShareGroup, env.image);
    assert.equal(described.groupState, 'Stable');
    assert.equal(described.assignorName, 'simple');
    assert.equal(described.groupEpoch, 2);
    assert.equal(described.assignmentEpoch, 2);
    assert.deepEqual(described.members.map((m) => [m.memberId, m.memberEpoch, m.clientId, m.clientHost, m.subscribedTopicNames]), [['m1', 2, 'consumer-queue-1', '/127.0.0.1', ['orders']]]);
    assert.deepEqual(described.members[0].assignment.topicPartitions, [{ topicId: ORDERS_TOPIC_ID, topicName: 'orders', partitions: [0, 1, 2, 3] }]);
  });

  it('reads a grown topic again: the new partitions are initialized, then assigned', () => {
    const env = setup();
    const { assigned } = joinAndAssign(env, 'm1');
    env.image.put({ topicId: ORDERS_TOPIC_ID, name: 'orders', numPartitions: 6 });
    env.handler.onTopicsChanged(['orders']);
    env.clock.advance(1_000);
    const grown = env.handler.heartbeat(context, request('m1', assigned.memberEpoch));
    assert.equal(grown.memberEpoch, assigned.memberEpoch + 1, 'the metadata hash changed');
    env.clock.advance(1_000);
    const all = env.handler.heartbeat(context, request('m1', grown.memberEpoch));
    assert.deepEqual(partitionsOf(all), [0, 1, 2, 3, 4, 5]);
  });
});
