/**
 * What one refresh and one reset cost on a real broker, counted per API at kafkajs's connections:
 * the source and its admin share one connection pool (no second login), a refresh asks for metadata
 * once, and a reset reads the group's state with one DescribeGroups and its offsets with one
 * OffsetFetch. And a wrong password costs one login per load, never a retry of our own or kafkajs's.
 * Share groups (where the broker has them) cost one ShareGroupDescribe and one DescribeConfigs per
 * coordinator, and DescribeShareGroupOffsets as shareOffsetsRequestGroups cuts them: one request for all
 * on Kafka 4.1 (v0), one a group where the broker computes lag (v1, Kafka 4.2+).
 */
import { strict as assert } from 'node:assert';
import { previewReset, executeReset } from '../../src/reset/resetFlow';
import { KafkaGroupAdmin } from '../../src/kafka/kafkaGroupAdmin';
import { KafkaConnectionError, KafkaSource } from '../../src/kafka/kafkaSource';
import { JavaClient, KAFKA_VERSION, runFeatureUpgrade } from './groupTypesSupport';
import { RequestCounter } from './requestCounter';
import { MemoryLogger, brokerEnv, createTopics, produceToEveryPartition } from './support';

const RUN = `r${Date.now().toString(36)}`;
const TOPIC = `budget-${RUN}`;
const GROUPS = [1, 2, 3].map((i) => `budget-${i}-${RUN}`);
const RECORDS = 10;
const [MAJOR, MINOR] = KAFKA_VERSION.split('.').map(Number);
/** Share groups and share lag (DescribeShareGroupOffsets v1) are on by default from Kafka 4.2. */
const SHARE_LAG = MAJOR > 4 || (MAJOR === 4 && MINOR >= 2);
/** Kafka 4.1's share groups are a preview, switched on with share.version=1. */
const SHARE_PREVIEW = MAJOR === 4 && MINOR === 1;
/** Kafka 4.2+ makes a share group by AlterShareGroupOffsets; 4.1 only for a group that exists, so KafkaShareConsumers make two there. */
const SHARE_GROUPS = (SHARE_LAG ? [1, 2, 3, 4] : [1, 2]).map((i) => `budget-share-${i}-${RUN}`);

/** Leaves out what this Kafka version does not have, instead of a pending test. */
function skipOnThisVersion(title: string, _body: unknown): void {
  console.log(`      (not on Kafka ${KAFKA_VERSION}: ${title})`);
}

