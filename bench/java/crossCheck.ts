/**
 * Cross-check: runs range, roundrobin, sticky and cooperative-sticky on seeded random small groups here and in
 * Kafka's own Java assignors (kafka-clients from Maven Central), and compares each member's partitions as sets.
 * Run with `npx tsx bench/java/crossCheck.ts [casesPerStrategy] [seed]`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { assign } from '../../src/simulator/assignors/index';
import type { AssignInput, AssignorName, AssignResult } from '../../src/simulator/assignors/types';
import { SeededRandom } from '../../src/simulator/common/random';
import { randomGroup, withRandomClaims } from '../../test/unit/simulator/assignors/randomGroups';
import { cacheDir, prepareJavaHarness } from './javaHarness';

interface CrossCheckCase extends AssignInput {
  strategy: AssignorName;
}

const strategies: AssignorName[] = ['range', 'roundrobin', 'sticky', 'cooperative-sticky'];

function makeCases(perStrategy: number, seed: number): CrossCheckCase[] {
  const random = new SeededRandom(seed);
  const cases: CrossCheckCase[] = [];
  for (const strategy of strategies) {
    for (let i = 0; i < perStrategy; i++) {
      const group = randomGroup(random, {
        maxTopics: 5,
        maxPartitions: 8,
        maxMembers: 7,
        staticShare: strategy === 'range' || strategy === 'roundrobin' ? 0.4 : 0,
        equalSubscriptions: i % 3 === 0,
      });
      const sticky = strategy === 'sticky' || strategy === 'cooperative-sticky';
      cases.push({ strategy, ...(sticky && i % 4 !== 0 ? withRandomClaims(random, group, true) : group) });
    }
  }
  return cases;
}

function asSets(result: AssignResult): Record<string, string> {
  const sets: Record<string, string> = {};
  for (const [member, partitions] of Object.entries(result)) {
    sets[member] = partitions.map((tp) => `${tp.topic}-${tp.partition}`).sort().join(',');
  }
  return sets;
}

function ours(testCase: CrossCheckCase): AssignResult | { error: string } {
  try {
    return assign(testCase.strategy, testCase);
  } catch (error) {
    return { error: (error as Error).message };
  }
}

function main(): void {
  const perStrategy = Number(process.argv[2] ?? 20);
  const seed = Number(process.argv[3] ?? 20250314);
  const harness = prepareJavaHarness();
  if (!harness.available) {
    console.log(`Java cross-check skipped: ${harness.reason}`);
    process.exitCode = 1;
    return;
  }
  const cases = makeCases(perStrategy, seed);
  fs.mkdirSync(cacheDir, { recursive: true });
  const inputFile = path.join(cacheDir, 'cross-check-input.json');
  fs.writeFileSync(inputFile, JSON.stringify(cases));
  const javaLines = harness.run(['check', inputFile]).trim().split('\n');
  const matchedPerStrategy = new Map<AssignorName, number>(strategies.map((s) => [s, 0]));
  let mismatches = 0;
  cases.forEach((testCase, i) => {
    const expected = JSON.parse(javaLines[i]) as AssignResult | { error: string };
    const actual = ours(testCase);
    const same = 'error' in expected || 'error' in actual
      ? 'error' in expected && 'error' in actual
      : JSON.stringify(asSets(expected)) === JSON.stringify(asSets(actual));
    if (same) {
      matchedPerStrategy.set(testCase.strategy, (matchedPerStrategy.get(testCase.strategy) ?? 0) + 1);
    } else {
      mismatches++;
      console.log(`MISMATCH case ${i} (${testCase.strategy})\n  input: ${JSON.stringify(testCase)}\n` +
        `  kafka: ${JSON.stringify('error' in expected ? expected : asSets(expected))}\n` +
        `  ours:  ${JSON.stringify('error' in actual ? actual : asSets(actual))}`);
    }
  });
  for (const strategy of strategies) {
    console.log(`${strategy.padEnd(20)} ${matchedPerStrategy.get(strategy)}/${perStrategy} equal to Kafka 4.0.0`);
  }
  console.log(`total: ${cases.length - mismatches}/${cases.length} matched (seed ${seed})`);
  if (mismatches > 0) {
    process.exitCode = 1;
  }
}

main();
