/**
 * Helpers for tests against the real broker that scripts/kafka/run-tests.js starts: its addresses,
 * kafkajs test clients, the Java test programs of test/kafka/java (compiled once into the Kafka
 * cache) and the consumer-groups CLI from the same jars.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'child_process';
import { existsSync, mkdirSync, statSync } from 'fs';
import * as path from 'path';
import { Kafka, logLevel, type Consumer } from 'kafkajs';
import type { KafkaLogger } from '../../src/kafka/connection';
import { errorMessage } from '../../src/protocol/errors';

export interface BrokerEnv {
  bootstrap: string;
  saslBootstrap: string;
  user: string;
  password: string;
  lib: string;
}

export function brokerEnv(): BrokerEnv {
  const { KAFKA_BOOTSTRAP, KAFKA_SASL_BOOTSTRAP, KAFKA_SASL_USER, KAFKA_SASL_PASSWORD, KAFKA_LIB } = process.env;
  if (!KAFKA_BOOTSTRAP || !KAFKA_SASL_BOOTSTRAP || !KAFKA_SASL_USER || !KAFKA_SASL_PASSWORD || !KAFKA_LIB) {
    throw new Error('test/kafka needs a broker: run them with `node scripts/kafka/run-tests.js`');
  }
  return { bootstrap: KAFKA_BOOTSTRAP, saslBootstrap: KAFKA_SASL_BOOTSTRAP, user: KAFKA_SASL_USER, password: KAFKA_SASL_PASSWORD, lib: KAFKA_LIB };
}

/** Collects log lines so tests can check what was (not) logged. */
export class MemoryLogger implements KafkaLogger {
  readonly lines: string[] = [];
  debug(message: string): void {
    this.lines.push(`debug ${message}`);
  }
  info(message: string): void {
    this.lines.push(`info ${message}`);
  }
  warn(message: string): void {
    this.lines.push(`warn ${message}`);
  }
  error(message: string): void {
    this.lines.push(`error ${message}`);
  }
}

export function testKafka(clientId: string): Kafka {
  return new Kafka({ clientId, brokers: [brokerEnv().bootstrap], logLevel: logLevel.NOTHING, retry: { retries: 8, initialRetryTime: 100 } });
}

export async function createTopics(topics: Array<{ topic: string; numPartitions: number }>): Promise<void> {
  const admin = testKafka('test-setup').admin();
  await admin.connect();
  try {
    await admin.createTopics({ topics, waitForLeaders: true });
  } finally {
    await admin.disconnect();
  }
}

/** Produces `count` records to every partition of the topic. */
export async function produceToEveryPartition(topic: string, partitions: number, count: number): Promise<void> {
  const producer = testKafka('test-producer').producer();
  await producer.connect();
  try {
    for (let partition = 0; partition < partitions; partition++) {
      await producer.send({ topic, messages: Array.from({ length: count }, (_, i) => ({ partition, value: `${topic}-${partition}-${i}` })) });
    }
  } finally {
    await producer.disconnect();
  }
}

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined) {
        return value;
      }
    } catch (e) {
      lastError = e;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`Timed out waiting for ${what}${lastError instanceof Error ? ` (last error: ${lastError.message})` : ''}`);
}

/**
 * A kafkajs consumer that reads everything but commits only `commitUpTo` per partition
 * (offset of the next record to read), so the group has a known lag.
 */
export async function startKafkajsMember(groupId: string, topics: string[], commitUpTo: number): Promise<Consumer> {
  const consumer = testKafka(`js-${groupId}`).consumer({ groupId, sessionTimeout: 10000, heartbeatInterval: 500, maxWaitTimeInMs: 200 });
  await consumer.connect();
  await consumer.subscribe({ topics, fromBeginning: true });
  await consumer.run({
    autoCommit: false,
    eachMessage: async ({ topic, partition, message }) => {
      if (Number(message.offset) === commitUpTo - 1) {
        await consumer.commitOffsets([{ topic, partition, offset: String(commitUpTo) }]);
      }
    },
  });
  return consumer;
}

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const JAVA_SOURCES = path.join(REPO_ROOT, 'test', 'kafka', 'java');

