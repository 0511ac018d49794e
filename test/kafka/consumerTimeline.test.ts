/**
 * The KIP-848 consumer-group timeline against a real broker: Java consumers with group.protocol=consumer
 * (test/kafka/java/TimelineMember.java) join, the first one slow to revoke (it blocks 3 s in
 * onPartitionsRevoked), a third joins, the second leaves. KafkaSource reads the group's ConsumerGroup*
 * records from __consumer_offsets; each member's epochs, partitions and reconciliation times in the
 * timeline must match what the clients logged. Leaves the timeline's events and a screenshot of it in
 * test/artifacts/ (consumer-timeline-kafka-<version>.json/.png).
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KafkaSource } from '../../src/kafka/kafkaSource';
import type { RebalanceEvent } from '../../src/model/types';
import { JavaClient, KAFKA_VERSION } from './groupTypesSupport';
import { errorMessage } from '../../src/protocol/errors';
import { MemoryLogger, brokerEnv, createTopics, waitFor as waitUntil } from './support';

const RUN = `r${Date.now().toString(36)}`;
const TOPIC = `timeline-${RUN}`;
const GROUP = `timeline-848-${RUN}`;
const PARTITIONS = 6;
const REVOKE_DELAY_MS = 3000;
const ARTIFACTS = join(__dirname, '..', 'artifacts');

interface ClientLine {
  kind: 'REVOKING' | 'REVOKED' | 'ASSIGNED' | 'EPOCH';
  time: number;
  memberId?: string;
  epoch?: number;
  partitions: number[];
}

/** The client's log lines, parsed. */
function clientLines(log: string): ClientLine[] {
  return [...log.matchAll(/^(REVOKING|REVOKED|ASSIGNED) (\d+) \[([\d,]*)\]$|^EPOCH (\d+) (\S+) (-?\d+) \[([\d,]*)\]$/gm)].map((m) => {
    const numbers = (text: string): number[] => text.split(',').filter(Boolean).map(Number);
    return m[1] !== undefined
      ? { kind: m[1] as ClientLine['kind'], time: Number(m[2]), partitions: numbers(m[3]) }
      : { kind: 'EPOCH', time: Number(m[4]), memberId: m[5], epoch: Number(m[6]), partitions: numbers(m[7]) };
  });
}

function lastEpoch(log: string): ClientLine {
  const epochs = clientLines(log).filter((l) => l.kind === 'EPOCH' && (l.epoch ?? 0) > 0);
  assert.ok(epochs.length > 0, `no epoch logged:\n${log}`);
  return epochs[epochs.length - 1];
}

/** What the timeline says a member owns after its last step: its steps' assigned minus revoked partitions. */
function owned(events: readonly RebalanceEvent[], memberId: string): number[] {
  const partitions = new Set<number>();
  for (const event of events) {
    if (event.kind === 'assignment-changed' && event.memberId === memberId) {
      for (const change of event.assignments ?? []) {
        change.revoked.forEach((tp) => partitions.delete(tp.partition));
        change.assigned.forEach((tp) => partitions.add(tp.partition));
      }
    }
  }
  return [...partitions].sort((a, b) => a - b);
}

function steps(events: readonly RebalanceEvent[], memberId: string): RebalanceEvent[] {
  return events.filter((e) => e.kind === 'assignment-changed' && e.memberId === memberId);
}

