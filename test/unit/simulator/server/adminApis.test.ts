import assert from 'node:assert/strict';
import type { Admin } from 'kafkajs';
import { AssignerProtocol } from 'kafkajs';
import { WireReader, WireWriter } from '../../protocol/wire';
import { startServer, rawExchange, requestFrame, waitFor, type ServerUnderTest } from './serverTestKit';

describe('simulator Kafka server: administration over the wire', function () {
  this.timeout(60000);
  let env: ServerUnderTest;
  let admin: Admin;

  before(async () => {
    env = await startServer();
    admin = env.kafka.admin();
    await admin.connect();
  });

  after(async () => {
    await admin?.disconnect();
    await env?.stop();
  });

  it('shows a simulated consumer group to a real admin client, assignment bytes included', async () => {
    env.sim.addConsumer({ groupId: 'simulated', topics: ['orders'], assignors: ['range'] }, 'sim-1');
    await waitFor('the simulated group to be Stable', () => env.sim.coordinator.describeGroupNow('simulated').groupState === 'Stable');
    assert.ok((await admin.listGroups()).groups.some((g) => g.groupId === 'simulated'));
    const [described] = (await admin.describeGroups(['simulated'])).groups;
    const engine = env.sim.coordinator.describeGroupNow('simulated');
    assert.equal(described.protocol, 'range');
    assert.equal(described.members[0].memberId, engine.members[0].memberId);
    const assignment = AssignerProtocol.MemberAssignment.decode(described.members[0].memberAssignment);
    assert.deepEqual(assignment?.assignment, { orders: [0, 1, 2] });
  });

  it('creates topics, sets and deletes offsets of an empty group, and deletes the group', async () => {
    assert.equal(await admin.createTopics({ topics: [{ topic: 'created', numPartitions: 2 }] }), true);
    assert.equal(env.sim.cluster.partitionCount('created'), 2);
    // Again, as a raw CreateTopics v2 (kafkajs's own handling of the answer depends on its module instance).
    const again = new WireWriter()
      .array(['created'], (w, name) => w.string(name).int32(2).int16(1).array([], () => undefined).array([], () => undefined))
      .int32(1000)
      .boolean(false)
      .toBuffer();
    const reply = new WireReader(await rawExchange(env.server.endpoints()[0].port, requestFrame(19, 2, 9, again)));
    reply.int32();
    assert.equal(reply.int32(), 9);
    assert.equal(reply.int32(), 0, 'throttle time');
    assert.deepEqual(
      reply.array((t) => [t.string(), t.int16(), t.nullableString()]),
      [['created', 36, "Topic 'created' already exists."]],
    );

    await admin.setOffsets({ groupId: 'manual', topic: 'orders', partitions: [{ partition: 0, offset: '3' }] });
    const committed = await admin.fetchOffsets({ groupId: 'manual', topics: ['orders'] });
    assert.deepEqual(
      committed[0].partitions.map((p) => [p.partition, p.offset]),
      [
        [0, '3'],
        [1, '-1'],
        [2, '-1'],
      ],
    );
    await admin.deleteGroups(['manual']);
    assert.equal(env.sim.coordinator.group('manual'), undefined);
  });

  it('deletes committed offsets with OffsetDelete (which kafkajs lacks, so sent raw)', async () => {
    let committed = false;
    env.sim.coordinator.offsetCommit(
      { groupId: 'od', generationId: -1, memberId: '', groupInstanceId: null, topics: [{ name: 'orders', partitions: [{ partition: 0, offset: 2 }] }] },
      () => {
        committed = true;
      },
    );
    await waitFor('the engine to commit', () => committed);
    const owner = env.server.endpoints().find((e) => e.nodeId === env.sim.cluster.coordinatorFor('od').nodeId)!;
    const body = new WireWriter()
      .string('od')
      .array(['orders'], (w, name) => w.string(name).array([0], (pw, p) => pw.int32(p)))
      .toBuffer();
    const reply = new WireReader(await rawExchange(owner.port, requestFrame(47, 0, 6, body)));
    reply.int32();
    assert.equal(reply.int32(), 6);
    assert.equal(reply.int16(), 0);
    assert.equal(reply.int32(), 0);
    assert.deepEqual(
      reply.array((t) => [t.string(), t.array((p) => [p.int32(), p.int16()])]),
      [['orders', [[0, 0]]]],
    );
    const offsets = await admin.fetchOffsets({ groupId: 'od', topics: ['orders'] });
    assert.equal(offsets[0].partitions.find((p) => p.partition === 0)?.offset, '-1');
  });

  it('answers NOT_COORDINATOR from a broker that does not own the group', async () => {
    const owner = env.sim.cluster.coordinatorFor('simulated').nodeId;
    const other = env.server.endpoints().find((e) => e.nodeId !== owner)!;
    const body = new WireWriter().string('simulated').int32(1).string('nobody').toBuffer();
    const raw = await rawExchange(other.port, requestFrame(12, 0, 5, body));
    const reply = new WireReader(raw);
    reply.int32();
    assert.equal(reply.int32(), 5);
    assert.equal(reply.int16(), 16);
  });

  it('deletes topics with DeleteTopics: their offsets go from every group, a name comes back with a new id, internal topics stay', async () => {
    await admin.createTopics({ topics: [{ topic: 'doomed', numPartitions: 2 }] });
    const firstId = env.sim.cluster.topic('doomed')?.topicId;
    await admin.setOffsets({ groupId: 'doomed-reader', topic: 'doomed', partitions: [{ partition: 0, offset: '1' }, { partition: 1, offset: '2' }] });
    await admin.setOffsets({ groupId: 'doomed-reader', topic: 'orders', partitions: [{ partition: 0, offset: '4' }] });
    await admin.deleteTopics({ topics: ['doomed'], timeout: 1000 });
    assert.equal(env.sim.cluster.topic('doomed'), undefined);
    assert.equal(env.sim.coordinator.committedOffsets('doomed-reader')?.has('doomed'), false, 'the offsets of the deleted topic went');
    assert.equal(env.sim.coordinator.committedOffsets('doomed-reader')?.get('orders')?.get(0)?.offset, 4, 'the others stayed');
    await admin.createTopics({ topics: [{ topic: 'doomed', numPartitions: 1 }] });
    assert.notEqual(env.sim.cluster.topic('doomed')?.topicId, firstId, 'a new topic of the same name has a new id');

    // Raw DeleteTopics v5: an unknown topic, a duplicate, and the internal __consumer_offsets, each with its error.
    const body = new WireWriter().compactArray(['missing', 'dup', 'dup', '__consumer_offsets'], (w, name) => w.compactString(name)).int32(1000).emptyTaggedFields().toBuffer();
    const reply = new WireReader(await rawExchange(env.server.endpoints()[0].port, requestFrame(20, 5, 11, body, true)));
    reply.int32();
    assert.equal(reply.int32(), 11);
    reply.skipTaggedFields();
    assert.equal(reply.int32(), 0, 'throttle time');
    const results = reply.compactArray((r) => {
      const row = [r.compactNullableString(), r.int16(), r.compactNullableString()];
      r.skipTaggedFields();
      return row;
    });
    assert.deepEqual(results.sort(), [
      ['__consumer_offsets', 42, 'The simulator does not delete its internal topic __consumer_offsets.'],
      ['dup', 42, 'Duplicate topic name.'],
      ['missing', 3, null],
    ]);
    assert.ok(env.sim.cluster.topic('__consumer_offsets'));
  });
});
