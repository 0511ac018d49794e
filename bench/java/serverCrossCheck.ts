/**
 * Cross-check of the server-side assignors: runs `uniform`, `range` and the share groups' `simple` here and in
 * Kafka 4.4's own Java classes (UniformAssignor, RangeAssignor, SimpleAssignor with GroupSpecImpl, its
 * topicPartitionAllowedMap for share groups, and MemberSubscriptionAndAssignmentImpl from the
 * kafka-group-coordinator jar on Maven Central) on the same inputs and compares the results exactly: seeded random
 * small groups (homogeneous and heterogeneous; no current assignment, the assignor's own result for an earlier
 * membership, or random claims) and a few large ones.
 * Run with `npx tsx bench/java/serverCrossCheck.ts [casesPerKind] [seed] [--no-large]`.
 * With `--reconciliation [cases] [seed]` it checks the KIP-848 engine's CurrentAssignmentBuilder instead: seeded
 * random reconciliation steps (bench/java/server/reconciliationCases.ts) against Kafka 4.4.0's own class.
 * With `--streams [casesPerKind] [seed] [--no-large]` it checks the streams groups' StickyTaskAssignor port
 * (bench/java/server/streamsCrossCheck.ts) against Kafka 4.4.0's StickyTaskAssignor.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { assign } from '../../src/simulator/coordinator/group/assignor/index';
import type { ServerAssignorName } from '../../src/simulator/coordinator/group/assignor/types';
import { SeededRandom } from '../../src/simulator/common/random';
import { randomServerCase, type RandomSpecOptions, type ServerAssignorCase } from '../../test/unit/simulator/coordinator/group/assignor/randomGroupSpecs';
import { largeServerCases, largeShareGroupCases } from '../serverAssignorCases';
import { canonicalJson } from './canonicalAssignment';
import { ourReconciliation, randomReconciliationCase } from './server/reconciliationCases';
import { crossCheckStreams } from './server/streamsCrossCheck';
import { prepareServerAssignorHarness, type JavaHarness } from './javaHarness';

const cacheDir = path.join(__dirname, '..', '..', '.cache', 'server-assignor-bench');

function ours(testCase: ServerAssignorCase): string {
  try {
    return canonicalJson(assign(testCase.assignor, testCase.groupSpec, testCase.topics));
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
}

/** The harness's input shape: one flat object per case. */
function toJavaInput(testCase: ServerAssignorCase): object {
  const { members, subscriptionType, topicPartitionAllowedMap } = testCase.groupSpec;
  return { assignor: testCase.assignor, subscriptionType, members, topics: testCase.topics, topicPartitionAllowedMap };
}

interface Kind {
  label: string;
  assignor: ServerAssignorName;
  options: RandomSpecOptions;
}

function kinds(): Kind[] {
  const result: Kind[] = [];
  for (const assignor of ['uniform', 'range', 'simple'] as const) {
    for (const homogeneous of [true, false]) {
      for (const current of ['none', 'previous', 'random'] as const) {
        result.push({
          label: `${assignor} ${homogeneous ? 'homogeneous' : 'heterogeneous'}, current assignment: ${current}`,
          assignor,
          // Share groups also get more members than partitions, where partitions are shared.
          options: assignor === 'simple'
            ? { maxTopics: 6, maxPartitions: 8, maxMembers: 18, homogeneous, current }
            : { maxTopics: 16, maxPartitions: 12, maxMembers: 9, homogeneous, current },
        });
      }
    }
  }
  return result;
}

/** Runs the cases in Java and here; returns how many agree and prints the first few that do not. */
function compare(harness: Extract<JavaHarness, { available: true }>, cases: ServerAssignorCase[], file: string): boolean[] {
  fs.writeFileSync(file, JSON.stringify(cases.map(toJavaInput)));
  const javaLines = harness.run(['check', file]).trim().split('\n');
  let shown = 0;
  return cases.map((testCase, i) => {
    const javaLine = javaLines[i] ?? '';
    const expected = javaLine.startsWith('{"error":') ? 'error' : javaLine;
    const actual = ours(testCase);
    const same = expected === 'error' ? actual.startsWith('error:') : actual === expected;
    if (!same && shown++ < 3) {
      console.log(`MISMATCH (${testCase.assignor}, ${testCase.groupSpec.subscriptionType})\n  input: ${JSON.stringify(toJavaInput(testCase)).slice(0, 4000)}\n` +
        `  kafka: ${javaLine.slice(0, 2000)}\n  ours:  ${actual.slice(0, 2000)}`);
    }
    return same;
  });
}

