/**
 * Assignor benchmark: the four large cases of Kafka's AbstractStickyAssignorTest (spec 4.6), each run for
 * cooperative-sticky and sticky, here (one child process per run, for its peak RSS) and, when Maven and a JDK are
 * available, in Kafka's own Java assignors on the same inputs. Prints wall time per round, peak memory, Kafka's
 * JUnit timeout for the case, our target (a third of it) and the ratio Java time / our time, and checks that
 * both sides produced the same assignments (a digest of each round; a difference sets exit code 1).
 *
 *   npx tsx bench/assignors.ts                 all cases, with the Java comparison
 *   npx tsx bench/assignors.ts --no-java       our side only
 *   npx tsx bench/assignors.ts --case 2        one case (1-4)
 *   npx tsx bench/assignors.ts --server        only the server-side assignors (serverAssignorBench.ts)
 *
 * Then, unless --case is given, the server-side assignors of KIP-848 groups (uniform, range) on their own large
 * cases, beside Kafka 4.4's Java classes.
 */
import { fork } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { javaStringHashCode } from '../src/protocol/offsetsPartition';
import { assign } from '../src/simulator/assignors/index';
import { compareJavaStrings } from '../src/simulator/assignors/memberOrder';
import type { AssignInput, AssignorMember, AssignorName, AssignResult } from '../src/simulator/assignors/types';
import { SeededRandom } from '../src/simulator/common/random';
import { cacheDir, prepareJavaHarness, type JavaHarness } from './java/javaHarness';
import { runServerAssignorBench } from './serverAssignorBench';

/** The input of a two-round case, in the JSON shape bench/java's harness reads too. */
interface Scenario {
  partitionsPerTopic: Record<string, number>;
  members: Array<{ memberId: string; topics: string[] }>;
  /** Round 2: members from this index on report what round 1 gave them, at this generation; the listed ones left. */
  secondRound: { reportOwnedFromIndex: number; generation: number; removeMemberIds: string[] };
}

interface BenchCase {
  title: string;
  kafkaTimeoutSeconds: number;
  build(): Scenario;
}

interface RunFigures {
  round1Ms: number;
  round2Ms: number;
  /** CPU time of both rounds (ours only): shows how much of the wall time was waiting for a busy machine. */
  cpuMs?: number;
  maxRssMb?: number;
  heapUsedMb?: number;
  round2Assigned: number;
  round1Digest: number;
  round2Digest: number;
}

/** Kafka's test names: prefix plus the index zero-padded to the width of the count. */
function canonicalName(prefix: string, i: number, count: number): string {
  return prefix + String(i).padStart(String(count).length, '0');
}

function uniformTopics(topicCount: number, partitionCount: number): { topics: string[]; partitionsPerTopic: Record<string, number> } {
  const topics = Array.from({ length: topicCount }, (_, i) => canonicalName('t', i, topicCount));
  const partitionsPerTopic: Record<string, number> = {};
  topics.forEach((topic) => {
    partitionsPerTopic[topic] = partitionCount;
  });
  return { topics, partitionsPerTopic };
}

/** `count` members named c0…, subscribed to `topicsOf(i)`. */
function consumers(count: number, topicsOf: (i: number) => string[]): Scenario['members'] {
  return Array.from({ length: count }, (_, i) => ({ memberId: canonicalName('c', i, count), topics: topicsOf(i) }));
}

const everyoneReports = { reportOwnedFromIndex: 1, generation: 1, removeMemberIds: [] };

