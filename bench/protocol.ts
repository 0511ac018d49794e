/**
 * The generated codecs (src/protocol/messages) on the two hot paths the simulator's server and the client have:
 * encoding an OffsetCommit (v7, 50 partitions) and decoding a Fetch response (v11, 10 partitions of 1 KiB records),
 * bare and through the real-cluster client's request specs (src/kafka/requests: typed data built, answer mapped),
 * which replaced the hand-written client codecs. Prints operations per second, median of KGL_BENCH_RUNS runs.
 * Run: npx tsx bench/protocol.ts
 */
import { performance } from 'node:perf_hooks';
import { adminOffsetCommitRequest } from '../src/kafka/requests/adminRequests';
import { fetchRequest } from '../src/kafka/requests/fetchRequest';
import { FetchResponse, type FetchResponseData } from '../src/protocol/messages/fetchResponse';
import { OffsetCommitRequest } from '../src/protocol/messages/offsetCommitRequest';
import { decode, encode } from '../src/protocol/runtime';

const RUNS = Number(process.env.KGL_BENCH_RUNS ?? 7);
const OPS_PER_RUN = 5_000;

function opsPerSecond(operation: () => void): number {
  const rates: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    for (let i = 0; i < OPS_PER_RUN; i++) {
      operation();
    }
    rates.push(OPS_PER_RUN / ((performance.now() - started) / 1000));
  }
  return rates.sort((a, b) => a - b)[Math.floor(rates.length / 2)];
}

const offsets = Array.from({ length: 50 }, (_, i) => ({ topic: `topic-${i % 5}`, partition: i, offset: 1_000_000 + i }));
const commit = {
  groupId: 'payments', generationIdOrMemberEpoch: -1, memberId: '', groupInstanceId: null,
  topics: Array.from({ length: 5 }, (_, t) => ({
    name: `topic-${t}`,
    partitions: offsets.filter((o) => o.topic === `topic-${t}`).map((o) => ({
      partitionIndex: o.partition, committedOffset: BigInt(o.offset), committedLeaderEpoch: -1, committedMetadata: '',
    })),
  })),
};

const records = new Uint8Array(1024).fill(7);
const fetched: FetchResponseData = {
  throttleTimeMs: 0, errorCode: 0, sessionId: 0,
  responses: [{ topic: 'orders', partitions: Array.from({ length: 10 }, (_, p) => ({
    partitionIndex: p, errorCode: 0, highWatermark: 1000n, lastStableOffset: 1000n, logStartOffset: 0n,
    abortedTransactions: [], preferredReadReplica: -1, records,
  })) }],
};
const fetchBytes = Buffer.from(encode(FetchResponse, 11, fetched));
const clientFetch = fetchRequest({ topic: 'orders', topicId: null }, [{ partition: 0, fetchOffset: 0 }], { maxWaitMs: 500, maxBytes: 1 << 20, maxBytesPerPartition: 1 << 20 }).build(11);

const rows: Array<[string, number, number]> = [
  ['OffsetCommit v7 request encode (50 partitions)', opsPerSecond(() => adminOffsetCommitRequest('payments', offsets).build(7)), opsPerSecond(() => encode(OffsetCommitRequest, 7, commit))],
  ['Fetch v11 response decode (10 x 1 KiB)', opsPerSecond(() => clientFetch.decode(fetchBytes)), opsPerSecond(() => decode(FetchResponse, fetchBytes, 11))],
];
for (const [name, client, generated] of rows) {
  console.log(`${name}: through the client ${Math.round(client)} ops/s, generated codec alone ${Math.round(generated)} ops/s`);
}