/** CurrentAssignmentBuilder: the next state of random members, here and in Kafka's class. */
function crossCheckReconciliation(harness: Extract<JavaHarness, { available: true }>, count: number, seed: number): void {
  const random = new SeededRandom(seed);
  const cases = Array.from({ length: count }, () => randomReconciliationCase(random));
  const file = path.join(cacheDir, 'reconciliation-cases.json');
  fs.writeFileSync(file, JSON.stringify(cases));
  const javaLines = harness.run(['reconcile', file]).trim().split('\n');
  let equal = 0;
  let shown = 0;
  cases.forEach((testCase, i) => {
    const ours = ourReconciliation(testCase);
    if (ours === javaLines[i]) {
      equal++;
    } else if (shown++ < 3) {
      console.log(`MISMATCH\n  input: ${JSON.stringify(testCase)}\n  kafka: ${javaLines[i]}\n  ours:  ${ours}`);
    }
  });
  const states = new Map<string, number>();
  javaLines.forEach((line) => {
    const state = /"state":(\d+)/.exec(line)?.[1] ?? 'error';
    states.set(state, (states.get(state) ?? 0) + 1);
  });
  console.log(`CurrentAssignmentBuilder: ${equal}/${count} equal to Kafka 4.4.0 (seed ${seed}; Kafka's resulting states: ${[...states].map(([s, n]) => `${s}=${n}`).join(', ')})`);
  if (equal !== count) {
    process.exitCode = 1;
  }
}

function main(): void {
  const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const harness = prepareServerAssignorHarness();
  if (!harness.available) {
    console.log(`Java cross-check skipped: ${harness.reason}`);
    process.exitCode = 1;
    return;
  }
  fs.mkdirSync(cacheDir, { recursive: true });
  if (process.argv.includes('--reconciliation')) {
    crossCheckReconciliation(harness, Number(args[0] ?? 20000), Number(args[1] ?? 20261203));
    return;
  }
  if (process.argv.includes('--streams')) {
    const seed = Number(args[1] ?? 20261207);
    const failures = crossCheckStreams(harness, Number(args[0] ?? 500), seed, !process.argv.includes('--no-large'), cacheDir);
    console.log(failures === 0 ? `all equal (seed ${seed})` : `${failures} differ (seed ${seed})`);
    process.exitCode = failures > 0 ? 1 : 0;
    return;
  }
  const perKind = Number(args[0] ?? 300);
  const seed = Number(args[1] ?? 20261203);
  const random = new SeededRandom(seed);
  let failures = 0;
  const allKinds = kinds();
  const cases = allKinds.flatMap((kind) => Array.from({ length: perKind }, () => randomServerCase(random, kind.assignor, kind.options)));
  const agreed = compare(harness, cases, path.join(cacheDir, 'cross-check-small.json'));
  allKinds.forEach((kind, k) => {
    const equal = agreed.slice(k * perKind, (k + 1) * perKind).filter(Boolean).length;
    failures += perKind - equal;
    console.log(`${kind.label.padEnd(62)} ${equal}/${perKind} equal to Kafka 4.4.0`);
  });
  if (!process.argv.includes('--no-large')) {
    const largeCases = [
      ...largeServerCases().flatMap((large) => (['uniform', 'range', 'simple'] as const).map((assignor) => ({ large, assignor }))),
      ...largeShareGroupCases().map((large) => ({ large, assignor: 'simple' as const })),
    ];
    for (const { large, assignor } of largeCases) {
      const testCase = { ...large.build(assignor), assignor };
      const [same] = compare(harness, [testCase], path.join(cacheDir, 'cross-check-large.json'));
      failures += same ? 0 : 1;
      console.log(`large: ${`${assignor} ${large.title}`.padEnd(90)} ${same ? 'equal to Kafka 4.4.0' : 'DIFFERS'}`);
    }
  }
  console.log(failures === 0 ? `all equal (seed ${seed})` : `${failures} differ (seed ${seed})`);
  if (failures > 0) {
    process.exitCode = 1;
  }
}

main();
