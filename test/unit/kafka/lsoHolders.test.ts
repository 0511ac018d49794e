import { strict as assert } from 'node:assert';
import { heldPartitions, notNamedText, producerHoldingLso, readLsoHolders, type SendTo } from '../../../src/kafka/lsoHolders';
import { partitionKey } from '../../../src/kafka/groupDetailMapper';
import { UnsupportedApiVersionError } from '../../../src/kafka/kafkajsBridge';
import type { RequestSpec } from '../../../src/kafka/requests/apiCall';
import { ByteReader } from '../../../src/protocol/byteReader';
import { ByteWriter } from '../../../src/protocol/byteWriter';
import { responseHeaderVersion } from '../../../src/protocol/headers';
import { ApiKeys } from '../../../src/protocol/messages/apis';
import { DescribeProducersRequest, type DescribeProducersRequestData } from '../../../src/protocol/messages/describeProducersRequest';
import { DescribeProducersResponse, type DescribeProducersResponseData } from '../../../src/protocol/messages/describeProducersResponse';
import { DescribeTransactionsRequest } from '../../../src/protocol/messages/describeTransactionsRequest';
import { DescribeTransactionsResponse, type DescribeTransactionsResponseData } from '../../../src/protocol/messages/describeTransactionsResponse';
import { FindCoordinatorRequest } from '../../../src/protocol/messages/findCoordinatorRequest';
import { FindCoordinatorResponse, type FindCoordinatorResponseData } from '../../../src/protocol/messages/findCoordinatorResponse';
import { ListTransactionsRequest } from '../../../src/protocol/messages/listTransactionsRequest';
import { ListTransactionsResponse, type ListTransactionsResponseData } from '../../../src/protocol/messages/listTransactionsResponse';
import type { MessageCodec } from '../../../src/protocol/runtime';
import type { ProducerState } from '../../../src/model/transactions';

const TRANSACTIONAL_ID_AUTHORIZATION_FAILED = 53;
const TOPIC_AUTHORIZATION_FAILED = 29;

function producer(producerId: number, currentTxnStartOffset: number): ProducerState {
  return { producerId, producerEpoch: 2, lastSequence: 4, lastTimestamp: 1000, coordinatorEpoch: -1, currentTxnStartOffset };
}

/** The request as a broker reads it off the wire (after the header's tagged fields). */
function requestOf<Req>(spec: RequestSpec<unknown>, codec: MessageCodec<Req>, version: number): Req {
  const body = spec.build(version).body;
  return codec.read(new ByteReader(body.subarray(1)), version);
}

/** The answer as the client decodes it from the broker's bytes. */
function answer<T, Res>(spec: RequestSpec<T>, codec: MessageCodec<Res>, version: number, data: Res): T {
  const call = spec.build(version);
  const writer = new ByteWriter();
  if (responseHeaderVersion(spec.apiKey, version) === 1) {
    writer.uvarint(0);
  }
  codec.write(writer, version, data);
  return call.decode(writer.finish());
}

type Sent = { nodeId: number | null; apiKey: number; detail: string };

interface FakeCluster {
  producers: Map<string, ProducerState[] | number>;
  /** Per broker, the transactions it coordinates: producer id -> transactional id. */
  coordinated: Map<number, Map<number, string>>;
  describeError?: number;
  listThrows?: Error;
}

