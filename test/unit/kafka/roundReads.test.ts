/**
 * The reads the detail batches of a round share (roundReads.ts): log ends and reads at committed offsets
 * are asked once per max age, by request count, whether the batches run one after the other or at once.
 */
import { strict as assert } from 'node:assert';
import type { TopicPartition } from '../../../src/model/types';
import { AgingCache, COMMITTED_READ_MAX_AGE_MS, LOG_ENDS_MAX_AGE_MS, MAX_COMMITTED_FETCH_ROUNDS, SharedPartitionReads } from '../../../src/kafka/roundReads';
import type { ClusterConnection } from '../../../src/kafka/clusterConnection';
import { partitionKey } from '../../../src/kafka/groupDetailMapper';
import { MAX_TIMESTAMP, type ListedOffset } from '../../../src/kafka/requests/offsetRequests';
import { encodeRecordBatch } from '../../../src/protocol/recordBatch';
import { ApiKeys } from '../../../src/protocol/messages/apis';
import { defaultFetchableTopicResponse, defaultFetchResponseData, defaultPartitionData } from '../../../src/protocol/messages/fetchResponse';
import type { FetchRequestData } from '../../../src/protocol/messages/fetchRequest';
import { fakeBroker } from './groupTypesFakeBroker';

const silentLogger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const partitions: TopicPartition[] = [0, 1, 2].map((partition) => ({ topic: 'events', partition }));
const leaders = new Map(partitions.map((p) => [partitionKey(p), 1]));

/** Topic `events`: a whole batch of RECORDS_PER_BATCH records from the offset asked; any other topic: bytes that are no batch (covering only the offset asked). */
const RECORDS_PER_BATCH = 5;
function answerAt(topic: string, offset: bigint): Uint8Array {
  if (topic !== 'events') {
    return Uint8Array.of(Number(offset));
  }
  return encodeRecordBatch({ baseOffset: offset, baseTimestamp: 1000n, records: Array.from({ length: RECORDS_PER_BATCH }, () => ({ value: Uint8Array.of(1) })) });
}

function fakeCluster() {
  let now = 1_000_000;
  const listOffsetCalls: TopicPartition[][] = [];
  const broker = fakeBroker({ [ApiKeys.Fetch]: [4, 12] }, (request) => {
    const body = request.body as FetchRequestData;
    return {
      ...defaultFetchResponseData(),
      responses: body.topics.map((t) => ({
        ...defaultFetchableTopicResponse(),
        topic: t.topic,
        partitions: t.partitions.map((p) => ({ ...defaultPartitionData(), partitionIndex: p.partition, records: answerAt(t.topic ?? "", p.fetchOffset) })),
      })),
    };
  });
  const connection: Pick<ClusterConnection, 'listOffsets' | 'broker' | 'errorText'> = {
    listOffsets: async (parts, _leaders, queries) => {
      listOffsetCalls.push([...parts]);
      const answer = (offset: number, timestamp = -1): ListedOffset[] => parts.map((p) => ({ ...p, errorCode: 0, offset, timestamp, leaderEpoch: -1 }));
      if (queries.length === 1 && queries[0].timestamp === MAX_TIMESTAMP) {
        // Partition 2's log is empty: Kafka answers -1/-1.
        return { answers: [answer(49, 7000).map((o) => (o.partition === 2 ? { ...o, offset: -1, timestamp: -1 } : o))], failures: [] };
      }
      return { answers: queries.map((_q, i) => answer(i === 0 ? 0 : 50)), failures: [] };
    },
    broker: async () => broker,
    errorText: (e) => String(e),
  };
  const reads = new SharedPartitionReads(connection, { concurrency: 4, logger: silentLogger, clock: () => now });
  const fetches = () => broker.requests.filter((r) => r.apiKey === ApiKeys.Fetch).length;
  return { reads, listOffsetCalls, fetches, advance: (ms: number) => (now += ms) };
}