describe(`KIP-848 consumer-group timeline from __consumer_offsets on Kafka ${KAFKA_VERSION}`, function () {
  this.timeout(180000);
  const env = brokerEnv();
  const logger = new MemoryLogger();
  let source: KafkaSource;
  const clients: JavaClient[] = [];

  before(async () => {
    await createTopics([{ topic: TOPIC, numPartitions: PARTITIONS }]);
    source = new KafkaSource({ id: 'timeline', name: 'timeline', bootstrapServers: [env.bootstrap] }, {}, { logger });
  });

  after(async () => {
    await Promise.all(clients.map((c) => c.stop()));
    await source?.dispose();
  });

  it('gives each member\'s epochs, partitions and reconciliation times as the clients logged them', async () => {
    const stop = source.watchRebalances(GROUP, (reason) => assert.fail(`__consumer_offsets unreadable: ${reason}`));
    const member = (revokeDelayMs: number, clientId: string): JavaClient => {
      const client = new JavaClient(env, 'TimelineMember', [env.bootstrap, GROUP, TOPIC, String(revokeDelayMs), clientId]);
      clients.push(client);
      return client;
    };
    // A wait that times out says what the clients and the timeline had got to.
    const waitFor = async <T>(what: string, read: () => Promise<T | undefined>, timeoutMs: number): Promise<T> => {
      try {
        return await waitUntil(what, read, timeoutMs);
      } catch (error) {
        const timeline = source.rebalanceEvents(GROUP).map((e) => `${e.time} ${e.kind} ${e.memberId ?? ''} ${JSON.stringify(e.reconciliation ?? '')}`);
        throw new Error(`${errorMessage(error)}\n${clients.map((c) => c.log.slice(-3000)).join('\n---\n')}\n--- timeline:\n${timeline.join('\n')}\n--- log:\n${logger.lines.join('\n')}`);
      }
    };
    try {
      const slow = member(REVOKE_DELAY_MS, 'slow-revoker');
      await slow.waitForOutput(new RegExp(`^EPOCH \\d+ \\S+ \\d+ \\[0,1,2,3,4,5\\]$`, 'm'));
      const second = member(0, 'second');
      await second.waitForOutput(/^ASSIGNED \d+ \[[\d,]+\]$/m);
      await slow.waitForOutput(/^REVOKED /m);
      const third = member(0, 'third');
      await third.waitForOutput(/^ASSIGNED \d+ \[[\d,]+\]$/m);
      // The third member's partitions came from both others: wait until the slow one revoked again.
      await waitFor('the slow member\'s second revocation', async () => (clientLines(slow.log).filter((l) => l.kind === 'REVOKED').length >= 2 ? true : undefined), 60000);
      await waitFor('three members stable', async () => ([slow, second, third].every((c) => lastEpoch(c.log).partitions.length === 2) ? true : undefined), 60000);
      const leaving = lastEpoch(second.log).memberId ?? '';
      await second.stop();
      await waitFor('the two left with every partition', async () =>
        (lastEpoch(slow.log).partitions.length + lastEpoch(third.log).partitions.length === PARTITIONS ? true : undefined), 60000);

      // The timeline has caught up when the survivors' last logged epochs are in it and the group is Stable again.
      const expected = [slow, third].map((c) => lastEpoch(c.log));
      const events = await waitFor('the timeline of the whole membership change', async () => {
        const found = source.rebalanceEvents(GROUP);
        const caughtUp = expected.every((e) => steps(found, e.memberId ?? '').at(-1)?.reconciliation?.memberEpoch === e.epoch)
          && found.filter((e) => e.kind === 'state-changed').at(-1)?.stateAfter === 'Stable';
        return caughtUp ? found : undefined;
      }, 60000);
      mkdirSync(ARTIFACTS, { recursive: true });
      writeFileSync(join(ARTIFACTS, `consumer-timeline-kafka-${KAFKA_VERSION}.json`), `${JSON.stringify(events, null, 2)}\n`);


      // Membership: three joins, one leave, the one that left is the second member.
      const memberIds = [slow, second, third].map((c) => clientLines(c.log).find((l) => l.kind === 'EPOCH' && (l.epoch ?? 0) > 0)?.memberId ?? '');
      assert.deepEqual(events.filter((e) => e.kind === 'member-joined').map((e) => e.memberId), memberIds);
      assert.deepEqual(events.filter((e) => e.kind === 'member-left').map((e) => e.memberId), [leaving]);

      // Each survivor's last epoch and partitions are the ones it logged.
      for (const line of expected) {
        const last = steps(events, line.memberId ?? '').at(-1);
        assert.equal(last?.reconciliation?.memberEpoch, line.epoch, `epoch of ${line.memberId}`);
        assert.deepEqual(owned(events, line.memberId ?? ''), line.partitions, `partitions of ${line.memberId}`);
      }
      // Every epoch a client logged is an epoch step of its member in the timeline.
      for (const [client, memberId] of [[slow, memberIds[0]], [second, memberIds[1]], [third, memberIds[2]]] as const) {
        const logged = new Set(clientLines(client.log).filter((l) => l.kind === 'EPOCH' && (l.epoch ?? 0) > 0).map((l) => l.epoch));
        const stepped = new Set(steps(events, memberId).map((e) => e.reconciliation?.memberEpoch));
        assert.deepEqual([...logged].filter((epoch) => !stepped.has(epoch)), [], `epochs ${memberId} logged`);
      }

      // The slow revoker: told to revoke what it logged, converged right after its callback returned, which took the delay.
      const slowLines = clientLines(slow.log);
      const revoking = slowLines.find((l) => l.kind === 'REVOKING');
      const revoked = slowLines.find((l) => l.kind === 'REVOKED');
      assert.ok(revoking && revoked);
      const pending = steps(events, memberIds[0]).find((e) => e.reconciliation?.state === 'unrevoked-partitions');
      assert.deepEqual(pending?.reconciliation?.pendingRevocation.map((tp) => tp.partition), revoking.partitions);
      const converged = steps(events, memberIds[0]).find((e) => e.time >= (pending?.time ?? 0) && e.reconciliation?.convergedAfterMs !== undefined);
      assert.ok(converged?.reconciliation?.convergedAfterMs !== undefined);
      assert.ok(converged.time >= revoked.time - 50 && converged.time - revoked.time < 2000, `converged at ${converged.time}, the client revoked at ${revoked.time}`);
      assert.ok(converged.reconciliation.convergedAfterMs >= REVOKE_DELAY_MS - 100, `took ${converged.reconciliation.convergedAfterMs} ms`);

      // The second member waited for those partitions: it converged after the slow one revoked, when it logged them assigned.
      const assigned = clientLines(second.log).find((l) => l.kind === 'ASSIGNED');
      const waited = steps(events, memberIds[1]).find((e) => e.reconciliation?.convergedAfterMs !== undefined);
      assert.ok(assigned && waited?.reconciliation?.convergedAfterMs !== undefined);
      assert.ok(steps(events, memberIds[1]).some((e) => e.reconciliation?.state === 'unreleased-partitions'), 'the second member waited for partitions');
      assert.ok(waited.time >= revoked.time - 50 && Math.abs(waited.time - assigned.time) < 2000, `converged at ${waited.time}, assigned at ${assigned.time}`);
      // A fresh broker's first reads may meet a partition leader not elected yet: retried, not a failure.
      assert.deepEqual(logger.lines.filter((l) => l.startsWith('warn') && !/coordinator is loading|not available|NOT_LEADER_OR_FOLLOWER/.test(l)), []);

      const eventsFile = join(ARTIFACTS, `consumer-timeline-kafka-${KAFKA_VERSION}.json`);
      const render = spawnSync(process.execPath, ['--require', 'tsx/cjs', join(__dirname, '..', 'webview', 'renderTimeline.ts'), eventsFile, eventsFile.replace(/\.json$/, '.png'), GROUP, `Kafka ${KAFKA_VERSION}`], {
        encoding: 'utf8',
        timeout: 60000,
      });
      assert.equal(render.status, 0, `rendering the timeline failed: ${render.stderr}`);
    } finally {
      stop();
    }
  });
});
