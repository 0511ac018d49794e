/**
 * The simulator's group coordinator side by side with a real Kafka broker (issue 18's acceptance): the
 * same script of Java consumers runs against both, once with group.protocol=consumer (KIP-848) and
 * once with the classic protocol. Members a, b (static, group.instance.id b), c join one after the
 * other, d joins later, b is restarted (closed without leaving, back with the same instance id within
 * the session timeout), c is killed (its session expires), d leaves. After each step both groups are described
 * through KafkaSource (ConsumerGroupDescribe, DescribeGroups) until stable (while b is away, until b shows
 * its temporary leave), and the sequences must match: state, group epoch, assignor, each member's epoch,
 * target and final assignment, members named by client id or instance id. Member ids are random on both sides and the uniform assignor's choice of partitions
 * follows their order, so a step's assignment is compared as what each member kept, gained (from whom)
 * and holds, never as member ids or (classic) generation numbers.
 */
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { KafkaSource } from '../../src/kafka/kafkaSource';
import type { GroupDetail, TopicPartition } from '../../src/model/types';
import { errorMessage } from '../../src/protocol/errors';
import { SimKafkaServer } from '../../src/simulator/server/kafkaServer';
import { Simulation } from '../../src/simulator/simulation';
import { KAFKA_VERSION } from './groupTypesSupport';
import { MemoryLogger, brokerEnv, createTopics, javaTestClasspath, produceToEveryPartition, waitFor, type BrokerEnv } from './support';

const RUN = `r${Date.now().toString(36)}`;
const [MAJOR, MINOR] = KAFKA_VERSION.split('.').map(Number);
/**
 * The simulator is Kafka 4.4's coordinator. Before 4.3 (KAFKA-20268) a new KIP-848 group started at
 * epoch 0, not 1, so every epoch of an older broker is one lower: the consumer-protocol script runs on 4.3+.
 */
const KIP848_EPOCHS_AS_SIMULATED = MAJOR > 4 || (MAJOR === 4 && MINOR >= 3);
const PARTITIONS = 12;
const RECORDS = 3;
/** The classic members' session.timeout.ms, so that the killed one expires soon (the broker's minimum is 6 s). */
const CLASSIC_SESSION_TIMEOUT_MS = 10000;
/**
 * The bound on each step. A KIP-848 session is the coordinator's: group.consumer.session.timeout.ms is 45 s by
 * default and also the broker's minimum (group.consumer.min.session.timeout.ms), so no group config can shorten it
 * on an unconfigured broker, and the crash step waits that long on both sides.
 */
const STEP_TIMEOUT_MS = 120000;

type Protocol = 'consumer' | 'classic';

/** A Java member (test/kafka/java/GroupMember.java) named by its client id; stops politely or is killed. */
class ParityMember {
  private output = '';
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly exited: Promise<void>;

  constructor(env: BrokerEnv, bootstrap: string, groupId: string, topic: string, protocol: Protocol, readonly name: string, isStatic: boolean) {
    this.child = spawn('java', [
      '-Xmx128m', '-XX:TieredStopAtLevel=1', '-cp', javaTestClasspath(env.lib, 'GroupMember'), 'GroupMember',
      bootstrap, groupId, topic, protocol, isStatic ? name : '-', '-', name, protocol === 'classic' ? String(CLASSIC_SESSION_TIMEOUT_MS) : '-', 'empty',
    ]);
    this.exited = new Promise((resolve) => this.child.once('exit', () => resolve()));
    const collect = (chunk: Buffer): void => {
      this.output += chunk.toString('utf8');
    };
    this.child.stdout.on('data', collect);
    this.child.stderr.on('data', collect);
  }

  get log(): string {
    return this.output;
  }

  /** What the client itself last said it holds, as sorted "topic-partition" keys. */
  assignment(): string[] | undefined {
    const last = this.output.split('\n').filter((line) => line.startsWith('ASSIGNED [')).at(-1);
    return last === undefined ? undefined : last.slice('ASSIGNED ['.length, -1).split(', ').filter(Boolean).sort(compareKeys);
  }

  /** Closes stdin: KafkaConsumer.close(), which for a static member does not leave the group. */
  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.stdin.end();
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 30000);
      await this.exited;
      clearTimeout(timer);
    }
  }

  /** A crash: the process dies without a word to the coordinator. */
  async kill(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill('SIGKILL');
      await this.exited;
    }
  }
}

