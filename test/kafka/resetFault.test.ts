/**
 * A reset whose broker dies part way, on a real Kafka 4.x: a private broker (not the suite's shared one,
 * which other tests use) is killed with SIGKILL after the first topic's offsets are committed and before
 * the second's. The undo record was saved before the first commit; the commit's answer and the read-back
 * are both lost, so the record stays whole, and after the broker restarts on the same data Undo restores
 * exactly the partitions the reset reached and leaves the others alone.
 * Run with the rest of test/kafka: `node scripts/kafka/run-tests.js --grep "broker dies"`.
 */
import { strict as assert } from 'assert';
import { spawn } from 'child_process';
import { existsSync, openSync, closeSync } from 'fs';
import * as path from 'path';
import { Kafka, logLevel } from 'kafkajs';
import { executeReset, planUndo, previewReset, undoReset } from '../../src/reset/resetFlow';
import { KafkaGroupAdmin } from '../../src/kafka/kafkaGroupAdmin';
import { KafkaSource } from '../../src/kafka/kafkaSource';
import type { CommittedOffset, GroupAdmin, PartitionResult } from '../../src/model/groupAdmin';
import type { OffsetSnapshot } from '../../src/offsets/undo';
import { MemoryLogger, waitFor } from './support';

interface BrokerHandle {
  dir: string;
  lib: string;
  logFile: string;
  bootstrap: string;
  process: import('child_process').ChildProcess | null;
}

