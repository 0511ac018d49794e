import assert from 'node:assert/strict';
import type { Admin, Consumer, EachMessagePayload, Producer } from 'kafkajs';
import { WireReader } from '../../protocol/wire';
import { startServer, rawExchange, requestFrame, waitFor, type ServerUnderTest } from './serverTestKit';

describe('simulator Kafka server with kafkajs 2.2.4', function () {
  this.timeout(60000);
  let env: ServerUnderTest;
  let admin: Admin;
  let producer: Producer;
  const consumers: Consumer[] = [];

  before(async () => {
    env = await startServer();
    admin = env.kafka.admin();
    producer = env.kafka.producer();
    await admin.connect();
    await producer.connect();
  });

  after(async () => {
    for (const consumer of consumers) {
      await consumer.disconnect();
    }
    await producer?.disconnect();
    await admin?.disconnect();
    await env?.stop();
  });

  it('answers ApiVersions v6 (above Kafka 4.4) with the v0 error form, and v2 with the supported ranges', async () => {
    const port = env.server.endpoints()[0].port;
    const tooNew = new WireReader(await rawExchange(port, requestFrame(18, 6, 7, Buffer.from([0, 0, 0]), true)));
    tooNew.int32();
    assert.equal(tooNew.int32(), 7);
    assert.equal(tooNew.int16(), 35);
    const ranges = tooNew.array((a) => ({ key: a.int16(), min: a.int16(), max: a.int16() }));
    assert.equal(tooNew.remaining, 0);
    assert.deepEqual(ranges.find((r) => r.key === 11), { key: 11, min: 0, max: 9 });

    const ok = new WireReader(await rawExchange(port, requestFrame(18, 2, 8, Buffer.alloc(0))));
    ok.int32();
    assert.equal(ok.int32(), 8);
    assert.equal(ok.int16(), 0);
    assert.deepEqual(ok.array((a) => ({ key: a.int16(), min: a.int16(), max: a.int16() })), ranges);
    assert.equal(ok.int32(), 0);
  });

  it('describes the simulated cluster: brokers on their real ports, topics with leaders', async () => {
    const cluster = await admin.describeCluster();
    assert.deepEqual(
      cluster.brokers.map((b) => ({ nodeId: b.nodeId, port: b.port })).sort((a, b) => a.nodeId - b.nodeId),
      env.server.endpoints().map((e) => ({ nodeId: e.nodeId, port: e.port })),
    );
    assert.equal(cluster.clusterId, env.sim.cluster.clusterId);
    assert.equal(cluster.controller, env.sim.cluster.describe().controllerId);
    const metadata = await admin.fetchTopicMetadata({ topics: ['orders'] });
    assert.deepEqual(
      metadata.topics[0].partitions.map((p) => [p.partitionId, p.leader]).sort((a, b) => a[0] - b[0]),
      env.sim.cluster.requireTopic('orders').leaders.map((leader, partition) => [partition, leader]),
    );
  });

  it('appends produced records to the simulated partition log', async () => {
    const log = env.sim.cluster.partition('orders', 1)!;
    const before = log.highWatermark;
    const [result] = await producer.send({ topic: 'orders', messages: [0, 1, 2].map((i) => ({ partition: 1, value: `m${i}` })) });
    assert.equal(result.errorCode, 0);
    assert.equal(Number(result.baseOffset), before);
    assert.equal(log.highWatermark, before + 3);
    const offsets = await admin.fetchTopicOffsets('orders');
    assert.deepEqual(
      offsets.map((o) => [o.partition, Number(o.high)]).sort((a, b) => a[0] - b[0]),
      [0, 1, 2].map((p) => [p, env.sim.cluster.partition('orders', p)!.highWatermark]),
    );
  });

  it('gives idempotent producers a producer id and appends their batches', async () => {
    const idempotent = env.kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await idempotent.connect();
    try {
      const log = env.sim.cluster.partition('orders', 2)!;
      const before = log.highWatermark;
      await idempotent.send({ topic: 'orders', messages: [{ partition: 2, value: 'once' }] });
      assert.equal(log.highWatermark, before + 1);
    } finally {
      await idempotent.disconnect();
    }
  });

  it('runs a real consumer group on the engine coordinator: join, sync, fetch, commit, describe', async () => {
    const groupId = 'real-clients';
    const seen = new Map<string, string>();
    const onMessage = async ({ partition, message }: EachMessagePayload): Promise<void> => {
      seen.set(`${partition}@${message.offset}`, message.value?.toString() ?? '');
    };
    for (let i = 0; i < 2; i++) {
      const consumer = env.kafka.consumer({ groupId, sessionTimeout: 10000, heartbeatInterval: 300, maxWaitTimeInMs: 200 });
      consumers.push(consumer);
      await consumer.connect();
      await consumer.subscribe({ topic: 'orders', fromBeginning: true });
      await consumer.run({ eachMessage: onMessage });
    }
    const logs = [0, 1, 2].map((p) => env.sim.cluster.partition('orders', p)!);
    const total = logs.reduce((n, log) => n + log.highWatermark, 0);

    const engineGroup = () => env.sim.coordinator.describeGroupNow(groupId);
    await waitFor('two stable members owning all partitions', () => {
      const group = engineGroup();
      return group.groupState === 'Stable' && group.members.length === 2 && group.members.flatMap((m) => m.assignment.partitions).length === 3;
    });
    await waitFor('every record consumed', () => seen.size === total);
    assert.equal(seen.get('0@0'), 'orders/0@0');
    assert.equal(seen.get('2@3'), 'orders/2@3');

    const committed = async () => (await admin.fetchOffsets({ groupId, topics: ['orders'] }))[0].partitions;
    await waitFor('offsets committed up to the high watermarks', async () =>
      (await committed()).every((p) => Number(p.offset) === logs[p.partition].highWatermark),
    );

    // The admin's view over the wire and the engine's own view agree.
    const [described] = (await admin.describeGroups([groupId])).groups;
    const group = engineGroup();
    assert.equal(described.state, 'Stable');
    assert.equal(described.protocol, group.protocolData);
    assert.deepEqual(described.members.map((m) => m.memberId).sort(), group.members.map((m) => m.memberId).sort());
    assert.ok(group.members.every((m) => m.clientId === 'server-test' && m.clientHost === '/127.0.0.1'));
    const listed = (await admin.listGroups()).groups.find((g) => g.groupId === groupId);
    assert.deepEqual(listed, { groupId, protocolType: 'consumer' });
    // The joins are in the engine's event log, which the timeline draws.
    const joined = env.sim.events.forGroup(groupId).filter((e) => e.kind === 'member-joined').map((e) => e.memberId);
    assert.deepEqual(new Set(joined), new Set(group.members.map((m) => m.memberId)));
  });

  it('sees a leaving member through LeaveGroup and rebalances the rest', async () => {
    const groupId = 'real-clients';
    const leaving = consumers.pop()!;
    await leaving.disconnect();
    await waitFor('one member owning all partitions', () => {
      const group = env.sim.coordinator.describeGroupNow(groupId);
      return group.groupState === 'Stable' && group.members.length === 1 && group.members[0].assignment.partitions.length === 3;
    });
  });
});
