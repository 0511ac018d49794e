/**
 * Real Kafka Streams instances (kafka-streams of this run's Kafka version, group.protocol=streams) against the
 * simulator's Kafka server: the app of test/kafka/java/StreamsApp (input → repartition → count → output) joins,
 * the broker-side coordinator creates its internal topics and assigns its tasks; a second instance takes half
 * of them; when the first leaves, the second runs all. Each step is read with Kafka's own kafka-streams-groups.sh
 * (--describe --members --verbose, --state) and compared with the simulator's StreamsGroupDescribe.
 */
import { strict as assert } from 'node:assert';
import { SimKafkaServer } from '../../src/simulator/server/kafkaServer';
import { Simulation } from '../../src/simulator/simulation';
import { JavaClient, KAFKA_VERSION, TOOLS, runToolAsync, toolTables, toolTasks } from './groupTypesSupport';
import { brokerEnv, waitFor } from './support';

const APP = 'sim-streams-app';
const INPUT = 'sim-streams-in';
const OUTPUT = 'sim-streams-out';
/** Two subtopologies (the repartition splits the app), four input partitions: eight active tasks. */
const TASKS = 8;

interface ToolMember {
  memberId: string;
  epoch: number;
  active: number;
  targetActive: number;
}

/** Streams groups need a 4.4 client here: the tool's columns and the client's protocol are 4.4's. */
(KAFKA_VERSION === '4.4.0' ? describe : describe.skip)(`real Kafka Streams ${KAFKA_VERSION} instances on the simulator's server`, function (this: Mocha.Suite) {
  this.timeout(240000);
  const brokers = brokerEnv();
  let sim: Simulation;
  let server: SimKafkaServer;
  const apps: JavaClient[] = [];
  let env: typeof brokers;

  const members = async (): Promise<ToolMember[]> => {
    const output = await runToolAsync(env, TOOLS.streamsGroups, ['--describe', '--group', APP, '--members', '--verbose']);
    return toolTables(output).map((row) => {
      const tasks = toolTasks(row.ASSIGNMENTS ?? '');
      const count = (key: string) => (tasks[key] ?? []).reduce((n, entry) => n + entry.split(':')[1].split(',').filter(Boolean).length, 0);
      return { memberId: row.MEMBER, epoch: Number(row['MEMBER-EPOCH']), active: count('ACTIVE'), targetActive: count('TARGET-ACTIVE') };
    });
  };
  const state = async (): Promise<string> => toolTables(await runToolAsync(env, TOOLS.streamsGroups, ['--describe', '--group', APP, '--state']))[0]?.STATE ?? '';

  /** Polls (bounded) until the tool shows `expected` active tasks per member and a Stable group; returns the members. */
  const converged = async (expected: number[], what: string): Promise<ToolMember[]> =>
    waitFor(what, async () => {
      const rows = await members();
      const counts = rows.map((m) => m.active).sort((a, b) => a - b);
      return JSON.stringify(counts) === JSON.stringify(expected) && rows.every((m) => m.active === m.targetActive) && (await state()) === 'Stable' ? rows : undefined;
    }, 120000);

  before(async () => {
    sim = new Simulation({ seed: 7, startTime: Date.now(), cluster: { brokers: 1 }, streamsGroup: { initialRebalanceDelayMs: 1000 } });
    const input = sim.cluster.createTopic(INPUT, 4);
    input.partitions.forEach((log) => log.append(25, sim.now));
    sim.cluster.createTopic(OUTPUT, 4);
    server = new SimKafkaServer(sim, { log: () => undefined });
    await server.start();
    env = { ...brokers, bootstrap: server.bootstrapServers.join(',') };
  });

  after(async () => {
    await Promise.all(apps.map((app) => app.stop()));
    await server?.close();
    sim?.dispose();
  });

  it('creates the internal topics, splits the tasks over two instances and gives them all to the one left', async () => {
    const first = new JavaClient(env, 'StreamsApp', [env.bootstrap, APP, INPUT, OUTPUT, '1'], { streams: true });
    apps.push(first);
    await first.waitForOutput(/STATE RUNNING/);
    assert.deepEqual(sim.cluster.topic(`${APP}-by-value-repartition`)?.partitions.length, 4, 'the repartition topic, as the broker creates it');
    assert.deepEqual(sim.cluster.topic(`${APP}-counts-changelog`)?.partitions.length, 4, 'the changelog topic, one partition per task');
    const alone = await converged([TASKS], 'one instance running all tasks');

    const second = new JavaClient(env, 'StreamsApp', [env.bootstrap, APP, INPUT, OUTPUT, '1'], { streams: true });
    apps.push(second);
    const split = await converged([TASKS / 2, TASKS / 2], 'the tasks split over two instances');
    const engine = sim.coordinator.streamsGroup(APP);
    assert.ok(engine);
    assert.equal(engine.state, 'Stable');
    for (const member of split) {
      assert.equal(engine.member(member.memberId)?.memberEpoch, member.epoch, `${member.memberId}: the tool reads the engine's epoch`);
    }
    assert.ok(split.some((m) => m.memberId === alone[0].memberId), 'the first instance kept its member id');

    await first.stop();
    const left = await converged([TASKS], 'the remaining instance running all tasks');
    assert.equal(left.length, 1);
    assert.notEqual(left[0].memberId, alone[0].memberId);
    assert.equal(engine.members.size, 1);
    await second.stop();
  });
});
