/**
 * Real non-kafkajs clients against the simulator's Kafka server (not the broker run-tests.js starts):
 * kcat (librdkafka) balanced consumers, cooperative-sticky and static, and a Java kafka-clients 4.x
 * classic consumer. Every client's own view of its assignment must equal the engine's. And a Java
 * transactional producer with read_committed and read_uncommitted consumers.
 */
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { supportedApis } from '../../src/simulator/server/apis';
import { SimKafkaServer } from '../../src/simulator/server/kafkaServer';
import { describeSimGroup } from '../../src/simulator/admin/groupDetailMapper';
import { Simulation } from '../../src/simulator/simulation';
import { KcatMember, requireKcat } from './kcatMember';
import { JavaMember, brokerEnv, createTopics, javaTestClasspath, runJavaClass, waitFor } from './support';
import { errorMessage } from '../../src/protocol/errors';

const TOPIC = 'orders';
const PARTITIONS = 4;
const RECORDS = 5;

interface EngineMember {
  memberId: string;
  groupInstanceId: string | null;
  partitions: string[];
}

interface EngineGroup {
  state: string;
  assignor: string;
  generation: number;
  members: EngineMember[];
  committed: Array<number | null>;
}

function engineGroup(sim: Simulation, groupId: string): EngineGroup {
  const group = describeSimGroup(sim, groupId);
  return {
    state: group.state,
    assignor: group.assignor,
    generation: group.generation ?? -1,
    members: group.members.map((m) => ({ memberId: m.memberId, groupInstanceId: m.groupInstanceId, partitions: m.assignment.map((tp) => `${tp.topic}-${tp.partition}`).sort() })),
    committed: Array.from({ length: PARTITIONS }, (_, p) => group.offsets.find((o) => o.topic === TOPIC && o.partition === p)?.committedOffset ?? null),
  };
}

/** Stable, every partition assigned once, and each kcat member holding exactly what the engine gave its member id. */
function kcatMatchesEngine(sim: Simulation, groupId: string, members: readonly KcatMember[]): boolean {
  const engine = engineGroup(sim, groupId);
  if (engine.state !== 'Stable' || engine.members.length !== members.length) {
    return false;
  }
  if (engine.members.flatMap((m) => m.partitions).sort().join() !== allPartitions().join()) {
    return false;
  }
  return members.every((k) => engine.members.find((m) => m.memberId === k.memberId)?.partitions.join() === k.assignment.join());
}

function allPartitions(): string[] {
  return Array.from({ length: PARTITIONS }, (_, p) => `${TOPIC}-${p}`).sort();
}

function describeState(sim: Simulation, groupId: string, members: ReadonlyArray<{ name: string; view: string }>): string {
  return `engine: ${JSON.stringify(engineGroup(sim, groupId))}\n${members.map((m) => `${m.name}: ${m.view}`).join('\n')}`;
}

/** Waits for `condition`, failing with the engine's and the clients' views. */
async function waitUntil(what: string, condition: () => boolean, state: () => string): Promise<void> {
  try {
    await waitFor(what, async () => (condition() ? true : undefined), 45000);
  } catch (e) {
    throw new Error(`${errorMessage(e)}\n${state()}`);
  }
}