describe('requests per refresh and per reset on a real broker', function () {
  this.timeout(120000);
  const env = brokerEnv();
  const counter = new RequestCounter();
  let source: KafkaSource;
  let admin: KafkaGroupAdmin;

  before(async () => {
    await createTopics([{ topic: TOPIC, numPartitions: 3 }]);
    await produceToEveryPartition(TOPIC, 3, RECORDS);
    source = new KafkaSource(
      { id: 'budget', name: 'budget', bootstrapServers: [env.saslBootstrap], sasl: { mechanism: 'scram-sha-256', username: env.user } },
      { password: env.password },
      { logger: new MemoryLogger() },
    );
    admin = new KafkaGroupAdmin(source);
    for (const group of GROUPS) {
      const results = await source.commitOffsets(group, [0, 1, 2].map((partition) => ({ topic: TOPIC, partition, offset: partition + 1 })));
      assert.deepEqual(results.filter((r) => r.error), []);
    }
  });

  after(async () => {
    counter.stop();
    await admin?.dispose();
    await source?.dispose();
  });

  const refresh = async (): Promise<void> => {
    const [, groups] = await Promise.all([source.describeCluster(), source.listGroups()]);
    for (const group of GROUPS) {
      assert.equal(groups.find((g) => g.groupId === group)?.totalLag, RECORDS * 3 - 6, group);
    }
  };

  it('one refresh: one Metadata, one ListGroups, one DescribeGroups and one OffsetFetch for all the groups of the coordinator, three ListOffsets, no new connection', async () => {
    await refresh(); // the first refresh also learns the groups' topics
    counter.start();
    await refresh();
    counter.stop();
    console.log(`      one refresh of a cluster with ${GROUPS.length}+ groups: ${counter.summary()}`);
    assert.equal(counter.count('Metadata'), 1, counter.summary());
    assert.equal(counter.count('ListGroups'), 1, counter.summary());
    assert.equal(counter.count('DescribeGroups'), 1, counter.summary());
    assert.equal(counter.count('OffsetFetch'), 1, counter.summary());
    assert.equal(counter.count('GroupCoordinator'), 0, counter.summary());
    assert.equal(counter.count('ListOffsets'), 3, counter.summary());
    assert.equal(counter.connections, 0, counter.summary());
  });

  it('the two-phase load: the list costs one ListGroups; the details of a batch one DescribeGroups and one OffsetFetch, with the same figures', async () => {
    const all = await source.listGroupDetails();
    counter.start();
    const listed = await source.listGroupsOnly();
    const listCost = counter.summary();
    counter.stop();
    for (const group of GROUPS) {
      const row = listed.find((g) => g.groupId === group);
      assert.deepEqual(row && { state: row.state, groupType: row.groupType, detailsPending: row.detailsPending, totalLag: row.totalLag }, { state: 'Empty', groupType: 'simple', detailsPending: true, totalLag: null }, group);
    }
    assert.equal(counter.count('ListGroups'), 1, listCost);
    assert.equal(counter.count('DescribeGroups') + counter.count('OffsetFetch') + counter.count('ListOffsets'), 0, listCost);
    counter.start();
    const details = await source.loadGroupDetails(GROUPS);
    counter.stop();
    console.log(`      the list phase: ${listCost}; details of ${GROUPS.length} groups: ${counter.summary()}`);
    assert.equal(counter.count('DescribeGroups'), 1, counter.summary());
    assert.equal(counter.count('OffsetFetch'), 1, counter.summary());
    assert.deepEqual(
      details.map((d) => [d.groupId, d.totalLag, d.detailsPending]),
      GROUPS.map((group) => [group, all.find((g) => g.groupId === group)?.totalLag, undefined]),
    );
  });

  it("the admin's first use: over the source's connections, no second login", async () => {
    counter.start();
    assert.deepEqual(await admin.partitionCounts([TOPIC]), new Map([[TOPIC, 3]]));
    counter.stop();
    console.log(`      the admin's first request: ${counter.summary()}`);
    assert.equal(counter.count('SaslHandshake'), 0, counter.summary());
    assert.equal(counter.connections, 0, counter.summary());
  });

  it('one reset preview and execute: the group state by one DescribeGroups each, over the source\'s own connections', async () => {
    counter.start();
    const preview = await previewReset(admin, { groupId: GROUPS[0], scenario: { kind: 'to-latest' }, scope: { kind: 'topics', topics: [{ topic: TOPIC }] } });
    assert.ok(preview.ok, preview.ok ? '' : preview.error);
    const executed = await executeReset(admin, preview, { takenAt: Date.now(), saveUndo: async () => undefined });
    counter.stop();
    assert.ok(executed.ok, 'the group is as previewed');
    assert.deepEqual(executed.results.filter((r) => r.error), []);
    console.log(`      one reset preview + execute: ${counter.summary()}`);
    assert.equal(counter.count('SaslHandshake'), 0, counter.summary());
    assert.equal(counter.connections, 0, counter.summary());
    assert.equal(counter.count('GroupCoordinator'), 0, counter.summary());
    assert.ok(counter.count('DescribeGroups') <= 2, counter.summary());
    assert.ok(counter.count('OffsetFetch') <= 2, counter.summary());
    assert.ok(counter.count('ListOffsets') <= 2, counter.summary());
    assert.equal(counter.count('OffsetCommit'), 1, counter.summary());
  });

  // Registered only where the broker has share groups (run-tests.js forbids pending tests).
  (SHARE_LAG || SHARE_PREVIEW ? describe : skipOnThisVersion)('with share groups', () => {
    const members: JavaClient[] = [];

    before(async () => {
      if (SHARE_PREVIEW) {
        runFeatureUpgrade(env, 'share.version=1');
        members.push(...SHARE_GROUPS.map((group) => new JavaClient(env, 'ShareMember', [env.bootstrap, group, TOPIC, 'earliest'])));
        await Promise.all(members.map((m) => m.waitForOutput(/POLLED/)));
        return;
      }
      for (const group of SHARE_GROUPS) {
        const results = await source.admin.share.alterShareGroupOffsets(group, [0, 1, 2].map((partition) => ({ topic: TOPIC, partition, offset: partition + 1 })));
        assert.deepEqual(results.filter((r) => r.error), [], group);
      }
    });

    after(async () => {
      await Promise.all(members.map((m) => m.stop()));
    });

    it(`one refresh: one ShareGroupDescribe and one DescribeConfigs for the share groups, DescribeShareGroupOffsets ${SHARE_LAG ? 'one a group (the broker computes lag)' : 'one for all of them'}`, async () => {
      counter.start();
      await source.listGroups(); // learns the groups and their topics
      counter.stop();
      // On 4.2+ the share offsets go on the broker's second socket (kafkajs's Fetch socket): at most that one opens, once.
      assert.ok(counter.connections <= (SHARE_LAG ? 1 : 0), `the first load with share groups: ${counter.summary()}`);
      counter.start();
      const [, groups] = await Promise.all([source.describeCluster(), source.listGroups()]);
      counter.stop();
      const topology = await source.connection.topology();
      const shares = groups.filter((g) => g.groupType === 'share');
      console.log(`      one refresh with ${shares.length} share groups: ${counter.summary()}`);
      for (const group of SHARE_GROUPS) {
        const row = shares.find((g) => g.groupId === group);
        assert.ok(row && row.error === undefined && row.detailsPending !== true, `${group}: ${JSON.stringify(row)}`);
      }
      const coordinators = new Set(shares.map((g) => source.connection.coordinatorId(g.groupId, topology))).size;
      assert.equal(counter.count('ShareGroupDescribe'), coordinators, counter.summary());
      assert.equal(counter.count('DescribeConfigs'), coordinators, counter.summary());
      assert.equal(counter.count('DescribeShareGroupOffsets'), SHARE_LAG ? shares.length : coordinators, counter.summary());
      assert.ok(counter.count('Metadata') <= 1, counter.summary());
      assert.equal(counter.count('ListGroups'), 1, counter.summary());
      assert.equal(counter.connections, 0, counter.summary());
    });
  });

  it('a wrong password costs one SASL login per load, with no retry', async () => {
    const loads = 5;
    const wrong = new KafkaSource(
      { id: 'wrong', name: 'wrong', bootstrapServers: [env.saslBootstrap], sasl: { mechanism: 'scram-sha-256', username: env.user } },
      { password: 'not-the-password' },
      { logger: new MemoryLogger() },
    );
    counter.start();
    try {
      for (let i = 0; i < loads; i++) {
        const error = await Promise.all([wrong.describeCluster(), wrong.listGroups()]).then(
          () => assert.fail('a load with a wrong password succeeded'),
          (e: unknown) => e,
        );
        assert.ok(error instanceof KafkaConnectionError, String(error));
        assert.equal(error.kind, 'authentication', `load ${i + 1}: ${error.message} (${String((error.original as Error).stack)})`);
      }
    } finally {
      counter.stop();
      await wrong.dispose();
    }
    console.log(`      ${loads} loads with a wrong password: ${counter.summary()}`);
    assert.equal(counter.count('SaslHandshake'), loads, counter.summary());
    assert.equal(counter.connections, loads, counter.summary());
  });
});
