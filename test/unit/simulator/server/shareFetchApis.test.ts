/**
 * ShareFetch and ShareAcknowledge over the wire, with the generated codecs a KafkaShareConsumer uses: share
 * sessions on a connection, acquisition, acknowledgements, release when the session's connection closes, lock
 * expiry, a parked fetch, and the errors of KafkaApis and SharePartitionManager.
 */
import assert from 'node:assert/strict';
import { decodeRecordBatches } from '../../../../src/protocol/recordBatch';
import { errorCodeOf } from '../../../../src/protocol/errorCodes';
import { AcknowledgeType } from '../../../../src/simulator/share/recordState';
import { AlterShareGroupOffsetsRequest } from '../../../../src/protocol/messages/alterShareGroupOffsetsRequest';
import { AlterShareGroupOffsetsResponse } from '../../../../src/protocol/messages/alterShareGroupOffsetsResponse';
import { DeleteShareGroupOffsetsRequest } from '../../../../src/protocol/messages/deleteShareGroupOffsetsRequest';
import { DeleteShareGroupOffsetsResponse } from '../../../../src/protocol/messages/deleteShareGroupOffsetsResponse';
import { DescribeShareGroupOffsetsRequest } from '../../../../src/protocol/messages/describeShareGroupOffsetsRequest';
import { DescribeShareGroupOffsetsResponse } from '../../../../src/protocol/messages/describeShareGroupOffsetsResponse';
import { describeSimGroup } from '../../../../src/simulator/admin/groupDetailMapper';
import { codecExchange, coordinatorPort, leaderPort, serverForSuite, waitFor, type ServerUnderTest } from './serverTestKit';
import { acquiredOf, joinShareGroup, shareHeartbeat, ShareWireConsumer } from './shareWireConsumer';
import { WireConnection } from './wireConnection';

const MEMBER = 'shareFetchMember000001';

/** Partition `partition` of "orders": its topic id and a connection to its leader. */
async function leaderOf(env: ServerUnderTest, partition: number): Promise<{ topicId: string; connection: WireConnection }> {
  return { topicId: env.sim.cluster.requireTopic('orders').topicId, connection: await WireConnection.open(leaderPort(env, 'orders', partition)) };
}