function compareKeys(a: string, b: string): number {
  const [ta, pa] = [a.slice(0, a.lastIndexOf('-')), Number(a.slice(a.lastIndexOf('-') + 1))];
  const [tb, pb] = [b.slice(0, b.lastIndexOf('-')), Number(b.slice(b.lastIndexOf('-') + 1))];
  return ta === tb ? pa - pb : ta.localeCompare(tb);
}

function keys(tps: readonly TopicPartition[]): string[] {
  return tps.map((tp) => `${tp.topic}-${tp.partition}`).sort(compareKeys);
}

/** One member as a stable group shows it. */
interface MemberSnapshot {
  name: string;
  memberId: string;
  /** KIP-848 only. */
  epoch?: number;
  target?: string[];
  assignment: string[];
}

/** The group after a step: stable, or (a transient step) as soon as the step's condition holds. */
interface StepSnapshot {
  step: string;
  state: string;
  groupEpoch?: number;
  assignmentEpoch?: number;
  /** KIP-848: the server assignor. */
  assignor?: string;
  members: MemberSnapshot[];
}

/**
 * The group as described, or why it is not yet the group the step expects: the expected members, every
 * partition held once and, unless the step is transient, Stable with each member at the target epoch
 * holding its target, as its client says.
 */
function snapshotOf(
  step: string, protocol: Protocol, g: GroupDetail, members: ReadonlyMap<string, ParityMember>, allPartitions: readonly string[], transient: boolean,
): StepSnapshot | string {
  if (!transient && g.state !== 'Stable') {
    return `state ${g.state}`;
  }
  let snapshot: StepSnapshot;
  if (protocol === 'consumer') {
    const info = g.consumerGroup;
    if (info === undefined) {
      return `no consumer-group detail (${g.groupType ?? '?'})`;
    }
    snapshot = {
      step,
      state: g.state,
      groupEpoch: info.groupEpoch,
      assignmentEpoch: info.assignmentEpoch,
      assignor: info.assignorName,
      members: info.members.map((m) => ({
        name: m.instanceId ?? m.clientId, memberId: m.memberId, epoch: m.memberEpoch, target: keys(m.targetAssignment), assignment: keys(m.assignment),
      })),
    };
    if (!transient && info.groupEpoch !== info.assignmentEpoch) {
      return `group epoch ${info.groupEpoch}, target assignment epoch ${info.assignmentEpoch}`;
    }
    const behind = snapshot.members.find((m) => m.epoch !== info.assignmentEpoch || m.target?.join() !== m.assignment.join());
    if (!transient && behind !== undefined) {
      return `member ${behind.name} at epoch ${behind.epoch ?? '?'} still reconciling`;
    }
  } else {
    snapshot = { step, state: g.state, members: g.members.map((m) => ({ name: m.groupInstanceId ?? m.clientId, memberId: m.memberId, assignment: keys(m.assignment) })) };
  }
  snapshot.members.sort((a, b) => a.name.localeCompare(b.name));
  const names = snapshot.members.map((m) => m.name).join();
  const expected = [...members.keys()].sort().join();
  if (names !== expected) {
    return `members ${names}, expected ${expected}`;
  }
  const held = snapshot.members.flatMap((m) => m.assignment).sort(compareKeys);
  if (held.join() !== allPartitions.join()) {
    return `partitions held ${held.join()}`;
  }
  const unaware = snapshot.members.find((m) => members.get(m.name)?.assignment()?.join() !== m.assignment.join());
  if (!transient && unaware !== undefined) {
    return `client ${unaware.name} says it holds ${members.get(unaware.name)?.assignment()?.join() ?? 'nothing yet'}, the coordinator ${unaware.assignment.join()}`;
  }
  return snapshot;
}

/** A step, normalised: epochs, and for each member what it kept of its own, gained from whom, and holds. */
interface NormalisedStep {
  step: string;
  state: string;
  groupEpoch?: number;
  assignmentEpoch?: number;
  assignor?: string;
  members: Record<string, { epoch?: number; holds: number; kept: number; gainedFrom: Record<string, number>; targetIsAssignment?: boolean }>;
}

