import * as assert from 'node:assert/strict';
import type { ConsumerSpec, StreamsThreadSpec } from '../../../../../../src/simulator/common/control';
import type { StreamsGroup } from '../../../../../../src/simulator/coordinator/streams/streamsGroup';
import { activeTaskSet } from '../../../../../../src/simulator/coordinator/streams/tasksTuple';
import { Simulation } from '../../../../../../src/simulator/simulation';

const APP = 'wordcount';
/** Words are counted by key: subtopology 0 repartitions by word, subtopology 1 counts in a store. */
const subtopologies: StreamsThreadSpec['subtopologies'] = [
  { id: '0', sourceTopics: ['text'], repartitionSinkTopics: [`${APP}-words-repartition`] },
  { id: '1', sourceTopics: [], repartitionSourceTopics: [`${APP}-words-repartition`], stateChangelogTopics: [`${APP}-counts-changelog`] },
];

function thread(processId: string, n = 1): ConsumerSpec {
  return { groupId: APP, groupProtocol: 'streams', topics: [], clientId: `${APP}-${processId}-StreamThread-${n}-consumer`, streams: { processId, subtopologies } };
}

function tasksOf(sim: Simulation, handle: string): { active: string[]; standby: string[] } {
  const group = sim.coordinator.streamsGroup(APP) as StreamsGroup;
  const memberId = sim.listConsumers(APP).find((c) => c.handle === handle)?.memberId ?? '';
  const tasks = group.member(memberId)?.assignedTasks;
  const names = (set: ReadonlyMap<string, ReadonlySet<number>> | undefined) => [...(set ?? [])].flatMap(([s, ps]) => [...ps].map((p) => `${s}_${p}`)).sort();
  return { active: names(tasks === undefined ? undefined : activeTaskSet(tasks)), standby: names(tasks?.standbyTasks) };
}

/** The tasks of the topology: four input partitions, two subtopologies. */
const ALL_TASKS = 8;

/**
 * Runs the clock until the group is Stable at its group epoch with every task owned by a member (the
 * initial rebalance delay and the internal topics' creation come first), or fails after `limitMs`.
 */
function settle(sim: Simulation, limitMs = 60_000): StreamsGroup {
  const deadline = sim.clock.now + limitMs;
  for (;;) {
    const group = sim.coordinator.streamsGroup(APP);
    const owned = [...(group?.members.values() ?? [])].reduce((n, m) => n + [...activeTaskSet(m.assignedTasks).values()].reduce((k, ps) => k + ps.size, 0), 0);
    if (group !== undefined && group.state === 'Stable' && group.assignmentEpoch === group.groupEpoch && owned === ALL_TASKS) {
      return group;
    }
    if (sim.clock.now >= deadline) {
      assert.fail(`group ${APP} not settled after ${limitMs} ms: ${group?.state ?? 'missing'}, ${owned} tasks owned`);
    }
    sim.advance(250);
  }
}

describe('a simulated Kafka Streams thread (group.protocol=streams)', () => {
  it('joins with its topology, has the broker create the internal topics, and processes its active tasks', () => {
    const sim = new Simulation({ seed: 1071, streamsGroup: { numStandbyReplicas: 1 } });
    sim.createTopic('text', 4);
    sim.startProducer({ topic: 'text', recordsPerSecond: 400 });
    sim.addConsumer(thread('11111111-1111-4111-8111-111111111111'), 'a');
    const firstEpoch = settle(sim).groupEpoch;
    assert.deepEqual(sim.listTopics().map((t) => [t.name, t.partitions]).filter(([name]) => String(name).startsWith(APP)).sort(),
      [[`${APP}-counts-changelog`, 4], [`${APP}-words-repartition`, 4]]);
    assert.equal(tasksOf(sim, 'a').active.length, 8);
    assert.deepEqual(sim.consumer('a').assignment.map((tp) => `${tp.topic}-${tp.partition}`).sort(),
      [0, 1, 2, 3].flatMap((p) => [`text-${p}`, `${APP}-words-repartition-${p}`]).sort(), 'an active task reads its partition of the subtopology\'s topics');

    sim.addConsumer(thread('22222222-2222-4222-8222-222222222222'), 'b');
    sim.advance(1_000);
    assert.ok(settle(sim).groupEpoch > firstEpoch);
    const a = tasksOf(sim, 'a');
    const b = tasksOf(sim, 'b');
    assert.equal(a.active.length + b.active.length, 8);
    assert.equal(a.active.length, 4, 'the sticky assignor balances the two processes');
    assert.deepEqual(a.standby.length + b.standby.length, 4, 'one standby for each stateful task, on the other process');
    assert.ok(b.standby.every((task) => a.active.includes(task)));

    // The threads commit what they read every commit.interval.ms, under the members' epochs.
    sim.advance(40_000);
    const committed = sim.coordinator.committedOffsets(APP)?.get('text');
    const produced = sim.cluster.requireTopic('text').partitions.map((p) => p.highWatermark);
    const behind = produced.filter((end, p) => !(end > 0 && (committed?.get(p)?.offset ?? 0) > end / 2));
    assert.deepEqual(behind, [], `committed ${JSON.stringify([...committed ?? []])} of ${produced.join(',')}`);
    const described = sim.coordinator.streamsGroupDescribeNow(APP);
    assert.equal(described.errorCode, 0);
    assert.deepEqual(described.members.map((m) => m.processId).sort(), ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222']);
  });

  it('gives a crashed process\'s tasks to the others after the session timeout, and back when it restarts with its process id', () => {
    const sim = new Simulation({ seed: 5, streamsGroup: { numStandbyReplicas: 1 } });
    sim.createTopic('text', 4);
    sim.addConsumer(thread('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa'), 'a');
    sim.addConsumer(thread('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb'), 'b');
    settle(sim);
    const before = tasksOf(sim, 'b').active;
    sim.crashConsumer('b');
    sim.advance(46_000);
    const alone = settle(sim);
    assert.equal(alone.members.size, 1);
    assert.equal(tasksOf(sim, 'a').active.length, 8);
    sim.restartConsumer('b');
    sim.advance(1_000);
    settle(sim);
    // The fenced member's process left the group's state with it: the sticky assignor keeps what the
    // survivor owns where it can, so the restarted process gets half, not necessarily its old half.
    const a = tasksOf(sim, 'a');
    const b = tasksOf(sim, 'b');
    assert.equal(b.active.length, 4);
    assert.equal(a.active.length, 4);
    assert.equal(before.length, 4);
    assert.ok(b.standby.every((task) => a.active.includes(task)) && b.standby.length === 2);
    assert.deepEqual(sim.coordinator.streamsGroupDescribeNow(APP).members.find((m) => m.clientId.includes('bbbbbbbb'))?.processId, 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb');
  });

  it('refuses a thread spec that cannot run, naming the field', () => {
    const sim = new Simulation({ seed: 2 });
    assert.throws(() => sim.addConsumer({ groupId: APP, groupProtocol: 'streams', topics: [] }), /streams: group.protocol=streams needs streams/);
    assert.throws(() => sim.addConsumer({ ...thread('p'), topics: ['text'] }), /topics: topics \(the topology names its source topics\) cannot be set/);
    assert.throws(() => sim.addConsumer({ ...thread('p'), streams: { processId: 'p', subtopologies: [{ id: '0', sourceTopics: [] }] } }), /reads nothing/);
    assert.throws(() => sim.addConsumer({ ...thread('p'), sessionTimeoutMs: 10_000 }), /group.streams.session.timeout.ms/);
  });
});
