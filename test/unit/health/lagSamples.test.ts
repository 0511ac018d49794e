import * as assert from 'assert';
import { evaluateGroup, withHealth } from '../../../src/health/lagEvaluation';
import { groupKey, LagSampleStore, sampleFromOffsets, type GroupSeries, type PartitionSampleInput } from '../../../src/health/lagSamples';
import type { GroupSummary } from '../../../src/model/types';

const SECOND = 1000;
const T0 = 1_700_000_000_000;

function sample(partition: number, committedOffset: number | null, logEndOffset: number | null, extra: Partial<PartitionSampleInput> = {}): PartitionSampleInput {
  return { topic: 'orders', partition, committedOffset, logEndOffset, ...extra };
}

/** The series as plain numbers (NaN as null) for deepStrictEqual. */
function plain(series: GroupSeries | undefined): unknown {
  if (series === undefined) {
    return undefined;
  }
  const list = (a: ArrayLike<number> | null): Array<number | null> | null => (a === null ? null : Array.from(a, (v) => (Number.isNaN(v) ? null : v)));
  return {
    times: list(series.times)?.map((t) => (t === null ? null : (t - T0) / SECOND)),
    partitions: series.partitions.map((p) => ({ p: p.partition, committed: list(p.committed), logEnd: list(p.logEnd) })),
  };
}

