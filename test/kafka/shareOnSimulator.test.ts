/**
 * Real KafkaShareConsumers (kafka-clients of this run's Kafka version, test/kafka/java/ShareMember.java) on the
 * simulator's server: two members of one share group on a topic whose partitions are led by both brokers get
 * every record exactly once, each on its first delivery, and their implicit acknowledgements move every share
 * partition's start offset to the end of its log; kafka-share-groups.sh --describe (offsets, members) equals our
 * tree; when both leave, their share sessions are gone; --reset-offsets --to-earliest gives a new member every
 * record again, and --delete-offsets removes the topic's share state (the last two with a 4.2+ tool).
 */
import { strict as assert } from 'node:assert';
import { SimKafkaServer } from '../../src/simulator/server/kafkaServer';
import { Simulation } from '../../src/simulator/simulation';
import { describeSimGroup } from '../../src/simulator/admin/groupDetailMapper';
import { JavaClient, KAFKA_VERSION, TOOLS, runToolAsync, toolTables } from './groupTypesSupport';
import { brokerEnv, createTopics, produceToEveryPartition, waitFor, type BrokerEnv } from './support';

const GROUP = 'sim-share-queue';
const TOPIC = 'sim-share-in';
const PARTITIONS = 3;
const PER_PARTITION = 20;

interface Delivery {
  client: string;
  partition: number;
  offset: number;
  deliveryCount: number;
}

function deliveries(client: string, output: string): Delivery[] {
  return [...output.matchAll(new RegExp(`^RECORD ${TOPIC} (\\d+) (\\d+) (-?\\d+)$`, 'gm'))].map((m) => ({ client, partition: Number(m[1]), offset: Number(m[2]), deliveryCount: Number(m[3]) }));
}

/** Leaves out what this Kafka version's broker does not have, instead of a pending test. */
function skipOnThisVersion(title: string, _body: unknown): void {
  console.log(`      (not on Kafka ${KAFKA_VERSION}: ${title})`);
}

