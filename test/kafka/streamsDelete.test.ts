/**
 * Delete Group on a streams group against a real broker and Kafka's own `kafka-streams-groups.sh --delete
 * --delete-all-internal-topics` (StreamsGroupCommand.deleteGroups): two Kafka Streams applications
 * (test/kafka/java/StreamsApp: a repartition topic and a changelog topic each) run on one input and stop; the
 * tool deletes one group, our flow the other. The internal topics our preview names for a group are exactly the
 * topics the tool deleted with it, and our Execute deletes its group's internal topics and the group the same way.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { deleteStreamsGroupFlow } from '../../src/commands/streamsDeleteFlow';
import { KafkaGroupAdmin } from '../../src/kafka/kafkaGroupAdmin';
import { KafkaSource } from '../../src/kafka/kafkaSource';
import type { GroupDetail } from '../../src/model/types';
import { streamsInternalTopics } from '../../src/offsets/streamsInternalTopics';
import { ScriptedAdminPrompts } from '../unit/commands/scriptedAdminPrompts';
import { JavaClient, KAFKA_VERSION, TOOLS, runTool } from './groupTypesSupport';
import { MemoryLogger, brokerEnv, createTopics, testKafka, waitFor } from './support';

const RUN = `r${Date.now().toString(36)}`;
const INPUT = `streams-del-in-${RUN}`;
const APPS = { tool: `streams-del-tool-${RUN}`, ours: `streams-del-ours-${RUN}` } as const;
const [MAJOR, MINOR] = KAFKA_VERSION.split('.').map(Number);
/** Streams groups are on by default from Kafka 4.2; --delete-all-internal-topics is asked of the tool itself. */
const STREAMS_BY_DEFAULT = MAJOR > 4 || (MAJOR === 4 && MINOR >= 2);

function toolDeletesInternalTopics(): boolean {
  if (!STREAMS_BY_DEFAULT) {
    return false;
  }
  const help = spawnSync('java', ['-Xmx128m', '-cp', `${process.env.KAFKA_LIB ?? ''}${path.sep}*`, TOOLS.streamsGroups, '--help'], { encoding: 'utf8', timeout: 60000 });
  return `${help.stdout}${help.stderr}`.includes('--delete-all-internal-topics');
}

/** Leaves out what this Kafka version's tool does not have, instead of a pending test. */
function skipOnThisVersion(title: string, _body: unknown): void {
  console.log(`      (not on Kafka ${KAFKA_VERSION}: ${title})`);
}

/** A topic name with the application id replaced, so two applications' internal topics compare. */
const generic = (topics: readonly string[], appId: string) => topics.map((t) => t.replace(appId, '<app>')).sort();

