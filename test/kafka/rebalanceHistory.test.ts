/**
 * The `__consumer_offsets` observer against a real broker: kafkajs consumers join and leave a
 * group, and KafkaSource, reading the group-metadata records without joining any group, reports
 * one event set per generation with the right members and assignments.
 */
import { strict as assert } from 'node:assert';
import type { Consumer } from 'kafkajs';
import { KafkaSource } from '../../src/kafka/kafkaSource';
import type { RebalanceEvent } from '../../src/model/types';
import { JavaMember, MemoryLogger, brokerEnv, createTopics, startKafkajsMember, waitFor } from './support';

const RUN = `r${Date.now().toString(36)}`;
const TOPIC = `history-${RUN}`;
const GROUP = `history-${RUN}`;
const GROUP_KIP848 = `history-848-${RUN}`;
const PARTITIONS = 4;

interface Generation {
  generation: number;
  state: string | undefined;
  /** Member id → its partitions (sorted), after the generation's events. */
  members: Map<string, number[]>;
  kinds: string[];
}

/** Replays the events in order: the membership and assignment each generation ended with. */
function generations(events: readonly RebalanceEvent[]): Generation[] {
  const members = new Map<string, Set<number>>();
  const byGeneration = new Map<number, Generation>();
  for (const event of events) {
    if (event.kind === 'member-joined' && event.memberId) {
      members.set(event.memberId, new Set());
    }
    if (event.kind === 'member-left' && event.memberId) {
      members.delete(event.memberId);
    }
    for (const change of event.assignments ?? []) {
      const owned = members.get(change.memberId);
      change.revoked.forEach((tp) => owned?.delete(tp.partition));
      change.assigned.forEach((tp) => owned?.add(tp.partition));
    }
    const generation: Generation = byGeneration.get(event.generation) ?? { generation: event.generation, state: undefined, members: new Map(), kinds: [] };
    generation.kinds.push(event.kind);
    generation.state = event.stateAfter ?? generation.state;
    generation.members = new Map([...members].map(([id, ps]) => [id, [...ps].sort((a, b) => a - b)]));
    byGeneration.set(event.generation, generation);
  }
  return [...byGeneration.values()];
}

