/**
 * Online migration with real Java consumers against the simulator's Kafka server: two classic members
 * (group.protocol=classic) are rolled one by one to group.protocol=consumer, then back. At every step the
 * group's type and member types are what Kafka 4.4's coordinator makes of it (upgrade on the first
 * ConsumerGroupHeartbeat, classic members served inside the consumer group, downgrade when the last
 * consumer-protocol member leaves), every partition is held by exactly one Java member, and consumption
 * goes on (every record produced before the step is committed).
 */
import { strict as assert } from 'node:assert';
import { errorMessage } from '../../src/protocol/errors';
import { SimKafkaServer } from '../../src/simulator/server/kafkaServer';
import { Simulation } from '../../src/simulator/simulation';
import { JavaMember, brokerEnv, waitFor } from './support';

const TOPIC = 'payments';
const PARTITIONS = 4;
const RECORDS_PER_STEP = 5;
const GROUP = 'java-migration';
const ALL_PARTITIONS = Array.from({ length: PARTITIONS }, (_, p) => `${TOPIC}-${p}`).join();

/** The group as the coordinator holds it: its type, and per member its protocol ("classic" or "consumer"). */
function groupShape(sim: Simulation): string {
  const consumerGroup = sim.coordinator.consumerGroup(GROUP);
  if (consumerGroup !== undefined) {
    const types = [...consumerGroup.members.values()].map((m) => (m.classicMemberMetadata === null ? 'consumer' : 'classic')).sort();
    return `consumer group [${types.join(', ')}] ${consumerGroup.state}`;
  }
  const classic = sim.coordinator.group(GROUP);
  return classic === undefined ? 'none' : `classic group [${[...classic.members.values()].map(() => 'classic').join(', ')}] ${classic.state}`;
}

function committed(sim: Simulation): Promise<number[]> {
  return new Promise((resolve) => {
    sim.coordinator.offsetFetch({ groupId: GROUP, topics: [{ name: TOPIC, partitions: Array.from({ length: PARTITIONS }, (_, p) => p) }] }, (response) => {
      resolve(response.topics.flatMap((topic) => topic.partitions.map((p) => p.committedOffset)));
    });
  });
}

describe('simulator Kafka server: online migration of Java consumers between group.protocol=classic and consumer', function () {
  this.timeout(300000);
  let sim: Simulation;
  let server: SimKafkaServer;
  const serverLog: string[] = [];
  const running = new Set<JavaMember>();

  before(async () => {
    sim = new Simulation({ seed: 7, startTime: Date.now() });
    sim.cluster.createTopic(TOPIC, PARTITIONS);
    server = new SimKafkaServer(sim, { log: (line) => serverLog.push(line) });
    await server.start();
  });

  after(async () => {
    await Promise.all([...running].map((member) => member.stop()));
    await server?.close();
    sim?.dispose();
  });

  it('rolls two classic members to the consumer protocol one by one and back, with every partition held once and consumption going on', async () => {
    const env = { ...brokerEnv(), bootstrap: server.bootstrapServers.join(',') };
    const start = (protocol: 'classic' | 'consumer'): JavaMember => {
      const member = new JavaMember(env, { groupId: GROUP, topics: [TOPIC], protocol });
      running.add(member);
      return member;
    };
    const stop = async (member: JavaMember): Promise<void> => {
      await member.stop();
      running.delete(member);
    };
    let produced = 0;
    const produce = (): void => {
      for (const partition of sim.cluster.topic(TOPIC)?.partitions ?? []) {
        partition.append(RECORDS_PER_STEP, sim.now);
      }
      produced += RECORDS_PER_STEP;
    };
    const observed: string[] = [];
    /** Waits until the group has this shape and its Java members split the partitions, then until they commit what was produced. */
    const settle = async (shape: string, members: JavaMember[]): Promise<void> => {
      produce();
      await waitFor(`${shape} with the partitions split between its ${members.length} Java members`, async () => {
        const held = members.map((member) => member.assignment);
        const disjoint = held.join(',').split(',').filter((label) => label !== '').sort().join() === ALL_PARTITIONS;
        return groupShape(sim) === shape && held.every((labels) => labels !== '') && disjoint ? true : undefined;
      }, 90000);
      await waitFor(`the commits of all ${produced} records per partition`, async () => ((await committed(sim)).every((offset) => offset === produced) ? true : undefined), 60000);
      observed.push(groupShape(sim));
    };
    const state = (): string => `observed: ${observed.join(' | ')}\nnow: ${groupShape(sim)}\nserver log: ${serverLog.slice(-40).join('\n')}\n`
      + [...running].map((m, i) => `java ${i + 1}: ${m.log}`).join('\n');
    try {
      const classicA = start('classic');
      const classicB = start('classic');
      await settle('classic group [classic, classic] Stable', [classicA, classicB]);

      await stop(classicA);
      const consumerA = start('consumer');
      await settle('consumer group [classic, consumer] Stable', [classicB, consumerA]);

      await stop(classicB);
      const consumerB = start('consumer');
      await settle('consumer group [consumer, consumer] Stable', [consumerA, consumerB]);

      await stop(consumerA);
      const classicC = start('classic');
      await settle('consumer group [classic, consumer] Stable', [consumerB, classicC]);

      await stop(consumerB);
      const classicD = start('classic');
      await settle('classic group [classic, classic] Stable', [classicC, classicD]);
    } catch (e) {
      throw new Error(`${errorMessage(e)}\n${state()}`);
    }
    assert.deepEqual(observed, [
      'classic group [classic, classic] Stable',
      'consumer group [classic, consumer] Stable',
      'consumer group [consumer, consumer] Stable',
      'consumer group [classic, consumer] Stable',
      'classic group [classic, classic] Stable',
    ]);
  });
});
