/**
 * Lag health at scale: 20,000 groups × 10 partitions × 60 samples (30 s apart: half an hour) in the LagSampleStore,
 * its measured memory (heap + array buffers after a collection) against its own estimate, how many groups the
 * default 64 MiB budget keeps, the Burrow-style evaluation of every group, and filtering and sorting the summaries.
 * KGL_BENCH_GROUPS sets the group count.
 * Run: npm run bench -- health   (or npx tsx --expose-gc bench/health.ts)
 */
import { performance } from 'node:perf_hooks';
import { evaluateGroup } from '../src/health/lagEvaluation';
import { LagSampleStore, type PartitionSampleInput } from '../src/health/lagSamples';
import type { GroupSummary } from '../src/model/types';
import { parseGroupFilter, queryGroups } from '../src/views/groupQuery';

const GROUPS = Number(process.env.KGL_BENCH_GROUPS ?? 20_000);
const PARTITIONS = 10;
const SAMPLES = 60;
const INTERVAL_MS = 30_000;
const T0 = 1_700_000_000_000;
const NOW = T0 + (SAMPLES - 1) * INTERVAL_MS;

function settledMemory(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/**
 * A group's partitions at sample `s`: partition 0 follows the group's flavour (group % 6: consuming, stalled, lag
 * growing, caught up, rewound near the end, stopped with no owner), the others consume with a lag that dips.
 */
function sampleOf(group: number, s: number, into: PartitionSampleInput[]): PartitionSampleInput[] {
  for (let p = 0; p < PARTITIONS; p++) {
    const rate = 100 + ((group + p) % 7) * 10;
    const produced = 1_000_000 + s * rate;
    const consuming = produced - 500 - (s % 4) * 20;
    const flavour = p === 0 ? group % 6 : 0;
    const committed = [
      consuming, 1_000_000, 1_000_000 + s * (rate - 50), produced, consuming - (s >= SAMPLES - 5 ? 10_000 : 0), 1_000_000,
    ][flavour];
    into[p] = {
      topic: `topic-${group % 50}`, partition: p, committedOffset: committed, logEndOffset: produced,
      lagInTimeMs: (produced - committed) * 10, owned: flavour !== 5,
    };
  }
  return into;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}

/** Wall and CPU milliseconds of `run` (the machine may be shared: CPU time is the steadier figure). */
function timed(run: () => void): { wallMs: number; cpuMs: number } {
  const cpu = process.cpuUsage();
  const start = performance.now();
  run();
  const used = process.cpuUsage(cpu);
  return { wallMs: performance.now() - start, cpuMs: (used.user + used.system) / 1000 };
}

function fill(store: LagSampleStore): { wallMs: number; cpuMs: number } {
  const inputs: PartitionSampleInput[] = new Array(PARTITIONS);
  return timed(() => {
    // Sample time outer, groups inner: how the tree's refreshes arrive.
    for (let s = 0; s < SAMPLES; s++) {
      for (let g = 0; g < GROUPS; g++) {
        store.record(`cluster\u0000group-${g}`, T0 + s * INTERVAL_MS, sampleOf(g, s, inputs));
      }
    }
  });
}

const before = settledMemory();
const unbounded = new LagSampleStore({ maxBytes: Number.MAX_SAFE_INTEGER, minIntervalMs: 0 });
const filled = fill(unbounded);
const held = settledMemory() - before;
const samples = GROUPS * PARTITIONS * SAMPLES;
console.log(`store: ${GROUPS} groups × ${PARTITIONS} partitions × ${SAMPLES} samples = ${samples.toLocaleString('en')} partition samples`);
console.log(`  recorded in ${filled.wallMs.toFixed(0)} ms wall, ${filled.cpuMs.toFixed(0)} ms CPU (${((filled.cpuMs * 1e3) / (GROUPS * SAMPLES)).toFixed(1)} µs CPU per group sample)`);
console.log(`  measured ${mib(held)}: ${(held / GROUPS).toFixed(0)} bytes per group, ${(held / samples).toFixed(1)} per partition sample`);
console.log(`  estimate ${mib(unbounded.bytes)}: ${(unbounded.bytes / GROUPS).toFixed(0)} bytes per group (maxBytes bounds the estimate)`);

const evaluateTimes: number[] = [];
const evaluateCpu: number[] = [];
const counts: Record<string, number> = {};
for (let run = 0; run < 5; run++) {
  const { wallMs, cpuMs } = timed(() => {
    for (let g = 0; g < GROUPS; g++) {
      const health = evaluateGroup(unbounded.series(`cluster\u0000group-${g}`), NOW);
      if (run === 0) {
        counts[health.status] = (counts[health.status] ?? 0) + 1;
      }
    }
  });
  evaluateTimes.push(wallMs);
  evaluateCpu.push(cpuMs);
}
console.log(`evaluation of ${GROUPS} groups: median ${median(evaluateTimes).toFixed(0)} ms wall, ${median(evaluateCpu).toFixed(0)} ms CPU of 5 runs (${((median(evaluateCpu) * 1e3) / GROUPS).toFixed(1)} µs CPU per group); statuses ${JSON.stringify(counts)}`);

const summaries: GroupSummary[] = Array.from({ length: GROUPS }, (_, g) => ({
  groupId: `group-${g}`, state: g % 3 === 0 ? 'Empty' : 'Stable', protocolType: 'consumer', groupType: 'classic', assignor: 'range',
  coordinator: null, memberCount: g % 3 === 0 ? 0 : 1 + (g % 5), totalLag: g % 11 === 0 ? null : (g * 7919) % 10_000,
  maxLagInTimeMs: g % 13 === 0 ? null : (g * 104_729) % 3_600_000,
}));
const parsed = parseGroupFilter('group-1* state:stable has:lag');
if (!parsed.ok) {
  throw new Error(parsed.error);
}
const queryTimes: number[] = [];
let shown = 0;
for (let run = 0; run < 5; run++) {
  const start = performance.now();
  shown = queryGroups(summaries, parsed.filter, { key: 'lagInTime', descending: true }).length;
  queryGroups(summaries, { ...parsed.filter, idPatterns: [] }, { key: 'name', descending: false });
  queryTimes.push(performance.now() - start);
}
console.log(`filter + sort by lag in time, and a filter + sort by name, over ${GROUPS} summaries: median ${median(queryTimes).toFixed(1)} ms (${shown} shown by the first)`);

const bounded = new LagSampleStore({ minIntervalMs: 0 });
fill(bounded);
const kept = [...bounded.keys()].map((key) => bounded.sampleCount(key));
console.log(`default budget ${mib(bounded.options.maxBytes)}: keeps ${bounded.size} of ${GROUPS} groups (estimate ${mib(bounded.bytes)}), `
  + `${Math.min(...kept)} to ${Math.max(...kept)} samples each (median ${median(kept)}) reaching back ${
    ((NOW - Math.max(...[...bounded.keys()].map((key) => bounded.series(key)?.times[0] ?? NOW))) / 60_000).toFixed(0)} minutes at least`);
const boundedCounts: Record<string, number> = {};
for (const key of bounded.keys()) {
  const status = evaluateGroup(bounded.series(key), NOW).status;
  boundedCounts[status] = (boundedCounts[status] ?? 0) + 1;
}
console.log(`  evaluated from those samples: ${JSON.stringify(boundedCounts)}`);
