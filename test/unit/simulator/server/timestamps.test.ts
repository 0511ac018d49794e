/**
 * Producer timestamps (CreateTime) kept by the server's partition logs, and ListOffsets answering
 * timestamp lookups as a broker's time index does: the first record at or after the target with
 * that record's timestamp, -1/-1 when every record is older, MAX_TIMESTAMP the first record with
 * the largest timestamp, and the read_committed cap at the last stable offset.
 */
import assert from 'node:assert/strict';
import type { Producer } from 'kafkajs';
import { decodeRecordBatches } from '../../../../src/protocol/recordBatch';
import { FetchRequest } from '../../../../src/protocol/messages/fetchRequest';
import { FetchResponse } from '../../../../src/protocol/messages/fetchResponse';
import { ListOffsetsRequest } from '../../../../src/protocol/messages/listOffsetsRequest';
import { ListOffsetsResponse } from '../../../../src/protocol/messages/listOffsetsResponse';
import { codecExchange, leaderPort, startServer, type ServerUnderTest } from './serverTestKit';

const T = Date.UTC(2026, 0, 1);
const SECOND = 1000;
/** Per partition, the records' timestamps in offset order; partition 1 out of order, partition 2 all before T. */
const STAMPS: number[][] = [
  [-4, -3, -2, -1, 0, 1, 2, 3].map((s) => T + s * SECOND),
  [-2, -1, 5, -3, 1, 2].map((s) => T + s * SECOND),
  Array.from({ length: 10 }, (_, i) => T - (20 - i) * SECOND),
];

describe('simulator Kafka server: record timestamps and ListOffsets by timestamp', function () {
  this.timeout(30000);
  let env: ServerUnderTest;
  let producer: Producer;

  before(async () => {
    env = await startServer();
    env.sim.cluster.createTopic('stamped', 3);
    producer = env.kafka.producer();
    await producer.connect();
    for (const [partition, stamps] of STAMPS.entries()) {
      // One send per partition: one batch, whose records carry their own timestamps.
      await producer.send({ topic: 'stamped', messages: stamps.map((timestamp, i) => ({ partition, value: `r${i}`, timestamp: String(timestamp) })) });
    }
  });

  after(async () => {
    await producer?.disconnect();
    await env?.stop();
  });

  async function lookup(partition: number, timestamp: bigint, version = 11, isolationLevel = 0): Promise<[number, number]> {
    const response = await codecExchange(leaderPort(env, 'stamped', partition), ListOffsetsRequest, ListOffsetsResponse, version, {
      replicaId: -1,
      isolationLevel,
      topics: [{ name: 'stamped', partitions: [{ partitionIndex: partition, currentLeaderEpoch: -1, timestamp }] }],
      timeoutMs: 1000,
    });
    const answer = response.topics[0].partitions[0];
    assert.equal(answer.errorCode, 0);
    return [Number(answer.offset), Number(answer.timestamp)];
  }

  it('answers the first record at or after the target with its own timestamp, as a broker does', async () => {
    assert.deepEqual(await lookup(0, BigInt(T)), [4, T]);
    assert.deepEqual(await lookup(0, BigInt(T + 2500)), [7, T + 3 * SECOND]);
    // Out of order: the first record whose timestamp reaches the target, not the first after it in time.
    assert.deepEqual(await lookup(1, BigInt(T)), [2, T + 5 * SECOND]);
    assert.deepEqual(await lookup(2, BigInt(T)), [-1, -1], 'every record is older');
    assert.deepEqual(await lookup(2, BigInt(T - 15 * SECOND)), [5, T - 15 * SECOND]);
    // kafkajs's admin asks the same question (v1-v5 answer no timestamp before v1, so it reads the offset).
    const viaKafkajs = env.kafka.admin();
    await viaKafkajs.connect();
    try {
      const offsets = await viaKafkajs.fetchTopicOffsetsByTimestamp('stamped', T);
      assert.deepEqual(offsets.map((o) => [o.partition, Number(o.offset)]).sort((a, b) => a[0] - b[0]), [[0, 4], [1, 2], [2, 10]]);
    } finally {
      await viaKafkajs.disconnect();
    }
  });

  it('fetches each record with the timestamp it was stored with, not the time of the fetch', async () => {
    const response = await codecExchange(leaderPort(env, 'stamped', 0), FetchRequest, FetchResponse, 12, {
      replicaId: -1, maxWaitMs: 0, minBytes: 1, maxBytes: 1 << 20, isolationLevel: 0, sessionId: 0, sessionEpoch: -1,
      topics: [{ topic: 'stamped', partitions: [{ partition: 0, currentLeaderEpoch: -1, fetchOffset: 0n, lastFetchedEpoch: -1, logStartOffset: -1n, partitionMaxBytes: 1 << 20 }] }],
      forgottenTopicsData: [], rackId: '',
    });
    const records = decodeRecordBatches(response.responses[0].partitions[0].records ?? new Uint8Array(0)).flatMap((batch) => batch.records);
    // Partition 0's records were produced in time order, so the time index keeps each one's own timestamp.
    assert.deepEqual(records.map((r) => Number(r.timestamp)), STAMPS[0]);
  });

  it('answers MAX_TIMESTAMP (-3) with the first record holding the largest timestamp, and earliest/latest with no timestamp', async () => {
    assert.deepEqual(await lookup(0, -3n), [7, T + 3 * SECOND]);
    assert.deepEqual(await lookup(1, -3n), [2, T + 5 * SECOND]);
    assert.deepEqual(await lookup(0, -2n), [0, -1]);
    assert.deepEqual(await lookup(0, -1n), [8, -1]);
    assert.deepEqual(await lookup(0, -4n), [0, -1], 'earliest local: the simulator has no tiered storage');
  });

  it('stops a read_committed lookup at the last stable offset', async () => {
    const log = env.sim.cluster.partition('stamped', 0);
    assert.ok(log);
    const txn = env.sim.initTransactions('stamped-txn');
    txn.beginTransaction();
    txn.send('stamped', 1, 0);
    try {
      const lso = log.lastStableOffset;
      assert.equal(lso, 8);
      const future = BigInt(env.sim.now - 1);
      assert.deepEqual((await lookup(0, future, 11, 1))[0], -1, 'the open transaction\'s record is past the LSO');
      assert.equal((await lookup(0, future, 11, 0))[0], 8);
    } finally {
      txn.abortTransaction();
    }
  });
});
