/**
 * KafkaSource against a real Kafka 4.x broker (started by scripts/kafka/run-tests.js): groups made
 * by kafkajs consumers, Java classic (cooperative-sticky, static) and KIP-848 members, lag checked
 * against kafka-consumer-groups.sh, and the admin requests kafkajs lacks, over SASL/SCRAM.
 *
 * kafkajs cannot join with a group.instance.id, so its members are dynamic; static membership is
 * exercised with the Java members.
 */
import { strict as assert } from 'node:assert';
import type { Consumer } from 'kafkajs';
import type { GroupDetail, GroupSummary } from '../../src/model/types';
import { KafkaSource } from '../../src/kafka/kafkaSource';
import { decodeAssignment, decodeSubscription } from '../../src/protocol/consumerProtocol';
import {
  JavaMember,
  MemoryLogger,
  brokerEnv,
  createTopics,
  describeAllGroupsWithCli,
  produceToEveryPartition,
  startKafkajsMember,
  testKafka,
  waitFor,
} from './support';

const RUN = `r${Date.now().toString(36)}`;
const ORDERS = `orders-${RUN}`;
const PAYMENTS = `payments-${RUN}`;
const RECORDS_PER_PARTITION = 10;
const COMMIT_UP_TO = 6;
const GROUP_BOTH = `js-both-${RUN}`;
const GROUP_PAYMENTS = `js-payments-${RUN}`;
const GROUP_COOP = `java-coop-${RUN}`;
const GROUP_KIP848 = `java-848-${RUN}`;
const GROUP_ADMIN = `admin-${RUN}`;

