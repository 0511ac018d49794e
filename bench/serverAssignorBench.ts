/**
 * The server-side assignors (Kafka 4.4's `uniform` and `range`, KIP-848 groups) on the large cases of
 * serverAssignorCases.ts, here and in Kafka's own Java classes: median wall time of the assign call over a few runs
 * after a warm-up, on both sides, and whether both sides computed the same assignment (a difference sets exit code 1).
 * Run by bench/assignors.ts.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { assign } from '../src/simulator/coordinator/group/assignor/index';
import type { GroupAssignment } from '../src/simulator/coordinator/group/assignor/types';
import { canonicalJson } from './java/canonicalAssignment';
import { prepareServerAssignorHarness } from './java/javaHarness';
import { largeServerCases } from './serverAssignorCases';

/** Runs after the first (warm-up) one; the median is reported. */
const TIMED_RUNS = 5;

const cacheDir = path.join(__dirname, '..', '.cache', 'server-assignor-bench');

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const ms = (value: number): string => `${value.toFixed(1)} ms`;

export function runServerAssignorBench(withJava: boolean): void {
  console.log(`\nServer-side assignors (KIP-848, Kafka 4.4): median of ${TIMED_RUNS} assign calls after a warm-up`);
  const harness = withJava ? prepareServerAssignorHarness() : { available: false as const, reason: 'skipped (--no-java)' };
  if (!harness.available) {
    console.log(`  Java comparison not run: ${harness.reason}`);
  }
  fs.mkdirSync(cacheDir, { recursive: true });
  for (const large of largeServerCases()) {
    console.log(`\n  ${large.title}`);
    for (const assignor of ['uniform', 'range'] as const) {
      const input = large.build(assignor);
      const times: number[] = [];
      let result: GroupAssignment = new Map();
      for (let run = 0; run <= TIMED_RUNS; run++) {
        const start = performance.now();
        result = assign(assignor, input.groupSpec, input.topics);
        if (run > 0) {
          times.push(performance.now() - start);
        }
      }
      let java = '';
      if (harness.available) {
        const file = path.join(cacheDir, 'bench-case.json');
        fs.writeFileSync(file, JSON.stringify([{ assignor, subscriptionType: input.groupSpec.subscriptionType, members: input.groupSpec.members, topics: input.topics }]));
        try {
          const output = JSON.parse(harness.run(['bench', file, String(TIMED_RUNS + 1)])) as { runsMs: number[]; result: unknown };
          const javaMedian = median(output.runsMs.slice(1));
          const same = JSON.stringify(output.result) === JSON.stringify(JSON.parse(canonicalJson(result)));
          if (!same) {
            process.exitCode = 1;
          }
          java = `; Kafka Java ${ms(javaMedian)}, Java time / our time = ${(javaMedian / median(times)).toFixed(2)}; ` +
            `results ${same ? 'identical' : 'DIFFER'}`;
        } catch (error) {
          java = `; Kafka Java failed: ${(error as Error).message.split('\n').slice(0, 3).join(' ')}`;
        }
      }
      console.log(`    ${assignor.padEnd(8)} ours ${ms(median(times))}${java}`);
    }
  }
}
