/**
 * The admin APIs of transactions (KIP-664) through the server's generated codecs, as kafka-transactions.sh
 * sends them: DescribeProducers at a partition's leader, ListTransactions and DescribeTransactions at the
 * transaction coordinator, and WriteTxnMarkers aborting an open transaction at the leader.
 */
import { strict as assert } from 'node:assert';
import { errorCodeOf } from '../../../../src/protocol/errorCodes';
import { DescribeProducersRequest } from '../../../../src/protocol/messages/describeProducersRequest';
import { DescribeProducersResponse, type ProducerState } from '../../../../src/protocol/messages/describeProducersResponse';
import { DescribeTransactionsRequest } from '../../../../src/protocol/messages/describeTransactionsRequest';
import { DescribeTransactionsResponse } from '../../../../src/protocol/messages/describeTransactionsResponse';
import { ListTransactionsRequest } from '../../../../src/protocol/messages/listTransactionsRequest';
import { ListTransactionsResponse } from '../../../../src/protocol/messages/listTransactionsResponse';
import { WriteTxnMarkersRequest } from '../../../../src/protocol/messages/writeTxnMarkersRequest';
import { WriteTxnMarkersResponse } from '../../../../src/protocol/messages/writeTxnMarkersResponse';
import { describeSimGroup } from '../../../../src/simulator/admin/groupDetailMapper';
import { offsetsPartitionFor } from '../../../../src/protocol/offsetsPartition';
import { TxnOffsetCommitRequest } from '../../../../src/protocol/messages/txnOffsetCommitRequest';
import { TxnOffsetCommitResponse } from '../../../../src/protocol/messages/txnOffsetCommitResponse';
import { initTransactionalProducer, produceTransactional, type ProducerIdAndEpoch } from './transactionClient';
import { codecExchange, coordinatorPort, leaderPort, startServer, type ServerUnderTest } from './serverTestKit';

const TOPIC = 'payments-txn';
const NONE = 0;
const ID = 'payments-tx-3';

