import { strict as assert } from 'node:assert';
import type { RebalanceEvent } from '../../../../src/model/types';
import { createDemoSimSource } from '../../../../src/simulator/editor/simSource';
import { buildScenario, validateScenario } from '../../../../src/simulator/scenarios/runScenario';
import { STREAMS_APPLICATION_ID, STREAMS_CRASH_AT_MS, STREAMS_RESTART_AT_MS, STREAMS_SCALE_OUT_AT_MS, STREAMS_SCENARIO } from '../../../../src/simulator/scenarios/streams';
import type { Simulation } from '../../../../src/simulator/simulation';

/** Each member's process id and its active and standby task counts, as StreamsGroupDescribe reports them. */
function processes(sim: Simulation): Map<string, { members: number; active: number; standby: number }> {
  const described = sim.coordinator.streamsGroupDescribeNow(STREAMS_APPLICATION_ID);
  const result = new Map<string, { members: number; active: number; standby: number }>();
  const count = (tasks: Array<{ partitions: number[] }>) => tasks.reduce((n, t) => n + t.partitions.length, 0);
  for (const member of described.members) {
    const entry = result.get(member.processId) ?? { members: 0, active: 0, standby: 0 };
    entry.members++;
    entry.active += count(member.assignment.activeTasks);
    entry.standby += count(member.assignment.standbyTasks);
    result.set(member.processId, entry);
  }
  return result;
}

describe('streams scenario', () => {
  const { simulation: sim } = buildScenario(STREAMS_SCENARIO);
  const events: RebalanceEvent[] = [];
  sim.events.subscribe((event) => events.push(event));
  const group = () => sim.coordinator.streamsGroup(STREAMS_APPLICATION_ID);
  after(() => sim.dispose());

  it('runs two instances (one with two threads) that share the 12 tasks by process, with a standby for each counting task', () => {
    sim.runUntil(STREAMS_SCALE_OUT_AT_MS - 1);
    assert.equal(group()?.state, 'Stable');
    const byProcess = [...processes(sim).values()].sort((a, b) => b.members - a.members);
    assert.deepEqual(byProcess.map((p) => p.members), [2, 1]);
    assert.equal(byProcess.reduce((n, p) => n + p.active, 0), 12);
    assert.equal(byProcess.reduce((n, p) => n + p.standby, 0), 6, 'one standby per task of the stateful subtopology');
    assert.deepEqual(sim.listTopics().map((t) => t.name).filter((name) => name.startsWith(STREAMS_APPLICATION_ID)).sort(),
      ['word-count-counts-changelog', 'word-count-words-repartition'], 'the broker created the internal topics');
  });

  it('moves tasks to the third instance after the scale-out, by thread', () => {
    sim.runUntil(STREAMS_CRASH_AT_MS - 1);
    assert.equal(group()?.state, 'Stable');
    const byProcess = [...processes(sim).values()];
    assert.equal(byProcess.length, 3);
    // The sticky assignor weighs a process by its threads: three tasks per member, six for the two-thread process.
    assert.ok(byProcess.every((p) => p.active === 3 * p.members), JSON.stringify(byProcess));
    const moved = events.filter((e) => e.kind === 'sync-completed' && e.time >= STREAMS_SCALE_OUT_AT_MS).flatMap((e) => e.assignments ?? []);
    assert.ok(moved.some((a) => a.revoked.length > 0), 'the plan takes tasks from the first two');
  });

  it('fences the killed instance\'s thread at the session timeout, and rejoins it with its process id', () => {
    const crashedProcess = sim.coordinator.streamsGroupDescribeNow(STREAMS_APPLICATION_ID).members.find((m) => m.clientId.startsWith('word-count-') && sim.consumer('word-count-2-StreamThread-1').config.clientId === m.clientId)?.processId;
    assert.ok(crashedProcess);
    sim.runUntil(STREAMS_RESTART_AT_MS - 1);
    const expired = events.filter((e) => e.kind === 'member-expired');
    assert.equal(expired.length, 1);
    assert.match(expired[0].cause ?? '', /^Streams member \S+ fenced from the group because the member session expired\.$/);
    assert.ok(expired[0].time > STREAMS_CRASH_AT_MS && expired[0].time <= STREAMS_CRASH_AT_MS + 45_000);
    assert.equal(processes(sim).size, 2);
    sim.runUntil(STREAMS_SCENARIO.durationMs);
    assert.equal(group()?.state, 'Stable');
    assert.equal(processes(sim).get(crashedProcess)?.members, 1, 'the restarted instance keeps its process id');
    const steps = events.filter((e) => e.kind === 'assignment-changed' && e.reconciliation !== undefined);
    assert.ok(steps.some((e) => (e.reconciliation?.standbyTasks ?? []).length > 0), 'the timeline carries standby tasks');
    assert.ok(steps.some((e) => e.reconciliation?.convergedAfterMs !== undefined));
  });

  it('is a built-in scenario the editor can run, its group listed as a streams group', async () => {
    const source = createDemoSimSource({ scenario: 'streams' });
    try {
      source.advance(10_000);
      const listed = await source.listGroups();
      assert.equal(listed.find((g) => g.groupId === STREAMS_APPLICATION_ID)?.groupType, 'streams');
      const detail = await source.describeGroup(STREAMS_APPLICATION_ID);
      assert.equal(detail.members.length, 3);
    } finally {
      await source.dispose();
    }
  });

  it('refuses a broken streams app with every problem named', () => {
    const broken = {
      durationMs: 1000,
      topics: [{ name: 'in', partitions: 2 }],
      consumers: [{ id: 'c', groupId: 'app', topics: ['in'] }],
      streamsApps: [{ applicationId: 'app', subtopologies: [{ id: '0', sourceTopics: ['nope'] }, { id: '0', repartitionSources: ['x'] }], instances: [{ id: 'c', threads: 0 }] }],
      actions: [{ atMs: 10, type: 'startStreamsInstance', app: 'other', instance: { id: 'i2' } }],
    };
    assert.throws(() => validateScenario(broken), (error: Error) => {
      for (const expected of [
        'scenario.streamsApps[0].applicationId: "app" is a consumer\'s groupId',
        'scenario.streamsApps[0].subtopologies[0].sourceTopics[0]: expected a topic declared in topics (in), got "nope"',
        'scenario.streamsApps[0].subtopologies[1].id: subtopology "0" is declared twice',
        'scenario.streamsApps[0].subtopologies[1].repartitionSources[0]: no subtopology writes the repartition topic "x"',
        'scenario.streamsApps[0].instances[0].id: "c" is already the id of a consumer or streams instance',
        'scenario.streamsApps[0].instances[0].threads: expected an integer between 1 and 32, got 0',
        'scenario.actions[0].app: expected the applicationId of an app declared in streamsApps (app), got "other"',
      ]) {
        assert.ok(error.message.includes(expected), `missing: ${expected}\nin: ${error.message}`);
      }
      return true;
    });
  });
});