interface BrokerScript {
  startBroker(): Promise<BrokerHandle>;
  stopBroker(handle: BrokerHandle): Promise<void>;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the test broker is plain CommonJS shared with the scripts
const { startBroker, stopBroker } = require('../../scripts/kafka/broker.js') as BrokerScript;

const GROUP = 'reset-fault';
const TOPICS = ['fault-a', 'fault-b'];
const RECORDS = 10;
const BEFORE = 3;

/** Kills the broker as a crash does and waits for the process to be gone. */
async function killBroker(handle: BrokerHandle): Promise<void> {
  const child = handle.process;
  if (!child || child.exitCode !== null || child.signalCode !== null) {
    return;
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGKILL');
  await exited;
}

/** Starts the killed broker again on its own data folder and configuration (as broker.js lays them out). */
function restartBroker(handle: BrokerHandle): void {
  const configFile = path.join(handle.dir, 'server.properties');
  const log4jFile = path.join(handle.dir, 'log4j2.properties');
  if (!existsSync(configFile) || !existsSync(log4jFile)) {
    throw new Error(`scripts/kafka/broker.js no longer keeps server.properties and log4j2.properties in ${handle.dir}`);
  }
  const logFd = openSync(handle.logFile, 'a');
  handle.process = spawn('java', ['-Xms256m', '-Xmx768m', `-Dlog4j2.configurationFile=${log4jFile}`, '-cp', `${handle.lib}${path.sep}*`, 'kafka.Kafka', configFile], {
    stdio: ['ignore', logFd, logFd],
  });
  closeSync(logFd);
}

/** The real admin with its commitOffsets replaced. */
function withCommits(admin: GroupAdmin, commitOffsets: GroupAdmin['commitOffsets']): GroupAdmin {
  return {
    now: () => admin.now(),
    groupState: (groupId) => admin.groupState(groupId),
    committedOffsets: (groupId) => admin.committedOffsets(groupId),
    partitionCounts: (topics) => admin.partitionCounts(topics),
    logOffsets: (partitions) => admin.logOffsets(partitions),
    offsetForTimestamp: (topic, partition, timestampMs) => admin.offsetForTimestamp(topic, partition, timestampMs),
    commitOffsets,
    deleteOffsets: (groupId, topic, partitions) => admin.deleteOffsets(groupId, topic, partitions),
    deleteGroups: (groupIds) => admin.deleteGroups(groupIds),
    removeStaticMembers: (groupId, instanceIds) => admin.removeStaticMembers(groupId, instanceIds),
  };
}

/**
 * The real admin, committing one topic per OffsetCommit and killing the broker after the first: "some
 * partitions committed, then the broker is gone", with kafkajs's own errors from then on.
 */
function dyingAfterFirstTopic(admin: GroupAdmin, kill: () => Promise<void>): GroupAdmin {
  return withCommits(admin, async (groupId: string, offsets: readonly CommittedOffset[]): Promise<PartitionResult[]> => {
    const results: PartitionResult[] = [];
    for (const [index, topic] of [...new Set(offsets.map((o) => o.topic))].entries()) {
      if (index === 1) {
        await kill();
      }
      results.push(...(await admin.commitOffsets(groupId, offsets.filter((o) => o.topic === topic))));
    }
    return results;
  });
}

describe('a reset whose broker dies part way (private real broker)', function () {
  this.timeout(300000);
  let broker: BrokerHandle | undefined;

  const connect = (): { source: KafkaSource; admin: KafkaGroupAdmin } => {
    assert.ok(broker);
    // Few, short retries: a dead broker must fail the calls within seconds, not minutes.
    const kafka = new Kafka({ clientId: 'kgl-reset-fault', brokers: [broker.bootstrap], logLevel: logLevel.NOTHING, connectionTimeout: 1000, requestTimeout: 5000, retry: { retries: 2, initialRetryTime: 100, maxRetryTime: 1000 } });
    const source = new KafkaSource({ id: 'fault', name: 'fault', bootstrapServers: [broker.bootstrap] }, {}, { logger: new MemoryLogger(), kafka });
    return { source, admin: new KafkaGroupAdmin(source) };
  };

  before(async () => {
    broker = await startBroker();
    const kafka = new Kafka({ clientId: 'kgl-reset-fault-setup', brokers: [broker.bootstrap], logLevel: logLevel.NOTHING });
    const setup = kafka.admin();
    await setup.connect();
    await setup.createTopics({ topics: TOPICS.map((topic) => ({ topic, numPartitions: 2 })), waitForLeaders: true });
    await setup.disconnect();
    const producer = kafka.producer();
    await producer.connect();
    for (const topic of TOPICS) {
      for (const partition of [0, 1]) {
        await producer.send({ topic, messages: Array.from({ length: RECORDS }, (_, i) => ({ partition, value: `${topic}-${partition}-${i}` })) });
      }
    }
    await producer.disconnect();
  });

  after(async () => {
    if (broker) {
      await stopBroker(broker);
    }
  });

  it('keeps the undo record saved before the first commit, and Undo restores exactly the partitions the reset reached', async () => {
    let record: OffsetSnapshot | undefined;
    const first = connect();
    try {
      const initial = TOPICS.flatMap((topic) => [0, 1].map((partition) => ({ topic, partition, offset: BEFORE })));
      assert.deepEqual((await first.admin.commitOffsets(GROUP, initial)).filter((r) => r.error), []);
      const preview = await previewReset(first.admin, { groupId: GROUP, scenario: { kind: 'to-latest' }, scope: { kind: 'all-topics' } });
      assert.ok(preview.ok, preview.ok ? '' : preview.error);
      assert.deepEqual(preview.rows.map((r) => `${r.topic}-${r.partition}:${r.currentOffset}->${r.newOffset}`), [
        'fault-a-0:3->10',
        'fault-a-1:3->10',
        'fault-b-0:3->10',
        'fault-b-1:3->10',
      ]);

      const saved: Array<OffsetSnapshot | undefined> = [];
      let savesBeforeKill = -1;
      const dying = dyingAfterFirstTopic(first.admin, async () => {
        savesBeforeKill = saved.length;
        assert.ok(broker);
        await killBroker(broker);
      });
      const executed = await executeReset(dying, preview, {
        takenAt: Date.now(),
        saveUndo: async (snapshot) => {
          saved.push(snapshot);
        },
      });
      assert.ok(executed.ok);
      assert.equal(savesBeforeKill, 1, 'the undo record was saved before the first commit');
      // The second commit and the read-back both failed: no result may claim a partition either way.
      assert.ok(executed.results.every((r) => r.error?.startsWith('Unknown: the commit failed')), JSON.stringify(executed.results));
      assert.equal(saved.length, 1, 'the record stays whole');
      record = saved[0];
      assert.ok(record);
      assert.deepEqual(record.offsets.map((o) => `${o.topic}-${o.partition}:${o.offset}->${o.after}`), [
        'fault-a-0:3->10',
        'fault-a-1:3->10',
        'fault-b-0:3->10',
        'fault-b-1:3->10',
      ]);
    } finally {
      await first.admin.dispose();
      await first.source.dispose();
    }

    assert.ok(broker);
    restartBroker(broker);
    const second = connect();
    try {
      const committed = await waitFor('the restarted broker', async () => (await second.admin.committedOffsets(GROUP)).map((c) => `${c.topic}-${c.partition}:${c.offset}`), 120000);
      assert.deepEqual(committed, ['fault-a-0:10', 'fault-a-1:10', 'fault-b-0:3', 'fault-b-1:3'], 'the first topic was committed before the broker died');
      const steps = await planUndo(second.admin, record);
      assert.deepEqual(steps.map((s) => `${s.topic}-${s.partition}:${s.status}`), ['fault-a-0:restore', 'fault-a-1:restore', 'fault-b-0:not-changed', 'fault-b-1:not-changed']);
      const written: string[] = [];
      const spying = withCommits(second.admin, (groupId, offsets) => {
        written.push(...offsets.map((o) => `${o.topic}-${o.partition}=${o.offset}`));
        return second.admin.commitOffsets(groupId, offsets);
      });
      const undone = await undoReset(spying, record, steps);
      assert.ok(undone.ok);
      assert.deepEqual(undone.results, [{ topic: 'fault-a', partition: 0 }, { topic: 'fault-a', partition: 1 }]);
      assert.deepEqual(written, ['fault-a-0=3', 'fault-a-1=3'], 'the partitions the reset never reached are not written');
      assert.deepEqual((await second.admin.committedOffsets(GROUP)).map((c) => `${c.topic}-${c.partition}:${c.offset}`), ['fault-a-0:3', 'fault-a-1:3', 'fault-b-0:3', 'fault-b-1:3']);
    } finally {
      await second.admin.dispose();
      await second.source.dispose();
    }
  });
});
