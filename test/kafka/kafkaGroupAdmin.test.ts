/**
 * KafkaGroupAdmin and the reset flow against a real Kafka 4.x broker (started by scripts/kafka/run-tests.js):
 * the planner's facts as the broker answers them, previews compared with kafka-consumer-groups.sh --dry-run
 * run from the "Copy as CLI command" line itself, execute then undo, and the refusal of an active group.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Kafka, logLevel, type Consumer } from 'kafkajs';
import { executeReset, planUndo, previewReset, undoReset } from '../../src/reset/resetFlow';
import { commandConfigProperties, PASSWORD_PLACEHOLDER } from '../../src/kafka/commandConfig';
import type { SaslMechanism } from '../../src/kafka/connection';
import { KafkaGroupAdmin } from '../../src/kafka/kafkaGroupAdmin';
import { KafkaSource } from '../../src/kafka/kafkaSource';
import { resetOffsetsCommand } from '../../src/offsets/cliCommand';
import { parseResetTable } from '../../src/offsets/cliOutput';
import type { ResetRequest } from '../../src/offsets/resetRequest';
import { MemoryLogger, brokerEnv, createTopics, produceToEveryPartition, startKafkajsMember } from './support';

const RUN = `r${Date.now().toString(36)}`;
const TOPIC = `reset-${RUN}`;
const GROUP = `reset-admin-${RUN}`;
const ACTIVE = `reset-active-${RUN}`;
const RECORDS = 10;

describe('KafkaGroupAdmin on a real broker', function () {
  this.timeout(120000);
  const env = brokerEnv();
  let source: KafkaSource;
  let admin: KafkaGroupAdmin;
  let member: Consumer | undefined;
  let cliDir: string;

  /** Runs a copied CLI line with kafka-consumer-groups.sh on PATH as the broker's own ConsumerGroupCommand. */
  const runCliLine = (line: string): string => {
    const result = spawnSync('sh', ['-c', line], { encoding: 'utf8', timeout: 90000, env: { ...process.env, PATH: `${cliDir}${path.delimiter}${process.env.PATH ?? ''}` } });
    if (result.status !== 0) {
      throw new Error(`${line} failed (${result.status}): ${result.stderr}`);
    }
    return result.stdout;
  };

  before(async () => {
    cliDir = mkdtempSync(path.join(tmpdir(), 'kgl-cli-'));
    const script = path.join(cliDir, 'kafka-consumer-groups.sh');
    writeFileSync(script, `#!/bin/sh\nexec java -Xmx256m -cp '${env.lib}${path.sep}*' org.apache.kafka.tools.consumer.group.ConsumerGroupCommand "$@"\n`);
    chmodSync(script, 0o755);
    const kafka = new Kafka({ clientId: 'kgl-admin-test', brokers: [env.bootstrap], logLevel: logLevel.NOTHING });
    source = new KafkaSource({ id: 'plain', name: 'plain', bootstrapServers: [env.bootstrap] }, {}, { logger: new MemoryLogger(), kafka });
    admin = new KafkaGroupAdmin(source);
    await createTopics([{ topic: TOPIC, numPartitions: 3 }]);
    await produceToEveryPartition(TOPIC, 3, RECORDS);
    const committed = await admin.commitOffsets(GROUP, [
      { topic: TOPIC, partition: 0, offset: 2 },
      { topic: TOPIC, partition: 1, offset: 5, metadata: 'kept by undo' },
    ]);
    assert.deepEqual(committed, [{ topic: TOPIC, partition: 0 }, { topic: TOPIC, partition: 1 }]);
  });

  after(async () => {
    await member?.disconnect();
    await admin?.dispose();
    await source?.dispose();
    rmSync(cliDir, { recursive: true, force: true });
  });

  it('reads the planner facts as the broker answers them', async () => {
    assert.equal(await admin.groupState(GROUP), 'Empty');
    assert.equal(await admin.groupState(`missing-${RUN}`), 'Dead');
    assert.deepEqual(await admin.committedOffsets(GROUP), [
      { topic: TOPIC, partition: 0, offset: 2, metadata: '' },
      { topic: TOPIC, partition: 1, offset: 5, metadata: 'kept by undo' },
    ]);
    assert.deepEqual(await admin.partitionCounts([TOPIC, `missing-${RUN}`]), new Map([[TOPIC, 3]]));
    assert.deepEqual(await admin.logOffsets([0, 1, 2].map((partition) => ({ topic: TOPIC, partition }))), [0, 1, 2].map((partition) => ({ topic: TOPIC, partition, earliest: 0, latest: RECORDS })));
    assert.equal(await admin.offsetForTimestamp(TOPIC, 0, 0), 0);
    assert.equal(await admin.offsetForTimestamp(TOPIC, 0, Date.now() + 3_600_000), null);
  });

  const scenarios: Array<Pick<ResetRequest, 'scenario' | 'scope'>> = [
    { scenario: { kind: 'to-earliest' }, scope: { kind: 'all-topics' } },
    { scenario: { kind: 'shift-by', shift: -3 }, scope: { kind: 'topics', topics: [{ topic: TOPIC, partitions: [0, 1] }] } },
    { scenario: { kind: 'to-offset', offset: 7 }, scope: { kind: 'topics', topics: [{ topic: TOPIC }] } },
    { scenario: { kind: 'to-current' }, scope: { kind: 'topics', topics: [{ topic: TOPIC }] } },
    { scenario: { kind: 'by-duration', duration: 'PT1H' }, scope: { kind: 'topics', topics: [{ topic: TOPIC }] } },
  ];
  for (const { scenario, scope } of scenarios) {
    it(`previews ${scenario.kind} like the CLI's --dry-run of the copied line`, async () => {
      const request: ResetRequest = { groupId: GROUP, scenario, scope };
      const preview = await previewReset(admin, request);
      assert.ok(preview.ok, preview.ok ? '' : preview.error);
      const line = resetOffsetsCommand(request, { bootstrapServers: [env.bootstrap], mode: 'dry-run' });
      const cliRows = parseResetTable(runCliLine(line)).map((r) => `${r.topic}-${r.partition}=${r.newOffset}`).sort();
      assert.deepEqual(preview.rows.map((r) => `${r.topic}-${r.partition}=${r.newOffset}`).sort(), cliRows);
    });
  }

  for (const mechanism of ['scram-sha-512', 'plain'] as SaslMechanism[]) {
    it(`runs the copied line on the SASL listener (${mechanism}) with the --command-config file it writes, password filled in`, async () => {
      const request: ResetRequest = { groupId: GROUP, scenario: { kind: 'to-earliest' }, scope: { kind: 'all-topics' } };
      const preview = await previewReset(admin, request);
      assert.ok(preview.ok);
      const properties = commandConfigProperties({ id: 'sasl', name: 'SASL cluster', bootstrapServers: [env.saslBootstrap], sasl: { mechanism, username: env.user } });
      assert.ok(properties !== undefined && properties.includes(PASSWORD_PLACEHOLDER), 'the file holds a placeholder, not the password');
      const configPath = path.join(cliDir, `${mechanism}.properties`);
      writeFileSync(configPath, properties.replace(PASSWORD_PLACEHOLDER, env.password));
      const line = resetOffsetsCommand(request, { bootstrapServers: [env.saslBootstrap], commandConfigPath: configPath, mode: 'dry-run' });
      const cliRows = parseResetTable(runCliLine(line)).map((r) => `${r.topic}-${r.partition}=${r.newOffset}`).sort();
      assert.deepEqual(preview.rows.map((r) => `${r.topic}-${r.partition}=${r.newOffset}`).sort(), cliRows);
    });
  }

  it('executes a reset, reads it back, and undo restores the offsets, deleting the one that did not exist', async () => {
    const preview = await previewReset(admin, { groupId: GROUP, scenario: { kind: 'to-latest' }, scope: { kind: 'topics', topics: [{ topic: TOPIC }] } });
    assert.ok(preview.ok);
    const executed = await executeReset(admin, preview, { takenAt: Date.now(), saveUndo: async () => undefined });
    assert.ok(executed.ok && executed.snapshot);
    assert.deepEqual(executed.results.filter((r) => r.error), []);
    assert.deepEqual((await admin.committedOffsets(GROUP)).map((c) => [c.partition, c.offset]), [[0, RECORDS], [1, RECORDS], [2, RECORDS]]);
    const restored = await undoReset(admin, executed.snapshot, await planUndo(admin, executed.snapshot));
    assert.ok(restored.ok);
    assert.deepEqual(restored.results.filter((r) => r.error), []);
    assert.deepEqual(await admin.committedOffsets(GROUP), [
      { topic: TOPIC, partition: 0, offset: 2, metadata: '' },
      { topic: TOPIC, partition: 1, offset: 5, metadata: 'kept by undo' },
    ]);
  });

  it('refuses to reset an active group with the CLI sentence', async () => {
    member = await startKafkajsMember(ACTIVE, [TOPIC], RECORDS);
    const preview = await previewReset(admin, { groupId: ACTIVE, scenario: { kind: 'to-earliest' }, scope: { kind: 'all-topics' } });
    assert.equal(preview.ok, false);
    assert.match(preview.ok ? '' : preview.error, new RegExp(`^Assignments can only be reset if the group '${ACTIVE}' is inactive, but the current state is (Stable|PreparingRebalance|CompletingRebalance)\\.$`));
  });
});