describe('KafkaSource on a real broker', function () {
  this.timeout(120000);
  const env = brokerEnv();
  const logger = new MemoryLogger();
  const kafkajsMembers: Consumer[] = [];
  const javaMembers: JavaMember[] = [];
  let source: KafkaSource;

  const describeWhen = (groupId: string, ready: (g: GroupDetail) => boolean) =>
    waitFor(`group ${groupId} to settle`, async () => {
      const g = await source.describeGroup(groupId);
      return ready(g) ? g : undefined;
    });

  before(async () => {
    source = new KafkaSource({ id: 'plain', name: 'plain', bootstrapServers: [env.bootstrap] }, {}, { logger });
    await createTopics([
      { topic: ORDERS, numPartitions: 3 },
      { topic: PAYMENTS, numPartitions: 2 },
    ]);
    await produceToEveryPartition(ORDERS, 3, RECORDS_PER_PARTITION);
    await produceToEveryPartition(PAYMENTS, 2, RECORDS_PER_PARTITION);

    const coop = (instanceId: string) =>
      new JavaMember(env, { groupId: GROUP_COOP, topics: [ORDERS], protocol: 'classic', instanceId, assignor: 'org.apache.kafka.clients.consumer.CooperativeStickyAssignor' });
    javaMembers.push(coop('static-1'));
    javaMembers.push(new JavaMember(env, { groupId: GROUP_KIP848, topics: [ORDERS, PAYMENTS], protocol: 'consumer', instanceId: 'kip848-1' }));
    kafkajsMembers.push(await startKafkajsMember(GROUP_BOTH, [ORDERS, PAYMENTS], COMMIT_UP_TO));
    kafkajsMembers.push(await startKafkajsMember(GROUP_BOTH, [ORDERS, PAYMENTS], COMMIT_UP_TO));
    kafkajsMembers.push(await startKafkajsMember(GROUP_PAYMENTS, [PAYMENTS], RECORDS_PER_PARTITION));
    await javaMembers[0].waitForAssignment();
    // A second cooperative member makes the first rejoin with owned partitions and a generation.
    javaMembers.push(coop('static-2'));
    await Promise.all(javaMembers.map((m) => m.waitForAssignment()));
  });

  after(async () => {
    await Promise.all(kafkajsMembers.map((c) => c.disconnect()));
    await Promise.all(javaMembers.map((m) => m.stop()));
    await source?.dispose();
  });

  it('describes the cluster', async () => {
    const info = await source.describeCluster();
    assert.equal(info.brokers.length, 1);
    assert.equal(`${info.brokers[0].host}:${info.brokers[0].port}`, env.bootstrap);
    assert.ok(info.clusterId.length > 0);
  });

  it('loads two kafkajs members sharing two topics, with their committed offsets and lag', async () => {
    const group = await describeWhen(GROUP_BOTH, (g) => g.state === 'Stable' && g.memberCount === 2 && g.offsets.length === 5 && g.offsets.every((o) => o.committedOffset === COMMIT_UP_TO));
    assert.equal(group.protocolType, 'consumer');
    assert.equal(group.groupType, 'classic');
    assert.equal(group.assignor, 'RoundRobinAssigner');
    assert.equal(group.error, undefined);
    for (const member of group.members) {
      assert.deepEqual([...member.subscription].sort(), [ORDERS, PAYMENTS].sort());
      assert.equal(member.groupInstanceId, null);
    }
    const assigned = group.members.flatMap((m) => m.assignment.map((tp) => `${tp.topic}-${tp.partition}`)).sort();
    assert.deepEqual(assigned, [`${ORDERS}-0`, `${ORDERS}-1`, `${ORDERS}-2`, `${PAYMENTS}-0`, `${PAYMENTS}-1`].sort());
    for (const row of group.offsets) {
      assert.equal(row.logStartOffset, 0);
      assert.equal(row.logEndOffset, RECORDS_PER_PARTITION);
      assert.equal(row.lastStableOffset, RECORDS_PER_PARTITION);
      assert.equal(row.lag, RECORDS_PER_PARTITION - COMMIT_UP_TO);
      assert.ok(group.members.some((m) => m.memberId === row.ownerMemberId));
    }
    assert.equal(group.totalLag, 5 * (RECORDS_PER_PARTITION - COMMIT_UP_TO));
  });

  it('lists every group with its state, type and lag', async () => {
    await describeWhen(GROUP_PAYMENTS, (g) => g.state === 'Stable' && g.totalLag === 0);
    const groups = await source.listGroups();
    const byId = new Map<string, GroupSummary>(groups.map((g) => [g.groupId, g]));
    assert.equal(byId.get(GROUP_BOTH)?.memberCount, 2);
    assert.equal(byId.get(GROUP_BOTH)?.totalLag, 20);
    assert.equal(byId.get(GROUP_PAYMENTS)?.state, 'Stable');
    assert.equal(byId.get(GROUP_PAYMENTS)?.totalLag, 0);
    assert.equal(byId.get(GROUP_COOP)?.groupType, 'classic');
    assert.equal(byId.get(GROUP_KIP848)?.groupType, 'consumer');
    assert.ok(groups.every((g) => g.error === undefined), JSON.stringify(groups.filter((g) => g.error)));
  });

  it('decodes a Java cooperative-sticky group of static members', async () => {
    const group = await describeWhen(GROUP_COOP, (g) => g.state === 'Stable' && g.memberCount === 2 && g.members.every((m) => m.assignment.length > 0));
    assert.equal(group.assignor, 'cooperative-sticky');
    assert.deepEqual(group.members.map((m) => m.groupInstanceId).sort(), ['static-1', 'static-2']);
    assert.deepEqual(group.members.flatMap((m) => m.assignment.map((tp) => tp.partition)).sort(), [0, 1, 2]);
    assert.equal(group.generation, undefined, 'DescribeGroups carries no generation, and the group is not watched');

    // The same bytes, raw from kafkajs's DescribeGroups, decode to Java's v3 layouts.
    const admin = testKafka('raw-describe').admin();
    await admin.connect();
    try {
      const [raw] = (await admin.describeGroups([GROUP_COOP])).groups;
      const subscriptions = raw.members.map((m) => decodeSubscription(m.memberMetadata));
      for (const s of subscriptions) {
        assert.equal(s.version, 3);
        assert.deepEqual(s.topics, [ORDERS]);
        assert.equal(s.rackId, null);
      }
      const owning = subscriptions.filter((s) => s.ownedPartitions.length > 0);
      assert.ok(owning.length >= 1, 'a rejoining cooperative member reports its owned partitions');
      assert.ok(owning.every((s) => s.generationId >= 1 && s.ownedPartitions.every((tp) => tp.topic === ORDERS)));
      // Java 4.1's consumer writes ConsumerProtocolAssignment v3; the raw bytes say the same as our model.
      const assignments = raw.members.map((m) => ({ memberId: m.memberId, ...decodeAssignment(m.memberAssignment) }));
      assert.deepEqual(assignments.map((a) => a.version), [3, 3]);
      assert.deepEqual(assignments.flatMap((a) => a.partitions.map((tp) => `${tp.topic}-${tp.partition}`)).sort(), [0, 1, 2].map((p) => `${ORDERS}-${p}`));
      for (const a of assignments) {
        const member = group.members.find((m) => m.memberId === a.memberId);
        assert.ok(member, `member ${a.memberId} is in the described group`);
        assert.deepEqual(a.partitions.map((tp) => tp.partition).sort(), member.assignment.map((tp) => tp.partition).sort(), a.memberId);
      }
    } finally {
      await admin.disconnect();
    }
  });

  it("shows a classic group's generation only while its __consumer_offsets records are read, and then the right one", async () => {
    const groupId = `js-generation-${RUN}-watched`; // not ending in RUN: the CLI comparison below counts those
    kafkajsMembers.push(await startKafkajsMember(groupId, [PAYMENTS], RECORDS_PER_PARTITION));
    const unwatched = await describeWhen(groupId, (g) => g.state === 'Stable' && g.memberCount === 1);
    assert.equal(unwatched.generation, undefined, 'DescribeGroups carries no generation (a kafkajs subscription carries none either)');
    const stop = source.watchRebalances(groupId, (reason) => assert.fail(`the timeline is unavailable: ${reason}`));
    try {
      // The first join of a new group completes generation 1; a second member makes generation 2.
      await describeWhen(groupId, (g) => g.generation === 1);
      kafkajsMembers.push(await startKafkajsMember(groupId, [PAYMENTS], RECORDS_PER_PARTITION));
      const two = await describeWhen(groupId, (g) => g.state === 'Stable' && g.memberCount === 2 && g.generation !== 1);
      assert.equal(two.generation, 2);
    } finally {
      stop();
    }
    assert.equal((await source.describeGroup(groupId)).generation, undefined, 'no longer read, so no longer known');
  });

  it('recognises a KIP-848 consumer group and describes it with ConsumerGroupDescribe', async () => {
    const group = await describeWhen(GROUP_KIP848, (g) => g.state === 'Stable' && g.memberCount === 1 && g.members[0].assignment.length === 5);
    assert.equal(group.groupType, 'consumer');
    assert.equal(group.protocolType, 'consumer');
    assert.ok(['uniform', 'range'].includes(group.assignor), group.assignor);
    assert.ok((group.generation ?? 0) >= 1, `group epoch ${group.generation}`);
    assert.equal(group.members[0].groupInstanceId, 'kip848-1');
    assert.deepEqual([...group.members[0].subscription].sort(), [ORDERS, PAYMENTS].sort());
  });

  it('reports the same offsets and lag as kafka-consumer-groups.sh --describe', async () => {
    await describeWhen(GROUP_COOP, (g) => g.offsets.length === 3 && g.offsets.every((o) => o.committedOffset === RECORDS_PER_PARTITION));
    const cli = describeAllGroupsWithCli(env).filter((r) => r.group.endsWith(RUN));
    const groups = [GROUP_BOTH, GROUP_PAYMENTS, GROUP_COOP, GROUP_KIP848];
    assert.deepEqual([...new Set(cli.map((r) => r.group))].sort(), [...groups].sort());
    for (const groupId of groups) {
      const ours = (await source.describeGroup(groupId)).offsets.map((o) => ({
        group: groupId,
        topic: o.topic,
        partition: o.partition,
        currentOffset: o.committedOffset,
        logEndOffset: o.logEndOffset,
        lag: o.lag,
        consumerId: o.ownerMemberId ?? null,
      }));
      const theirs = cli.filter((r) => r.group === groupId);
      const key = (r: { topic: string; partition: number }) => `${r.topic}-${r.partition}`;
      assert.deepEqual([...ours].sort((a, b) => key(a).localeCompare(key(b))), [...theirs].sort((a, b) => key(a).localeCompare(key(b))), groupId);
    }
  });

  describe('admin requests over SASL/SCRAM-SHA-512', () => {
    let sasl: KafkaSource;
    before(() => {
      sasl = new KafkaSource(
        { id: 'sasl', name: 'sasl', bootstrapServers: [env.saslBootstrap], sasl: { mechanism: 'scram-sha-512', username: env.user } },
        { password: env.password },
        { logger },
      );
    });
    after(async () => {
      await sasl?.dispose();
    });

    it('commits offsets for an inactive group with an admin OffsetCommit', async () => {
      const results = await sasl.commitOffsets(GROUP_ADMIN, [0, 1, 2].map((partition) => ({ topic: ORDERS, partition, offset: 3 + partition })));
      assert.deepEqual(results, [0, 1, 2].map((partition) => ({ topic: ORDERS, partition })));
      const group = await sasl.describeGroup(GROUP_ADMIN);
      assert.equal(group.state, 'Empty');
      assert.deepEqual(group.offsets.map((o) => [o.partition, o.committedOffset, o.lag]), [[0, 3, 7], [1, 4, 6], [2, 5, 5]]);
    });

    it('refuses an admin OffsetCommit to an active group, per partition', async () => {
      const results = await sasl.commitOffsets(GROUP_PAYMENTS, [{ topic: PAYMENTS, partition: 0, offset: 1 }]);
      assert.equal(results.length, 1);
      assert.match(results[0].error ?? '', /UNKNOWN_MEMBER_ID|ILLEGAL_GENERATION|REBALANCE_IN_PROGRESS/);
    });

    it('deletes committed offsets with OffsetDelete, and refuses a subscribed topic of an active group', async () => {
      const deleted = await sasl.admin.deleteOffsets(GROUP_ADMIN, ORDERS, [0]);
      assert.deepEqual(deleted, { partitions: [{ topic: ORDERS, partition: 0 }] });
      const group = await sasl.describeGroup(GROUP_ADMIN);
      assert.deepEqual(group.offsets.map((o) => o.partition), [1, 2]);

      const refused = await sasl.admin.deleteOffsets(GROUP_PAYMENTS, PAYMENTS, [0, 1]);
      assert.equal(refused.error, undefined);
      assert.deepEqual(refused.partitions.map((p) => p.error?.split(':')[0]), ['GROUP_SUBSCRIBED_TO_TOPIC', 'GROUP_SUBSCRIBED_TO_TOPIC']);
    });

    it('removes a static member by group.instance.id and reports unknown ones', async () => {
      const before = await source.describeGroup(GROUP_COOP);
      const removedMemberId = before.members.find((m) => m.groupInstanceId === 'static-2')?.memberId;
      assert.ok(removedMemberId, JSON.stringify(before.members));
      const outcome = await sasl.admin.removeStaticMembers(GROUP_COOP, ['static-2', 'no-such-instance']);
      assert.equal(outcome.error, undefined);
      const byInstance = new Map(outcome.members.map((m) => [m.groupInstanceId, m]));
      assert.equal(byInstance.get('static-2')?.error, undefined);
      assert.match(byInstance.get('no-such-instance')?.error ?? '', /^UNKNOWN_MEMBER_ID/);
      // The still-running Java client rejoins under the same instance id with a new member id,
      // possibly before the next describe, so the fenced member id is what must be gone.
      await describeWhen(GROUP_COOP, (g) => !g.members.some((m) => m.memberId === removedMemberId));
    });

    it('deletes groups with one result per group', async () => {
      const results = await sasl.admin.deleteGroups([GROUP_ADMIN, GROUP_PAYMENTS, `missing-${RUN}`]);
      const byId = new Map(results.map((r) => [r.groupId, r.error?.split(':')[0]]));
      assert.equal(byId.get(GROUP_ADMIN), undefined);
      assert.equal(byId.get(GROUP_PAYMENTS), 'NON_EMPTY_GROUP');
      assert.equal(byId.get(`missing-${RUN}`), 'GROUP_ID_NOT_FOUND');
      const groups = await sasl.listGroups();
      assert.ok(!groups.some((g) => g.groupId === GROUP_ADMIN));
    });
  });
});
