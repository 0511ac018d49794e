/**
 * The share-group timeline against a real broker (Kafka 4.2+, where share groups are on by default):
 * two KafkaShareConsumers (test/kafka/java/ShareMember.java) join, a third joins, one leaves.
 * KafkaSource reads the group's ShareGroup* records from __consumer_offsets; the joins, the leave and
 * each survivor's epoch and partitions in the timeline must match what ShareGroupDescribe says of the
 * members at each step. Then the same for a Kafka Streams application (test/kafka/java/StreamsApp.java,
 * group.protocol=streams) of two instances, one of which leaves: its StreamsGroup* records give the
 * members with their process ids and each member's active tasks (as partitions of `subtopology <id>`).
 */
import { strict as assert } from 'node:assert';
import { KafkaSource } from '../../src/kafka/kafkaSource';
import type { GroupDetail, RebalanceEvent } from '../../src/model/types';
import { errorMessage } from '../../src/protocol/errors';
import { JavaClient, KAFKA_VERSION, runToolAsync } from './groupTypesSupport';
import { MemoryLogger, brokerEnv, createTopics, testKafka, waitFor as waitUntil } from './support';

const RUN = `r${Date.now().toString(36)}`;
const TOPIC = `share-timeline-${RUN}`;
const GROUP = `share-timeline-${RUN}`;
const PARTITIONS = 4;
const [MAJOR, MINOR] = KAFKA_VERSION.split('.').map(Number);
const SHARE_BY_DEFAULT = MAJOR > 4 || (MAJOR === 4 && MINOR >= 2);

/** What the timeline says a member owns after its last step: its steps' assigned minus revoked partitions. */
function ownedPartitions(events: readonly RebalanceEvent[], memberId: string): string[] {
  const partitions = new Set<string>();
  for (const event of events.filter((e) => e.kind === 'assignment-changed' && e.memberId === memberId)) {
    for (const change of event.assignments ?? []) {
      change.revoked.forEach((tp) => partitions.delete(`${tp.topic}:${tp.partition}`));
      change.assigned.forEach((tp) => partitions.add(`${tp.topic}:${tp.partition}`));
    }
  }
  return [...partitions].sort();
}

function owned(events: readonly RebalanceEvent[], memberId: string): number[] {
  return ownedPartitions(events, memberId).map((tp) => Number(tp.split(':').at(-1))).sort((a, b) => a - b);
}

const lastStep = (events: readonly RebalanceEvent[], memberId: string): RebalanceEvent | undefined =>
  events.filter((e) => e.kind === 'assignment-changed' && e.memberId === memberId).at(-1);

/** run-tests.js forbids pending tests: where the broker has no share groups by default, say so instead. */
function notOnThisVersion(title: string, _body: unknown): void {
  console.log(`      (not on Kafka ${KAFKA_VERSION}: ${title})`);
}

/** Watches GROUP's timeline, waits (bounded) for states of it, and on a timeout says where the clients and the timeline were. */
function timelineWaiter(source: KafkaSource, group: string, clients: readonly JavaClient[], logger: MemoryLogger) {
  return async <T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 60000): Promise<T> => {
    try {
      return await waitUntil(what, read, timeoutMs);
    } catch (error) {
      const timeline = source.rebalanceEvents(group).map((e) => `${e.time} ${e.kind} ${e.memberId ?? ''} ${e.generation} ${JSON.stringify(e.reconciliation ?? '')}`);
      throw new Error(`${errorMessage(error)}\n${clients.map((c) => c.log.slice(-2000)).join('\n---\n')}\n--- timeline:\n${timeline.join('\n')}\n--- log:\n${logger.lines.join('\n')}`);
    }
  };
}