const cases: BenchCase[] = [
  {
    title: '1M partitions (500x2000), 2000 consumers, equal subscriptions',
    kafkaTimeoutSeconds: 30,
    build: () => {
      const { topics, partitionsPerTopic } = uniformTopics(500, 2000);
      return { partitionsPerTopic, members: consumers(2000, () => topics), secondRound: everyoneReports };
    },
  },
  {
    title: '1M partitions, 2000 consumers, the last subscribed to one topic',
    kafkaTimeoutSeconds: 90,
    build: () => {
      const { topics, partitionsPerTopic } = uniformTopics(500, 2000);
      const members = consumers(2000, (i) => (i === 1999 ? topics.slice(0, 1) : topics));
      return { partitionsPerTopic, members, secondRound: everyoneReports };
    },
  },
  {
    title: '100 topics x 200 partitions, 500 consumers split by i%4',
    kafkaTimeoutSeconds: 90,
    build: () => {
      const { topics, partitionsPerTopic } = uniformTopics(100, 200);
      const members = consumers(500, (i) => (i % 4 === 0 ? topics.slice(0, 50) : topics.slice(50)));
      return { partitionsPerTopic, members, secondRound: everyoneReports };
    },
  },
  {
    title: '40 topics of 1-10 partitions, 200 consumers, random subscriptions, then 50 leave',
    kafkaTimeoutSeconds: 60,
    build: () => {
      const random = new SeededRandom(4060);
      const partitionsPerTopic: Record<string, number> = {};
      const topics = Array.from({ length: 40 }, (_, i) => canonicalName('t', i, 40));
      topics.forEach((topic) => {
        partitionsPerTopic[topic] = 1 + random.nextInt(10);
      });
      const members = consumers(200, () => {
        const subscribed = new Set<string>();
        const wanted = random.nextInt(20);
        while (subscribed.size < wanted) {
          subscribed.add(topics[random.nextInt(topics.length)]);
        }
        return [...subscribed];
      });
      const leaving = new Set<string>();
      while (leaving.size < 50) {
        leaving.add(members[random.nextInt(members.length)].memberId);
      }
      return { partitionsPerTopic, members, secondRound: { reportOwnedFromIndex: 1, generation: 1, removeMemberIds: [...leaving] } };
    },
  },
];

/**
 * Java String.hashCode of the canonical text of an assignment (members by id, partitions by topic and partition),
 * as the Java harness computes it, so the two sides' results can be compared without shipping a million entries.
 */
function digest(result: AssignResult): number {
  const parts: string[] = [];
  for (const memberId of Object.keys(result).sort(compareJavaStrings)) {
    const partitions = [...result[memberId]].sort((a, b) => compareJavaStrings(a.topic, b.topic) || a.partition - b.partition);
    parts.push(`${memberId}:${partitions.map((tp) => `${tp.topic}-${tp.partition},`).join('')};`);
  }
  return javaStringHashCode(parts.join(''));
}

function secondRoundInput(scenario: Scenario, first: AssignResult): AssignInput {
  const leaving = new Set(scenario.secondRound.removeMemberIds);
  const members: AssignorMember[] = [];
  scenario.members.forEach((member, i) => {
    if (leaving.has(member.memberId)) {
      return;
    }
    members.push(i >= scenario.secondRound.reportOwnedFromIndex
      ? { ...member, owned: first[member.memberId], generation: scenario.secondRound.generation }
      : { ...member });
  });
  return { partitionsPerTopic: scenario.partitionsPerTopic, members };
}

/** Child process body: both rounds of one case for one strategy, timing only the assign calls. */
function runChild(scenarioFile: string, strategy: AssignorName): void {
  const scenario = JSON.parse(fs.readFileSync(scenarioFile, 'utf8')) as Scenario;
  const cpuBefore = process.cpuUsage();
  let start = performance.now();
  const first = assign(strategy, { partitionsPerTopic: scenario.partitionsPerTopic, members: scenario.members });
  const round1Ms = performance.now() - start;
  const input = secondRoundInput(scenario, first);
  start = performance.now();
  const second = assign(strategy, input);
  const round2Ms = performance.now() - start;
  const cpu = process.cpuUsage(cpuBefore);
  const figures: RunFigures = {
    round1Ms,
    round2Ms,
    cpuMs: (cpu.user + cpu.system) / 1000,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    heapUsedMb: process.memoryUsage().heapUsed / (1024 * 1024),
    round2Assigned: Object.values(second).reduce((sum, list) => sum + list.length, 0),
    round1Digest: digest(first),
    round2Digest: digest(second),
  };
  process.send?.(figures);
}

function runOurs(scenarioFile: string, strategy: AssignorName): Promise<RunFigures> {
  return new Promise((resolve, reject) => {
    const child = fork(__filename, ['--child', scenarioFile, strategy], { execArgv: process.execArgv });
    let figures: RunFigures | undefined;
    child.on('message', (message) => {
      figures = message as RunFigures;
    });
    child.on('error', reject);
    child.on('exit', (code) => (figures !== undefined ? resolve(figures) : reject(new Error(`benchmark child exited with ${code}`))));
  });
}

