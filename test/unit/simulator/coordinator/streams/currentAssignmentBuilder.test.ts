import * as assert from 'node:assert/strict';
import { KafkaApiError } from '../../../../../src/simulator/common/errors';
import { StreamsCurrentAssignmentBuilder, type TaskOwners } from '../../../../../src/simulator/coordinator/streams/currentAssignmentBuilder';
import { newStreamsGroupMember, StreamsMemberState, type StreamsGroupMember } from '../../../../../src/simulator/coordinator/streams/streamsGroupMember';
import { taskSetOf, type TasksTuple } from '../../../../../src/simulator/coordinator/streams/tasksTuple';

type Tasks = Record<string, number[]>;

const set = (tasks: Tasks = {}) => taskSetOf(Object.entries(tasks).map(([subtopologyId, partitions]) => ({ subtopologyId, partitions })));
const tuple = (active: Tasks = {}, standby: Tasks = {}, warmup: Tasks = {}): TasksTuple => ({ activeTasks: set(active), standbyTasks: set(standby), warmupTasks: set(warmup) });

function member(state: StreamsMemberState, memberEpoch: number, active: Record<string, Record<number, number>>, standby: Tasks = {}, pendingActive: Record<string, Record<number, number>> = {}): StreamsGroupMember {
  const epochs = (tasks: Record<string, Record<number, number>>) => new Map(Object.entries(tasks).map(([s, byPartition]) => [s, new Map(Object.entries(byPartition).map(([p, e]) => [Number(p), e]))]));
  return {
    ...newStreamsGroupMember('m1'), processId: 'p1', state, memberEpoch, previousMemberEpoch: memberEpoch - 1,
    assignedTasks: { activeTasksWithEpochs: epochs(active), standbyTasks: set(standby), warmupTasks: set() },
    tasksPendingRevocation: { activeTasksWithEpochs: epochs(pendingActive), standbyTasks: set(), warmupTasks: set() },
  };
}

/** Owners as the group would report them: `active` maps "s-p" to a process id; standbys likewise to a list. */
function owners(active: Record<string, string> = {}, standby: Record<string, string[]> = {}): TaskOwners {
  return {
    activeProcessId: (s, p) => active[`${s}-${p}`],
    standbyProcessIds: (s, p) => new Set(standby[`${s}-${p}`] ?? []),
    warmupProcessIds: () => new Set(),
  };
}

function build(from: StreamsGroupMember, epoch: number, target: TasksTuple, taskOwners: TaskOwners, owned?: TasksTuple): StreamsGroupMember {
  return new StreamsCurrentAssignmentBuilder(from).withTargetAssignment(epoch, target).withCurrentTaskOwners(taskOwners).withOwnedAssignment(owned).build();
}

const activeOf = (m: StreamsGroupMember) => Object.fromEntries([...m.assignedTasks.activeTasksWithEpochs].map(([s, e]) => [s, Object.fromEntries(e)]));
const pendingOf = (m: StreamsGroupMember) => Object.fromEntries([...m.tasksPendingRevocation.activeTasksWithEpochs].map(([s, e]) => [s, Object.fromEntries(e)]));

describe('streams CurrentAssignmentBuilder (Kafka 4.4)', () => {
  it('STABLE to STABLE: kept tasks keep their epoch, free new ones take the target epoch', () => {
    const result = build(member(StreamsMemberState.STABLE, 10, { '0': { 1: 8, 2: 10 } }), 11, tuple({ '0': [1, 2, 3] }), owners());
    assert.equal(result.state, StreamsMemberState.STABLE);
    assert.deepEqual([result.memberEpoch, result.previousMemberEpoch], [11, 10]);
    assert.deepEqual(activeOf(result), { '0': { 1: 8, 2: 10, 3: 11 } });
  });

  it('STABLE to UNREVOKED_TASKS: the epoch waits until the member gives tasks up', () => {
    const result = build(member(StreamsMemberState.STABLE, 10, { '0': { 1: 10, 2: 10 } }), 11, tuple({ '0': [1] }), owners({ '0-2': 'p1' }));
    assert.equal(result.state, StreamsMemberState.UNREVOKED_TASKS);
    assert.deepEqual([result.memberEpoch, result.previousMemberEpoch], [10, 10]);
    assert.deepEqual(activeOf(result), { '0': { 1: 10 } });
    assert.deepEqual(pendingOf(result), { '0': { 2: 10 } });
  });

  it('UNREVOKED_TASKS stays while the member still reports a revoked task, then moves to the target', () => {
    const unrevoked = member(StreamsMemberState.UNREVOKED_TASKS, 10, { '0': { 1: 10 } }, {}, { '0': { 2: 10 } });
    assert.equal(build(unrevoked, 11, tuple({ '0': [1] }), owners(), tuple({ '0': [1, 2] })), unrevoked);
    assert.equal(build(unrevoked, 11, tuple({ '0': [1] }), owners(), undefined), unrevoked, 'no owned tasks sent: no progress');
    const done = build(unrevoked, 11, tuple({ '0': [1] }), owners(), tuple({ '0': [1] }));
    assert.equal(done.state, StreamsMemberState.STABLE);
    assert.deepEqual([done.memberEpoch, done.previousMemberEpoch], [11, 10]);
    assert.deepEqual(pendingOf(done), {});
  });

  it('UNRELEASED_TASKS while another process still runs a target task', () => {
    const result = build(member(StreamsMemberState.STABLE, 10, { '0': { 1: 10 } }), 11, tuple({ '0': [1, 2] }), owners({ '0-2': 'p2' }));
    assert.equal(result.state, StreamsMemberState.UNRELEASED_TASKS);
    assert.equal(result.memberEpoch, 11);
    assert.deepEqual(activeOf(result), { '0': { 1: 10 } });
  });

  it('a standby of this member becomes active at once, and is not revoked', () => {
    const withStandby = member(StreamsMemberState.STABLE, 10, {}, { '0': [3] });
    const result = build(withStandby, 11, tuple({ '0': [3] }), owners({}, { '0-3': ['p1'] }));
    assert.equal(result.state, StreamsMemberState.STABLE);
    assert.deepEqual(activeOf(result), { '0': { 3: 11 } });
    assert.equal(result.assignedTasks.standbyTasks.size, 0);
    assert.equal(result.tasksPendingRevocation.standbyTasks.size, 0);
  });

  it('a standby wanted elsewhere on this process waits for that member', () => {
    const result = build(member(StreamsMemberState.STABLE, 10, {}), 11, tuple({}, { '0': [3] }), owners({}, { '0-3': ['p1'] }));
    assert.equal(result.state, StreamsMemberState.UNRELEASED_TASKS);
    assert.equal(result.assignedTasks.standbyTasks.size, 0);
  });

  it('UNKNOWN state fences a member that reports tasks', () => {
    const unknown = member(StreamsMemberState.UNKNOWN, 10, { '0': { 1: 10 } });
    assert.throws(() => build(unknown, 11, tuple({ '0': [1] }), owners(), tuple({ '0': [1] })), (e: unknown) => e instanceof KafkaApiError && e.errorName === 'FENCED_MEMBER_EPOCH');
    const rejoined = build(unknown, 11, tuple({ '0': [1] }), owners(), tuple());
    assert.equal(rejoined.state, StreamsMemberState.STABLE);
    assert.equal(rejoined.memberEpoch, 11);
  });
});