(SHARE_BY_DEFAULT ? describe : notOnThisVersion)(`share-group timeline from __consumer_offsets on Kafka ${KAFKA_VERSION}`, function (this: Mocha.Suite) {
  this.timeout(180000);
  const env = brokerEnv();
  const logger = new MemoryLogger();
  let source: KafkaSource;
  const clients: JavaClient[] = [];

  before(async () => {
    await createTopics([{ topic: TOPIC, numPartitions: PARTITIONS }]);
    source = new KafkaSource({ id: 'share-timeline', name: 'share-timeline', bootstrapServers: [env.bootstrap] }, {}, { logger });
  });

  after(async () => {
    await Promise.all(clients.map((c) => c.stop()));
    await source?.dispose();
  });

  it('shows the joins, the leave and each member\'s epoch steps as the coordinator describes them, none inferred', async () => {
    const stop = source.watchRebalances(GROUP, (reason) => assert.fail(`__consumer_offsets unreadable: ${reason}`));
    const member = (autoOffsetReset: string): JavaClient => {
      const client = new JavaClient(env, 'ShareMember', [env.bootstrap, GROUP, TOPIC, autoOffsetReset]);
      clients.push(client);
      return client;
    };
    const waitFor = timelineWaiter(source, GROUP, clients, logger);
    /** The group once it has `count` members, each at the assignment epoch with partitions. */
    const settled = (count: number): Promise<GroupDetail> => waitFor(`${count} settled share members`, async () => {
      const g = await source.describeGroup(GROUP);
      const epoch = g.shareGroup?.assignmentEpoch;
      return g.members.length === count && g.members.every((m) => m.assignment.length > 0 && m.memberEpoch === epoch) ? g : undefined;
    });
    try {
      member('earliest');
      const first = await settled(1);
      member('-');
      const two = await settled(2);
      const joinOrder = [first.members[0].memberId, ...two.members.map((m) => m.memberId).filter((id) => id !== first.members[0].memberId)];
      member('-');
      const three = await settled(3);
      joinOrder.push(...three.members.map((m) => m.memberId).filter((id) => !joinOrder.includes(id)));
      const leaving = joinOrder[1];
      const leaver = clients[1];
      await leaver.stop();
      const survivors = await settled(2);
      assert.ok(!survivors.members.some((m) => m.memberId === leaving), 'the stopped member left');

      // Caught up when each survivor's last step is at its described epoch with its described partitions.
      const events = await waitFor('the timeline of the whole membership change', async () => {
        const found = source.rebalanceEvents(GROUP);
        return survivors.members.every((m) => lastStep(found, m.memberId)?.reconciliation?.memberEpoch === m.memberEpoch
          && owned(found, m.memberId).join() === m.assignment.map((tp) => tp.partition).sort((a, b) => a - b).join())
          && found.some((e) => e.kind === 'member-left') ? found : undefined;
      });
      assert.deepEqual(events.filter((e) => e.kind === 'member-joined').map((e) => e.memberId), joinOrder);
      assert.deepEqual(events.filter((e) => e.kind === 'member-left').map((e) => e.memberId), [leaving]);
      assert.ok(events.every((e) => e.inferred === undefined), 'events from records are not inferred');
      // Four membership changes, four group-epoch bumps, each to the epoch the group reached.
      const bumps = events.filter((e) => e.kind === 'rebalance-started').map((e) => e.generation);
      assert.equal(bumps.at(-1), survivors.shareGroup?.groupEpoch);
      assert.ok(bumps.length >= 4 && bumps.every((epoch, i) => i === 0 || epoch > bumps[i - 1]), `epochs ${bumps.join()}`);
      // Each target assignment names the epoch each member then stepped to; no share member waits to revoke.
      for (const m of [...two.members, ...three.members]) {
        assert.ok(events.some((e) => e.kind === 'assignment-changed' && e.memberId === m.memberId && e.reconciliation?.memberEpoch === m.memberEpoch), `${m.memberId} stepped to ${m.memberEpoch}`);
      }
      assert.ok(events.every((e) => (e.reconciliation?.pendingRevocation.length ?? 0) === 0));
      assert.deepEqual(events.filter((e) => e.kind === 'state-changed').map((e) => e.stateAfter), ['Stable']);
      assert.deepEqual(logger.lines.filter((l) => l.startsWith('warn') && !/coordinator is loading|not available|NOT_LEADER_OR_FOLLOWER/.test(l)), []);
    } finally {
      stop();
    }
  });
});

