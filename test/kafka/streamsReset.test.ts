/**
 * Streams-group resets and offset deletion against a real broker and Kafka's kafka-streams-groups.sh (which has
 * --reset-offsets from Kafka 4.2): a Kafka Streams application (test/kafka/java/StreamsApp) commits on its input
 * topic and its repartition topic, then stops; our preview of --to-earliest (all input topics, and one input topic)
 * equals the copied line's --dry-run row for row (as a set), Execute writes it and `--describe --offsets` reads it
 * back (OffsetFetch: the tool's --describe --offsets prints none for a group without members), Undo restores, and
 * Delete Offsets of the input topic leaves only the repartition topic's offsets.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { KafkaGroupAdmin } from '../../src/kafka/kafkaGroupAdmin';
import { KafkaSource } from '../../src/kafka/kafkaSource';
import type { GroupDetail } from '../../src/model/types';
import type { ResetRequest } from '../../src/offsets/resetRequest';
import type { OffsetSnapshot } from '../../src/offsets/undo';
import { executeReset, planUndo, undoReset } from '../../src/reset/resetFlow';
import { resetRoute } from '../../src/reset/resetRoute';
import { JavaClient, KAFKA_VERSION, TOOLS, toolTables } from './groupTypesSupport';
import { MemoryLogger, brokerEnv, createTopics, testKafka, waitFor } from './support';

const RUN = `r${Date.now().toString(36)}`;
const APP = `streams-reset-${RUN}`;
const INPUT = `streams-reset-in-${RUN}`;
const OUTPUT = `streams-reset-out-${RUN}`;
const RECORDS = 10;
const [MAJOR, MINOR] = KAFKA_VERSION.split('.').map(Number);
/** kafka-streams-groups.sh has --reset-offsets from Kafka 4.2. */
const TOOL_RESETS = MAJOR > 4 || (MAJOR === 4 && MINOR >= 2);

type Row = [string, number, number];

/** Leaves out what this Kafka version's tool does not have, instead of a pending test. */
function skipOnThisVersion(title: string, _body: unknown): void {
  console.log(`      (not on Kafka ${KAFKA_VERSION}: ${title})`);
}
const sorted = <T extends [string, number, ...unknown[]]>(rows: T[]): T[] => [...rows].sort((a, b) => (a[0] === b[0] ? a[1] - b[1] : a[0] < b[0] ? -1 : 1));