describe('simulator Kafka server with kcat and Java clients', function () {
  this.timeout(180000);
  let sim: Simulation;
  let server: SimKafkaServer;
  let bootstrap: string;
  const serverLog: string[] = [];
  const running: Array<{ stop(): Promise<void> }> = [];

  before(async () => {
    requireKcat();
    sim = new Simulation({ seed: 3, startTime: Date.now(), cluster: { brokers: 2 }, coordinator: { initialRebalanceDelayMs: 300 } });
    const topic = sim.cluster.createTopic(TOPIC, PARTITIONS);
    for (const log of topic.partitions) {
      log.append(RECORDS, sim.now);
    }
    // Every request's version is logged, to check what the Java client negotiates.
    server = new SimKafkaServer(sim, { log: (line) => serverLog.push(line), logRequests: true });
    await server.start();
    bootstrap = server.bootstrapServers.join(',');
  });

  afterEach(async () => {
    await Promise.all(running.splice(0).map((member) => member.stop()));
  });

  after(async () => {
    await server?.close();
    sim?.dispose();
  });

  const kcat = (groupId: string, settings: Record<string, string>): KcatMember => {
    const member = new KcatMember(bootstrap, groupId, [TOPIC], settings);
    running.push(member);
    return member;
  };

  const problems = (): string => serverLog.filter((l) => !l.startsWith('request ')).join('\n');

  const kcatState = (groupId: string, members: readonly KcatMember[]) => (): string =>
    `${describeState(sim, groupId, members.map((k, i) => ({ name: `kcat ${i + 1} (${k.memberId ?? 'no member id'})`, view: k.assignment.join(',') })))}\nserver log: ${problems()}`;

  it('kcat cooperative-sticky members: incremental rebalances, each holding what the engine assigned', async () => {
    const group = 'kcat-cooperative';
    const settings = { 'partition.assignment.strategy': 'cooperative-sticky' };
    const first = kcat(group, settings);
    await waitUntil('the first kcat member to own every partition', () => kcatMatchesEngine(sim, group, [first]), kcatState(group, [first]));
    await waitUntil('its commits of every record', () => engineGroup(sim, group).committed.every((c) => c === RECORDS), kcatState(group, [first]));

    const second = kcat(group, settings);
    await waitUntil('two kcat members sharing the partitions as the engine says', () => kcatMatchesEngine(sim, group, [first, second]) && second.assignment.length > 0, kcatState(group, [first, second]));
    const engine = engineGroup(sim, group);
    assert.equal(engine.assignor, 'cooperative-sticky');
    assert.deepEqual(engine.members.map((m) => m.partitions.length).sort(), [2, 2]);
    // Cooperative: the first member gave up partitions by an incremental revoke, never all of them at once.
    assert.ok(first.rebalances.every((r) => r.protocol === 'COOPERATIVE'), first.log);
    assert.ok(first.rebalances.some((r) => r.kind === 'revoke' && r.partitions.length === 2), first.log);

    await second.stop();
    await waitUntil('the first member to take every partition back after the second left', () => kcatMatchesEngine(sim, group, [first]), kcatState(group, [first]));
  });

  it('kcat static members (group.instance.id): the engine keeps an instance\'s partitions across its restart', async () => {
    const group = 'kcat-static';
    const one = kcat(group, { 'group.instance.id': 'kcat-1' });
    let two = kcat(group, { 'group.instance.id': 'kcat-2' });
    await waitUntil('two static kcat members holding what the engine assigned', () => kcatMatchesEngine(sim, group, [one, two]) && one.assignment.length === 2, kcatState(group, [one, two]));
    const before = engineGroup(sim, group);
    assert.deepEqual(before.members.map((m) => m.groupInstanceId).sort(), ['kcat-1', 'kcat-2']);
    assert.ok(one.rebalances.every((r) => r.protocol === 'EAGER'), one.log);
    const partitionsOfTwo = before.members.find((m) => m.groupInstanceId === 'kcat-2')?.partitions;

    // A closing static member sends no LeaveGroup: the engine keeps it, its session still running.
    await two.stop();
    assert.equal(engineGroup(sim, group).members.length, 2);
    two = kcat(group, { 'group.instance.id': 'kcat-2' });
    await waitUntil('the restarted instance to get its partitions back', () => kcatMatchesEngine(sim, group, [one, two]) && two.memberId !== null, kcatState(group, [one, two]));
    const after = engineGroup(sim, group);
    assert.deepEqual(two.assignment, partitionsOfTwo);
    assert.equal(after.generation, before.generation, 'a static rejoin with the same subscription does not rebalance');
    assert.ok(!after.members.some((m) => before.members.some((b) => b.memberId === m.memberId && b.groupInstanceId === 'kcat-2')), 'the restarted instance has a new member id');
  });

  it('Java kafka-clients 4.x classic consumers: join, consume, commit, with the engine\'s assignment', async () => {
    const group = 'java-classic';
    const env = { ...brokerEnv(), bootstrap };
    const members = [new JavaMember(env, { groupId: group, topics: [TOPIC], protocol: 'classic' }), new JavaMember(env, { groupId: group, topics: [TOPIC], protocol: 'classic', instanceId: 'java-static' })];
    running.push(...members);
    /** The last "ASSIGNED [orders-0, orders-1]" line a Java member printed, as sorted labels. */
    const javaAssignment = (member: JavaMember): string => {
      const lines = member.log.split('\n').filter((l) => l.startsWith('ASSIGNED ['));
      const last = lines.at(-1);
      return last === undefined ? '' : last.slice('ASSIGNED ['.length, -1).split(', ').sort().join();
    };
    // The Java program does not print its member id; its group.instance.id (or the lack of one) names its engine member.
    const instanceIds = ['', 'java-static'];
    const matches = (): boolean => {
      const engine = engineGroup(sim, group);
      return (
        engine.state === 'Stable' &&
        engine.members.length === 2 &&
        members.every((member, i) => {
          const own = engine.members.find((m) => (m.groupInstanceId ?? '') === instanceIds[i]);
          return own !== undefined && own.partitions.length > 0 && own.partitions.join() === javaAssignment(member);
        })
      );
    };
    const state = (): string => describeState(sim, group, members.map((m, i) => ({ name: `java ${i + 1}`, view: m.log })));
    await waitUntil('both Java members holding what the engine assigned', matches, state);
    const engine = engineGroup(sim, group);
    // Java 4.x's default partition.assignment.strategy is [range, cooperative-sticky]: range wins.
    assert.equal(engine.assignor, 'range');
    assert.deepEqual(engine.members.flatMap((m) => m.partitions).sort(), allPartitions());
    assert.deepEqual(engine.members.map((m) => m.groupInstanceId).sort((a, b) => String(a).localeCompare(String(b))), ['java-static', null]);
    await waitUntil('the Java members\' commits of every record', () => engineGroup(sim, group).committed.every((c) => c === RECORDS), state);
  });
  it('Java kafka-clients 4.x transactions: commit with offsets, abort, an open transaction, read_committed, fencing', async () => {
    sim.cluster.createTopic('payments', 1);
    const lines = await runJava('TxnRoundTrip', [bootstrap, 'payments', TOPIC, 'java-eos', 'java-txn']);
    const value = (key: string): string => {
      const line = lines.find((l) => l.startsWith(`${key} `));
      assert.ok(line, `no ${key} line in:\n${lines.join('\n')}\nserver log: ${problems()}`);
      return line.slice(key.length + 1);
    };
    assert.ok(['COMMITTED', 'ABORTED', 'OPEN', 'DONE'].every((step) => lines.includes(step)), lines.join('\n'));
    // Offsets 0-2 committed, marker 3; 4-5 aborted, marker 6; 7 open. Values are the server's generated `topic/partition@offset`.
    assert.equal(value('READ_COMMITTED'), '3 7 payments/0@0,payments/0@1,payments/0@2', 'read_committed stops at the LSO (the open transaction) and skips the aborted records');
    assert.equal(value('READ_UNCOMMITTED'), '6 8 payments/0@0,payments/0@1,payments/0@2,payments/0@4,payments/0@5,payments/0@7', 'read_uncommitted reads to the HW, markers skipped');
    assert.match(value('FENCED'), /ProducerFenced|InvalidProducerEpoch/);
    // The second producer's InitProducerId aborted the open transaction: marker 8, LSO = HW = 9.
    assert.equal(value('READ_COMMITTED_AFTER'), '3 9 payments/0@0,payments/0@1,payments/0@2');
    const log = sim.cluster.partition('payments', 0);
    assert.deepEqual([log?.lastStableOffset, log?.highWatermark], [9, 9]);
    // The offsets sent in the committed transaction are the group's committed offsets.
    const offsets = describeSimGroup(sim, 'java-eos').offsets.find((o) => o.topic === TOPIC && o.partition === 0);
    assert.equal(offsets?.committedOffset, 4);
    // Transactions V2 (KIP-890), as against a 4.4 broker: the partitions and the offsets are added by Produce and
    // TxnOffsetCommit themselves, and EndTxn v5 bumps the epoch (a Java producer's client id is producer-<transactional id>).
    const requests = new Set(serverLog.map((line) => /^request (\w+ v\d+) from producer-java-txn/.exec(line)?.[1]).filter((r) => r !== undefined));
    assert.ok(['EndTxn v5', 'TxnOffsetCommit v5'].every((r) => requests.has(r)) && ![...requests].some((r) => /^Add(Partitions|Offsets)ToTxn /.test(r)), [...requests].join(', '));
  });

  it('Java kafka-clients 4.x rejoin and close reasons reach the coordinator\'s causes as a broker logs them', async () => {
    const group = 'java-reasons';
    const member = new JavaMember({ ...brokerEnv(), bootstrap }, { groupId: group, topics: [TOPIC], protocol: 'classic' });
    running.push(member);
    const causes = (): string[] => sim.events.forGroup(group).map((e) => `${e.kind}: ${e.cause ?? ''}`);
    const state = (): string => `${causes().join('\n')}\njava: ${member.log}\nserver log: ${problems()}`;
    // JoinGroup v4+: the first join is answered MEMBER_ID_REQUIRED and the client rejoins saying why (v8+).
    await waitUntil('the Java member to join with its rejoin reason', () => engineGroup(sim, group).state === 'Stable' && causes().some((c) => c.includes('client reason: need to re-join with the given member-id: ')), state);
    // A heartbeat too (heartbeat.interval.ms 3 s), so the version check below sees the Java client's Heartbeat.
    await waitUntil('a Java heartbeat', () => serverLog.some((line) => /^request Heartbeat v\d+ from java-/.test(line)), state);
    await member.stop();
    running.splice(running.indexOf(member), 1);
    await waitUntil('its LeaveGroup with the close reason', () => causes().includes('member-left: the consumer is being closed'), state);
  });

  it('kafka-consumer-groups --reset-offsets --to-datetime gives the offsets a real broker gives for the same records', async () => {
    const topic = 'stamped';
    const t = Date.UTC(2026, 0, 1);
    // Partition 0 in time order, 1 out of order, 2 all older than the target: a broker gives 4, 2 and the end offset 10.
    const stamps = [
      [-4, -3, -2, -1, 0, 1, 2, 3].map((s) => t + s * 1000),
      [-2, -1, 5, -3, 1, 2].map((s) => t + s * 1000),
      Array.from({ length: 10 }, (_, i) => t - (20 - i) * 1000),
    ];
    const specs = stamps.map((list, partition) => `${partition}:${list.join(',')}`);
    sim.cluster.createTopic(topic, 3);
    await createTopics([{ topic, numPartitions: 3 }]);
    const env = brokerEnv();
    for (const target of [bootstrap, env.bootstrap]) {
      const done = await runJava('StampedProducer', [target, topic, ...specs]);
      assert.ok(done.includes('DONE'), done.join('\n'));
    }
    // Run asynchronously: the simulator's server answers from this process's event loop.
    const reset = async (target: string): Promise<string[]> => {
      const lines = await runJavaClass(`${env.lib}${path.sep}*`, 'org.apache.kafka.tools.consumer.group.ConsumerGroupCommand', [
        '--bootstrap-server', target, '--group', 'stamped-reset', '--topic', topic, '--reset-offsets', '--to-datetime', '2026-01-01T00:00:00.000Z', '--dry-run',
      ]);
      const rows = lines
        .map((line) => line.split(/\s+/))
        .filter((cols) => cols.length === 4 && cols[1] === topic)
        .map((cols) => `${cols[2]}:${cols[3]}`)
        .sort();
      assert.equal(rows.length, 3, `ConsumerGroupCommand against ${target}:\n${lines.join('\n')}\nserver log: ${problems()}`);
      return rows;
    };
    const fromBroker = await reset(env.bootstrap);
    assert.deepEqual(fromBroker, ['0:4', '1:2', '2:10'], 'the real broker');
    assert.deepEqual(await reset(bootstrap), fromBroker, 'the simulator\'s server');
  });

  it('the Java client negotiates no API below the newest version both it and the server have', async () => {
    // The kafka-clients jar's own latest versions (4.4.0's are Kafka 4.4's; an older client's are lower).
    const client = new Map(
      (await runJava('ClientApiVersions', []))
        .map((line) => line.split(' '))
        .filter((cols) => cols.length === 2)
        .map(([name, version]) => [name, Number(version)]),
    );
    const served = new Map(supportedApis().map((api) => [api.name, api.maxVersion]));
    // "request JoinGroup v9 from java-classic": librdkafka (kcat, client id rdkafka) negotiates by its own maxima.
    const highest = new Map<string, number>();
    for (const line of serverLog) {
      const match = /^request (\w+) v(\d+) from (.*)$/.exec(line);
      if (match && match[3] !== 'rdkafka') {
        highest.set(match[1], Math.max(highest.get(match[1]) ?? -1, Number(match[2])));
      }
    }
    for (const api of ['ApiVersions', 'Metadata', 'FindCoordinator', 'JoinGroup', 'SyncGroup', 'Heartbeat', 'LeaveGroup', 'OffsetCommit', 'OffsetFetch', 'Fetch', 'ListOffsets', 'Produce', 'InitProducerId', 'EndTxn', 'TxnOffsetCommit', 'DescribeGroups']) {
      assert.ok(highest.has(api), `no Java ${api} request seen (seen: ${[...highest].map(([k, v]) => `${k} v${v}`).join(', ')})`);
    }
    // Where the Java client itself stops below Kafka 4.4's newest: OffsetCommit and OffsetFetch v10 name topics by id,
    // which only the KIP-848 consumer uses; the classic consumer names them (v9).
    const javaCaps = new Map([['OffsetCommit', 9], ['OffsetFetch', 9]]);
    const below = [...highest].filter(([api, version]) => version < Math.min(served.get(api) ?? 0, client.get(api) ?? 0, javaCaps.get(api) ?? Infinity));
    assert.deepEqual(below.map(([api, version]) => `${api} v${version} (served up to v${served.get(api) ?? '?'})`), []);
  });
});

/** Runs a class from test/kafka/java to its end and returns its output lines. */
function runJava(className: string, args: string[]): Promise<string[]> {
  return runJavaClass(javaTestClasspath(brokerEnv().lib, className), className, args);
}