function normalise(snapshots: readonly StepSnapshot[]): NormalisedStep[] {
  return snapshots.map((snapshot, i) => {
    const previousOwner = new Map<string, string>();
    for (const m of snapshots[i - 1]?.members ?? []) {
      m.assignment.forEach((tp) => previousOwner.set(tp, m.name));
    }
    const members: NormalisedStep['members'] = {};
    for (const m of snapshot.members) {
      const gainedFrom: Record<string, number> = {};
      let kept = 0;
      for (const tp of m.assignment) {
        const owner = previousOwner.get(tp) ?? '(none)';
        if (owner === m.name) {
          kept++;
        } else {
          gainedFrom[owner] = (gainedFrom[owner] ?? 0) + 1;
        }
      }
      members[m.name] = {
        ...(m.epoch !== undefined ? { epoch: m.epoch } : {}),
        holds: m.assignment.length,
        kept,
        gainedFrom,
        ...(m.target !== undefined ? { targetIsAssignment: m.target.join() === m.assignment.join() } : {}),
      };
    }
    return {
      step: snapshot.step,
      state: snapshot.state,
      ...(snapshot.groupEpoch !== undefined ? { groupEpoch: snapshot.groupEpoch, assignmentEpoch: snapshot.assignmentEpoch, assignor: snapshot.assignor } : {}),
      members,
    };
  });
}

/** The classic script's assignments come from the Java leader's range assignor, ordered by name: compared exactly. */
function exactAssignments(snapshots: readonly StepSnapshot[]): Array<Record<string, string[]>> {
  return snapshots.map((s) => Object.fromEntries(s.members.map((m) => [m.name, m.assignment])));
}

/** Leaves out what this Kafka version does differently, instead of a pending test. */
function skipOnThisVersion(title: string, _body: unknown): void {
  console.log(`      (not on Kafka ${KAFKA_VERSION}: ${title})`);
}

interface Side {
  label: string;
  bootstrap: string;
  source: KafkaSource;
}

/**
 * The script: a, b (static), c join one by one; d joins; b restarts within the session timeout; c is
 * killed; d leaves. Returns the group after each step.
 */
async function runScript(env: BrokerEnv, side: Side, protocol: Protocol, groupId: string, topic: string): Promise<StepSnapshot[]> {
  const running = new Map<string, ParityMember>();
  const everyone: ParityMember[] = [];
  const snapshots: StepSnapshot[] = [];
  const allPartitions = Array.from({ length: PARTITIONS }, (_, p) => `${topic}-${p}`);
  const start = (name: string): void => {
    const member = new ParityMember(env, side.bootstrap, groupId, topic, protocol, name, name === 'b');
    running.set(name, member);
    everyone.push(member);
  };
  let lastWhy = '';
  const settle = async (step: string, ready: (s: StepSnapshot) => boolean = () => true, transient = false): Promise<StepSnapshot> => {
    const snapshot = await waitFor(`${side.label} ${protocol} group after "${step}"`, async () => {
      const described = snapshotOf(step, protocol, await side.source.describeGroup(groupId), running, allPartitions, transient);
      lastWhy = typeof described === 'string' ? described : 'the step\'s own condition';
      return typeof described !== 'string' && ready(described) ? described : undefined;
    }, STEP_TIMEOUT_MS);
    snapshots.push(snapshot);
    return snapshot;
  };
  try {
    start('a');
    await settle('a joins');
    start('b');
    await settle('b (static) joins');
    start('c');
    await settle('c joins');
    start('d');
    await settle('d joins later');
    const staticBefore = snapshots.at(-1)?.members.find((m) => m.name === 'b')?.memberId;
    await running.get('b')?.stop();
    // Closed without leaving: still a member, holding its partitions (KIP-848: at epoch -2) until it is back or its session ends.
    await settle('b closes (static: does not leave)', (s) => protocol === 'classic' || s.members.find((m) => m.name === 'b')?.epoch === -2, true);
    start('b');
    await settle('b restarts with its instance id', (s) => s.members.find((m) => m.name === 'b')?.memberId !== staticBefore);
    await running.get('c')?.kill();
    running.delete('c');
    await settle('c crashes');
    await running.get('d')?.stop();
    running.delete('d');
    await settle('d leaves (closes)');
    return snapshots;
  } catch (e) {
    throw new Error(`${side.label}: ${errorMessage(e)} (last seen: ${lastWhy})\nsteps so far: ${JSON.stringify(snapshots)}\n${everyone.map((m) => `--- ${m.name}:\n${m.log.slice(-3000)}`).join('\n')}`);
  } finally {
    await Promise.all(everyone.map((m) => m.stop()));
  }
}

