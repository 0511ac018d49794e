import { strict as assert } from 'node:assert';
import { MAX_GROUPS_PER_REQUEST } from '../../../src/kafka/coordinatorBatches';
import { SHARE_OFFSETS_CONCURRENCY, addShareOffsetsAndConfigs, describeShareGroups, shareOffsetsRequestGroups } from '../../../src/kafka/shareGroups';
import { errorCodeOf } from '../../../src/protocol/errorCodes';
import { defaultDescribedGroup as defaultShareGroup } from '../../../src/protocol/messages/shareGroupDescribeResponse';
import { KAFKA_44_VERSIONS, fakeBroker, type FakeBroker } from './groupTypesFakeBroker';

const COORDINATOR_LOAD_IN_PROGRESS = errorCodeOf('COORDINATOR_LOAD_IN_PROGRESS');

/** Kafka 4.1.1: DescribeShareGroupOffsets v0 only (no lag, no ListOffsets from the coordinator). */
const KAFKA_41_VERSIONS: Record<number, [number, number]> = { ...KAFKA_44_VERSIONS, 90: [0, 0] };

type OffsetsRequest = { groups: Array<{ groupId: string; topics: unknown }> };

/** A share coordinator answering every group Empty, one partition with start offset 3 each; `loadingOnce` answer loading the first time. */
function shareCoordinator(versions: Record<number, [number, number]>, ids: readonly string[], loadingOnce = new Set<string>()): FakeBroker {
  return fakeBroker(versions, (r) => {
    switch (r.apiKey) {
      case 77:
        return { throttleTimeMs: 0, groups: ids.map((groupId) => ({ ...defaultShareGroup(), groupId, groupState: 'Empty' })) };
      case 90: {
        const { groups } = r.body as OffsetsRequest;
        return {
          throttleTimeMs: 0,
          groups: groups.map(({ groupId }) =>
            loadingOnce.delete(groupId)
              ? { groupId, errorCode: COORDINATOR_LOAD_IN_PROGRESS, errorMessage: null, topics: [] }
              : { groupId, errorCode: 0, errorMessage: null, topics: [{ topicName: 't', topicId: 'AAAAAAAAAAAAAAAAAAAAAA', partitions: [{ partitionIndex: 0, startOffset: 3n, leaderEpoch: 0, lag: 1n, errorCode: 0, errorMessage: null }] }] },
          ),
        };
      }
      case 32:
        return { throttleTimeMs: 0, results: ids.map((resourceName) => ({ errorCode: 0, errorMessage: null, resourceType: 32, resourceName, configs: [] })) };
      default:
        throw new Error(`unexpected API ${r.apiKey}`);
    }
  });
}

/** Holds each request a tick (so requests overlap as on a network) and records the most DescribeShareGroupOffsets in flight at once. */
function countInFlight(broker: FakeBroker): { most: number } {
  const pool = broker.connectionPool;
  const send = pool.send.bind(pool);
  const seen = { most: 0 };
  let inFlight = 0;
  pool.send = async (p: Parameters<typeof send>[0]) => {
    if (p.request.apiKey !== 90) {
      return send(p);
    }
    seen.most = Math.max(seen.most, ++inFlight);
    await new Promise((resolve) => setImmediate(resolve));
    try {
      return await send(p);
    } finally {
      inFlight--;
    }
  };
  return seen;
}

const offsetsRequests = (broker: FakeBroker) => broker.requests.filter((r) => r.apiKey === 90).map((r) => r.body as OffsetsRequest);

async function load(broker: FakeBroker, ids: readonly string[]) {
  const described = await describeShareGroups(broker, ids);
  await addShareOffsetsAndConfigs(broker, described);
  return described;
}

