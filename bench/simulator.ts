/**
 * Benchmark: one simulated hour of a 100-consumer group on 1,000 partitions with a rebalance every
 * minute (one consumer closes and comes back). Prints wall time, events and peak memory.
 * Run: npx tsx bench/simulator.ts
 */
import { getHeapStatistics } from 'v8';
import { Simulation } from '../src/simulator/simulation';

/** Heap in use; cheaper than process.memoryUsage(), which also reads the RSS from the OS. */
const heapUsed = (): number => getHeapStatistics().used_heap_size;

const CONSUMERS = 100;
const PARTITIONS = 1000;
const HOUR_MS = 3600 * 1000;
const WARMUP_MINUTES = 5;

/** Simulates `minutes` of the group; returns what the benchmark prints. */
function simulate(minutes: number): { sim: Simulation; rebalancesStarted: number; peakHeap: number } {
  let peakHeap = heapUsed();
  const sim = new Simulation({ seed: 1, eventsPerGroup: 5000 });
  sim.createTopic('events', PARTITIONS);
  sim.startProducer({ topic: 'events', recordsPerSecond: 2000 });
  const handles: string[] = [];
  for (let i = 0; i < CONSUMERS; i++) {
    handles.push(sim.addConsumer({ groupId: 'bench-group', topics: ['events'], processingTimeMs: 50, autoOffsetReset: 'earliest' }).handle);
  }
  let rebalancesStarted = 0;
  sim.events.subscribe((e) => {
    if (e.kind === 'rebalance-started') {
      rebalancesStarted++;
    }
  });
  for (let minute = 1; minute <= minutes; minute++) {
    sim.runUntil(minute * 60000 - 30000);
    const handle = handles[minute % CONSUMERS];
    sim.stopConsumer(handle);
    sim.runUntil(minute * 60000 - 20000);
    sim.restartConsumer(handle);
    peakHeap = Math.max(peakHeap, heapUsed());
  }
  sim.runUntil(minutes * 60000);
  peakHeap = Math.max(peakHeap, heapUsed());
  return { sim, rebalancesStarted, peakHeap };
}

function run(): void {
  // A short unmeasured run first, so the figures are not dominated by JIT compilation.
  const warmStart = process.hrtime.bigint();
  simulate(WARMUP_MINUTES).sim.dispose();
  const warmupMs = Number(process.hrtime.bigint() - warmStart) / 1e6;
  const started = process.hrtime.bigint();
  const cpuStart = process.cpuUsage();
  const { sim, rebalancesStarted, peakHeap } = simulate(HOUR_MS / 60000);
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  const cpu = process.cpuUsage(cpuStart);
  const group = sim.coordinator.group('bench-group');
  console.log(`simulated ${HOUR_MS / 60000} min: ${CONSUMERS} consumers, ${PARTITIONS} partitions (after a ${warmupMs.toFixed(0)} ms warm-up run of ${WARMUP_MINUTES} min)`);
  console.log(`wall time        ${wallMs.toFixed(0)} ms (cpu ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms; wall grows on a loaded machine)`);
  console.log(`queue events run ${sim.clock.executedCount}`);
  console.log(`rebalance events ${sim.events.totalCount} (rebalances started: ${rebalancesStarted}, final generation ${group?.generationId}, state ${group?.state})`);
  console.log(`peak heap        ${(peakHeap / 1024 / 1024).toFixed(1)} MiB (rss ${(process.memoryUsage().rss / 1024 / 1024).toFixed(1)} MiB)`);
  sim.dispose();
}

run();
