/**
 * Helpers for the group-type tests against the real broker: the Java clients of test/kafka/java
 * (KIP-848 consumers, KafkaShareConsumers, a Kafka Streams application, whose jar Maven fetches into
 * the Kafka cache), Kafka's own group tools run from the broker's jars, and a reader of the tools'
 * tables by their header columns.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'child_process';
import { existsSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'fs';
import * as path from 'path';
import { errorMessage } from '../../src/protocol/errors';
import { waitFor, type BrokerEnv } from './support';

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const JAVA_SOURCES = path.join(REPO_ROOT, 'test', 'kafka', 'java');

export const KAFKA_VERSION = process.env.KAFKA_VERSION ?? '4.1.1';

/** kafka-streams and what it needs beyond the broker's jars, fetched once into `<cache>/streams-lib`. */
export function streamsLib(env: BrokerEnv): string {
  const cacheDir = path.dirname(env.lib);
  const lib = path.join(cacheDir, 'streams-lib');
  const marker = path.join(cacheDir, 'streams-lib.complete');
  if (existsSync(marker) && existsSync(lib)) {
    return lib;
  }
  const staging = path.join(cacheDir, 'streams-lib.partial');
  rmSync(staging, { recursive: true, force: true });
  rmSync(lib, { recursive: true, force: true });
  const result = spawnSync(
    'mvn',
    ['-q', '-B', '-f', path.join(JAVA_SOURCES, 'streams-pom.xml'), `-Dkafka.version=${KAFKA_VERSION}`, 'dependency:copy-dependencies', '-DincludeScope=runtime', `-DoutputDirectory=${staging}`],
    { encoding: 'utf8', timeout: 600000 },
  );
  if (result.error || result.status !== 0) {
    throw new Error(`Maven could not fetch kafka-streams ${KAFKA_VERSION}: ${result.error?.message ?? `${result.stdout}\n${result.stderr}`}`);
  }
  renameSync(staging, lib);
  writeFileSync(marker, `${new Date().toISOString()}\n`);
  return lib;
}

/** Compiles test/kafka/java/<className>.java against the classpath when its class is missing or older than its source. */
function compiled(env: BrokerEnv, className: string, classpath: string): string {
  const source = path.join(JAVA_SOURCES, `${className}.java`);
  const out = path.join(path.dirname(env.lib), 'group-types-classes');
  const classFile = path.join(out, `${className}.class`);
  if (existsSync(classFile) && statSync(classFile).mtimeMs >= statSync(source).mtimeMs) {
    return out;
  }
  mkdirSync(out, { recursive: true });
  const result = spawnSync('javac', ['-cp', classpath, '-d', out, source], { encoding: 'utf8' });
  if (result.error || result.status !== 0) {
    throw new Error(`javac ${className} failed: ${result.error?.message ?? result.stderr}`);
  }
  return out;
}

/** A Java test client: prints lines the test waits for, and leaves its group when stdin closes. */
export class JavaClient {
  private output = '';
  private readonly child: ChildProcessWithoutNullStreams;

  constructor(env: BrokerEnv, className: string, args: readonly string[], options: { streams?: boolean } = {}) {
    const libs = [...(options.streams ? [`${streamsLib(env)}${path.sep}*`] : []), `${env.lib}${path.sep}*`].join(path.delimiter);
    const classes = compiled(env, className, libs);
    this.child = spawn('java', ['-Xmx192m', '-XX:TieredStopAtLevel=1', '-cp', `${classes}${path.delimiter}${libs}`, className, ...args]);
    const collect = (chunk: Buffer) => {
      this.output += chunk.toString('utf8');
    };
    this.child.stdout.on('data', collect);
    this.child.stderr.on('data', collect);
  }

  get log(): string {
    return this.output;
  }

  /** Waits (bounded) until the client printed a line matching `pattern`. */
  async waitForOutput(pattern: RegExp, timeoutMs = 60000): Promise<void> {
    try {
      await waitFor(`${pattern} from a Java client`, async () => (pattern.test(this.output) ? true : undefined), timeoutMs);
    } catch (e) {
      throw new Error(`${errorMessage(e)}; its output:\n${this.output.slice(-4000)}`);
    }
  }