/** Compiles test/kafka/java/<className>.java into the Kafka cache folder when the class is missing or older than its source. */
export function compiledJavaClassDir(lib: string, className: string): string {
  const source = path.join(JAVA_SOURCES, `${className}.java`);
  const out = path.join(path.dirname(lib), 'test-classes');
  const classFile = path.join(out, `${className}.class`);
  if (existsSync(classFile) && statSync(classFile).mtimeMs >= statSync(source).mtimeMs) {
    return out;
  }
  mkdirSync(out, { recursive: true });
  const result = spawnSync('javac', ['-cp', `${lib}${path.sep}*`, '-d', out, source], { encoding: 'utf8' });
  if (result.error || result.status !== 0) {
    throw new Error(`javac failed: ${result.error?.message ?? result.stderr}`);
  }
  return out;
}

/** The classpath that runs a test class from test/kafka/java against the broker's own client jars. */
export function javaTestClasspath(lib: string, className: string): string {
  return `${compiledJavaClassDir(lib, className)}${path.delimiter}${lib}${path.sep}*`;
}

export interface JavaMemberOptions {
  groupId: string;
  topics: string[];
  protocol: 'classic' | 'consumer';
  instanceId?: string;
  assignor?: string;
}

export class JavaMember {
  private output = '';
  private readonly child: ChildProcessWithoutNullStreams;

  constructor(env: BrokerEnv, options: JavaMemberOptions) {
    this.child = spawn('java', [
      '-Xmx128m',
      '-XX:TieredStopAtLevel=1',
      '-cp', javaTestClasspath(env.lib, 'GroupMember'),
      'GroupMember',
      env.bootstrap, options.groupId, options.topics.join(','), options.protocol, options.instanceId ?? '-', options.assignor ?? '-',
    ]);
    this.child.stdout.on('data', (chunk: Buffer) => {
      this.output += chunk.toString('utf8');
    });
    this.child.stderr.on('data', (chunk: Buffer) => {
      this.output += chunk.toString('utf8');
    });
  }

  get log(): string {
    return this.output;
  }

  async waitForAssignment(): Promise<void> {
    try {
      await waitFor('a Java member assignment', async () => (/ASSIGNED \[/.test(this.output) ? true : undefined), 45000);
    } catch (e) {
      throw new Error(`${errorMessage(e)}; its output:\n${this.output}`);
    }
  }

  /** The partitions of its last "ASSIGNED [orders-0, orders-1]" line, as sorted labels joined by commas. */
  get assignment(): string {
    const last = this.output.split('\n').filter((line) => line.startsWith('ASSIGNED [')).at(-1);
    return last === undefined ? '' : last.slice('ASSIGNED ['.length, -1).split(', ').filter((label) => label !== '').sort().join();
  }

  /** Closes stdin (the member leaves the group) and waits for the JVM to exit. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null) {
      return;
    }
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 15000);
    await exited;
    clearTimeout(timer);
  }
}

export interface CliOffsetRow {
  group: string;
  topic: string;
  partition: number;
  currentOffset: number | null;
  logEndOffset: number | null;
  lag: number | null;
  consumerId: string | null;
}

function cliNumber(text: string): number | null {
  return text === '-' ? null : Number(text);
}

/** `kafka-consumer-groups.sh --describe --all-groups` from the broker's own jars, parsed. */
export function describeAllGroupsWithCli(env: BrokerEnv): CliOffsetRow[] {
  const result = spawnSync(
    'java',
    ['-Xmx256m', '-cp', `${env.lib}${path.sep}*`, 'org.apache.kafka.tools.consumer.group.ConsumerGroupCommand', '--bootstrap-server', env.bootstrap, '--describe', '--all-groups'],
    { encoding: 'utf8', timeout: 60000 },
  );
  if (result.error || result.status !== 0) {
    throw new Error(`ConsumerGroupCommand failed: ${result.error?.message ?? result.stderr}`);
  }
  return result.stdout
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((cols) => cols.length >= 9 && cols[0] !== 'GROUP')
    .map((cols) => ({
      group: cols[0],
      topic: cols[1],
      partition: Number(cols[2]),
      currentOffset: cliNumber(cols[3]),
      logEndOffset: cliNumber(cols[4]),
      lag: cliNumber(cols[5]),
      consumerId: cols[6] === '-' ? null : cols[6],
    }));
}

/** Runs a Java main class to its end (exit 0 expected) and returns its output lines, stdout and stderr together. */
export function runJavaClass(classpath: string, className: string, args: string[]): Promise<string[]> {
  const child = spawn('java', ['-Xmx128m', '-XX:TieredStopAtLevel=1', '-cp', classpath, className, ...args]);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${className} did not finish within 90 s:\n${output}`));
    }, 90000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) {
        resolve(output.split('\n').map((l) => l.trim()));
      } else {
        reject(new Error(`${className} exited with ${code}:\n${output}`));
      }
    });
  });
}