describe('kafka/roundReads', () => {
  it('reads the newest records in one ListOffsets MAX_TIMESTAMP, kept within the log ends\' max age', async () => {
    const cluster = fakeCluster();
    const first = await cluster.reads.newestRecordsOf(partitions, leaders);
    assert.deepEqual(first.get(partitionKey(partitions[0])), { offset: 49, timestamp: 7000 });
    assert.equal(first.has(partitionKey(partitions[2])), false, 'an empty log has no newest record');
    await cluster.reads.newestRecordsOf(partitions.slice(0, 2), leaders);
    assert.equal(cluster.listOffsetCalls.length, 1);
    cluster.advance(LOG_ENDS_MAX_AGE_MS + 1);
    await cluster.reads.newestRecordsOf(partitions, leaders);
    assert.equal(cluster.listOffsetCalls.length, 2);
  });

  it('reads log ends once within their max age for batches one after the other, and afresh after it', async () => {
    const cluster = fakeCluster();
    const first = await cluster.reads.partitionEnds(partitions, leaders);
    assert.deepEqual(first.ends.get(partitionKey(partitions[1])), { logStartOffset: 0, highWatermark: 50, lastStableOffset: 50 });
    const second = await cluster.reads.partitionEnds(partitions.slice(0, 2), leaders);
    assert.equal(cluster.listOffsetCalls.length, 1, 'a second batch within the max age sends no second ListOffsets');
    assert.deepEqual(second.ends.get(partitionKey(partitions[0])), first.ends.get(partitionKey(partitions[0])));
    cluster.advance(LOG_ENDS_MAX_AGE_MS + 1);
    await cluster.reads.partitionEnds(partitions, leaders);
    assert.equal(cluster.listOffsetCalls.length, 2);
  });

  it('shares one ListOffsets between two batches in flight at once, and asks only for partitions not yet read', async () => {
    const cluster = fakeCluster();
    await Promise.all([cluster.reads.partitionEnds(partitions, leaders), cluster.reads.partitionEnds(partitions, leaders)]);
    assert.equal(cluster.listOffsetCalls.length, 1);
    const more = { topic: 'orders', partition: 0 };
    const ends = await cluster.reads.partitionEnds([...partitions, more], new Map([...leaders, [partitionKey(more), 1]]));
    assert.deepEqual(cluster.listOffsetCalls[1], [more]);
    assert.equal(ends.ends.size, 4);
  });

  it('reads at a committed offset once within its max age, for batches in flight at once or after', async () => {
    const cluster = fakeCluster();
    const positions = partitions.map((row) => ({ row, offset: 7 }));
    const [a, b] = await Promise.all([cluster.reads.fetchAt(positions, leaders, new Map()), cluster.reads.fetchAt(positions, leaders, new Map())]);
    assert.equal(cluster.fetches(), 1);
    assert.deepEqual([...(a.get(`${partitionKey(partitions[2])}@7`) ?? [])], [...answerAt('events', 7n)]);
    assert.deepEqual([...b.keys()], [...a.keys()]);
    await cluster.reads.fetchAt([...positions, { row: partitions[0], offset: 12 }], leaders, new Map());
    assert.equal(cluster.fetches(), 2, 'only the new offset is fetched');
    cluster.advance(COMMITTED_READ_MAX_AGE_MS + 1);
    await cluster.reads.fetchAt(positions, leaders, new Map());
    assert.equal(cluster.fetches(), 3);
  });

  it('answers every offset a read covers with that read, and reads further offsets in bounded rounds', async () => {
    const cluster = fakeCluster();
    const row = partitions[0];
    const covered = await cluster.reads.fetchAt([3, 5, 7, 8].map((offset) => ({ row, offset })), leaders, new Map());
    assert.equal(cluster.fetches(), 2, 'a read at 3 covers 3..7; 8 is read in a second round');
    assert.deepEqual([...(covered.get(`${partitionKey(row)}@5`) ?? [])], [...answerAt('events', 3n)]);
    assert.deepEqual([...(covered.get(`${partitionKey(row)}@8`) ?? [])], [...answerAt('events', 8n)]);
    const solo = { topic: 'solo', partition: 0 };
    const soloLeaders = new Map([[partitionKey(solo), 1]]);
    const offsets = Array.from({ length: MAX_COMMITTED_FETCH_ROUNDS + 2 }, (_, i) => i);
    const bounded = await cluster.reads.fetchAt(offsets.map((offset) => ({ row: solo, offset })), soloLeaders, new Map());
    assert.equal(bounded.size, MAX_COMMITTED_FETCH_ROUNDS);
    assert.equal(cluster.fetches(), 2 + MAX_COMMITTED_FETCH_ROUNDS);
  });
});

describe('kafka/roundReads AgingCache', () => {
  it('drops entries past their age and the oldest past its weight', () => {
    let now = 0;
    const cache = new AgingCache<string>({ maxAgeMs: 10, maxWeight: 5 }, () => now);
    cache.set('a', 'A', 2);
    cache.set('b', 'B', 2);
    cache.reweigh('b', 'B', 3);
    assert.equal(cache.get('a'), 'A');
    cache.set('c', 'C', 1);
    assert.equal(cache.get('a'), undefined, 'the oldest went past the weight');
    assert.deepEqual([cache.get('b'), cache.get('c'), cache.totalWeight], ['B', 'C', 4]);
    now = 11;
    assert.equal(cache.get('b'), undefined);
    assert.equal(cache.size, 1);
  });
});