  /** Kills the JVM (SIGKILL): the process dies without leaving its group, as a crash does. */
  async kill(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) {
      return;
    }
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGKILL');
    await exited;
  }

  /** Closes stdin (the client leaves its group) and waits for the JVM to exit. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) {
      return;
    }
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 20000);
    await exited;
    clearTimeout(timer);
  }
}

export const TOOLS = {
  consumerGroups: 'org.apache.kafka.tools.consumer.group.ConsumerGroupCommand',
  shareGroups: 'org.apache.kafka.tools.consumer.group.ShareGroupCommand',
  streamsGroups: 'org.apache.kafka.tools.streams.StreamsGroupCommand',
} as const;

/** Runs one of Kafka's group tools from the broker's jars; stdout, or an error with its output. */
export function runTool(env: BrokerEnv, tool: string, args: readonly string[]): string {
  const result = spawnSync('java', ['-Xmx256m', '-XX:TieredStopAtLevel=1', '-cp', `${env.lib}${path.sep}*`, tool, '--bootstrap-server', env.bootstrap, ...args], {
    encoding: 'utf8',
    timeout: 90000,
  });
  if (result.error || result.status !== 0) {
    throw new Error(`${tool} ${args.join(' ')} failed: ${result.error?.message ?? `${result.stdout}\n${result.stderr}`}`);
  }
  return result.stdout;
}

/**
 * runTool without blocking this process: for a tool talking to a server that runs in it (the simulator's),
 * which spawnSync would stall.
 */
export function runToolAsync(env: BrokerEnv, tool: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('java', ['-Xmx256m', '-XX:TieredStopAtLevel=1', '-cp', `${env.lib}${path.sep}*`, tool, '--bootstrap-server', env.bootstrap, ...args]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90000);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) {
        resolve(stdout);
      } else {
        reject(new Error(`${tool} ${args.join(' ')} failed (${code ?? signal}): ${stdout}\n${stderr}`));
      }
    });
  });
}

/** `kafka-features.sh upgrade --feature <name=level>` (e.g. Kafka 4.1's preview share.version=1). */
export function runFeatureUpgrade(env: BrokerEnv, feature: string): void {
  const result = spawnSync('java', ['-Xmx256m', '-cp', `${env.lib}${path.sep}*`, 'org.apache.kafka.tools.FeatureCommand', '--bootstrap-server', env.bootstrap, 'upgrade', '--feature', feature], {
    encoding: 'utf8',
    timeout: 60000,
  });
  if (result.error || result.status !== 0) {
    throw new Error(`kafka-features upgrade --feature ${feature} failed: ${result.error?.message ?? `${result.stdout}\n${result.stderr}`}`);
  }
}

export type ToolRow = Record<string, string>;

/**
 * The rows of every table in a tool's output. The tools print each table with one format for the
 * header and the rows (`%-Ns` columns), so a value starts where its header starts; the last column
 * takes the rest of the line (streams ASSIGNMENTS has spaces in it).
 */
export function toolTables(output: string): ToolRow[] {
  const rows: ToolRow[] = [];
  let columns: Array<{ name: string; start: number }> | null = null;
  for (const line of output.split('\n')) {
    if (line.trim() === '') {
      columns = null;
      continue;
    }
    if (/^GROUP\s/.test(line)) {
      columns = [...line.matchAll(/\S+(?: \(ID\))?/g)].map((m) => ({ name: m[0], start: m.index ?? 0 }));
      continue;
    }
    if (!columns) {
      continue;
    }
    const row: ToolRow = {};
    columns.forEach((c, i) => {
      row[c.name] = line.slice(c.start, i + 1 < columns!.length ? columns![i + 1].start : undefined).trim();
    });
    rows.push(row);
  }
  return rows;
}

/** "t:0,1;u:2" (the consumer and share tools' ASSIGNMENT columns) as sorted "t-0" keys; "-" is none. */
export function toolPartitions(text: string): string[] {
  return [...text.matchAll(/([A-Za-z0-9._-]+):([\d,]+)/g)].flatMap((m) => m[2].split(',').filter(Boolean).map((p) => `${m[1]}-${p}`)).sort();
}

/** The streams tool's ASSIGNMENTS column ("ACTIVE: 0:[1]; 1:[0,2]; TARGET-ACTIVE: ...") as kind -> "subtopology:partitions" entries. */
export function toolTasks(text: string): Record<string, string[]> {
  const result: Record<string, string[]> = {};
  for (const section of text.split(/(?<=^|\s)(?=(?:TARGET-)?(?:ACTIVE|STANDBY|WARMUP):)/)) {
    const label = /^((?:TARGET-)?(?:ACTIVE|STANDBY|WARMUP)):/.exec(section.trim());
    if (label) {
      result[label[1]] = [...section.matchAll(/(\S+):\[([\d,]*)\]/g)].map((m) => `${m[1]}:${m[2].split(',').filter(Boolean).map(Number).sort((a, b) => a - b).join(',')}`).sort();
    }
  }
  return result;
}
