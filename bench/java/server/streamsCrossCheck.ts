/**
 * Cross-check of the streams groups' StickyTaskAssignor port (src/simulator/coordinator/streams/assignor) against
 * Kafka 4.4.0's own class from the kafka-group-coordinator jar: the same seeded random inputs
 * (./streamsAssignorCases.ts) run here and in StreamsAssignorHarness, results and error texts compared exactly.
 * Run through `npx tsx bench/java/serverCrossCheck.ts --streams [casesPerKind] [seed] [--no-large]`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SeededRandom } from '../../../src/simulator/common/random';
import { assignStickyTasks } from '../../../src/simulator/coordinator/streams/assignor/index';
import type { JavaHarness } from '../javaHarness';
import {
  canonicalStreamsJson, largeStreamsCases, randomStreamsCase, type StreamsAssignorCase, type StreamsCurrentState,
} from './streamsAssignorCases';

function ours(testCase: StreamsAssignorCase): string {
  try {
    return canonicalStreamsJson(assignStickyTasks(testCase, testCase.subtopologies));
  } catch (error) {
    return `{"error":${JSON.stringify(`org.apache.kafka.coordinator.group.api.streams.assignor.TaskAssignorException: ${(error as Error).message}`)}}`;
  }
}

/** Runs the cases in Java and here; returns which agree and prints the first few that do not. */
function compare(harness: Extract<JavaHarness, { available: true }>, cases: StreamsAssignorCase[], file: string): boolean[] {
  fs.writeFileSync(file, JSON.stringify(cases));
  const javaLines = harness.run(['streams', file]).trim().split('\n');
  let shown = 0;
  return cases.map((testCase, i) => {
    const javaLine = javaLines[i] ?? '';
    const actual = ours(testCase);
    // Errors too are compared exactly: Kafka's TaskAssignorException text against ours.
    const same = actual === javaLine;
    if (!same && shown++ < 3) {
      console.log(`MISMATCH\n  input: ${JSON.stringify(testCase).slice(0, 4000)}\n  kafka: ${javaLine.slice(0, 2000)}\n  ours:  ${actual.slice(0, 2000)}`);
    }
    return same;
  });
}

/** Runs the small random cases of each current-state kind and (unless `large` is false) the large ones; returns how many differ. */
export function crossCheckStreams(harness: Extract<JavaHarness, { available: true }>, perKind: number, seed: number, large: boolean, cacheDir: string): number {
  const random = new SeededRandom(seed);
  let failures = 0;
  const currents: StreamsCurrentState[] = ['none', 'previous', 'random'];
  for (const current of currents) {
    const options = { maxSubtopologies: 6, maxTasks: 8, maxProcesses: 5, maxMembers: 9, current };
    const cases = Array.from({ length: perKind }, () => randomStreamsCase(random, options));
    const equal = compare(harness, cases, path.join(cacheDir, 'streams-cross-check-small.json')).filter(Boolean).length;
    failures += perKind - equal;
    const errors = cases.filter((testCase) => ours(testCase).startsWith('{"error":')).length;
    console.log(`sticky, current state: ${current.padEnd(9)} ${equal}/${perKind} equal to Kafka 4.4.0 (${errors} rejected by both)`);
  }
  if (large) {
    for (const { title, testCase } of largeStreamsCases(random)) {
      const [same] = compare(harness, [testCase], path.join(cacheDir, 'streams-cross-check-large.json'));
      failures += same ? 0 : 1;
      console.log(`large: ${title.padEnd(90)} ${same ? 'equal to Kafka 4.4.0' : 'DIFFERS'}`);
    }
  }
  return failures;
}
