/**
 * Real Kafka Streams instances (kafka-streams of this run's Kafka version, group.protocol=streams) against the
 * simulator's Kafka server: the app of test/kafka/java/StreamsApp (input → repartition → count → output) joins,
 * the broker-side coordinator creates its internal topics and assigns its tasks; a second instance takes half
 * of them, a third a share; the second is killed (fenced at the session timeout), then restarted with its
 * state directory, so with its process id; the first leaves. The same script runs on the real broker, and each step,
 * read with Kafka's own kafka-streams-groups.sh (--describe --members --verbose, --state --verbose), must match:
 * group state and epochs, each member's epoch and active-task count (member ids are random).
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describeSimGroup } from '../../src/simulator/admin/groupDetailMapper';
import { SimKafkaServer } from '../../src/simulator/server/kafkaServer';
import { Simulation } from '../../src/simulator/simulation';
import { JavaClient, KAFKA_VERSION, TOOLS, runToolAsync, toolTables, toolTasks } from './groupTypesSupport';
import { brokerEnv, createTopics, waitFor, type BrokerEnv } from './support';

const APP = 'sim-streams-app';
const INPUT = 'sim-streams-in';
const OUTPUT = 'sim-streams-out';
/** Two subtopologies (the repartition splits the app), four input partitions: eight active tasks. */
const TASKS = 8;

interface ToolMember {
  memberId: string;
  processId: string;
  epoch: number;
  active: number;
  targetActive: number;
}

/** What one step of the script leaves, as kafka-streams-groups.sh prints it; member ids are random, so by count. */
interface Step {
  state: string;
  groupEpoch: number;
  targetAssignmentEpoch: number;
  /** Each member's epoch and active tasks, sorted. */
  members: Array<[number, number]>;
}

/** A cluster the script runs on: the real broker or the simulator's server. */
interface Target {
  label: string;
  env: BrokerEnv;
  app: string;
}

/** Leaves the suite out on another Kafka version with a line saying so (pending tests are forbidden). */
function skipOnThisVersion(title: string, _body: unknown): void {
  console.log(`      (not on Kafka ${KAFKA_VERSION}: ${title})`);
}

