import { strict as assert } from 'assert';
import type { Topology } from '../../../src/kafka/clusterConnection';
import { chunked, coordinatorBatches, fetchCommittedOffsets, mapWithConcurrency } from '../../../src/kafka/coordinatorBatches';
import type { KafkajsBroker } from '../../../src/kafka/kafkajsBridge';
import { ApiKeys } from '../../../src/protocol/messages/apis';
import type { OffsetFetchRequestData } from '../../../src/protocol/messages/offsetFetchRequest';
import { fakeBroker, type FakeBroker } from './groupTypesFakeBroker';

const topology = { metadata: { brokers: [], clusterId: null, controllerId: 1, topics: [] }, brokers: new Map(), offsetsLeaders: [1, 2] } as Topology;

/** Groups named `<coordinator>-<n>`: the coordinator is the prefix. */
const coordinatorOf = (groupId: string): number => Number(groupId.split('-')[0]);

function connectionOver(brokers: Map<number, KafkajsBroker>) {
  return {
    coordinatorId: (groupId: string) => coordinatorOf(groupId),
    brokerFor: async (nodeId: number | null) => {
      const broker = nodeId === null ? undefined : brokers.get(nodeId);
      if (!broker) {
        throw new Error(`no broker ${nodeId}`);
      }
      return broker;
    },
    isConnectionFailure: (e: unknown) => e instanceof Error && e.message === 'connection refused',
    errorText: (e: unknown) => (e instanceof Error ? e.message : String(e)),
  };
}

/** A coordinator answering OffsetFetch v8+ for many groups: each group committed offset 7 of `t-0`; `missing` groups left out. */
function manyGroupsBroker(nodeId: number, missing: ReadonlySet<string> = new Set()): FakeBroker {
  const broker = fakeBroker({ [ApiKeys.OffsetFetch]: [0, 9] }, (request) => {
    const body = request.body as OffsetFetchRequestData;
    return {
      throttleTimeMs: 0,
      groups: (body.groups ?? [])
        .filter((g) => !missing.has(g.groupId))
        .map((g) => ({ groupId: g.groupId, errorCode: 0, topics: [{ name: 't', partitions: [{ partitionIndex: 0, committedOffset: 7n, committedLeaderEpoch: -1, metadata: '', errorCode: 0 }] }] })),
    };
  });
  broker.nodeId = nodeId;
  return broker;
}

describe('kafka/coordinatorBatches', () => {
  it('cuts each coordinator\'s groups into requests of at most the batch size', () => {
    const ids = ['1-a', '2-a', '1-b', '1-c', '2-b', '1-d', '1-e'];
    const batches = coordinatorBatches({ coordinatorId: coordinatorOf }, ids, topology, 2);
    assert.deepEqual(batches, [
      { nodeId: 1, groupIds: ['1-a', '1-b'] },
      { nodeId: 1, groupIds: ['1-c', '1-d'] },
      { nodeId: 1, groupIds: ['1-e'] },
      { nodeId: 2, groupIds: ['2-a', '2-b'] },
    ]);
    assert.deepEqual(chunked([1, 2, 3], 5), [[1, 2, 3]]);
    assert.deepEqual(chunked([], 5), []);
  });

  it('runs at most `limit` calls at once and keeps the results in order', async () => {
    let running = 0;
    let most = 0;
    const results = await mapWithConcurrency([5, 1, 4, 2, 3, 0], 2, async (n) => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setImmediate(resolve));
      running--;
      return n * 10;
    });
    assert.deepEqual(results, [50, 10, 40, 20, 30, 0]);
    assert.equal(most, 2);
  });

  it('fetches committed offsets with one OffsetFetch per batch of a coordinator\'s groups on brokers that take several', async () => {
    const one = manyGroupsBroker(1, new Set(['1-c']));
    const two = manyGroupsBroker(2);
    const ids = ['1-a', '1-b', '1-c', '2-a', '2-b', '2-c'];
    const single = async () => assert.fail('a v8+ broker is never asked group by group');
    const results = await fetchCommittedOffsets(connectionOver(new Map([[1, one], [2, two]])), ids, topology, { concurrency: 2, single, batchSize: 2 });
    assert.deepEqual(one.requests.map((r) => (r.body as OffsetFetchRequestData).groups?.map((g) => g.groupId)), [['1-a', '1-b'], ['1-c']]);
    assert.deepEqual(two.requests.map((r) => (r.body as OffsetFetchRequestData).groups?.map((g) => g.groupId)), [['2-a', '2-b'], ['2-c']]);
    assert.ok(one.requests.every((r) => r.apiVersion >= 8));
    assert.deepEqual(results.get('1-a'), [{ topic: 't', partition: 0, offset: 7, metadata: '', errorCode: 0 }]);
    assert.match(String(results.get('1-c')), /did not answer for group 1-c/, 'a group left out of the answer has its own error');
    assert.equal(results.size, ids.length);
  });

  it('asks a broker older than OffsetFetch v8 group by group', async () => {
    const old = fakeBroker({ [ApiKeys.OffsetFetch]: [0, 7] }, () => assert.fail('no batched request to an old broker'));
    const asked: string[] = [];
    const results = await fetchCommittedOffsets(connectionOver(new Map([[1, old]])), ['1-a', '1-b'], topology, {
      concurrency: 4,
      single: async (groupId) => {
        asked.push(groupId);
        return { errorCode: 0, offsets: [] };
      },
    });
    assert.deepEqual(asked.sort(), ['1-a', '1-b']);
    assert.deepEqual(results.get('1-b'), []);
  });

  it('gives an unreachable coordinator\'s groups an error of their own, and fails the whole fetch on a connection failure', async () => {
    const two = manyGroupsBroker(2);
    const single = async () => assert.fail('not asked');
    const results = await fetchCommittedOffsets(connectionOver(new Map([[2, two]])), ['1-a', '2-a'], topology, { concurrency: 2, single });
    assert.equal(results.get('1-a'), 'Committed offsets: no broker 1');
    assert.equal((results.get('2-a') as unknown[]).length, 1);

    const refused = { ...connectionOver(new Map()), brokerFor: async () => Promise.reject(new Error('connection refused')) };
    await assert.rejects(fetchCommittedOffsets(refused, ['1-a'], topology, { concurrency: 2, single }), /connection refused/);
  });
});
