/**
 * Online migration with real Java consumers: two classic members (group.protocol=classic) are rolled one
 * by one to group.protocol=consumer, then back, first against the simulator's Kafka server, then against
 * the real broker. At every step the group's type and member types, read through the tree's model (the
 * mapping KafkaSource and the simulator share), are what Kafka's coordinator makes of it (upgrade on the
 * first ConsumerGroupHeartbeat, classic members served inside the consumer group, downgrade when the last
 * consumer-protocol member leaves), every partition is held by exactly one Java member, and consumption
 * goes on (every record produced before the step is committed). Both sides must see the same sequence.
 */
import { strict as assert } from 'node:assert';
import { errorMessage } from '../../src/protocol/errors';
import { SimKafkaServer } from '../../src/simulator/server/kafkaServer';
import { Simulation } from '../../src/simulator/simulation';
import type { GroupDetail } from '../../src/model/types';
import { KafkaSource } from '../../src/kafka/kafkaSource';
import { describeSimGroup } from '../../src/simulator/admin/groupDetailMapper';
import { KAFKA_VERSION } from './groupTypesSupport';
import { JavaMember, MemoryLogger, brokerEnv, createTopics, produceToEveryPartition, waitFor, type BrokerEnv } from './support';

const TOPIC = 'migration-roll';
const PARTITIONS = 4;
const RECORDS_PER_STEP = 5;
const ALL_PARTITIONS = Array.from({ length: PARTITIONS }, (_, p) => `${TOPIC}-${p}`).join();

/** How a group looks in the tree's model (the mapping KafkaSource and the simulator share): type, member protocols, state. */
function shapeOf(detail: GroupDetail): string {
  const types = detail.consumerGroup !== undefined
    ? detail.consumerGroup.members.map((m) => m.memberType)
    : detail.members.map(() => 'classic');
  return `${detail.groupType} group [${types.sort().join(', ')}] ${detail.state}`;
}

/** One side of the comparison: where the Java members connect, how to read the group, how to produce. */
interface Cluster {
  name: string;
  bootstrap: string;
  groupId: string;
  describe(): Promise<GroupDetail>;
  produce(count: number): Promise<void>;
}

/**
 * Rolls two classic members to the consumer protocol one by one and back; at each step waits until the
 * Java members split the partitions between them and committed every record, and returns the shapes seen.
 */
async function roll(env: BrokerEnv, cluster: Cluster, running: Set<JavaMember>): Promise<string[]> {
  const memberEnv = { ...env, bootstrap: cluster.bootstrap };
  const start = (protocol: 'classic' | 'consumer'): JavaMember => {
    const member = new JavaMember(memberEnv, { groupId: cluster.groupId, topics: [TOPIC], protocol });
    running.add(member);
    return member;
  };
  const stop = async (member: JavaMember): Promise<void> => {
    await member.stop();
    running.delete(member);
  };
  let produced = 0;
  const observed: string[] = [];
  const settle = async (members: JavaMember[]): Promise<void> => {
    await cluster.produce(RECORDS_PER_STEP);
    produced += RECORDS_PER_STEP;
    await waitFor(`${cluster.name}: the partitions split between ${members.length} Java members, every record committed`, async () => {
      const held = members.map((member) => member.assignment);
      const disjoint = held.join(',').split(',').filter((label) => label !== '').sort().join() === ALL_PARTITIONS;
      if (!disjoint || held.some((labels) => labels === '')) {
        return undefined;
      }
      const detail = await cluster.describe();
      const committedAll = detail.offsets.length === PARTITIONS && detail.offsets.every((row) => row.committedOffset === produced);
      return detail.state === 'Stable' && detail.memberCount === members.length && committedAll ? shapeOf(detail) : undefined;
    }, 90000).then((shape) => observed.push(shape));
  };
  const state = async (): Promise<string> => `${cluster.name}: observed ${observed.join(' | ')}; now ${shapeOf(await cluster.describe())}\n`
    + [...running].map((m, i) => `java ${i + 1}: ${m.log}`).join('\n');
  try {
    const classicA = start('classic');
    const classicB = start('classic');
    await settle([classicA, classicB]);
    await stop(classicA);
    const consumerA = start('consumer');
    await settle([classicB, consumerA]);
    await stop(classicB);
    const consumerB = start('consumer');
    await settle([consumerA, consumerB]);
    await stop(consumerA);
    const classicC = start('classic');
    await settle([consumerB, classicC]);
    await stop(consumerB);
    const classicD = start('classic');
    await settle([classicC, classicD]);
  } catch (e) {
    throw new Error(`${errorMessage(e)}\n${await state()}`);
  } finally {
    await Promise.all([...running].map((member) => stop(member)));
  }
  return observed;
}

const EXPECTED = [
  'classic group [classic, classic] Stable',
  'consumer group [classic, consumer] Stable',
  'consumer group [consumer, consumer] Stable',
  'consumer group [classic, consumer] Stable',
  'classic group [classic, classic] Stable',
];

describe('online migration of Java consumers between group.protocol=classic and consumer, simulator and real broker', function () {
  this.timeout(600000);
  let sim: Simulation;
  let server: SimKafkaServer;
  let source: KafkaSource;
  const running = new Set<JavaMember>();

  before(async () => {
    sim = new Simulation({ seed: 7, startTime: Date.now() });
    sim.cluster.createTopic(TOPIC, PARTITIONS);
    server = new SimKafkaServer(sim, { log: () => undefined });
    await server.start();
    source = new KafkaSource({ id: 'migration', name: 'migration', bootstrapServers: [brokerEnv().bootstrap] }, {}, { logger: new MemoryLogger() });
  });

  after(async () => {
    await Promise.all([...running].map((member) => member.stop()));
    await source?.dispose();
    await server?.close();
    sim?.dispose();
  });

  it('rolls two classic members to the consumer protocol one by one and back on both, with the same group and member types at each step', async () => {
    const env = brokerEnv();
    const simulated = await roll(env, {
      name: 'simulator',
      bootstrap: server.bootstrapServers.join(','),
      groupId: 'java-migration',
      describe: () => Promise.resolve(describeSimGroup(sim, 'java-migration')),
      produce: (count) => {
        sim.cluster.topic(TOPIC)?.partitions.forEach((partition) => partition.append(count, sim.now));
        return Promise.resolve();
      },
    }, running);
    assert.deepEqual(simulated, EXPECTED);
    await createTopics([{ topic: TOPIC, numPartitions: PARTITIONS }]);
    const real = await roll(env, {
      name: `Kafka ${KAFKA_VERSION}`,
      bootstrap: env.bootstrap,
      groupId: 'java-migration-real',
      describe: () => source.describeGroup('java-migration-real'),
      produce: (count) => produceToEveryPartition(TOPIC, PARTITIONS, count),
    }, running);
    assert.deepEqual(real, simulated, `Kafka ${KAFKA_VERSION} saw another sequence than the simulator`);
  });
});