(SHARE_BY_DEFAULT ? describe : notOnThisVersion)(`streams-group timeline from __consumer_offsets on Kafka ${KAFKA_VERSION}`, function (this: Mocha.Suite) {
  this.timeout(240000);
  const env = brokerEnv();
  const logger = new MemoryLogger();
  const APP = `streams-timeline-${RUN}`;
  const INPUT = `streams-timeline-in-${RUN}`;
  let source: KafkaSource;
  const clients: JavaClient[] = [];

  before(async () => {
    await createTopics([{ topic: INPUT, numPartitions: 2 }, { topic: `streams-timeline-out-${RUN}`, numPartitions: 2 }]);
    const producer = testKafka('streams-timeline-input').producer();
    await producer.connect();
    try {
      await producer.send({ topic: INPUT, messages: [0, 1].map((partition) => ({ partition, key: 'k', value: 'v' })) });
    } finally {
      await producer.disconnect();
    }
    source = new KafkaSource({ id: 'streams-timeline', name: 'streams-timeline', bootstrapServers: [env.bootstrap] }, {}, { logger });
  });

  after(async () => {
    await Promise.all(clients.map((c) => c.stop()));
    await source?.dispose();
  });

  it('shows two instances joining (with their process ids), one leaving, and each member\'s active tasks, none inferred', async () => {
    const stop = source.watchRebalances(APP, (reason) => assert.fail(`__consumer_offsets unreadable: ${reason}`));
    const instance = (): JavaClient => {
      const client = new JavaClient(env, 'StreamsApp', [env.bootstrap, APP, INPUT, `streams-timeline-out-${RUN}`, '1'], { streams: true });
      clients.push(client);
      return client;
    };
    const waitFor = timelineWaiter(source, APP, clients, logger);
    const settled = (count: number) => waitFor(`${count} settled streams members`, async () => {
      const g = (await source.describeGroup(APP)).streamsGroup;
      // Out of Assigning (the target is at the group epoch) and every member at the target.
      return g?.members.length === count && g.groupEpoch === g.assignmentEpoch && g.members.every((m) => m.memberEpoch === g.assignmentEpoch) ? g : undefined;
    }, 120000);
    const activeTasks = (m: { assignment: { active: Array<{ subtopologyId: string; partitions: number[] }> } }): string[] =>
      m.assignment.active.flatMap((t) => t.partitions.map((p) => `subtopology ${t.subtopologyId}:${p}`)).sort();
    try {
      // One standby per stateful task (the group config Kafka 4.2+ reads per group): the records then carry standby tasks.
      await runToolAsync(env, 'org.apache.kafka.tools.ConfigCommand', ['--entity-type', 'groups', '--entity-name', APP, '--alter', '--add-config', 'streams.num.standby.replicas=1']);
      instance();
      const one = await settled(1);
      instance();
      const two = await settled(2);
      const first = one.members[0];
      const second = two.members.find((m) => m.memberId !== first.memberId);
      assert.ok(second !== undefined);
      await clients[1].stop();
      const last = await settled(1);
      assert.equal(last.members[0].memberId, first.memberId);

      const events = await waitFor('the timeline of the two instances', async () => {
        const found = source.rebalanceEvents(APP);
        const step = lastStep(found, first.memberId);
        return step?.reconciliation?.memberEpoch === last.members[0].memberEpoch && ownedPartitions(found, first.memberId).join() === activeTasks(last.members[0]).join()
          && found.some((e) => e.kind === 'member-left') && found.filter((e) => e.kind === 'state-changed').at(-1)?.stateAfter === 'Stable' ? found : undefined;
      });
      assert.deepEqual(events.filter((e) => e.kind === 'member-joined').map((e) => e.memberId), [first.memberId, second.memberId]);
      for (const [member, joined] of [[first, events.find((e) => e.kind === 'member-joined')], [second, events.filter((e) => e.kind === 'member-joined')[1]]] as const) {
        assert.ok(joined?.clientId?.includes(member.processId), `${joined?.clientId} names process ${member.processId}`);
      }
      assert.deepEqual(events.filter((e) => e.kind === 'member-left').map((e) => e.memberId), [second.memberId]);
      assert.ok(events.every((e) => e.inferred === undefined), 'events from records are not inferred');
      assert.equal(events.filter((e) => e.kind === 'rebalance-started').at(-1)?.generation, last.groupEpoch);
      // While both ran, the second member held the active tasks the coordinator described for it.
      assert.ok(events.some((e) => e.kind === 'assignment-changed' && e.memberId === second.memberId && e.reconciliation?.memberEpoch === second.memberEpoch));
      // And each stood by for the other's counting task, as the timeline's steps show it.
      for (const member of two.members) {
        const standby = member.assignment.standby.flatMap((t) => t.partitions.map((p) => `subtopology ${t.subtopologyId}-${p}`)).sort();
        assert.equal(standby.length, 1, `${member.memberId} has one standby task`);
        const step = events.filter((e) => e.kind === 'assignment-changed' && e.memberId === member.memberId && e.reconciliation?.memberEpoch === member.memberEpoch).at(-1);
        assert.deepEqual(step?.reconciliation?.standbyTasks?.map((tp) => `${tp.topic}-${tp.partition}`), standby, member.memberId);
        assert.deepEqual(step?.reconciliation?.warmupTasks, []);
      }
      assert.deepEqual(events.filter((e) => e.kind === 'state-changed').at(-1)?.stateAfter, 'Stable');
    } finally {
      stop();
    }
  });
});
