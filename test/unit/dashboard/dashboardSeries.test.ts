import * as assert from 'assert';
import { dashboardSnapshot } from '../../../src/dashboard/dashboardSeries';
import { isDashboardHostMessage } from '../../../src/dashboard/dashboardProtocol';
import { groupKey, LagSampleStore, type PartitionSampleInput } from '../../../src/health/lagSamples';
import type { RebalanceEvent } from '../../../src/model/types';

const SECOND = 1000;
const T0 = 1_700_000_000_000;
const KEY = groupKey('local', 'payments');

function sample(topic: string, partition: number, committedOffset: number | null, logEndOffset: number | null, lagInTimeMs: number | null = null): PartitionSampleInput {
  return { topic, partition, committedOffset, logEndOffset, lagInTimeMs };
}

function rebalance(time: number, cause?: string): RebalanceEvent {
  return { groupId: 'payments', time, kind: 'rebalance-started', generation: 1, ...(cause ? { cause } : {}) };
}

/** Samples 30 s apart (the store's default minimum distance). */
function storeWith(...samples: PartitionSampleInput[][]): LagSampleStore {
  const store = new LagSampleStore();
  samples.forEach((partitions, i) => assert.ok(store.record(KEY, T0 + i * 30 * SECOND, partitions)));
  return store;
}

describe('dashboardSnapshot', () => {
  it('sums lag per topic, keeps the largest lag in time, and computes the rates from committed and log end deltas', () => {
    const store = storeWith(
      [sample('orders', 0, 100, 160, 2000), sample('orders', 1, 50, 80, 5000), sample('audit', 0, 10, 10)],
      [sample('orders', 0, 400, 700, 4000), sample('orders', 1, 110, 170, 1000), sample('audit', 0, 10, 13)],
    );
    const snapshot = dashboardSnapshot('payments', 'Local', store.series(KEY), []);
    assert.deepStrictEqual(snapshot.times, [T0, T0 + 30 * SECOND]);
    assert.deepStrictEqual(snapshot.topics.map((t) => t.topic), ['audit', 'orders'], 'topics sorted by name');
    const orders = snapshot.topics[1];
    assert.strictEqual(orders.partitions, 2);
    assert.deepStrictEqual(orders.lag, [60 + 30, 300 + 60]);
    assert.deepStrictEqual(orders.maxLagInTimeMs, [5000, 4000]);
    // (400 − 100 + 110 − 50) / 30 s and (700 − 160 + 170 − 80) / 30 s
    assert.deepStrictEqual(orders.consumedPerSec, [null, 12]);
    assert.deepStrictEqual(orders.producedPerSec, [null, 21]);
    const audit = snapshot.topics[0];
    assert.deepStrictEqual(audit.consumedPerSec, [null, 0]);
    assert.deepStrictEqual(audit.producedPerSec, [null, 0.1]);
    assert.deepStrictEqual(audit.maxLagInTimeMs, [null, null]);
  });

  it('leaves out a partition whose offset went back (a reset) and one unknown at either sample, rather than drawing a negative rate', () => {
    const store = storeWith(
      [sample('orders', 0, 500, 600), sample('orders', 1, null, 100), sample('orders', 2, 10, 20)],
      [sample('orders', 0, 200, 630), sample('orders', 1, 40, 130), sample('orders', 2, 40, 50)],
    );
    const [orders] = dashboardSnapshot('payments', 'Local', store.series(KEY), []).topics;
    assert.deepStrictEqual(orders.consumedPerSec, [null, 1], 'only partition 2 counts: 30 offsets in 30 s');
    assert.deepStrictEqual(orders.producedPerSec, [null, 3]);
    assert.deepStrictEqual(orders.lag, [100 + 10, 430 + 90 + 10], 'a partition without a commit has no lag of its own');
  });

  it('gives null, not a number, when no partition of the topic is known at a sample', () => {
    const store = storeWith([sample('orders', 0, 5, 10)], [sample('audit', 0, 1, 1)]);
    const orders = dashboardSnapshot('payments', 'Local', store.series(KEY), []).topics.find((t) => t.topic === 'orders');
    assert.deepStrictEqual(orders?.lag, [5, null]);
    assert.deepStrictEqual(orders?.consumedPerSec, [null, null]);
  });

  it('keeps only the rebalances within the samples as markers, labelled with their kind and cause', () => {
    const store = storeWith([sample('orders', 0, 5, 10)], [sample('orders', 0, 6, 10)], [sample('orders', 0, 7, 10)]);
    const events = [rebalance(T0 - SECOND), rebalance(T0 + 10 * SECOND, 'member joined'), rebalance(T0 + 60 * SECOND), rebalance(T0 + 61 * SECOND)];
    assert.deepStrictEqual(dashboardSnapshot('payments', 'Local', store.series(KEY), events).rebalances, [
      { time: T0 + 10 * SECOND, label: 'rebalance-started: member joined' },
      { time: T0 + 60 * SECOND, label: 'rebalance-started' },
    ]);
  });

  it('is empty without samples, and every snapshot it makes passes the page check', () => {
    const empty = dashboardSnapshot('payments', 'Local', undefined, [rebalance(T0)]);
    assert.deepStrictEqual(empty, { groupId: 'payments', cluster: 'Local', times: [], topics: [], rebalances: [] });
    assert.ok(isDashboardHostMessage({ type: 'snapshot', snapshot: empty }));
    const store = storeWith([sample('orders', 0, null, null)], [sample('orders', 0, 3, 9, 1500)]);
    const snapshot = dashboardSnapshot('payments', 'Local', store.series(KEY), []);
    assert.ok(isDashboardHostMessage(JSON.parse(JSON.stringify({ type: 'snapshot', snapshot }))));
  });
});