/** Streams groups need a 4.4 client here: the tool's columns and the client's protocol are 4.4's. */
(KAFKA_VERSION === '4.4.0' ? describe : skipOnThisVersion)(`real Kafka Streams ${KAFKA_VERSION} instances on the simulator's server`, function (this: Mocha.Suite) {
  this.timeout(480000);
  const brokers = brokerEnv();
  let sim: Simulation;
  let server: SimKafkaServer;
  const apps: JavaClient[] = [];
  let simulator: Target;
  const broker: Target = { label: 'broker', env: brokers, app: `${APP}-${Date.now().toString(36)}` };

  const tool = (target: Target, args: string[]) => runToolAsync(target.env, TOOLS.streamsGroups, ['--describe', '--group', target.app, ...args]);
  const members = async (target: Target): Promise<ToolMember[]> =>
    toolTables(await tool(target, ['--members', '--verbose'])).map((row) => {
      const tasks = toolTasks(row.ASSIGNMENTS ?? '');
      const count = (key: string) => (tasks[key] ?? []).reduce((n, entry) => n + entry.split(':')[1].split(',').filter(Boolean).length, 0);
      return { memberId: row.MEMBER, processId: row.PROCESS, epoch: Number(row['MEMBER-EPOCH']), active: count('ACTIVE'), targetActive: count('TARGET-ACTIVE') };
    });

  /** Polls (bounded) until the tool shows `expected` active tasks per member and a Stable group. */
  const converged = async (target: Target, expected: number[], what: string): Promise<{ step: Step; members: ToolMember[] }> =>
    waitFor(`${target.label}: ${what}`, async () => {
      const rows = await members(target);
      const counts = rows.map((m) => m.active).sort((a, b) => a - b);
      if (JSON.stringify(counts) !== JSON.stringify(expected) || !rows.every((m) => m.active === m.targetActive)) {
        return undefined;
      }
      const [state] = toolTables(await tool(target, ['--state', '--verbose']));
      if (state?.STATE !== 'Stable') {
        return undefined;
      }
      const step: Step = {
        state: state.STATE, groupEpoch: Number(state['GROUP-EPOCH']), targetAssignmentEpoch: Number(state['TARGET-ASSIGNMENT-EPOCH']),
        members: rows.map((m): [number, number] => [m.epoch, m.active]).sort((a, b) => a[0] - b[0] || a[1] - b[1]),
      };
      return { step, members: rows };
    }, 120000);

  /** kafka-streams-groups.sh --describe --members --verbose equals our tree's members of the simulator's group, row for row. */
  const treeEqualsTool = async (target: Target): Promise<void> => {
    const rows = toolTables(await tool(target, ['--members', '--verbose']));
    const detail = describeSimGroup(sim, target.app);
    const fromTool = rows.map((row) => [row.MEMBER, Number(row['MEMBER-EPOCH']), row.PROCESS, row['CLIENT-ID'], JSON.stringify(toolTasks(row.ASSIGNMENTS ?? ''))]).sort();
    const taskList = (list: Array<{ subtopologyId: string; partitions: number[] }>) => list.map((t) => `${t.subtopologyId}:${t.partitions.join(',')}`).sort();
    const fromTree = (detail.streamsGroup?.members ?? []).map((m) => {
      const tasks: Record<string, string[]> = { ACTIVE: taskList(m.assignment.active), 'TARGET-ACTIVE': taskList(m.targetAssignment.active) };
      return [m.memberId, m.memberEpoch, m.processId, m.clientId, JSON.stringify(tasks)];
    }).sort();
    assert.deepEqual(fromTree, fromTool, 'our tree against kafka-streams-groups.sh --describe --members --verbose');
    assert.equal(detail.members.length, rows.length);
  };

  const instance = (target: Target, stateDir?: string): JavaClient => {
    const app = new JavaClient(target.env, 'StreamsApp', [target.env.bootstrap, target.app, INPUT, OUTPUT, '1', ...(stateDir === undefined ? [] : [stateDir])], { streams: true });
    apps.push(app);
    return app;
  };

  /** Two instances, a third, the second killed and restarted with its process id, the first leaving: the steps as the tool reads them. */
  const script = async (target: Target): Promise<Step[]> => {
    const first = instance(target);
    await first.waitForOutput(/STATE RUNNING/);
    const alone = await converged(target, [TASKS], 'one instance running all tasks');
    const secondStateDir = mkdtempSync(path.join(tmpdir(), 'kgl-streams-second-'));
    const second = instance(target, secondStateDir);
    const split = await converged(target, [TASKS / 2, TASKS / 2], 'the tasks split over two instances');
    if (target === simulator) {
      await treeEqualsTool(target);
      // --offsets lists the partitions of the members' active tasks, with what the group committed.
      await waitFor('kafka-streams-groups.sh --offsets: the input committed to its end', async () => {
        const rows = toolTables(await tool(target, ['--offsets', '--verbose'])).filter((row) => row.TOPIC === INPUT);
        return rows.length === 4 && rows.every((row) => row['CURRENT-OFFSET'] === '25' && row['LOG-END-OFFSET'] === '25' && row['OFFSET-LAG'] === '0') ? true : undefined;
      }, 60000);
    }
    assert.ok(split.members.some((m) => m.memberId === alone.members[0].memberId), `${target.label}: the first instance kept its member id`);
    const secondMember = split.members.find((m) => m.memberId !== alone.members[0].memberId);
    assert.ok(secondMember);
    instance(target);
    const three = await converged(target, [2, 3, 3], 'the tasks spread over three instances');
    await second.kill();
    // No leave: the coordinator fences the killed member when group.streams.session.timeout.ms (45 s) runs out.
    await waitFor(`${target.label}: the killed instance fenced`, async () => {
      const rows = await members(target);
      return rows.length === 2 && !rows.some((m) => m.memberId === secondMember.memberId) ? true : undefined;
    }, 120000);
    const killed = await converged(target, [TASKS / 2, TASKS / 2], 'two instances after the kill');
    const restarted = instance(target, secondStateDir);
    await restarted.waitForOutput(/STATE RUNNING/);
    const back = await converged(target, [2, 3, 3], 'the restarted instance back among three');
    const again = back.members.find((m) => m.processId === secondMember.processId);
    assert.ok(again, `${target.label}: the restarted instance rejoined with its process id ${secondMember.processId}`);
    assert.notEqual(again.memberId, secondMember.memberId, `${target.label}: under a new member id`);
    await first.stop();
    const left = await converged(target, [TASKS / 2, TASKS / 2], 'the two remaining instances after the first left');
    assert.ok(!left.members.some((m) => m.memberId === alone.members[0].memberId));
    await Promise.all(apps.map((app) => app.stop()));
    return [alone.step, split.step, three.step, killed.step, back.step, left.step];
  };

  before(async () => {
    await createTopics([{ topic: INPUT, numPartitions: 4 }, { topic: OUTPUT, numPartitions: 4 }]);
    sim = new Simulation({ seed: 7, startTime: Date.now(), cluster: { brokers: 1 } });
    const input = sim.cluster.createTopic(INPUT, 4);
    input.partitions.forEach((log) => log.append(25, sim.now));
    sim.cluster.createTopic(OUTPUT, 4);
    server = new SimKafkaServer(sim, { log: () => undefined });
    await server.start();
    simulator = { label: 'simulator', env: { ...brokers, bootstrap: server.bootstrapServers.join(',') }, app: APP };
  });

  after(async () => {
    await Promise.all(apps.map((app) => app.stop()));
    await server?.close();
    sim?.dispose();
  });

  it('creates the internal topics and moves tasks as a real 4.4 broker does, step for step', async () => {
    const onSimulator = await script(simulator);
    assert.equal(sim.cluster.topic(`${APP}-by-value-repartition`)?.partitions.length, 4, 'the repartition topic, as the broker creates it');
    assert.equal(sim.cluster.topic(`${APP}-counts-changelog`)?.partitions.length, 4, 'the changelog topic, one partition per task');
    const engine = sim.coordinator.streamsGroup(APP);
    assert.equal(engine?.members.size, 0);
    const onBroker = await script(broker);
    console.log(`      steps (state, group epoch, target epoch, [member epoch, active tasks]): ${onSimulator.map((step) => JSON.stringify(step)).join(' ')}`);
    assert.deepEqual(onSimulator, onBroker, `simulator ${JSON.stringify(onSimulator)} against broker ${JSON.stringify(onBroker)}`);
  });

  it('answers kafka-streams-groups.sh on the inactive group: list, a reset, and delete with its internal topics', async () => {
    const run = (args: string[]) => runToolAsync(simulator.env, TOOLS.streamsGroups, args);
    assert.ok((await run(['--list'])).split('\n').map((line) => line.trim()).includes(APP), 'the group is listed');
    const committed = () => [0, 1, 2, 3].map((p) => sim.coordinator.committedOffsets(APP)?.get(INPUT)?.get(p)?.offset);
    assert.deepEqual(committed(), [25, 25, 25, 25], 'what the instances committed');

    const planned = toolTables(await run(['--reset-offsets', '--group', APP, '--input-topic', INPUT, '--to-earliest', '--execute']));
    assert.deepEqual(planned.map((row) => [row.TOPIC, Number(row.PARTITION), Number(row['NEW-OFFSET'])]).sort(), [0, 1, 2, 3].map((p) => [INPUT, p, 0]));
    assert.deepEqual(committed(), [0, 0, 0, 0], 'the reset reached the coordinator');

    const deleted = await run(['--delete', '--group', APP, '--delete-all-internal-topics']);
    assert.match(deleted, /Deletion of requested streams groups \('sim-streams-app'\) was successful\./, deleted);
    assert.equal(sim.coordinator.streamsGroup(APP), undefined);
    assert.deepEqual(sim.listTopics().map((t) => t.name).filter((name) => name.startsWith(APP)), [], 'its internal topics went with it');
  });

  it('runs a Streams app with processing.guarantee=exactly_once_v2: its input offsets committed in transactions that complete', async () => {
    const app = `${APP}-eos`;
    const eos = new JavaClient(simulator.env, 'StreamsApp', [simulator.env.bootstrap, app, INPUT, OUTPUT, '1', '-', 'exactly_once_v2'], { streams: true });
    apps.push(eos);
    await eos.waitForOutput(/STATE RUNNING/, 120000);
    // TxnOffsetCommit under the streams member's epoch, made visible by the COMMIT markers.
    await waitFor('the input committed to its end through transactions', async () => {
      const committed = [0, 1, 2, 3].map((p) => sim.coordinator.committedOffsets(app)?.get(INPUT)?.get(p)?.offset);
      return committed.every((offset) => offset === 25) ? true : undefined;
    }, 120000);
    // kafka-transactions.sh list: TransactionalId, Coordinator, ProducerId, TransactionState, tab-separated.
    const listed = await runToolAsync(simulator.env, 'org.apache.kafka.tools.TransactionsCommand', ['list']);
    const mine = listed.split('\n').map((line) => line.split('\t').map((cell) => cell.trim())).filter((cells) => cells[0].startsWith(`${app}-`));
    assert.equal(mine.length, 1, listed);
    assert.match(mine[0][3], /^(CompleteCommit|Ongoing|Empty)$/, listed);
    await eos.stop();
  });
});
