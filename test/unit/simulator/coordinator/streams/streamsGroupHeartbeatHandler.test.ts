import * as assert from 'node:assert/strict';
import type { StreamsGroupHeartbeatRequestData } from '../../../../../src/protocol/messages/streamsGroupHeartbeatRequest';
import { errorCodeOf } from '../../../../../src/protocol/errorCodes';
import { StreamsGroup } from '../../../../../src/simulator/coordinator/streams/streamsGroup';
import { describeStreamsGroup } from '../../../../../src/simulator/coordinator/streams/streamsGroupDescribe';
import { StreamsMemberState } from '../../../../../src/simulator/coordinator/streams/streamsGroupMember';
import { StreamsHeartbeatStatus } from '../../../../../src/simulator/coordinator/streams/topics/configuredTopology';
import { codes, context, count, createInternalTopics, request, setup, topology } from './streamsFixtures';

describe('StreamsGroupHeartbeatHandler (Kafka 4.4 GroupMetadataManager.streamsGroupHeartbeat)', () => {
  it('asks for the missing internal topics, then assigns after the initial rebalance delay', () => {
    const { clock, image, handler } = setup();
    const first = handler.heartbeat(context, request('m1', 0));
    assert.equal(first.response.errorCode, 0);
    // The initial rebalance delay starts with the first member, as the status says first.
    assert.deepEqual(codes(first.response), [StreamsHeartbeatStatus.ASSIGNMENT_DELAYED, StreamsHeartbeatStatus.MISSING_INTERNAL_TOPICS]);
    assert.match(first.response.status?.[1].statusDetail ?? '', /^Internal topics are missing: /);
    assert.deepEqual([...first.internalTopicsToBeCreated.values()].map((t) => [t.name, t.numberOfPartitions]).sort(), [['app-repartition', 4], ['app-store-changelog', 4]]);
    assert.equal(first.internalTopicsToBeCreated.get('app-store-changelog')?.topicConfigs.get('cleanup.policy'), 'compact');
    assert.equal(handler.group('app')?.state, 'NotReady');
    assert.equal(first.response.memberEpoch, 1, 'the empty target of epoch 1 is reached at once');

    createInternalTopics(image);
    handler.onTopicsChanged(['app-repartition', 'app-store-changelog']);
    const ready = handler.heartbeat(context, request('m1', 1, { activeTasks: [], standbyTasks: [], warmupTasks: [] }));
    assert.deepEqual(codes(ready.response), [StreamsHeartbeatStatus.ASSIGNMENT_DELAYED]);
    assert.equal(handler.group('app')?.validatedTopologyEpoch, 0);

    clock.advance(3_000);
    const group = handler.group('app') as StreamsGroup;
    assert.equal(group.assignmentEpoch, group.groupEpoch, 'the delayed assignment ran');
    const assigned = handler.heartbeat(context, request('m1', 1, { activeTasks: [], standbyTasks: [], warmupTasks: [] }));
    assert.equal(assigned.response.memberEpoch, group.groupEpoch);
    assert.equal(count(assigned.response.activeTasks), 8, 'both subtopologies, four tasks each');
    assert.equal(handler.group('app')?.state, 'Stable');
  });

  it('moves tasks to a second process only after the first revoked them', () => {
    const { clock, image, handler } = setup();
    createInternalTopics(image);
    handler.heartbeat(context, request('m1', 0));
    clock.advance(3_000);
    const all = handler.heartbeat(context, request('m1', 1, { activeTasks: [], standbyTasks: [], warmupTasks: [] })).response;
    assert.equal(count(all.activeTasks), 8);
    clock.advance(1_000);

    const joined = handler.heartbeat(context, request('m2', 0)).response;
    assert.equal(count(joined.activeTasks), 0, 'the tasks are still owned by m1');
    const group = handler.group('app') as StreamsGroup;
    assert.equal(group.state, 'Reconciling');
    const m1Owned = all.activeTasks ?? [];
    const revoking = handler.heartbeat(context, request('m1', all.memberEpoch, { activeTasks: m1Owned, standbyTasks: [], warmupTasks: [] })).response;
    assert.equal(group.member('m1')?.state, StreamsMemberState.UNREVOKED_TASKS);
    assert.equal(count(revoking.activeTasks), 4, 'm1 keeps half');
    // m2 waits while m1 still reports the tasks it must give up.
    const waiting = handler.heartbeat(context, request('m2', joined.memberEpoch, { activeTasks: [], standbyTasks: [], warmupTasks: [] })).response;
    assert.equal(count(waiting.activeTasks), 0);
    assert.equal(group.member('m2')?.state, StreamsMemberState.UNRELEASED_TASKS);

    const revoked = handler.heartbeat(context, request('m1', revoking.memberEpoch, { activeTasks: revoking.activeTasks ?? [], standbyTasks: [], warmupTasks: [] })).response;
    assert.equal(revoked.memberEpoch, group.assignmentEpoch);
    const granted = handler.heartbeat(context, request('m2', waiting.memberEpoch, { activeTasks: [], standbyTasks: [], warmupTasks: [] })).response;
    assert.equal(count(granted.activeTasks), 4);
    assert.equal(group.state, 'Stable');

    // Kafka's fence on session expiry: m2's tasks go back to m1 at the next epoch.
    clock.advance(45_000);
    assert.equal(group.member('m2'), undefined);
    assert.equal(group.members.size, 0, 'm1 stopped heartbeating too');
    assert.equal(group.state, 'Empty');
  });

  it('writes records that rebuild the same group', () => {
    const { clock, image, handler, written } = setup();
    createInternalTopics(image);
    handler.heartbeat(context, request('m1', 0));
    handler.heartbeat(context, request('m2', 0));
    clock.advance(3_000);
    const replayed = new StreamsGroup('app');
    written.forEach((record) => replayed.replay(record));
    const live = handler.group('app') as StreamsGroup;
    assert.equal(replayed.groupEpoch, live.groupEpoch);
    assert.equal(replayed.assignmentEpoch, live.assignmentEpoch);
    assert.deepEqual([...replayed.members.keys()].sort(), ['m1', 'm2']);
    assert.deepEqual(
      [...replayed.targetAssignment].map(([id, t]) => [id, [...t.activeTasks].map(([s, p]) => [s, [...p].sort()])]),
      [...live.targetAssignment].map(([id, t]) => [id, [...t.activeTasks].map(([s, p]) => [s, [...p].sort()])]),
    );
    assert.ok(written.some((r) => r.type === 'StreamsGroupTopology' && r.value?.subtopologies.length === 2));
  });

  it('refuses bad requests with Kafka\'s errors and changes nothing', () => {
    const { handler, written } = setup();
    const cases: Array<[Partial<StreamsGroupHeartbeatRequestData>, number, string, string]> = [
      [{ memberId: ' ' }, 0, 'INVALID_REQUEST', "MemberId can't be empty."],
      [{ rebalanceTimeoutMs: -1 }, 0, 'INVALID_REQUEST', 'RebalanceTimeoutMs must be provided in first request.'],
      [{ topology: null }, 0, 'INVALID_REQUEST', 'Topology must be non-null when (re-)joining.'],
      [{ topology }, 3, 'INVALID_REQUEST', 'Topology can only be provided when (re-)joining.'],
      [{ activeTasks: [], standbyTasks: null }, 3, 'INVALID_REQUEST', 'If one task-type is non-null, all must be non-null.'],
      [{ memberEpoch: -3 }, 3, 'INVALID_REQUEST', 'MemberEpoch is -3, but must be greater than or equal to -2.'],
      [{}, 3, 'GROUP_ID_NOT_FOUND', 'Streams group app not found.'],
    ];
    for (const [extra, epoch, error, message] of cases) {
      const result = handler.heartbeat(context, { ...request('m1', epoch), ...extra });
      assert.equal(result.response.errorCode, errorCodeOf(error), message);
      assert.equal(result.response.errorMessage, message);
    }
    const sized = { ...topology, subtopologies: [{ ...topology.subtopologies[1], stateChangelogTopics: [{ name: 'c', partitions: 3, replicationFactor: 0, topicConfigs: [] }] }] };
    const invalid = handler.heartbeat(context, request('m1', 0, { topology: sized }));
    assert.equal(invalid.response.errorCode, errorCodeOf('STREAMS_INVALID_TOPOLOGY'));
    assert.equal(invalid.response.errorMessage, 'Changelog topic c must have an undefined partition count, but it is set to 3.');
    assert.equal(written.length, 0);
    assert.equal(handler.group('app'), undefined);
  });

  it('reports missing source topics and fences a member with a newer epoch', () => {
    const { handler } = setup();
    const missing = { ...topology, subtopologies: [{ ...topology.subtopologies[0], sourceTopics: ['nope'] }] };
    const result = handler.heartbeat(context, request('m1', 0, { topology: missing }));
    assert.deepEqual(codes(result.response), [StreamsHeartbeatStatus.ASSIGNMENT_DELAYED, StreamsHeartbeatStatus.MISSING_SOURCE_TOPICS]);
    assert.equal(result.response.status?.[1].statusDetail, 'Source topics nope are missing.');
    const fenced = handler.heartbeat(context, request('m1', 7, { activeTasks: [], standbyTasks: [], warmupTasks: [] }));
    assert.equal(fenced.response.errorCode, errorCodeOf('FENCED_MEMBER_EPOCH'));
  });

  it('describes the group with its configured topology and members', () => {
    const { clock, image, handler } = setup();
    createInternalTopics(image);
    handler.heartbeat(context, request('m1', 0));
    clock.advance(3_000);
    const described = describeStreamsGroup(handler.group('app') as StreamsGroup);
    assert.equal(described.groupState, 'Reconciling');
    assert.equal(described.assignorName, 'sticky');
    assert.deepEqual(described.topology?.subtopologies?.map((s) => [s.subtopologyId, s.stateChangelogTopics.map((t) => [t.name, t.partitions])]), [['0', []], ['1', [['app-store-changelog', 4]]]]);
    assert.equal(described.members[0].processId, 'process-m1');
    assert.equal(described.members[0].targetAssignment.activeTasks.reduce((n, t) => n + t.partitions.length, 0), 8);
  });
});