describe('rebalance history from __consumer_offsets on a real broker', function () {
  this.timeout(120000);
  const env = brokerEnv();
  const logger = new MemoryLogger();
  const consumers: Consumer[] = [];
  let source: KafkaSource;
  let changes = 0;
  let stopWatching: () => void = () => undefined;

  const generationWhere = (what: string, test: (g: Generation) => boolean): Promise<Generation> =>
    waitFor(what, async () => generations(source.rebalanceEvents(GROUP)).find(test), 45000);

  before(async () => {
    await createTopics([{ topic: TOPIC, numPartitions: PARTITIONS }]);
    source = new KafkaSource({ id: 'history', name: 'history', bootstrapServers: [env.bootstrap] }, {}, { logger });
    source.onDidChange(() => changes++);
    stopWatching = source.watchRebalances(GROUP, (reason) => assert.fail(`__consumer_offsets unreadable: ${reason}`));
  });

  after(async () => {
    stopWatching();
    await Promise.all(consumers.map((c) => c.disconnect()));
    await source?.dispose();
  });

  it('reports one event set per generation as consumers join and leave', async () => {
    consumers.push(await startKafkajsMember(GROUP, [TOPIC], 1));
    const first = await generationWhere('generation with consumer A', (g) => g.state === 'Stable' && g.members.size === 1);
    const [a] = [...first.members.keys()];
    assert.deepEqual(first.members.get(a), [0, 1, 2, 3]);
    assert.deepEqual(first.kinds, ['member-joined', 'assignment-changed', 'state-changed']);

    consumers.push(await startKafkajsMember(GROUP, [TOPIC], 1));
    const second = await generationWhere('generation with A and B', (g) => g.members.size === 2);
    assert.equal(second.generation, first.generation + 1);
    assert.ok(second.members.has(a), 'A stays a member');
    const [b] = [...second.members.keys()].filter((id) => id !== a);
    assert.deepEqual(second.members.get(a)?.length, 2);
    assert.deepEqual(second.members.get(b)?.length, 2);
    assert.deepEqual([...(second.members.get(a) ?? []), ...(second.members.get(b) ?? [])].sort(), [0, 1, 2, 3]);
    assert.deepEqual(second.kinds, ['member-joined', 'assignment-changed', 'state-changed']);

    // The members the observer names are the ones the coordinator describes (classic DescribeGroups reports no generation).
    const described = await source.describeGroup(GROUP);
    assert.deepEqual(described.members.map((m) => m.memberId).sort(), [a, b].sort());

    await consumers.pop()?.disconnect();
    const third = await generationWhere('generation after B left', (g) => g.generation > second.generation);
    assert.equal(third.generation, second.generation + 1);
    assert.deepEqual([...third.members.keys()], [a]);
    assert.deepEqual(third.members.get(a), [0, 1, 2, 3]);
    assert.deepEqual(third.kinds, ['member-left', 'assignment-changed', 'state-changed']);

    await consumers.pop()?.disconnect();
    const empty = await generationWhere('empty generation after A left', (g) => g.generation > third.generation);
    assert.equal(empty.state, 'Empty');
    assert.equal(empty.members.size, 0);

    const events = source.rebalanceEvents(GROUP);
    assert.ok(events.every((e) => e.groupId === GROUP && e.inferred === undefined));
    assert.ok(events.every((e, i) => i === 0 || e.time >= events[i - 1].time), 'events are in time order');
    assert.ok(changes >= 4, `onDidChange fired ${changes} times`);
    // kafkajs logs a coordinator still loading on a fresh broker as an error, then retries: not a failure.
    const retried = /The group coordinator is not available|The coordinator is loading/;
    assert.deepEqual(logger.lines.filter((l) => (l.startsWith('warn') || l.startsWith('error')) && !retried.test(l)), []);
  });

  it('reads a KIP-848 group\'s history from its consumer-group records (consumerTimeline.test.ts checks it in depth)', async () => {
    const member = new JavaMember(env, { groupId: GROUP_KIP848, topics: [TOPIC], protocol: 'consumer' });
    const stop = source.watchRebalances(GROUP_KIP848, (reason) => assert.fail(`__consumer_offsets unreadable: ${reason}`));
    try {
      await member.waitForAssignment();
      const step = await waitFor('the member\'s first epoch step', async () =>
        source.rebalanceEvents(GROUP_KIP848).find((e) => e.kind === 'assignment-changed' && e.reconciliation?.state === 'stable'), 45000).catch((error: unknown) => {
        throw new Error(`${String(error)}; events: ${JSON.stringify(source.rebalanceEvents(GROUP_KIP848))}; log: ${logger.lines.join('\n')}; member: ${member.log}`);
      });
      assert.equal(step.assignments?.[0].assigned.length, PARTITIONS);
      assert.equal(step.assignments?.[0].assigned[0].topic, TOPIC);
    } finally {
      stop();
      await member.stop();
    }
  });

  // Small fetches (512 bytes a partition) make the replay go batch by batch.
  it('replays the same history from the log start for a source that watches every group', async () => {
    const expected = generations(source.rebalanceEvents(GROUP));
    const replayLogger = new MemoryLogger();
    const fresh = new KafkaSource(
      { id: 'replay', name: 'replay', bootstrapServers: [env.bootstrap] },
      {},
      { logger: replayLogger, offsetsTopicFetchLimits: { maxBytesPerPartition: 512 } },
    );
    try {
      const stop = fresh.watchAllRebalances((reason) => assert.fail(reason));
      const replayed = await waitFor('the replayed history', async () => {
        const found = generations(fresh.rebalanceEvents(GROUP));
        return found.length === expected.length ? found : undefined;
      });
      stop();
      assert.deepEqual(replayed, expected);
      // Every record of every partition decoded, whatever group wrote it (other test files' Java, KIP-848 and kafkajs groups too).
      assert.deepEqual(replayLogger.lines.filter((l) => l.startsWith('warn') || l.startsWith('error')), []);
    } finally {
      await fresh.dispose();
    }
  });
});