(TOOL_RESETS ? describe : skipOnThisVersion)(`streams-group resets on Kafka ${KAFKA_VERSION} against kafka-streams-groups.sh`, function (this: Mocha.Suite) {
  this.timeout(300000);
  const env = brokerEnv();
  let source: KafkaSource;
  let admin: KafkaGroupAdmin;
  let cliDir: string;
  let app: JavaClient | undefined;

  const runCliLine = (line: string): string => {
    const result = spawnSync('sh', ['-c', line], { encoding: 'utf8', timeout: 90000, env: { ...process.env, PATH: `${cliDir}${path.delimiter}${process.env.PATH ?? ''}` } });
    if (result.status !== 0) {
      throw new Error(`${line} failed (${result.status}): ${result.stdout}\n${result.stderr}`);
    }
    return result.stdout;
  };
  /**
   * The group's committed offsets read back with OffsetFetch: kafka-streams-groups.sh --describe --offsets prints
   * no offsets once the group has no members.
   */
  const describedOffsets = async (): Promise<Array<[string, number, number]>> =>
    sorted((await admin.committedOffsets(APP)).map((c): [string, number, number] => [c.topic, c.partition, c.offset]));
  const routeNow = async () => resetRoute(await source.describeGroup(APP), admin, APP);

  before(async () => {
    cliDir = mkdtempSync(path.join(tmpdir(), 'kgl-streams-cli-'));
    const script = path.join(cliDir, 'kafka-streams-groups.sh');
    writeFileSync(script, `#!/bin/sh\nexec java -Xmx256m -XX:TieredStopAtLevel=1 -cp '${env.lib}${path.sep}*' ${TOOLS.streamsGroups} "$@"\n`);
    chmodSync(script, 0o755);
    source = new KafkaSource({ id: 'streams-reset', name: 'streams-reset', bootstrapServers: [env.bootstrap] }, {}, { logger: new MemoryLogger() });
    admin = new KafkaGroupAdmin(source);
    await createTopics([
      { topic: INPUT, numPartitions: 3 },
      { topic: OUTPUT, numPartitions: 3 },
    ]);
    const producer = testKafka('streams-reset-input').producer();
    await producer.connect();
    try {
      for (let partition = 0; partition < 3; partition++) {
        await producer.send({ topic: INPUT, messages: Array.from({ length: RECORDS }, (_, i) => ({ partition, key: `k${i}`, value: `v${i % 3}` })) });
      }
    } finally {
      await producer.disconnect();
    }
    app = new JavaClient(env, 'StreamsApp', [env.bootstrap, APP, INPUT, OUTPUT, '1'], { streams: true });
    await app.waitForOutput(/STATE RUNNING/, 120000);
    // Every partition committed and caught up: a row the group owns but has not committed yet counts no lag.
    const ready = (d: GroupDetail) => d.groupType === 'streams' && d.offsets.length === 6 && d.offsets.every((o) => o.committedOffset !== null && o.lag === 0);
    await waitFor(`${APP} to process its input`, async () => ((d) => (ready(d) ? d : undefined))(await source.describeGroup(APP)), 120000);
    await app.stop();
    await waitFor(`${APP} to be Empty`, async () => ((await source.describeGroup(APP)).state === 'Empty' ? true : undefined), 90000);
  });

  after(async () => {
    await app?.stop();
    await admin?.dispose();
    await source?.dispose();
    rmSync(cliDir, { recursive: true, force: true });
  });

  it('previews --to-earliest as the tool\'s --dry-run for all input topics and for one, executes, reads back and undoes', async () => {
    const route = await routeNow();
    assert.equal(route.kind, 'streams');
    const requests: ResetRequest[] = [
      { groupId: APP, scenario: { kind: 'to-earliest' }, scope: { kind: 'all-topics' } },
      { groupId: APP, scenario: { kind: 'to-earliest' }, scope: { kind: 'topics', topics: [{ topic: INPUT, partitions: [0, 2] }] } },
    ];
    for (const request of requests) {
      const preview = await route.preview(request);
      assert.ok(preview.ok, preview.ok ? '' : preview.error);
      const line = route.cliCommand(request, { bootstrapServers: env.bootstrap, mode: 'dry-run' });
      const tool = sorted(toolTables(runCliLine(line)).map((r): Row => [r.TOPIC, Number(r.PARTITION), Number(r['NEW-OFFSET'])]));
      assert.ok(tool.length > 0, `${line} printed no plan`);
      assert.deepEqual(sorted(preview.rows.map((r): Row => [r.topic, r.partition, r.newOffset])), tool, line);
    }
    const before = await describedOffsets();
    assert.equal(before.length, 6, JSON.stringify(before));
    const preview = await route.preview(requests[1]);
    assert.ok(preview.ok);
    const saved: Array<OffsetSnapshot | undefined> = [];
    const outcome = await executeReset(route.admin, preview, { takenAt: Date.now(), saveUndo: async (s) => void saved.push(s) });
    assert.ok(outcome.ok && outcome.results.every((r) => r.error === undefined), JSON.stringify(outcome));
    const expected = before.map(([topic, partition, offset]): [string, number, number] => [topic, partition, topic === INPUT && partition !== 1 ? 0 : offset]);
    assert.notDeepEqual(expected, before);
    assert.deepEqual(await describedOffsets(), expected);
    const snapshot = saved[saved.length - 1] as OffsetSnapshot;
    const undone = await undoReset(route.admin, snapshot, await planUndo(route.admin, snapshot));
    assert.ok(undone.ok && undone.results.every((r) => r.error === undefined), JSON.stringify(undone));
    assert.deepEqual(await describedOffsets(), before);
  });

  it('deletes the input topic\'s offsets, leaving the repartition topic\'s', async () => {
    assert.equal((await describedOffsets()).filter(([topic]) => topic === INPUT).length, 3);
    const deletion = await admin.deleteOffsets(APP, INPUT, [0, 1, 2]);
    assert.deepEqual(deletion, { partitions: [0, 1, 2].map((partition) => ({ topic: INPUT, partition })) });
    const left = await describedOffsets();
    assert.deepEqual(left.map(([topic]) => topic), [`${APP}-by-value-repartition`, `${APP}-by-value-repartition`, `${APP}-by-value-repartition`], JSON.stringify(left));
  });
});