describe('LagSampleStore', () => {
  it('keeps samples per group, aligned by time, unknown partitions as NaN', () => {
    const store = new LagSampleStore();
    const key = groupKey('local', 'payments');
    store.record(key, T0, [sample(0, 5, 10), sample(1, 7, 9)]);
    store.record(key, T0 + 30 * SECOND, [sample(0, 6, 12)]);
    store.record(key, T0 + 60 * SECOND, [sample(0, 8, 14), sample(2, null, 3)]);
    assert.deepStrictEqual(plain(store.series(key)), {
      times: [0, 30, 60],
      partitions: [
        { p: 0, committed: [5, 6, 8], logEnd: [10, 12, 14] },
        { p: 1, committed: [7, null, null], logEnd: [9, null, null] },
        { p: 2, committed: [null, null, null], logEnd: [null, null, 3] },
      ],
    });
    assert.strictEqual(store.series(groupKey('other', 'payments')), undefined);
  });

  it('replaces the newest sample when it is within minIntervalMs of the row before, and refuses older times', () => {
    const store = new LagSampleStore({ minIntervalMs: 30 * SECOND });
    store.record('g', T0, [sample(0, 1, 2)]);
    store.record('g', T0 + 5 * SECOND, [sample(0, 3, 4)]);
    store.record('g', T0 + 10 * SECOND, [sample(0, 5, 6)]);
    assert.strictEqual(store.record('g', T0 + 9 * SECOND, [sample(0, 9, 9)]), false);
    assert.deepStrictEqual(plain(store.series('g')), { times: [0, 10], partitions: [{ p: 0, committed: [1, 5], logEnd: [2, 6] }] });
    store.record('g', T0 + 30 * SECOND, [sample(0, 7, 8)]);
    assert.deepStrictEqual((plain(store.series('g')) as { times: number[] }).times, [0, 10, 30]);
  });

  it('drops samples older than the retention, and the group when nothing is left', () => {
    const store = new LagSampleStore({ retentionMs: 60 * SECOND, minIntervalMs: 0 });
    for (let s = 0; s <= 100; s += 20) {
      store.record('g', T0 + s * SECOND, [sample(0, s, s + 1)]);
    }
    assert.deepStrictEqual((plain(store.series('g')) as { times: number[] }).times, [40, 60, 80, 100]);
    store.record('h', T0 + 100 * SECOND, [sample(0, 1, 1)]);
    store.sweep(T0 + 170 * SECOND);
    assert.deepStrictEqual([...store.keys()], []);
    assert.strictEqual(store.bytes, 0);
  });

  it('keeps at most maxSamples, growing its arrays up to that and then dropping the oldest', () => {
    const store = new LagSampleStore({ maxSamples: 10, minIntervalMs: 0 });
    for (let i = 0; i < 25; i++) {
      store.record('g', T0 + i * SECOND, [sample(0, i, 100 + i), sample(1, 2 * i, 200)]);
    }
    const series = plain(store.series('g')) as { times: number[]; partitions: Array<{ committed: number[]; logEnd: number[] }> };
    assert.deepStrictEqual(series.times, [15, 16, 17, 18, 19, 20, 21, 22, 23, 24]);
    assert.deepStrictEqual(series.partitions[0].committed, [15, 16, 17, 18, 19, 20, 21, 22, 23, 24]);
    assert.deepStrictEqual(series.partitions[1].committed, [30, 32, 34, 36, 38, 40, 42, 44, 46, 48]);
    assert.deepStrictEqual(series.partitions[1].logEnd, Array(10).fill(200));
    assert.strictEqual(store.sampleCount('g'), 10);
  });

  it('holds no more than a maxSamples below the initial array size', () => {
    const store = new LagSampleStore({ maxSamples: 2, minIntervalMs: 0 });
    for (let i = 0; i < 5; i++) {
      store.record('g', T0 + i * SECOND, [sample(0, i, 9)]);
    }
    assert.deepStrictEqual(Array.from(store.series('g')?.partitions[0].committed ?? []), [3, 4]);
  });

  it('forgets a partition once no kept sample has it', () => {
    const store = new LagSampleStore({ maxSamples: 4, minIntervalMs: 0 });
    store.record('g', T0, [sample(0, 1, 1), sample(1, 1, 1)]);
    for (let i = 1; i <= 5; i++) {
      store.record('g', T0 + i * SECOND, [sample(0, 1 + i, 9)]);
    }
    assert.deepStrictEqual(store.series('g')?.partitions.map((p) => p.partition), [0]);
    assert.deepStrictEqual(Array.from(store.series('g')?.partitions[0].committed ?? []), [3, 4, 5, 6]);
  });

  it('keeps lag in time, commit times, log start and ownership only once given', () => {
    const store = new LagSampleStore({ minIntervalMs: 0 });
    store.record('g', T0, [sample(0, 1, 5)]);
    assert.strictEqual(store.series('g')?.partitions[0].lagInTimeMs, null);
    store.record('g', T0 + SECOND, [sample(0, 2, 6, { lagInTimeMs: 1500, commitTime: T0 + 500, logStartOffset: 1, owned: true })]);
    const p = store.series('g')?.partitions[0];
    assert.deepStrictEqual(Array.from(p?.lagInTimeMs ?? []), [Number.NaN, 1500]);
    assert.deepStrictEqual(Array.from(p?.commitTimes ?? []), [Number.NaN, T0 + 500]);
    assert.deepStrictEqual([p?.logStartOffset, p?.owned], [1, true]);
  });

  it('drops the least recently recorded groups past maxBytes', () => {
    const store = new LagSampleStore({ maxBytes: 4000, minIntervalMs: 0 });
    for (let g = 0; g < 10; g++) {
      store.record(`g${g}`, T0, [sample(0, 1, 2), sample(1, 1, 2)]);
    }
    assert.ok(store.bytes <= 4000, `${store.bytes}`);
    assert.ok(store.size < 10 && store.size > 0);
    assert.ok(store.has('g9'));
    assert.ok(!store.has('g0'));
    store.forget('g9');
    assert.ok(!store.has('g9'));
  });

  it('refuses bad options and times with a clear error', () => {
    assert.throws(() => new LagSampleStore({ maxSamples: 1 }), /maxSamples must be an integer of at least 2/);
    assert.throws(() => new LagSampleStore({ retentionMs: Number.NaN }), /retentionMs must be a finite number/);
    assert.throws(() => new LagSampleStore().record('g', Number.NaN, []), /time must be a finite number/);
  });

  it('samples what the tree loaded, ownership unknown unless the source said', () => {
    const base = { topic: 't', committedOffset: 5, logStartOffset: 0, logEndOffset: 9, lag: 4 };
    assert.deepStrictEqual(sampleFromOffsets([
      { ...base, partition: 0, ownerMemberId: 'm-1', lagInTimeMs: 70 }, { ...base, partition: 1, ownerMemberId: null }, { ...base, partition: 2 },
    ]).map((s) => [s.partition, s.owned, s.lagInTimeMs, s.committedOffset, s.logEndOffset, s.logStartOffset]),
    [[0, true, 70, 5, 9, 0], [1, false, null, 5, 9, 0], [2, null, null, 5, 9, 0]]);
  });

  it('puts the evaluation on the summary', () => {
    const summary: GroupSummary = { groupId: 'g', state: 'Empty', protocolType: 'consumer', groupType: 'classic', assignor: '', coordinator: null, memberCount: 0, totalLag: 3 };
    const store = new LagSampleStore({ minIntervalMs: 0 });
    store.record('g', T0, [sample(0, 1, 4, { lagInTimeMs: 800, owned: false })]);
    const updated = withHealth(summary, evaluateGroup(store.series('g'), T0));
    assert.deepStrictEqual([updated.health?.status, updated.maxLagInTimeMs, summary.health], ['OK', 800, undefined]);
    assert.ok(updated.health?.reason.includes('collecting samples'));
  });

  it('feeds the evaluation directly', () => {
    const store = new LagSampleStore({ minIntervalMs: 0 });
    for (let i = 0; i < 4; i++) {
      store.record('g', T0 + i * 60 * SECOND, [sample(0, 5, 10 + i), sample(1, 10 * i, 10 * i + 3)]);
    }
    const health = evaluateGroup(store.series('g'), T0 + 3 * 60 * SECOND);
    assert.strictEqual(health.status, 'STALLED');
    assert.ok(health.reason.startsWith('orders-0:'), health.reason);
  });
});