function fakeSend(cluster: FakeCluster, sent: Sent[]): SendTo {
  return async <T>(nodeId: number | null, spec: RequestSpec<T>): Promise<T> => {
    await Promise.resolve();
    if (spec.apiKey === ApiKeys.DescribeProducers) {
      const req: DescribeProducersRequestData = requestOf(spec, DescribeProducersRequest, 0);
      sent.push({ nodeId, apiKey: spec.apiKey, detail: req.topics.flatMap((t) => t.partitionIndexes.map((p) => `${t.name}-${p}`)).join(',') });
      const data: DescribeProducersResponseData = {
        throttleTimeMs: 0,
        topics: req.topics.map((t) => ({
          name: t.name,
          partitions: t.partitionIndexes.map((p) => {
            const known = cluster.producers.get(`${t.name}-${p}`) ?? [];
            return typeof known === 'number'
              ? { partitionIndex: p, errorCode: known, errorMessage: null, activeProducers: [] }
              : { partitionIndex: p, errorCode: 0, errorMessage: null, activeProducers: known.map((s) => ({ ...s, producerId: BigInt(s.producerId), lastTimestamp: BigInt(s.lastTimestamp), currentTxnStartOffset: BigInt(s.currentTxnStartOffset) })) };
          }),
        })),
      };
      return answer(spec, DescribeProducersResponse, 0, data);
    }
    if (spec.apiKey === ApiKeys.ListTransactions) {
      if (cluster.listThrows) {
        throw cluster.listThrows;
      }
      const req = requestOf(spec, ListTransactionsRequest, 1);
      sent.push({ nodeId, apiKey: spec.apiKey, detail: req.producerIdFilters.join(',') });
      const own = cluster.coordinated.get(nodeId as number) ?? new Map<number, string>();
      const data: ListTransactionsResponseData = {
        throttleTimeMs: 0,
        errorCode: 0,
        unknownStateFilters: [],
        transactionStates: [...own].filter(([pid]) => req.producerIdFilters.includes(BigInt(pid))).map(([pid, id]) => ({ transactionalId: id, producerId: BigInt(pid), transactionState: 'Ongoing' })),
      };
      return answer(spec, ListTransactionsResponse, 1, data);
    }
    if (spec.apiKey === ApiKeys.FindCoordinator) {
      const req = requestOf(spec, FindCoordinatorRequest, 4);
      sent.push({ nodeId, apiKey: spec.apiKey, detail: `${req.keyType}:${(req.coordinatorKeys ?? []).join(',')}` });
      const coordinatorOf = (id: string) => [...cluster.coordinated].find(([, m]) => [...m.values()].includes(id))?.[0] ?? -1;
      const data: FindCoordinatorResponseData = { throttleTimeMs: 0, coordinators: (req.coordinatorKeys ?? []).map((key) => ({ key, nodeId: coordinatorOf(key), host: 'h', port: 1, errorCode: 0, errorMessage: null })) };
      return answer(spec, FindCoordinatorResponse, 4, data);
    }
    if (spec.apiKey === ApiKeys.DescribeTransactions) {
      const req = requestOf(spec, DescribeTransactionsRequest, 0);
      sent.push({ nodeId, apiKey: spec.apiKey, detail: req.transactionalIds.join(',') });
      const pidOf = (id: string) => [...(cluster.coordinated.get(nodeId as number) ?? new Map<number, string>())].find(([, t]) => t === id)?.[0] ?? -1;
      const data: DescribeTransactionsResponseData = {
        throttleTimeMs: 0,
        transactionStates: req.transactionalIds.map((id) => ({
          errorCode: cluster.describeError ?? 0,
          transactionalId: id,
          transactionState: 'Ongoing',
          transactionTimeoutMs: 60000,
          transactionStartTimeMs: 5000n,
          producerId: BigInt(pidOf(id)),
          producerEpoch: 2,
          topics: [{ topic: 'payments', partitions: [0] }],
        })),
      };
      return answer(spec, DescribeTransactionsResponse, 0, data);
    }
    throw new Error(`unexpected api ${spec.apiKey}`);
  };
}

const deps = (cluster: FakeCluster, sent: Sent[]) => ({
  send: fakeSend(cluster, sent),
  brokerIds: [1, 2],
  errorText: (e: unknown) => (e instanceof Error ? e.message : String(e)),
  concurrency: 4,
});