describe('simulator server: the admin APIs of transactions (kafka-transactions.sh)', function () {
  this.timeout(20000);
  let t: ServerUnderTest;
  let producer: ProducerIdAndEpoch;
  let openedAt: number;

  before(async () => {
    t = await startServer();
    t.sim.cluster.createTopic(TOPIC, 2);
    t.sim.cluster.requireTopic(TOPIC).partitions[0].append(5, t.sim.now);
    producer = await initTransactionalProducer(coordinatorPort(t, ID), ID, 45_000);
    openedAt = Date.now();
    assert.equal(await produceTransactional(t, 12, ID, producer, TOPIC, 0, 3, 0), NONE);
    assert.equal(await produceTransactional(t, 12, ID, producer, TOPIC, 0, 2, 3), NONE);
  });

  after(async () => {
    await t?.stop();
  });

  const log = (partition: number) => t.sim.cluster.requireTopic(TOPIC).partitions[partition];
  const otherBroker = (nodeId: number) => t.server.endpoints().find((e) => e.nodeId !== nodeId)!.port;

  async function producersOf(partition: number, port = leaderPort(t, TOPIC, partition)) {
    const response = await codecExchange(port, DescribeProducersRequest, DescribeProducersResponse, 0, { topics: [{ name: TOPIC, partitionIndexes: [partition] }] });
    return response.topics[0].partitions[0];
  }

  const list = (port: number, body: Partial<{ stateFilters: string[]; producerIdFilters: bigint[]; durationFilter: bigint; transactionalIdPattern: string | null }>, version = 2) =>
    codecExchange(port, ListTransactionsRequest, ListTransactionsResponse, version, { stateFilters: [], producerIdFilters: [], durationFilter: -1n, transactionalIdPattern: null, ...body });

  it('DescribeProducers names the open transaction holding the LSO, with its epoch, last sequence and start offset', async () => {
    const answer = await producersOf(0);
    assert.equal(answer.errorCode, NONE);
    const expected: Omit<ProducerState, 'lastTimestamp'> = { producerId: producer.producerId, producerEpoch: producer.producerEpoch, lastSequence: 4, coordinatorEpoch: -1, currentTxnStartOffset: 5n };
    assert.deepEqual(answer.activeProducers.map(({ lastTimestamp: _, ...rest }) => rest), [expected]);
    assert.ok(Math.abs(Number(answer.activeProducers[0].lastTimestamp) - Date.now()) < 10_000, 'the last write is now, on the simulation clock');
    assert.equal(log(0).lastStableOffset, 5, 'the LSO is the transaction\'s first offset');
    assert.deepEqual((await producersOf(1)).activeProducers, [], 'no producer wrote to partition 1');
    const elsewhere = await producersOf(0, otherBroker(t.sim.cluster.requireTopic(TOPIC).leaders[0]));
    assert.equal(elsewhere.errorCode, errorCodeOf('NOT_LEADER_OR_FOLLOWER'));
    const unknown = await codecExchange(leaderPort(t, TOPIC, 0), DescribeProducersRequest, DescribeProducersResponse, 0, { topics: [{ name: 'no-such-topic', partitionIndexes: [0] }, { name: TOPIC, partitionIndexes: [7] }] });
    assert.deepEqual(unknown.topics.map((tp) => tp.partitions[0].errorCode), [errorCodeOf('UNKNOWN_TOPIC_OR_PARTITION'), errorCodeOf('UNKNOWN_TOPIC_OR_PARTITION')]);
  });

  it('ListTransactions lists what this coordinator owns, with the state, producer id, duration and pattern filters', async () => {
    const port = coordinatorPort(t, ID);
    const all = await list(port, {});
    assert.deepEqual(all.transactionStates.filter((s) => s.transactionalId === ID), [{ transactionalId: ID, producerId: producer.producerId, transactionState: 'Ongoing' }]);
    const filtered = await list(port, { stateFilters: ['Ongoing', 'ongoing', 'Stuck'] });
    assert.deepEqual(filtered.unknownStateFilters, ['ongoing', 'Stuck'], 'state names are case-sensitive, as TransactionState.fromName');
    assert.deepEqual(filtered.transactionStates.map((s) => s.transactionalId), [ID]);
    assert.deepEqual((await list(port, { stateFilters: ['CompleteCommit'] })).transactionStates, []);
    assert.deepEqual((await list(port, { producerIdFilters: [producer.producerId + 1000n] })).transactionStates, []);
    assert.deepEqual((await list(port, { durationFilter: 3_600_000n })).transactionStates, [], 'not open for an hour');
    assert.deepEqual((await list(port, { durationFilter: 0n })).transactionStates.map((s) => s.transactionalId), [ID]);
    assert.deepEqual((await list(port, { transactionalIdPattern: 'payments-.*' })).transactionStates.map((s) => s.transactionalId), [ID]);
    assert.deepEqual((await list(port, { transactionalIdPattern: 'payments' })).transactionStates, [], 'the pattern matches the whole id');
    assert.equal((await list(port, { transactionalIdPattern: '(' })).errorCode, errorCodeOf('INVALID_REGULAR_EXPRESSION'));
    assert.deepEqual((await list(otherBroker(t.sim.cluster.coordinatorFor(ID).nodeId), {})).transactionStates, [], 'another broker coordinates none of it');
    assert.deepEqual((await list(port, {}, 0)).transactionStates.map((s) => s.transactionalId), [ID], 'v0 has no duration or pattern');
  });

  it('DescribeTransactions gives the state, timeout, start time and partitions; unknown and misrouted ids get Kafka\'s errors', async () => {
    const port = coordinatorPort(t, ID);
    const response = await codecExchange(port, DescribeTransactionsRequest, DescribeTransactionsResponse, 0, { transactionalIds: [ID, 'never-seen', ''] });
    const [described, unknown, empty] = response.transactionStates;
    assert.deepEqual(
      { ...described, transactionStartTimeMs: 0n },
      { errorCode: NONE, transactionalId: ID, transactionState: 'Ongoing', transactionTimeoutMs: 45_000, transactionStartTimeMs: 0n, producerId: producer.producerId, producerEpoch: producer.producerEpoch, topics: [{ topic: TOPIC, partitions: [0] }] },
    );
    assert.ok(Math.abs(Number(described.transactionStartTimeMs) - openedAt) < 10_000);
    assert.equal(unknown.errorCode, errorCodeOf('TRANSACTIONAL_ID_NOT_FOUND'));
    assert.equal(empty.errorCode, errorCodeOf('INVALID_REQUEST'));
    const misrouted = await codecExchange(otherBroker(t.sim.cluster.coordinatorFor(ID).nodeId), DescribeTransactionsRequest, DescribeTransactionsResponse, 0, { transactionalIds: [ID] });
    assert.equal(misrouted.transactionStates[0].errorCode, errorCodeOf('NOT_COORDINATOR'));
  });

  it('WriteTxnMarkers aborts the open transaction at the leader (kafka-transactions.sh abort), fencing an older epoch', async () => {
    const port = leaderPort(t, TOPIC, 0);
    const marker = (producerEpoch: number, coordinatorEpoch = 0) => ({
      producerId: producer.producerId, producerEpoch, transactionResult: false, coordinatorEpoch, topics: [{ name: TOPIC, partitionIndexes: [0] }],
    });
    if (producer.producerEpoch > 0) {
      const stale = await codecExchange(port, WriteTxnMarkersRequest, WriteTxnMarkersResponse, 1, { markers: [marker(producer.producerEpoch - 1)] });
      assert.equal(stale.markers[0].topics[0].partitions[0].errorCode, errorCodeOf('INVALID_PRODUCER_EPOCH'));
    }
    const elsewhere = await codecExchange(otherBroker(t.sim.cluster.requireTopic(TOPIC).leaders[0]), WriteTxnMarkersRequest, WriteTxnMarkersResponse, 1, { markers: [marker(producer.producerEpoch)] });
    assert.equal(elsewhere.markers[0].topics[0].partitions[0].errorCode, errorCodeOf('NOT_LEADER_OR_FOLLOWER'));
    assert.equal(log(0).lastStableOffset, 5, 'nothing written yet');

    const aborted = await codecExchange(port, WriteTxnMarkersRequest, WriteTxnMarkersResponse, 1, { markers: [marker(producer.producerEpoch)] });
    assert.equal(aborted.markers[0].topics[0].partitions[0].errorCode, NONE);
    assert.deepEqual([log(0).lastStableOffset, log(0).highWatermark], [11, 11], 'five records and the ABORT marker; the LSO is free');
    assert.equal(log(0).visibleRecords(5, 11, 'read_committed'), 0, 'the transaction\'s records are discarded');
    const after = (await producersOf(0)).activeProducers[0];
    assert.deepEqual([after.currentTxnStartOffset, after.coordinatorEpoch], [-1n, 0]);
    const fenced = await codecExchange(port, WriteTxnMarkersRequest, WriteTxnMarkersResponse, 1, { markers: [marker(producer.producerEpoch, -1)] });
    assert.equal(fenced.markers[0].topics[0].partitions[0].errorCode, errorCodeOf('TRANSACTION_COORDINATOR_FENCED'), 'a coordinator epoch older than the last marker\'s');
  });

  it('WriteTxnMarkers on __consumer_offsets ends the transactional offsets a group holds there', async () => {
    const id = 'eos-admin-abort';
    const group = 'eos-admin-group';
    const p = await initTransactionalProducer(coordinatorPort(t, id), id);
    const commit = await codecExchange(coordinatorPort(t, group), TxnOffsetCommitRequest, TxnOffsetCommitResponse, 5, {
      transactionalId: id, groupId: group, producerId: p.producerId, producerEpoch: p.producerEpoch, generationIdOrMemberEpoch: -1, memberId: '', groupInstanceId: null,
      topics: [{ name: TOPIC, partitions: [{ partitionIndex: 1, committedOffset: 1n, committedLeaderEpoch: -1, committedMetadata: null }] }],
    });
    assert.equal(commit.topics[0].partitions[0].errorCode, NONE);
    const pending = () => describeSimGroup(t.sim, group).offsets.find((o) => o.partition === 1)?.pendingTransactionalOffset ?? null;
    assert.equal(pending(), 1);
    const offsetsPartition = offsetsPartitionFor(group);
    const response = await codecExchange(coordinatorPort(t, group), WriteTxnMarkersRequest, WriteTxnMarkersResponse, 1, {
      markers: [{ producerId: p.producerId, producerEpoch: p.producerEpoch, transactionResult: false, coordinatorEpoch: 0, topics: [{ name: '__consumer_offsets', partitionIndexes: [offsetsPartition] }] }],
    });
    assert.equal(response.markers[0].topics[0].partitions[0].errorCode, NONE);
    assert.equal(pending(), null, 'the offsets were discarded');
  });
});