(toolDeletesInternalTopics() ? describe : skipOnThisVersion)(`streams-group delete on Kafka ${KAFKA_VERSION} against kafka-streams-groups.sh`, function (this: Mocha.Suite) {
  this.timeout(300000);
  const env = brokerEnv();
  const admin = testKafka('streams-delete-admin').admin();
  let source: KafkaSource;
  let groupAdmin: KafkaGroupAdmin;
  const apps: JavaClient[] = [];

  const topicNames = async () => new Set(await admin.listTopics());
  const describeApp = (appId: string) => source.describeGroup(appId);

  before(async () => {
    await admin.connect();
    source = new KafkaSource({ id: 'streams-delete', name: 'streams-delete', bootstrapServers: [env.bootstrap] }, {}, { logger: new MemoryLogger() });
    groupAdmin = new KafkaGroupAdmin(source);
    // The apps' output topics too: the test broker does not create topics on first use.
    await createTopics([{ topic: INPUT, numPartitions: 2 }, ...Object.values(APPS).map((appId) => ({ topic: `${appId}-out`, numPartitions: 2 }))]);
    const producer = testKafka('streams-delete-input').producer();
    await producer.connect();
    try {
      await producer.send({ topic: INPUT, messages: Array.from({ length: 10 }, (_, i) => ({ partition: i % 2, key: `k${i}`, value: `v${i % 3}` })) });
    } finally {
      await producer.disconnect();
    }
    for (const appId of Object.values(APPS)) {
      apps.push(new JavaClient(env, 'StreamsApp', [env.bootstrap, appId, INPUT, `${appId}-out`, '1'], { streams: true }));
    }
    await Promise.all(apps.map((app) => app.waitForOutput(/STATE RUNNING/, 120000)));
    // Both applications have processed their input: both input partitions committed and caught up.
    const processed = (d: GroupDetail) => {
      const input = d.offsets.filter((o) => o.topic === INPUT);
      return d.groupType === 'streams' && input.length === 2 && input.every((o) => o.committedOffset !== null && o.lag === 0);
    };
    for (const appId of Object.values(APPS)) {
      await waitFor(`${appId} to process its input`, async () => (processed(await describeApp(appId)) ? true : undefined), 120000);
    }
    await Promise.all(apps.map((app) => app.stop()));
    for (const appId of Object.values(APPS)) {
      await waitFor(`${appId} to be Empty`, async () => ((await describeApp(appId)).state === 'Empty' ? true : undefined), 90000);
    }
  });

  after(async () => {
    await Promise.all(apps.map((app) => app.stop()));
    await groupAdmin?.dispose();
    await source?.dispose();
    await admin.disconnect();
  });

  it('names as internal topics exactly what the tool deletes with a group, and deletes them and the group as the tool does', async () => {
    // Both previews before any deletion: the two applications have the same topology.
    const preview = {
      tool: streamsInternalTopics(APPS.tool, (await describeApp(APPS.tool)).streamsGroup),
      ours: streamsInternalTopics(APPS.ours, (await describeApp(APPS.ours)).streamsGroup),
    };
    assert.deepEqual(generic(preview.ours.deletable, APPS.ours), ['<app>-by-value-repartition', '<app>-counts-changelog']);
    assert.deepEqual(preview.ours.notInferred, []);
    const before = await topicNames();
    for (const topic of [...preview.tool.deletable, ...preview.ours.deletable]) {
      assert.ok(before.has(topic), `${topic} exists before the deletion`);
    }

    const printed = runTool(env, TOOLS.streamsGroups, ['--delete', '--group', APPS.tool, '--delete-all-internal-topics']);
    assert.match(printed, new RegExp(`Deletion of requested streams groups \\('${APPS.tool}'\\) was successful`), printed);
    assert.match(printed, /Deletion of associated internal topics .* was successful/, printed);
    const afterTool = await waitFor(
      'the tool\'s topic deletions to show in metadata',
      async () => {
        const now = await topicNames();
        return preview.tool.deletable.every((t) => !now.has(t)) ? now : undefined;
      },
      30000,
    );
    const deletedByTool = [...before].filter((t) => !afterTool.has(t)).sort();
    assert.deepEqual(deletedByTool, preview.tool.deletable, 'the topics the tool deleted are the ones our preview names');

    const prompts = new ScriptedAdminPrompts([{ pick: 'Group and its 2 internal topic(s)' }], [true]);
    const outcome = await deleteStreamsGroupFlow(prompts, groupAdmin, APPS.ours, 0, () => describeApp(APPS.ours));
    assert.ok(outcome?.ok, JSON.stringify(outcome));
    assert.deepEqual(outcome.lines, [`${APPS.ours}: deleted`, ...preview.ours.deletable.map((t) => `${t}: deleted`)]);
    const afterOurs = await waitFor(
      'our topic deletions to show in metadata',
      async () => {
        const now = await topicNames();
        return preview.ours.deletable.every((t) => !now.has(t)) ? now : undefined;
      },
      30000,
    );
    const deletedByUs = [...afterTool].filter((t) => !afterOurs.has(t)).sort();
    assert.deepEqual(generic(deletedByUs, APPS.ours), generic(deletedByTool, APPS.tool), 'we delete the same internal topics the tool does');
    assert.ok(afterOurs.has(INPUT), 'the input topic stays');

    // Both groups are gone as the tool lists streams groups.
    const listed = runTool(env, TOOLS.streamsGroups, ['--list']);
    for (const appId of Object.values(APPS)) {
      assert.ok(!listed.split('\n').includes(appId), `${appId} is still listed:\n${listed}`);
    }
  });
});