describe('kafka/lsoHolders', () => {
  it('asks only partitions whose LSO is below the high watermark, once each', () => {
    const rows = [
      { topic: 't', partition: 0, lastStableOffset: 10, logEndOffset: 10 },
      { topic: 't', partition: 1, lastStableOffset: 4, logEndOffset: 9 },
      { topic: 't', partition: 1, lastStableOffset: 4, logEndOffset: 9 },
      { topic: 't', partition: 2, lastStableOffset: null, logEndOffset: 9 },
      { topic: 't', partition: 3, logEndOffset: 9 },
    ];
    assert.deepEqual(heldPartitions(rows), [{ topic: 't', partition: 1, lastStableOffset: 4, highWatermark: 9 }]);
  });

  it('the producer whose open transaction starts at the LSO holds it', () => {
    const producers = [producer(7, -1), producer(8, 12), producer(9, 4)];
    assert.equal(producerHoldingLso(producers, 4)?.producerId, 9);
    assert.equal(producerHoldingLso(producers, 5), null);
  });

  const held = [
    { topic: 'payments', partition: 0, lastStableOffset: 1204, highWatermark: 1300 },
    { topic: 'payments', partition: 1, lastStableOffset: 60, highWatermark: 70 },
    { topic: 'audit', partition: 0, lastStableOffset: 7, highWatermark: 8 },
  ];
  const leaders = new Map([[partitionKey(held[0]), 1], [partitionKey(held[1]), 2], [partitionKey(held[2]), 1]]);
  const cluster = (): FakeCluster => ({
    producers: new Map([['payments-0', [producer(4001, 1204), producer(4002, -1)]], ['payments-1', [producer(4003, 50)]], ['audit-0', [producer(4001, 7)]]]),
    coordinated: new Map([[2, new Map([[4001, 'payments-tx-3']])], [1, new Map([[4003, 'other']])]]),
  });

  it('sends one DescribeProducers per leader, then names the holder through ListTransactions, FindCoordinator and DescribeTransactions', async () => {
    const sent: Sent[] = [];
    const holders = await readLsoHolders(held, leaders, deps(cluster(), sent));
    const of = (api: number) => sent.filter((s) => s.apiKey === api).map((s) => `${s.nodeId}:${s.detail}`).sort();
    assert.deepEqual(of(ApiKeys.DescribeProducers), ['1:payments-0,audit-0', '2:payments-1'].sort());
    assert.deepEqual(of(ApiKeys.ListTransactions), ['1:4001', '2:4001'], 'each broker, filtered by the holding producer');
    assert.deepEqual(of(ApiKeys.FindCoordinator), ['null:1:payments-tx-3']);
    assert.deepEqual(of(ApiKeys.DescribeTransactions), ['2:payments-tx-3']);
    const p0 = holders.get(partitionKey(held[0]));
    assert.equal(p0?.producer?.producerId, 4001);
    assert.equal(p0?.producer?.producerEpoch, 2);
    assert.equal(p0?.transaction?.transactionalId, 'payments-tx-3');
    assert.equal(p0?.transaction?.transactionTimeoutMs, 60000);
    assert.equal(p0?.transaction?.transactionStartTimeMs, 5000);
    assert.equal(p0?.error, undefined);
    assert.equal(holders.get(partitionKey(held[2]))?.transaction?.transactionalId, 'payments-tx-3');
    assert.equal(holders.get(partitionKey(held[1])), null, 'no producer starts its transaction at that LSO');
  });

  it('sends nothing when no partition is held', async () => {
    const sent: Sent[] = [];
    assert.equal((await readLsoHolders([], leaders, deps(cluster(), sent))).size, 0);
    assert.equal(sent.length, 0);
  });

  it('a refused DescribeProducers or DescribeTransactions, or an old broker, gives the reason on the partition and never throws', async () => {
    const refused = cluster();
    refused.producers.set('payments-1', TOPIC_AUTHORIZATION_FAILED);
    refused.describeError = TRANSACTIONAL_ID_AUTHORIZATION_FAILED;
    const holders = await readLsoHolders(held, leaders, deps(refused, []));
    assert.match(holders.get(partitionKey(held[1]))?.error ?? '', /^open transaction not named: DescribeProducers: .*TOPIC_AUTHORIZATION_FAILED/);
    const p0 = holders.get(partitionKey(held[0]));
    assert.equal(p0?.producer?.producerId, 4001);
    assert.match(p0?.error ?? '', /^open transaction not named: DescribeTransactions: .*TRANSACTIONAL_ID_AUTHORIZATION_FAILED/);

    const old = cluster();
    old.listThrows = new UnsupportedApiVersionError('ListTransactions', 'v0..v2', undefined);
    const fromOld = await readLsoHolders(held, leaders, deps(old, []));
    assert.equal(fromOld.get(partitionKey(held[0]))?.error, notNamedText('ListTransactions on broker 1: The broker does not support ListTransactions (needs v0..v2); ListTransactions on broker 2: The broker does not support ListTransactions (needs v0..v2)'));
  });
});