function runJava(harness: JavaHarness, scenarioFile: string, strategy: AssignorName): RunFigures | string {
  if (!harness.available) {
    return harness.reason;
  }
  try {
    return JSON.parse(harness.run(['bench', scenarioFile, strategy])) as RunFigures;
  } catch (error) {
    return `Java run failed: ${(error as Error).message.split('\n').slice(0, 5).join(' ')}`;
  }
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const withJava = !args.includes('--no-java');
  const caseArg = args.indexOf('--case');
  const selected = caseArg >= 0 ? [Number(args[caseArg + 1])] : cases.map((_, i) => i + 1);
  if (selected.some((n) => !Number.isInteger(n) || n < 1 || n > cases.length)) {
    throw new Error(`--case takes a number from 1 to ${cases.length}`);
  }
  fs.mkdirSync(cacheDir, { recursive: true });
  if (args.includes('--server')) {
    runServerAssignorBench(withJava);
    return;
  }
  console.log(`Machine: ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')} (wall times stretch under load)`);
  const harness: JavaHarness = withJava ? prepareJavaHarness() : { available: false, reason: 'skipped (--no-java)' };
  if (!harness.available) {
    console.log(`Java comparison not run: ${harness.reason}`);
  }
  for (const n of selected) {
    const benchCase = cases[n - 1];
    const scenarioFile = path.join(cacheDir, `case${n}.json`);
    fs.writeFileSync(scenarioFile, JSON.stringify(benchCase.build()));
    const allowedMs = benchCase.kafkaTimeoutSeconds * 1000;
    console.log(`\nCase ${n}: ${benchCase.title}`);
    console.log(`  Kafka's allowed time ${benchCase.kafkaTimeoutSeconds} s (whole test); our target ${seconds(allowedMs / 3)}`);
    for (const strategy of ['cooperative-sticky', 'sticky'] as const) {
      const ourFigures = await runOurs(scenarioFile, strategy);
      const ourTotal = ourFigures.round1Ms + ourFigures.round2Ms;
      const verdict = ourTotal <= allowedMs / 3 ? 'within target' : 'OVER TARGET';
      console.log(`  ${strategy.padEnd(18)} ours: fresh ${seconds(ourFigures.round1Ms)}, reassign ${seconds(ourFigures.round2Ms)}, ` +
        `total ${seconds(ourTotal)} (${verdict}; cpu ${seconds(ourFigures.cpuMs ?? 0)}); peak RSS ${ourFigures.maxRssMb?.toFixed(0)} MB, ` +
        `heap after ${ourFigures.heapUsedMb?.toFixed(0)} MB; ${ourFigures.round2Assigned} assigned in round 2`);
      if (withJava) {
        const javaFigures = runJava(harness, scenarioFile, strategy);
        if (typeof javaFigures === 'string') {
          console.log(`  ${''.padEnd(18)} Kafka Java: not run (${javaFigures})`);
        } else {
          const javaTotal = javaFigures.round1Ms + javaFigures.round2Ms;
          const identical = javaFigures.round1Digest === ourFigures.round1Digest && javaFigures.round2Digest === ourFigures.round2Digest;
          if (!identical) {
            process.exitCode = 1;
          }
          console.log(`  ${''.padEnd(18)} Kafka Java: fresh ${seconds(javaFigures.round1Ms)}, reassign ${seconds(javaFigures.round2Ms)}, ` +
            `total ${seconds(javaTotal)}; Java time / our time = ${(javaTotal / ourTotal).toFixed(2)}` +
            `; results ${identical ? 'identical to ours in both rounds' : 'DIFFER from ours'}`);
        }
      }
    }
  }
  if (caseArg < 0) {
    runServerAssignorBench(withJava);
  }
}

if (process.argv[2] === '--child') {
  runChild(process.argv[3], process.argv[4] as AssignorName);
} else {
  main().catch((error: Error) => {
    console.error(error.message);
    process.exitCode = 1;
  });
}