describe('LagSampleStore under a fast refresh and a tight budget', () => {
  it('a 5 s refresh keeps rows at least minIntervalMs apart, with the newest always current', () => {
    const store = new LagSampleStore({ minIntervalMs: 30 * SECOND });
    for (let s = 0; s <= 120; s += 5) {
      store.record('g', T0 + s * SECOND, [sample(0, s, s + 10)]);
    }
    const times = Array.from(store.series('g')?.times ?? [], (t) => (t - T0) / SECOND);
    assert.strictEqual(times[times.length - 1], 120);
    assert.deepStrictEqual(Array.from(store.series('g')?.partitions[0].committed ?? []).slice(-1), [120]);
    for (let i = 1; i < times.length - 1; i++) {
      assert.ok(times[i] - times[i - 1] >= 25, `rows ${times[i - 1]} and ${times[i]} are too close: ${times.join(', ')}`);
    }
    assert.ok(times.length >= 4, times.join(', '));
  });

  it('round-robin refreshes of more groups than the budget holds at full size thin them instead of dropping any', () => {
    // Rows of the last 2 minutes (4 samples) stay dense; older ones are thinned.
    const store = new LagSampleStore({ minIntervalMs: 0, maxSamples: 64, maxBytes: 200 * 1024, denseMs: 2 * 60 * SECOND });
    const groups = 100;
    for (let s = 0; s < 120; s++) {
      for (let g = 0; g < groups; g++) {
        store.record(`g${g}`, T0 + s * 30 * SECOND, [sample(0, s, s + 5), sample(1, s, s + 5)]);
      }
    }
    assert.strictEqual(store.size, groups);
    assert.ok(store.bytes <= 200 * 1024, `${store.bytes}`);
    for (let g = 0; g < groups; g++) {
      const times = Array.from(store.series(`g${g}`)?.times ?? [], (t) => (t - T0) / (30 * SECOND));
      assert.ok(times.length >= 8, `g${g} keeps ${times.length}`);
      assert.strictEqual(times[times.length - 1], 119, 'the newest sample is kept');
      assert.ok(times[0] <= 60, `g${g} still reaches back (oldest sample ${times[0]})`);
      assert.deepStrictEqual(times.slice(-4), [116, 117, 118, 119], 'the dense window keeps every sample');
    }
  });

  it('under a tight budget keeps the dense window whole rather than reaching back', () => {
    const store = new LagSampleStore({ minIntervalMs: 0, maxSamples: 64, maxBytes: 200 * 1024 });
    for (let s = 0; s < 120; s++) {
      for (let g = 0; g < 100; g++) {
        store.record(`g${g}`, T0 + s * 30 * SECOND, [sample(0, s, s + 5), sample(1, s, s + 5)]);
      }
    }
    const times = Array.from(store.series('g7')?.times ?? [], (t) => (t - T0) / (30 * SECOND));
    assert.ok(times.length >= 8, `${times.length}`);
    assert.deepStrictEqual(times, times.map((_, i) => 120 - times.length + i), 'consecutive samples up to the newest');
  });

  it('shrinks the groups already held when more groups arrive', () => {
    const store = new LagSampleStore({ minIntervalMs: 0, maxSamples: 120, maxBytes: 64 * 1024 });
    for (let s = 0; s < 100; s++) {
      store.record('old', T0 + s * SECOND, [sample(0, s, s)]);
    }
    const before = store.sampleCount('old');
    for (let g = 0; g < 20; g++) {
      for (let s = 100; s < 110; s++) {
        store.record(`new${g}`, T0 + s * SECOND, [sample(0, s, s)]);
      }
    }
    store.record('old', T0 + 200 * SECOND, [sample(0, 200, 200)]);
    assert.ok(store.sampleCount('old') < before, `${store.sampleCount('old')} < ${before}`);
    assert.ok(store.has('old') && store.size === 21);
    assert.ok(store.bytes <= 64 * 1024);
  });
});
