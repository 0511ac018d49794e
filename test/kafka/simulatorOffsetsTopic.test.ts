/**
 * KafkaSource, the real-cluster client, pointed at the simulator's Kafka server: it reads
 * `__consumer_offsets` over real sockets (Metadata, ListOffsets, Fetch of record batches) and builds
 * each group's timeline from the records the simulated coordinator wrote, which must be the engine's
 * own (offsetsTopicTimeline.ts says what both can say and so what is compared). No broker is used.
 */
import { strict as assert } from 'node:assert';
import { KafkaSource } from '../../src/kafka/kafkaSource';
import { SimKafkaServer } from '../../src/simulator/server/kafkaServer';
import { Simulation } from '../../src/simulator/simulation';
import { classicRun, consumerGroupRun, coordinatorEvents, settledGenerations, TIMELINE_TOPIC, withoutCauses } from '../unit/simulator/offsetsTopicTimeline';
import { MemoryLogger, waitFor } from './support';

const CLASSIC_TOPIC = TIMELINE_TOPIC;
const KIP848_TOPIC = 'payments';

describe('KafkaSource reads the simulator server\'s __consumer_offsets', function () {
  this.timeout(120000);
  const logger = new MemoryLogger();
  const serverLog: string[] = [];
  let sim: Simulation;
  let server: SimKafkaServer;
  let source: KafkaSource;
  let stopWatching: () => void = () => undefined;

  before(async () => {
    // The history is written in virtual time before the server starts, then read from the log start.
    sim = new Simulation({ seed: 11, startTime: Date.now() - 3_600_000, cluster: { brokers: 3 } });
    sim.createTopic(CLASSIC_TOPIC, 6);
    sim.createTopic(KIP848_TOPIC, 4);
    classicRun(sim, 'range', 'eager');
    classicRun(sim, 'cooperative-sticky', 'cooperative');
    consumerGroupRun(sim, 'kip848');
    server = new SimKafkaServer(sim, { log: (line) => serverLog.push(line) });
    await server.start();
    // Small fetches (512 bytes a partition) make the replay go batch by batch.
    source = new KafkaSource(
      { id: 'sim', name: 'sim', bootstrapServers: server.bootstrapServers },
      {},
      { logger, offsetsTopicFetchLimits: { maxBytesPerPartition: 512 } },
    );
    stopWatching = source.watchAllRebalances((reason) => assert.fail(`__consumer_offsets unreadable: ${reason}`));
  });

  after(async () => {
    stopWatching();
    await source?.dispose();
    await server?.close();
    sim?.dispose();
  });

  /** Waits until the source's derived value equals the engine's, and says both when it does not. */
  async function sameAs<T>(what: string, engine: () => T, read: () => T): Promise<void> {
    await waitFor(what, async () => {
      assert.deepEqual(read(), engine());
      return true;
    }, 45000).catch((error: unknown) => {
      throw new Error(`${String(error)}\nengine: ${JSON.stringify(engine())}\nread: ${JSON.stringify(read())}\nserver: ${serverLog.join('\n')}\nsource: ${logger.lines.filter((l) => !l.startsWith('debug')).join('\n')}`);
    });
  }

  for (const groupId of ['eager', 'cooperative']) {
    it(`replays the classic ${groupId} group's history: the engine's settled generations`, async () => {
      const expected = settledGenerations(coordinatorEvents(sim, groupId));
      assert.ok(expected.length >= 5, JSON.stringify(expected));
      await sameAs(`${groupId}'s generations`, () => settledGenerations(coordinatorEvents(sim, groupId)), () => settledGenerations(source.rebalanceEvents(groupId)));
    });
  }

  it('replays the KIP-848 group\'s history: the engine\'s events', async () => {
    assert.ok(sim.events.forGroup('kip848').length > 10);
    await sameAs('kip848\'s events', () => withoutCauses(sim.events.forGroup('kip848')), () => withoutCauses(source.rebalanceEvents('kip848')));
  });

  it('follows a live classic group as it rebalances, generation by generation', async () => {
    const groupId = 'live';
    const spec = { groupId, topics: [CLASSIC_TOPIC], assignors: ['cooperative-sticky' as const], sessionTimeoutMs: 6000, heartbeatIntervalMs: 1000 };
    sim.addConsumer({ ...spec, clientId: 'x' }, 'live-x');
    await waitFor('a first stable generation', async () => (sim.coordinator.group(groupId)?.state === 'Stable' ? true : undefined), 20000);
    sim.addConsumer({ ...spec, clientId: 'y' }, 'live-y');
    await waitFor('the second member in a stable generation', async () => {
      const group = sim.coordinator.group(groupId);
      return group?.state === 'Stable' && group.members.size === 2 ? true : undefined;
    }, 20000);
    // y leaves after the instant the generation settled: a leave in the same virtual millisecond is part of that
    // instant for the engine's events, while the records hold the generation as synced (seen once on a loaded machine).
    const settledAt = sim.now;
    await waitFor('the virtual clock to move past the settled generation', async () => (sim.now > settledAt ? true : undefined), 20000);
    sim.stopConsumer('live-y');
    await waitFor('a stable generation without y', async () => {
      const group = sim.coordinator.group(groupId);
      return group?.state === 'Stable' && group.members.size === 1 ? true : undefined;
    }, 20000);
    await sameAs('live generations', () => settledGenerations(coordinatorEvents(sim, groupId)), () => settledGenerations(source.rebalanceEvents(groupId)));
    assert.ok(settledGenerations(source.rebalanceEvents(groupId)).length >= 3);
    assert.deepEqual(logger.lines.filter((l) => l.startsWith('warn') || l.startsWith('error')), []);
  });
});
