/**
 * Java kafka-clients 4.x consumers with group.protocol=consumer (KIP-848) against the simulator's Kafka
 * server: they join through ConsumerGroupHeartbeat (one of them after the others), consume and commit,
 * and each one holds exactly the partitions the engine's consumer group gives its member.
 */
import { strict as assert } from 'node:assert';
import { errorMessage } from '../../src/protocol/errors';
import { SimKafkaServer } from '../../src/simulator/server/kafkaServer';
import { Simulation } from '../../src/simulator/simulation';
import { JavaMember, brokerEnv, waitFor } from './support';

const TOPIC = 'orders';
const PARTITIONS = 4;
const RECORDS = 5;

interface EngineMember {
  instanceId: string;
  memberEpoch: number;
  partitions: string;
}

/** The engine's consumer group: state, group epoch and each member's assigned partitions as sorted labels. */
function engineGroup(sim: Simulation, groupId: string): { state: string; epoch: number; members: EngineMember[] } {
  const group = sim.coordinator.consumerGroup(groupId);
  const members = [...(group?.members.values() ?? [])].map((member) => ({
    instanceId: member.instanceId ?? '',
    memberEpoch: member.memberEpoch,
    partitions: [...member.assignedPartitions].flatMap(([topicId, partitions]) =>
      [...partitions.keys()].map((partition) => `${sim.cluster.topicById(topicId)?.name ?? topicId}-${partition}`)).sort().join(),
  }));
  return { state: group?.state ?? 'none', epoch: group?.groupEpoch ?? -1, members };
}

function committed(sim: Simulation, groupId: string): Promise<number[]> {
  return new Promise((resolve) => {
    sim.coordinator.offsetFetch({ groupId, topics: [{ name: TOPIC, partitions: Array.from({ length: PARTITIONS }, (_, p) => p) }] }, (response) => {
      resolve(response.topics.flatMap((topic) => topic.partitions.map((p) => p.committedOffset)));
    });
  });
}

describe('simulator Kafka server with KIP-848 Java consumers (group.protocol=consumer)', function () {
  this.timeout(180000);
  let sim: Simulation;
  let server: SimKafkaServer;
  let bootstrap: string;
  const serverLog: string[] = [];
  const running: JavaMember[] = [];

  before(async () => {
    sim = new Simulation({ seed: 5, startTime: Date.now(), cluster: { brokers: 2 } });
    const topic = sim.cluster.createTopic(TOPIC, PARTITIONS);
    for (const log of topic.partitions) {
      log.append(RECORDS, sim.now);
    }
    server = new SimKafkaServer(sim, { log: (line) => serverLog.push(line) });
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

  it('Java consumers join (a third one later), each holds what the engine assigned, and commit every record', async () => {
    const groupId = 'java-kip848';
    const env = { ...brokerEnv(), bootstrap };
    const instanceIds = ['java-kip848-a', 'java-kip848-b', 'java-kip848-c'];
    const members: JavaMember[] = [];
    const join = (instanceId: string): void => {
      const member = new JavaMember(env, { groupId, topics: [TOPIC], protocol: 'consumer', instanceId });
      members.push(member);
      running.push(member);
    };
    const state = (): string => `engine: ${JSON.stringify(engineGroup(sim, groupId))}\nserver log: ${serverLog.join('\n')}\n${members.map((m, i) => `java ${i + 1}: ${m.log}`).join('\n')}`;
    /** Stable with every started member, each Java member holding exactly its engine member's partitions. */
    const matches = (): boolean => {
      const engine = engineGroup(sim, groupId);
      return engine.state === 'Stable' && engine.members.length === members.length && members.every((member, i) => {
        const own = engine.members.find((m) => m.instanceId === instanceIds[i]);
        return own !== undefined && own.partitions !== '' && own.partitions === member.assignment;
      });
    };
    const allPartitions = Array.from({ length: PARTITIONS }, (_, p) => `${TOPIC}-${p}`);
    try {
      join(instanceIds[0]);
      join(instanceIds[1]);
      await waitFor('both Java members holding what the engine assigned', async () => (matches() ? true : undefined), 60000);
      await waitFor('the commits of every record', async () => ((await committed(sim, groupId)).every((offset) => offset === RECORDS) ? true : undefined), 60000);
      const epochBefore = engineGroup(sim, groupId).epoch;
      join(instanceIds[2]);
      await waitFor('three Java members holding what the engine assigned', async () => (matches() ? true : undefined), 60000);
      const engine = engineGroup(sim, groupId);
      assert.ok(engine.epoch > epochBefore, `the third member bumped the group epoch (${epochBefore} -> ${engine.epoch})`);
      assert.deepEqual(engine.members.flatMap((m) => m.partitions.split(',')).sort(), allPartitions);
    } catch (e) {
      throw new Error(`${errorMessage(e)}\n${state()}`);
    }
    assert.ok(sim.coordinator.groupIds().includes(groupId));
  });

  it('a static Java member restarted within the session timeout gets its partitions back without a new group epoch', async () => {
    const groupId = 'java-kip848-static';
    const env = { ...brokerEnv(), bootstrap };
    const start = (instanceId: string): JavaMember => {
      const member = new JavaMember(env, { groupId, topics: [TOPIC], protocol: 'consumer', instanceId });
      running.push(member);
      return member;
    };
    const first = start('static-a');
    let second = start('static-b');
    const own = (instanceId: string): string => engineGroup(sim, groupId).members.find((m) => m.instanceId === instanceId)?.partitions ?? '';
    const settled = (): boolean => {
      const engine = engineGroup(sim, groupId);
      return engine.state === 'Stable' && engine.members.length === 2 && own('static-a') === first.assignment && own('static-b') !== '' && own('static-b') === second.assignment;
    };
    const state = (): string => `engine: ${JSON.stringify(engineGroup(sim, groupId))}\nfirst: ${first.log}\nsecond: ${second.log}`;
    try {
      await waitFor('two static Java members holding what the engine assigned', async () => (settled() ? true : undefined), 60000);
      const before = { epoch: engineGroup(sim, groupId).epoch, partitions: own('static-b') };
      await second.stop();
      second = start('static-b');
      await waitFor('the restarted static member holding its partitions again', async () => (settled() ? true : undefined), 60000);
      assert.equal(own('static-b'), before.partitions);
      assert.equal(engineGroup(sim, groupId).epoch, before.epoch);
    } catch (e) {
      throw new Error(`${errorMessage(e)}\n${state()}`);
    }
  });
});