describe('kafka/shareGroups: DescribeShareGroupOffsets request shapes', () => {
  it('asks a broker that computes lag (v1, Kafka 4.2+) one group a request, every topic, a bounded number at once', async () => {
    const ids = Array.from({ length: 30 }, (_, i) => `share-${i}`);
    const broker = shareCoordinator(KAFKA_44_VERSIONS, ids);
    const seen = countInFlight(broker);
    const described = await load(broker, ids);
    const requests = offsetsRequests(broker);
    assert.deepEqual(
      requests.map((r) => r.groups),
      ids.map((groupId) => [{ groupId, topics: null }]),
    );
    assert.ok(broker.requests.every((r) => r.apiKey !== 90 || r.apiVersion === 1));
    assert.equal(seen.most, SHARE_OFFSETS_CONCURRENCY, 'DescribeShareGroupOffsets requests in flight at once');
    assert.equal(broker.requests.filter((r) => r.apiKey === 32).length, 1, 'the configs of all groups in one DescribeConfigs');
    assert.deepEqual(described.map((d) => [d.error, d.shareGroup?.partitions.map((p) => [p.startOffset, p.lag])]), ids.map(() => [undefined, [[3, 1]]]));
  });

  it("asks a Kafka 4.1 broker (v0) all of the coordinator's groups in one request, as Kafka's admin client does, MAX_GROUPS_PER_REQUEST at most", async () => {
    const ids = Array.from({ length: MAX_GROUPS_PER_REQUEST * 2 + 7 }, (_, i) => `share-${i}`);
    const broker = shareCoordinator(KAFKA_41_VERSIONS, ids);
    const described = await load(broker, ids);
    const requests = offsetsRequests(broker);
    assert.deepEqual(
      requests.map((r) => r.groups.length),
      [MAX_GROUPS_PER_REQUEST, MAX_GROUPS_PER_REQUEST, 7],
    );
    assert.deepEqual(
      requests.flatMap((r) => r.groups),
      ids.map((groupId) => ({ groupId, topics: null })),
    );
    assert.ok(broker.requests.every((r) => r.apiKey !== 90 || r.apiVersion === 0));
    assert.equal(described.filter((d) => d.error !== undefined || d.shareGroup?.partitions.length !== 1).length, 0);
  });

  it('asks again only the request whose coordinator was loading, and keeps every group', async () => {
    const ids = ['a', 'b', 'c'];
    const broker = shareCoordinator(KAFKA_44_VERSIONS, ids, new Set(['b']));
    const described = await load(broker, ids);
    assert.deepEqual(
      offsetsRequests(broker).map((r) => r.groups.map((g) => g.groupId)),
      [['a'], ['b'], ['c'], ['b']],
    );
    assert.deepEqual(described.map((d) => [d.groupId, d.error, d.shareGroup?.partitions.length]), [['a', undefined, 1], ['b', undefined, 1], ['c', undefined, 1]]);
  });

  it("sends a lag-computing broker's DescribeShareGroupOffsets on its second socket, everything else on the main one", async () => {
    const ids = ['a', 'b'];
    const broker = shareCoordinator(KAFKA_44_VERSIONS, ids);
    const described = await load(broker, ids);
    assert.deepEqual(
      broker.requests.map((r) => [r.apiKey, r.socket]).sort(),
      [[32, 'main'], [77, 'main'], [90, 'fetch'], [90, 'fetch']],
    );
    assert.deepEqual(described.map((d) => [d.error, d.shareGroup?.partitions.length]), [[undefined, 1], [undefined, 1]]);
  });

  it("keeps a Kafka 4.1 broker's batched offsets (v0, no lag) on the main socket", async () => {
    const ids = ['a', 'b'];
    const broker = shareCoordinator(KAFKA_41_VERSIONS, ids);
    await load(broker, ids);
    assert.deepEqual(broker.requests.filter((r) => r.apiKey === 90).map((r) => r.socket), ['main']);
  });

  it('cuts the groups per request by the version the broker speaks', () => {
    assert.deepEqual(shareOffsetsRequestGroups(['a', 'b', 'c'], 1), [['a'], ['b'], ['c']]);
    assert.deepEqual(shareOffsetsRequestGroups(['a', 'b', 'c'], 0), [['a', 'b', 'c']]);
    assert.deepEqual(shareOffsetsRequestGroups([], 0), []);
  });
});
