import * as assert from 'node:assert/strict';
import {
  assignStickyTasks, TaskAssignorError, type StreamsGroupAssignment, type StreamsMemberSpec, type SubtopologyDescription, type TaskOffset,
} from '../../../../../../src/simulator/coordinator/streams/assignor/index';

/**
 * Kafka 4.4's streams-group StickyTaskAssignor. The first cases follow Kafka's own StickyTaskAssignorTest
 * (group-coordinator, streams/assignor); the standby, offset and error cases are worked out from the 4.4 class and
 * were run through it (kafka-group-coordinator 4.4.0 jar, StreamsAssignorHarness) with the same results.
 */
describe('streams sticky task assignor (KIP-1071)', () => {
  type Tasks = Record<string, number[]>;
  const toTasks = (tasks: Tasks = {}): StreamsMemberSpec['activeTasks'] =>
    Object.entries(tasks).map(([subtopologyId, partitions]) => ({ subtopologyId, partitions }));
  const member = (memberId: string, processId: string, active?: Tasks, standby?: Tasks, taskOffsets?: TaskOffset[]): StreamsMemberSpec =>
    ({ memberId, processId, activeTasks: toTasks(active), standbyTasks: toTasks(standby), taskOffsets });
  const subtopology = (subtopologyId: string, numTasks: number, stateful = false): SubtopologyDescription => ({ subtopologyId, numTasks, stateful });
  const assign = (members: StreamsMemberSpec[], subtopologies: SubtopologyDescription[], numStandbyReplicas = 0): StreamsGroupAssignment =>
    assignStickyTasks({ members, configs: { numStandbyReplicas } }, subtopologies);
  const active = (result: StreamsGroupAssignment, memberId: string, subtopologyId = 'test-subtopology'): number[] =>
    result.get(memberId)?.activeTasks.get(subtopologyId) ?? [];
  const standby = (result: StreamsGroupAssignment, memberId: string, subtopologyId = 'test-subtopology'): number[] =>
    result.get(memberId)?.standbyTasks.get(subtopologyId) ?? [];
  const activeCount = (result: StreamsGroupAssignment, memberId: string): number =>
    [...(result.get(memberId)?.activeTasks.values() ?? [])].reduce((sum, partitions) => sum + partitions.length, 0);

  it('gives one active task to each process when there are as many tasks as processes', () => {
    const result = assign([member('member1', 'process1'), member('member2', 'process2'), member('member3', 'process3')], [subtopology('test-subtopology', 3)]);
    assert.equal(result.size, 3);
    for (const memberId of ['member1', 'member2', 'member3']) {
      assert.equal(active(result, memberId).length, 1);
    }
    assert.deepEqual(['member1', 'member2', 'member3'].flatMap((m) => active(result, m)).sort(), [0, 1, 2]);
  });

  it('spreads two subtopologies evenly over the members of three processes (no standbys)', () => {
    const memberIds = ['member1_1', 'member1_2', 'member2_1', 'member2_2', 'member3_1', 'member3_2'];
    const result = assign(memberIds.map((id) => member(id, `process${id[6]}`)), [subtopology('test-subtopology1', 3), subtopology('test-subtopology2', 3)]);
    for (const memberId of memberIds) {
      assert.equal(activeCount(result, memberId), 1, memberId);
    }
    for (const sub of ['test-subtopology1', 'test-subtopology2']) {
      assert.deepEqual(memberIds.flatMap((m) => active(result, m, sub)).sort(), [0, 1, 2]);
    }
  });

  it('does not migrate an active task to another process', () => {
    let result = assign([member('member1', 'process1', { 'test-subtopology': [0] }), member('member2', 'process2', { 'test-subtopology': [1] })],
      [subtopology('test-subtopology', 3)]);
    assert.ok(active(result, 'member1').includes(0));
    assert.ok(active(result, 'member2').includes(1));
    assert.equal(active(result, 'member1').length + active(result, 'member2').length, 3);

    result = assign([member('member2', 'process2', { 'test-subtopology': [1] }), member('member3', 'process1', { 'test-subtopology': [2] })],
      [subtopology('test-subtopology', 3)]);
    assert.ok(active(result, 'member2').includes(1));
    assert.ok(active(result, 'member3').includes(2));
    assert.equal(active(result, 'member2').length + active(result, 'member3').length, 3);
  });

  it('keeps active tasks sticky when there are more clients than tasks', () => {
    const result = assign([
      member('member1', 'process1', { 'test-subtopology': [0] }),
      member('member2', 'process2', { 'test-subtopology': [2] }),
      member('member3', 'process3', { 'test-subtopology': [1] }),
      member('member4', 'process4'),
      member('member5', 'process5'),
    ], [subtopology('test-subtopology', 3)]);
    assert.deepEqual(active(result, 'member1'), [0]);
    assert.deepEqual(active(result, 'member2'), [2]);
    assert.deepEqual(active(result, 'member3'), [1]);
    assert.equal(result.get('member4')?.activeTasks.size, 0);
    assert.equal(result.get('member5')?.activeTasks.size, 0);
  });

  it('balances unequal subtopologies: a member that had all seven tasks keeps four', () => {
    const result = assign([member('member1', 'process1', { 'test-subtopology1': [0, 1, 2, 3, 4, 5], 'test-subtopology2': [0] }), member('member2', 'process2')],
      [subtopology('test-subtopology1', 6), subtopology('test-subtopology2', 1)]);
    assert.equal(activeCount(result, 'member1'), 4);
    assert.equal(activeCount(result, 'member2'), 3);
    assert.deepEqual([...active(result, 'member1', 'test-subtopology1'), ...active(result, 'member2', 'test-subtopology1')].sort(), [0, 1, 2, 3, 4, 5]);
  });

  it('puts each standby on another process than its active, and only for stateful subtopologies', () => {
    const result = assign([member('A', 'p1'), member('B', 'p2'), member('C', 'p3')],
      [subtopology('stateful', 3, true), subtopology('stateless', 3)], 2);
    for (let task = 0; task < 3; task++) {
      const holders = ['A', 'B', 'C'].filter((m) => active(result, m, 'stateful').includes(task) || standby(result, m, 'stateful').includes(task));
      assert.deepEqual(holders, ['A', 'B', 'C'], `task ${task} on every process once`);
    }
    for (const m of ['A', 'B', 'C']) {
      assert.deepEqual(standby(result, m, 'stateless'), []);
    }
  });

  it('assigns no standby when the only process already runs the task, without failing', () => {
    const result = assign([member('A', 'p1'), member('B', 'p1')], [subtopology('s', 2, true)], 1);
    assert.deepEqual([...active(result, 'A', 's'), ...active(result, 'B', 's')].sort(), [0, 1]);
    assert.deepEqual([...standby(result, 'A', 's'), ...standby(result, 'B', 's')], []);
  });

  it('moves an active task to its previous standby when its active member is gone', () => {
    // Without stickiness C would get it: process p2 iterates first in Kafka's HashMap(2), and both loads are 0.
    const result = assign([member('C', 'p2'), member('B', 'p1', {}, { s: [0] })], [subtopology('s', 1, true)]);
    assert.deepEqual(active(result, 'B', 's'), [0]);
    assert.deepEqual(active(result, 'C', 's'), []);
  });

  it('keeps a previous active task on its member only up to the member\'s quota', () => {
    // B had task 1 active and task 0 as standby: its quota (1) is spent on task 1, so task 0 goes to C.
    const result = assign([member('C', 'p3'), member('B', 'p2', { s: [1] }, { s: [0] })], [subtopology('s', 2, true)]);
    assert.deepEqual(active(result, 'B', 's'), [1]);
    assert.deepEqual(active(result, 'C', 's'), [0]);
  });

  it('prefers the most caught-up standby, and a standby over a member known only by its reported offsets', () => {
    // X comes first in memberIds(), so only the ranking by offset sum puts Y first.
    const offsets = (offsetSum: number): TaskOffset[] => [{ subtopologyId: 's', partition: 0, offsetSum }];
    let result = assign([member('X', 'p1', {}, { s: [0] }, offsets(100)), member('Y', 'p2', {}, { s: [0] }, offsets(500))], [subtopology('s', 1, true)]);
    assert.deepEqual(active(result, 'Y', 's'), [0]);
    // Z reports far more progress but holds no standby: the standby X still ranks first.
    result = assign([member('Z', 'p3', {}, {}, offsets(9000)), member('X', 'p1', {}, { s: [0] }, offsets(100))], [subtopology('s', 1, true)]);
    assert.deepEqual(active(result, 'X', 's'), [0]);
    // A restarted member (fresh id, empty assignment) gets back the task whose state it reports.
    result = assign([member('fresh', 'p1'), member('restarted', 'p2', {}, {}, offsets(42))], [subtopology('s', 1, true)]);
    assert.deepEqual(active(result, 'restarted', 's'), [0]);
  });

  it('gives every member an assignment, empty ones included', () => {
    const result = assign([member('A', 'p1'), member('B', 'p2')], [subtopology('s', 1)]);
    assert.deepEqual([...result.keys()].sort(), ['A', 'B']);
  });

  it('rejects a group without members for its tasks with Kafka\'s message, and bad specs with a clear error', () => {
    assert.throws(() => assign([], [subtopology('0', 1)]),
      (error: Error) => error instanceof TaskAssignorError && error.message === 'No process available to assign active task 0_0.');
    assert.equal(assign([], [subtopology('0', 0)]).size, 0);
    assert.throws(() => assign([member('A', 'p1'), member('A', 'p2')], [subtopology('0', 1)]), /Member A appears twice/);
    assert.throws(() => assign([member('A', 'p1')], [subtopology('0', 1)], -1), /num.standby.replicas/);
    assert.throws(() => assign([member('A', 'p1')], [subtopology('0', 1), subtopology('0', 2)]), /described twice/);
  });
});