describe('simulator Kafka server: ShareFetch and ShareAcknowledge', function () {
  this.timeout(30000);
  const suite = serverForSuite();
  const connections: WireConnection[] = [];
  const open = async (partition: number): Promise<{ topicId: string; connection: WireConnection }> => {
    const leader = await leaderOf(suite.env, partition);
    connections.push(leader.connection);
    return leader;
  };
  afterEach(() => {
    connections.splice(0).forEach((connection) => connection.close());
  });

  it('acquires a partition\'s records in a new session, takes their acknowledgement, and moves the start offset past them', async () => {
    const env = suite.env;
    const group = 'share-fetch-accept';
    env.sim.shares.setSettings(group, { autoOffsetReset: 'earliest' });
    await joinShareGroup(env, group, MEMBER, 'orders');
    const { topicId, connection } = await open(0);
    const consumer = new ShareWireConsumer(connection, group, MEMBER);

    const fetched = await consumer.fetch([{ topicId, partition: 0 }]);
    assert.deepEqual([fetched.errorCode, fetched.acquisitionLockTimeoutMs], [0, 30_000]);
    assert.deepEqual(acquiredOf(fetched, topicId, 0), [[0, 3, 1]]);
    const records = decodeRecordBatches(fetched.responses[0].partitions[0].records ?? new Uint8Array(0)).flatMap((batch) => batch.records);
    assert.deepEqual(records.map((r) => [Number(r.offset), Buffer.from(r.value ?? []).toString()]), [0, 1, 2, 3].map((o) => [o, `orders/0@${o}`]));

    const acked = await consumer.acknowledge([{ topicId, partition: 0, acks: [{ firstOffset: 0, lastOffset: 3, acknowledgeTypes: [AcknowledgeType.ACCEPT] }] }]);
    assert.deepEqual([acked.errorCode, acked.responses[0].partitions[0].errorCode, acked.acquisitionLockTimeoutMs], [0, 0, 30_000]);
    // The write goes out before the start offset moves (SharePartition.rollbackOrProcessStateUpdates), so the
    // share coordinator holds start offset 0 with all four delivered until the partition's next write.
    assert.deepEqual([env.sim.shareStates.summary(group, topicId, 0).startOffset, env.sim.shareStates.summary(group, topicId, 0).deliveryCompleteCount], [0, 4]);
    assert.deepEqual([env.sim.shares.deliveryState(group, topicId, 0)?.startOffset, env.sim.shares.deliveryState(group, topicId, 0)?.ranges], [4, []]);

    // DescribeShareGroupOffsets on the group's coordinator: lag = log end - start offset - delivery-complete count;
    // the partitions nobody fetched yet have no start offset (-1), as on a broker.
    const offsets = await codecExchange(coordinatorPort(env, group), DescribeShareGroupOffsetsRequest, DescribeShareGroupOffsetsResponse, 1, { groups: [{ groupId: group, topics: null }] });
    const rows = offsets.groups[0].topics.flatMap((t) => t.partitions.map((p) => [t.topicName, p.partitionIndex, Number(p.startOffset), Number(p.lag)]));
    assert.deepEqual(rows, [['orders', 0, 0, 0], ['orders', 1, -1, -1], ['orders', 2, -1, -1]]);
    // The tree reads the same rows.
    const detail = describeSimGroup(env.sim, group);
    assert.deepEqual(detail.offsets.map((o) => [o.partition, o.committedOffset, o.lag]), [[0, 0, 0], [1, null, null], [2, null, null]]);
    assert.equal(detail.shareGroup?.configs.autoOffsetReset, 'earliest');

    // A later fetch of the session with nothing to give answers for no partition.
    const idle = await consumer.fetch([], { maxWaitMs: 0 });
    assert.deepEqual([idle.errorCode, idle.responses], [0, []]);
  });

  it('gives the records of a member whose connection closed to the next fetch, with their delivery count raised', async () => {
    const env = suite.env;
    const group = 'share-fetch-release';
    env.sim.shares.setSettings(group, { autoOffsetReset: 'earliest' });
    await joinShareGroup(env, group, MEMBER, 'orders');
    const first = await open(1);
    const acquired = await new ShareWireConsumer(first.connection, group, MEMBER).fetch([{ topicId: first.topicId, partition: 1 }]);
    assert.deepEqual(acquiredOf(acquired, first.topicId, 1), [[0, 3, 1]]);
    first.connection.close();
    await waitFor('the closed session to release its records', () => env.sim.shares.session(env.sim.cluster.requireTopic('orders').leaders[1], group, MEMBER) === undefined);
    // The release was written to the share coordinator; the group's last session on the broker is gone, so its
    // share partitions there are dropped (onGroupEmpty) and the next fetch starts again from that state.
    assert.deepEqual(env.sim.shareStates.get(group, first.topicId, 1)?.stateBatches, [{ firstOffset: 0, lastOffset: 3, deliveryState: 0, deliveryCount: 1 }]);
    assert.equal(env.sim.shares.cached(group, first.topicId, 1), undefined);

    const second = await open(1);
    const again = await new ShareWireConsumer(second.connection, group, MEMBER).fetch([{ topicId: second.topicId, partition: 1 }]);
    assert.deepEqual(acquiredOf(again, second.topicId, 1), [[0, 3, 2]]);
  });

  it('makes records available again when their lock expires, and refuses their acknowledgement by the old holder', async () => {
    const env = suite.env;
    const group = 'share-fetch-expiry';
    env.sim.shares.setSettings(group, { autoOffsetReset: 'earliest', recordLockDurationMs: 1_000 });
    await joinShareGroup(env, group, MEMBER, 'orders');
    const { topicId, connection } = await open(2);
    const consumer = new ShareWireConsumer(connection, group, MEMBER);
    assert.deepEqual(acquiredOf(await consumer.fetch([{ topicId, partition: 2 }]), topicId, 2), [[0, 3, 1]]);
    env.sim.advance(1_000);
    assert.deepEqual(env.sim.shares.deliveryState(group, topicId, 2)?.ranges.map((r) => [r.state, r.deliveryCount]), [['AVAILABLE', 1]]);

    const other = new ShareWireConsumer(await WireConnection.open(connection.port), group, 'shareFetchMember000002');
    connections.push(other.connection);
    assert.deepEqual(acquiredOf(await other.fetch([{ topicId, partition: 2 }]), topicId, 2), [[0, 3, 2]]);
    const refused = await consumer.acknowledge([{ topicId, partition: 2, acks: [{ firstOffset: 0, lastOffset: 3, acknowledgeTypes: [AcknowledgeType.ACCEPT] }] }]);
    assert.equal(refused.responses[0].partitions[0].errorCode, errorCodeOf('INVALID_RECORD_STATE'));
  });

  it('parks a fetch with nothing to give until records are produced, then lets go of every waiter', async () => {
    const env = suite.env;
    const group = 'share-fetch-parked';
    await joinShareGroup(env, group, MEMBER, 'orders');
    const { topicId, connection } = await open(0);
    const consumer = new ShareWireConsumer(connection, group, MEMBER);
    // share.auto.offset.reset latest: the partition starts at its end, so the first fetch parks.
    const parked = consumer.fetch([{ topicId, partition: 0 }], { maxWaitMs: 20_000 });
    await waitFor('the fetch to park', () => env.sim.shares.waiterCount === 1);
    const log = env.sim.cluster.requireTopic('orders').partitions[0];
    const base = log.append(2, env.sim.now);
    const response = await parked;
    assert.deepEqual(acquiredOf(response, topicId, 0), [[base, base + 1, 1]]);
    assert.deepEqual([env.sim.shares.waiterCount, log.waiterCount], [0, 0]);
  });

  it('answers the session and request errors of KafkaApis and SharePartitionManager', async () => {
    const env = suite.env;
    const group = 'share-fetch-errors';
    await joinShareGroup(env, group, MEMBER, 'orders');
    const { topicId, connection } = await open(0);
    const consumer = new ShareWireConsumer(connection, group, MEMBER);

    const noSession = await consumer.fetch([{ topicId, partition: 0 }], { epoch: 5 });
    assert.equal(noSession.errorCode, errorCodeOf('SHARE_SESSION_NOT_FOUND'));
    const ackInInitial = await consumer.fetch([{ topicId, partition: 0, acks: [{ firstOffset: 0, lastOffset: 0, acknowledgeTypes: [AcknowledgeType.ACCEPT] }] }], { epoch: 0 });
    assert.equal(ackInInitial.errorCode, errorCodeOf('INVALID_REQUEST'));
    const badMember = await new ShareWireConsumer(connection, group, 'x'.repeat(37)).fetch([{ topicId, partition: 0 }]);
    assert.deepEqual([badMember.errorCode, badMember.errorMessage], [errorCodeOf('INVALID_REQUEST'), 'Invalid member id in the request.']);

    const opened = await consumer.fetch([{ topicId, partition: 0 }, { topicId: 'AAAAAAAAAAAAAAAAAAAAAQ', partition: 0 }]);
    assert.equal(opened.errorCode, 0);
    const unknown = opened.responses.find((t) => t.topicId === 'AAAAAAAAAAAAAAAAAAAAAQ')?.partitions[0];
    assert.equal(unknown?.errorCode, errorCodeOf('UNKNOWN_TOPIC_ID'));
    const staleEpoch = await consumer.fetch([], { epoch: 7 });
    assert.equal(staleEpoch.errorCode, errorCodeOf('INVALID_SHARE_SESSION_EPOCH'));

    // Offsets out of order: the partition's acknowledgement is INVALID_REQUEST, and the fetch itself goes on.
    const malformed = await consumer.fetch([{ topicId, partition: 0, acks: [{ firstOffset: 3, lastOffset: 3, acknowledgeTypes: [1] }, { firstOffset: 1, lastOffset: 1, acknowledgeTypes: [1] }] }]);
    assert.equal(malformed.errorCode, 0);
    assert.equal(malformed.responses.find((t) => t.topicId === topicId)?.partitions[0].acknowledgeErrorCode, errorCodeOf('INVALID_REQUEST'));
    // The session's partition of an unknown topic answers UNKNOWN_TOPIC_ID at every fetch, as a broker's does.
    assert.equal(malformed.responses.find((t) => t.topicId === 'AAAAAAAAAAAAAAAAAAAAAQ')?.partitions[0].errorCode, errorCodeOf('UNKNOWN_TOPIC_ID'));

    // A partition led by the other broker: NOT_LEADER_OR_FOLLOWER with the leader's endpoint.
    const topic = env.sim.cluster.requireTopic('orders');
    const elsewhere = topic.leaders.findIndex((leader) => leader !== topic.leaders[0]);
    assert.ok(elsewhere >= 0, 'the suite\'s topic spans both brokers');
    const moved = await consumer.fetch([{ topicId, partition: elsewhere }]);
    const partition = moved.responses.find((t) => t.topicId === topicId)?.partitions.find((p) => p.partitionIndex === elsewhere);
    assert.deepEqual([partition?.errorCode, partition?.currentLeader.leaderId, moved.nodeEndpoints.map((n) => n.nodeId)], [errorCodeOf('NOT_LEADER_OR_FOLLOWER'), topic.leaders[elsewhere], [topic.leaders[elsewhere]]]);

    // A group whose share state was never initialized (nobody joined it): the fetch says so for the partition.
    const stranger = new ShareWireConsumer(connection, 'share-fetch-no-state', MEMBER);
    const uninitialized = await stranger.fetch([{ topicId, partition: 0 }]);
    assert.deepEqual([uninitialized.responses[0].partitions[0].errorCode, uninitialized.responses[0].partitions[0].errorMessage], [errorCodeOf('UNKNOWN_SERVER_ERROR'), 'Read operation on uninitialized share partition not allowed.']);

    const closed = await consumer.acknowledge([], -1);
    assert.equal(closed.errorCode, 0);
    assert.equal(env.sim.shares.session(topic.leaders[0], group, MEMBER), undefined);
  });

  it('alters an empty group\'s start offsets and deletes a topic\'s share state, refusing a group with members and answering for a group that does not exist', async () => {
    const env = suite.env;
    const group = 'share-offsets-admin';
    const port = coordinatorPort(env, group);
    const alter = (groupId: string, startOffset: bigint) => codecExchange(port, AlterShareGroupOffsetsRequest, AlterShareGroupOffsetsResponse, 0, {
      groupId, topics: [{ topicName: 'orders', partitions: [{ partitionIndex: 0, startOffset }, { partitionIndex: 7, startOffset }] }, { topicName: 'missing', partitions: [{ partitionIndex: 0, startOffset }] }],
    });
    await joinShareGroup(env, group, MEMBER, 'orders');
    const busy = await alter(group, 2n);
    assert.deepEqual([busy.errorCode, busy.errorMessage], [errorCodeOf('NON_EMPTY_GROUP'), 'The group is not empty.']);
    assert.equal((await shareHeartbeat(env, group, MEMBER, -1)).errorCode, 0);

    const altered = await alter(group, 2n);
    assert.equal(altered.errorCode, 0);
    assert.deepEqual(altered.responses.map((t) => [t.topicName, t.partitions.map((p) => p.errorCode)]), [['orders', [0, errorCodeOf('UNKNOWN_TOPIC_OR_PARTITION')]], ['missing', [errorCodeOf('UNKNOWN_TOPIC_OR_PARTITION')]]]);
    const topicId = env.sim.cluster.requireTopic('orders').topicId;
    const end = env.sim.cluster.requireTopic('orders').partitions[0].highWatermark;
    assert.deepEqual(describeSimGroup(env.sim, group).offsets.map((o) => [o.partition, o.committedOffset, o.lag]), [[0, 2, end - 2], [1, null, null], [2, null, null]]);
    // The next member starts partition 0 at the new start offset.
    await joinShareGroup(env, group, 'shareFetchMember000003', 'orders');
    const { connection } = await open(0);
    assert.deepEqual(acquiredOf(await new ShareWireConsumer(connection, group, 'shareFetchMember000003').fetch([{ topicId, partition: 0 }]), topicId, 0), [[2, end - 1, 1]]);
    assert.equal((await shareHeartbeat(env, group, 'shareFetchMember000003', -1)).errorCode, 0);

    const remove = (groupId: string, topics: string[]) => codecExchange(port, DeleteShareGroupOffsetsRequest, DeleteShareGroupOffsetsResponse, 0, { groupId, topics: topics.map((topicName) => ({ topicName })) });
    const removed = await remove(group, ['orders', 'missing']);
    assert.deepEqual([removed.errorCode, removed.responses.map((t) => [t.topicName, t.errorCode]).sort()], [0, [['missing', errorCodeOf('UNKNOWN_TOPIC_OR_PARTITION')], ['orders', 0]]]);
    assert.deepEqual([describeSimGroup(env.sim, group).offsets, env.sim.shareStates.partitionsOf(group)], [[], []]);
    const absent = await remove('share-offsets-nobody', ['orders']);
    assert.deepEqual([absent.errorCode, absent.errorMessage], [errorCodeOf('GROUP_ID_NOT_FOUND'), 'Group share-offsets-nobody not found.']);
  });

  it('acquires along the log\'s batches: MaxRecords is exceeded to end on a batch boundary, and never takes the next batch', async () => {
    const env = suite.env;
    const group = 'share-fetch-batches';
    const topic = env.sim.cluster.createTopic('share-batches', 1);
    env.sim.coordinator.onTopicsChanged(['share-batches']);
    topic.partitions[0].append(3, env.sim.now);
    topic.partitions[0].append(3, env.sim.now + 1);
    env.sim.shares.setSettings(group, { autoOffsetReset: 'earliest' });
    await joinShareGroup(env, group, MEMBER, 'share-batches');
    const connection = await WireConnection.open(leaderPort(env, 'share-batches', 0));
    connections.push(connection);
    const consumer = new ShareWireConsumer(connection, group, MEMBER);
    assert.deepEqual(acquiredOf(await consumer.fetch([{ topicId: topic.topicId, partition: 0 }], { maxRecords: 2 }), topic.topicId, 0), [[0, 2, 1]]);
    // record_limit (v2's share acquire mode 1) takes exactly MaxRecords.
    assert.deepEqual(acquiredOf(await consumer.fetch([], { maxRecords: 2, shareAcquireMode: 1 }), topic.topicId, 0), [[3, 4, 1]]);
  });
});
