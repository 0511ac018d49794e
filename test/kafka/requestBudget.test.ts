/**
 * What one refresh and one reset cost on a real broker, counted per API at kafkajs's connections:
 * the source and its admin share one connection pool (no second login), a refresh asks for metadata
 * once, and a reset reads the group's state with one DescribeGroups and its offsets with one
 * OffsetFetch. And a wrong password costs one login per load, never a retry of our own or kafkajs's.
 */
import { strict as assert } from 'node:assert';
import { previewReset, executeReset } from '../../src/reset/resetFlow';
import { KafkaGroupAdmin } from '../../src/kafka/kafkaGroupAdmin';
import { KafkaConnectionError, KafkaSource } from '../../src/kafka/kafkaSource';
import { RequestCounter } from './requestCounter';
import { MemoryLogger, brokerEnv, createTopics, produceToEveryPartition } from './support';

const RUN = `r${Date.now().toString(36)}`;
const TOPIC = `budget-${RUN}`;
const GROUPS = [1, 2, 3].map((i) => `budget-${i}-${RUN}`);
const RECORDS = 10;

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