describe(`group protocols on the simulator and a real Kafka ${KAFKA_VERSION} broker, side by side`, function () {
  this.timeout(600000);
  const env = brokerEnv();
  let sim: Simulation;
  let server: SimKafkaServer;
  let kafka: Side;
  let simulator: Side;

  before(async () => {
    sim = new Simulation({ seed: 18, startTime: Date.now(), cluster: { brokers: 1 }, coordinator: { consumerGroup: { heartbeatIntervalMs: 1000 } } });
    server = new SimKafkaServer(sim, { log: () => undefined });
    await server.start();
    const logger = new MemoryLogger();
    kafka = { label: 'Kafka', bootstrap: env.bootstrap, source: new KafkaSource({ id: 'parity-kafka', name: 'parity-kafka', bootstrapServers: [env.bootstrap] }, {}, { logger }) };
    simulator = {
      label: 'simulator',
      bootstrap: server.bootstrapServers.join(','),
      source: new KafkaSource({ id: 'parity-sim', name: 'parity-sim', bootstrapServers: server.bootstrapServers }, {}, { logger }),
    };
  });

  after(async () => {
    await kafka?.source.dispose();
    await simulator?.source.dispose();
    await server?.close();
    sim?.dispose();
  });

  /** The same topic (name, partitions, records) on both. */
  async function createTopicOnBoth(topic: string): Promise<void> {
    // A broker still settling (a loaded machine) may answer the creation's metadata check with an error: try again, bounded.
    await waitFor(`topic ${topic} on the broker`, async () => {
      await createTopics([{ topic, numPartitions: PARTITIONS }]);
      return true;
    }, 60000);
    await produceToEveryPartition(topic, PARTITIONS, RECORDS);
    const simTopic = sim.cluster.createTopic(topic, PARTITIONS);
    for (const log of simTopic.partitions) {
      log.append(RECORDS, sim.now);
    }
  }

  /** One line per step of what both went through, for the test log. */
  function logSequence(protocol: Protocol, steps: readonly NormalisedStep[]): void {
    for (const step of steps) {
      const epochs = step.groupEpoch === undefined ? '' : ` group epoch ${step.groupEpoch}, target epoch ${step.assignmentEpoch ?? '?'};`;
      const members = Object.entries(step.members).map(([name, m]) =>
        `${name}${m.epoch === undefined ? '' : `@${m.epoch}`} ${m.holds} (kept ${m.kept}${Object.entries(m.gainedFrom).map(([from, n]) => `, ${n} from ${from}`).join('')})`);
      console.log(`      ${protocol}: ${step.step}: ${step.state};${epochs} ${members.join('; ')}`);
    }
  }

  async function bothSides(protocol: Protocol): Promise<{ kafka: StepSnapshot[]; simulator: StepSnapshot[] }> {
    const topic = `parity-${protocol}-${RUN}`;
    await createTopicOnBoth(topic);
    // Both sides at once: the scripts wait on wall-clock sessions, and share nothing but the machine.
    const [onKafka, onSimulator] = await Promise.all([
      runScript(env, kafka, protocol, `parity-${protocol}-${RUN}`, topic),
      runScript(env, simulator, protocol, `parity-${protocol}-${RUN}`, topic),
    ]);
    return { kafka: onKafka, simulator: onSimulator };
  }

  (KIP848_EPOCHS_AS_SIMULATED ? it : skipOnThisVersion)('a group.protocol=consumer (KIP-848) group goes through the same epochs and assignments', async () => {
    const { kafka: onKafka, simulator: onSimulator } = await bothSides('consumer');
    logSequence('consumer', normalise(onKafka));
    assert.deepEqual(normalise(onSimulator), normalise(onKafka), `simulator ${JSON.stringify(onSimulator)}\nKafka ${JSON.stringify(onKafka)}`);
  });

  it('a classic group of the same clients ends every step with the same members and assignments', async () => {
    const { kafka: onKafka, simulator: onSimulator } = await bothSides('classic');
    logSequence('classic', normalise(onKafka));
    assert.deepEqual(normalise(onSimulator), normalise(onKafka), `simulator ${JSON.stringify(onSimulator)}\nKafka ${JSON.stringify(onKafka)}`);
    assert.deepEqual(exactAssignments(onSimulator), exactAssignments(onKafka));
  });
});