describe('real KafkaShareConsumers on the simulator\'s server', function (this: Mocha.Suite) {
  this.timeout(180000);
  const brokers = brokerEnv();
  let sim: Simulation;
  let server: SimKafkaServer;
  const clients: JavaClient[] = [];

  before(async () => {
    sim = new Simulation({ seed: 5, startTime: Date.now(), cluster: { brokers: 2 } });
    const topic = sim.cluster.createTopic(TOPIC, PARTITIONS);
    topic.partitions.forEach((log) => log.append(PER_PARTITION, sim.now));
    server = new SimKafkaServer(sim, { log: () => undefined });
    await server.start();
  });

  after(async () => {
    await Promise.all(clients.map((client) => client.stop()));
    await server?.close();
    sim?.dispose();
  });

  it('delivers every record once to one of two members (share.auto.offset.reset set with IncrementalAlterConfigs), shows what kafka-share-groups.sh shows, and resets and deletes its offsets as the tool asks', async () => {
    const env = { ...brokers, bootstrap: server.bootstrapServers.join(',') };
    const topic = sim.cluster.requireTopic(TOPIC);
    assert.equal(new Set(topic.leaders).size, 2, 'the partitions are led by both brokers');
    // The first sets share.auto.offset.reset=earliest on the group with IncrementalAlterConfigs (the records were
    // written before anyone joined), as on a broker; the second leaves the configs alone.
    const first = new JavaClient(env, 'ShareMember', [env.bootstrap, GROUP, TOPIC, 'earliest', 'records']);
    clients.push(first);
    await first.waitForOutput(/SUBSCRIBED/);
    assert.equal(sim.shares.settings(GROUP).autoOffsetReset, 'earliest');
    clients.push(new JavaClient(env, 'ShareMember', [env.bootstrap, GROUP, TOPIC, '-', 'records']));
    const seen = (): Delivery[] => clients.flatMap((client, i) => deliveries(`share-${'ab'[i]}`, client.log));
    try {
      await waitFor('every record delivered', async () => (new Set(seen().map((d) => `${d.partition}@${d.offset}`)).size === PARTITIONS * PER_PARTITION ? true : undefined), 120000);
      await waitFor('every share partition acknowledged to its end', async () =>
        topic.partitions.every((log, p) => sim.shares.deliveryState(GROUP, topic.topicId, p)?.startOffset === log.highWatermark) ? true : undefined, 60000);
    } catch (error) {
      throw new Error(`${(error as Error).message}; client output:\n${clients.map((c) => c.log.slice(-3000)).join('\n----\n')}`);
    }
    // A second wave once both are members: the two share the partitions' records, still each record once.
    await waitFor('both members in the group', async () => (sim.coordinator.shareGroup(GROUP)?.members.size === 2 ? true : undefined), 60000);
    topic.partitions.forEach((log) => log.append(PER_PARTITION, sim.now));
    await waitFor('the second wave delivered and acknowledged', async () =>
      new Set(seen().map((d) => `${d.partition}@${d.offset}`)).size === 2 * PARTITIONS * PER_PARTITION
        && topic.partitions.every((log, p) => sim.shares.deliveryState(GROUP, topic.topicId, p)?.startOffset === log.highWatermark) ? true : undefined, 120000);
    const all = seen();
    assert.equal(all.length, 2 * PARTITIONS * PER_PARTITION, 'no record delivered twice');
    assert.deepEqual([...new Set(all.map((d) => d.deliveryCount))], [1]);
    const described = sim.coordinator.shareGroup(GROUP);

    // kafka-share-groups.sh --describe (offsets) and --members against the server equal our tree, row for row.
    const detail = describeSimGroup(sim, GROUP);
    const offsets = toolTables(await runToolAsync(env, TOOLS.shareGroups, ['--describe', '--group', GROUP]));
    const dash = (value: number | null): string => (value === null ? '-' : String(value));
    // Kafka 4.1's tool has no LAG column (DescribeShareGroupOffsets v1, with the lag, is 4.2's).
    const withLag = offsets.some((row) => row.LAG !== undefined);
    assert.deepEqual(offsets.map((row) => [row.TOPIC, row.PARTITION, row['START-OFFSET'], ...(withLag ? [row.LAG] : [])]), detail.offsets.map((o) => [o.topic, String(o.partition), dash(o.committedOffset), ...(withLag ? [dash(o.lag)] : [])]));
    assert.equal(offsets.length, PARTITIONS);
    const members = toolTables(await runToolAsync(env, TOOLS.shareGroups, ['--describe', '--group', GROUP, '--members', '--verbose']));
    assert.deepEqual(members.map((row) => [row['CONSUMER-ID'], row['CLIENT-ID'], row['MEMBER-EPOCH']]).sort(), detail.members.map((m) => [m.memberId, m.clientId, String(described?.members.get(m.memberId)?.memberEpoch)]).sort());

    await Promise.all(clients.splice(0).map((client) => client.stop()));
    await waitFor('both members gone and their share sessions closed', async () =>
      sim.coordinator.shareGroup(GROUP)?.members.size === 0 && sim.shares.sessionCount === 0 ? true : undefined, 60000);

    // kafka-share-groups.sh --reset-offsets on the empty group: the start offsets go back, and a new member is
    // given every record again, each on a first delivery of the new state.
    const reset = await runToolAsync(env, TOOLS.shareGroups, ['--reset-offsets', '--group', GROUP, '--topic', TOPIC, '--to-earliest', '--execute']);
    if (/not yet implemented/.test(reset)) {
      // Kafka 4.1's kafka-share-groups.sh has neither --reset-offsets nor --delete-offsets (4.2 added them).
      console.log(`      (kafka-share-groups.sh ${KAFKA_VERSION} cannot reset or delete share offsets: ${reset.trim().split('\n').pop() ?? ''})`);
      return;
    }
    assert.deepEqual(toolTables(reset).map((row) => [row.PARTITION, row['NEW-OFFSET']]).sort(), [...Array(PARTITIONS).keys()].map((p) => [String(p), '0']), `the tool printed: ${reset}`);
    assert.deepEqual(describeSimGroup(sim, GROUP).offsets.map((o) => [o.committedOffset, o.lag]), Array(PARTITIONS).fill([0, 2 * PER_PARTITION]));
    const again = new JavaClient(env, 'ShareMember', [env.bootstrap, GROUP, TOPIC, '-', 'records']);
    clients.push(again);
    await waitFor('every record delivered again after the reset', async () => (deliveries('again', again.log).length === 2 * PARTITIONS * PER_PARTITION ? true : undefined), 120000);
    assert.deepEqual([...new Set(deliveries('again', again.log).map((d) => d.deliveryCount))], [1]);
    await again.stop();
    await waitFor('the member gone', async () => (sim.coordinator.shareGroup(GROUP)?.members.size === 0 ? true : undefined), 60000);

    // --delete-offsets: the topic's share state goes; the tool says so, and the group has no rows left.
    const deleted = await runToolAsync(env, TOOLS.shareGroups, ['--delete-offsets', '--group', GROUP, '--topic', TOPIC]);
    assert.match(deleted, new RegExp(`${TOPIC}\\s+Successful`), deleted);
    assert.deepEqual(describeSimGroup(sim, GROUP).offsets, []);
    assert.equal(sim.shareStates.partitionsOf(GROUP).length, 0);
  });

  // Kafka 4.1 brokers run share groups only as a preview, off unless configured: the broker side needs 4.2+.
  (KAFKA_VERSION.startsWith('4.1.') ? skipOnThisVersion : it)('runs one script on a real broker and on the simulator\'s server alike: every record once on its first delivery, and the same describe', async () => {
    // The same script on both: the topic's records written first, a member setting share.auto.offset.reset to
    // earliest, a second member, both consuming until kafka-share-groups.sh shows no lag on any partition.
    const script = async (env: BrokerEnv, group: string, topic: string) => {
      const members = [new JavaClient(env, 'ShareMember', [env.bootstrap, group, topic, 'earliest', 'records'])];
      clients.push(...members);
      await members[0].waitForOutput(/SUBSCRIBED/);
      members.push(new JavaClient(env, 'ShareMember', [env.bootstrap, group, topic, '-', 'records']));
      clients.push(members[1]);
      const seenHere = (): Delivery[] => members.flatMap((member, i) => deliveries(`m${i}`, member.log.replaceAll(`RECORD ${topic} `, `RECORD ${TOPIC} `)));
      const offsets = await waitFor(`${env.bootstrap}: every record delivered and acknowledged`, async () => {
        if (new Set(seenHere().map((d) => `${d.partition}@${d.offset}`)).size !== PARTITIONS * PER_PARTITION) {
          return undefined;
        }
        const rows = toolTables(await runToolAsync(env, TOOLS.shareGroups, ['--describe', '--group', group]));
        return rows.length === PARTITIONS && rows.every((row) => row.LAG === undefined || row.LAG === '0') ? rows : undefined;
      }, 120000);
      // The first member may have taken every record before the second joined: wait (bounded) for both.
      const state = await waitFor(`${env.bootstrap}: both members in the group`, async () => {
        const [row] = toolTables(await runToolAsync(env, TOOLS.shareGroups, ['--describe', '--group', group, '--state']));
        return row?.['#MEMBERS'] === '2' && row.STATE === 'Stable' ? row : undefined;
      }, 60000);
      await Promise.all(members.map((member) => member.stop()));
      const seen = seenHere();
      return {
        deliveries: seen.length,
        deliveryCounts: [...new Set(seen.map((d) => d.deliveryCount))],
        offsets: offsets.map((row) => [row.PARTITION, row.LAG ?? '(no lag column)']).sort(),
        state: [state.STATE, state['#MEMBERS']],
        // Logged, not compared: where each start offset stands depends on how many fetches acknowledged it.
        startOffsets: offsets.map((row) => `${row.PARTITION}:${row['START-OFFSET']}`).sort().join(' '),
      };
    };
    const suffix = Date.now().toString(36);
    await createTopics([{ topic: `share-parity-${suffix}`, numPartitions: PARTITIONS }]);
    await produceToEveryPartition(`share-parity-${suffix}`, PARTITIONS, PER_PARTITION);
    const onBroker = await script(brokers, `share-parity-${suffix}`, `share-parity-${suffix}`);

    const topic = sim.cluster.createTopic(`share-parity-${suffix}`, PARTITIONS);
    topic.partitions.forEach((log) => log.append(PER_PARTITION, sim.now));
    const onSimulator = await script({ ...brokers, bootstrap: server.bootstrapServers.join(',') }, `share-parity-${suffix}`, `share-parity-${suffix}`);
    console.log(`      broker: ${JSON.stringify(onBroker)}\n      simulator: ${JSON.stringify(onSimulator)}`);
    assert.deepEqual({ ...onSimulator, startOffsets: undefined }, { ...onBroker, startOffsets: undefined });
    assert.deepEqual(onBroker.deliveryCounts, [1]);
  });
});
