// Cross-checks src/protocol/messages/ against Kafka 4.4.0's own generated classes (npm run protocol:crosscheck).
//
// For every message and version, seeded random messages go to Java twice:
//  - as our bytes: Java reads them with new XxxData(ByteBufferAccessor, version), writes them again (must be our
//    bytes) and converts them with XxxDataJsonConverter.write (must be our values);
//  - as Kafka's JSON: Java builds the message with XxxDataJsonConverter.read and serializes it (must be our bytes,
//    and our decoder must read our values back from Java's bytes).
// Needs JDK 17 and Maven. Usage: npx tsx test/protocol/crossCheck.ts [--messages N] [--only Name]
import { spawnSync } from 'node:child_process';
import { allMessages } from '../../src/protocol/messages/allMessages';
import { decode, deepEqual, encode, type AnyMessageCodec } from '../../src/protocol/runtime';
import { prepareProtocolHarness } from './javaHarness';
import { SpecModel, messageSpecs, seededRandom, versionsOf, type MessageSpec } from './specModel';
import { errorMessage } from '../../src/protocol/errors';

interface Case {
  codec: AnyMessageCodec;
  model: SpecModel;
  version: number;
  seed: number;
  mode: 'bytes' | 'json';
  message: ReturnType<SpecModel['randomMessage']>;
  bytes: Uint8Array;
}

/** The Java class Kafka generates for a spec. */
function javaClassOf(spec: MessageSpec): string {
  if (spec.artifact === 'kafka-group-coordinator') {
    return `org.apache.kafka.coordinator.group.generated.${spec.name}`;
  }
  return `org.apache.kafka.common.message.${spec.name}${spec.type === 'data' ? '' : 'Data'}`;
}

function option(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

function buildCases(perVersion: number, only: string | undefined): Case[] {
  const specs = new Map(messageSpecs.map((spec) => [spec.name, spec]));
  const cases: Case[] = [];
  for (const codec of allMessages) {
    const spec = specs.get(codec.name);
    if (spec === undefined || (only !== undefined && codec.name !== only)) {
      continue;
    }
    const model = new SpecModel(spec);
    for (const version of versionsOf(spec)) {
      for (let i = 0; i < perVersion; i++) {
        const seed = 7919 * version + i;
        const message = model.randomMessage(version, seededRandom(seed), true);
        cases.push({ codec, model, version, seed, mode: 'bytes', message, bytes: encode(codec, version, message) });
        const plain = model.withoutUnknownTags(message);
        cases.push({ codec, model, version, seed, mode: 'json', message: plain, bytes: encode(codec, version, plain) });
      }
    }
  }
  return cases;
}

function requestLine(id: number, item: Case, spec: MessageSpec): string {
  const payload = item.mode === 'bytes' ? Buffer.from(item.bytes) : Buffer.from(item.model.toKafkaJson(item.message, item.version));
  return [id, item.mode, javaClassOf(spec), item.version, payload.toString('base64')].join('\t');
}

/** Why Java's answer disagrees with ours, or null when it agrees. */
function disagreement(item: Case, answer: string[]): string | null {
  if (answer[1] !== 'ok') {
    return `Java failed: ${Buffer.from(answer[2] ?? '', 'base64').toString('utf8')}`;
  }
  const javaBytes = Buffer.from(answer[2], 'base64');
  if (!javaBytes.equals(Buffer.from(item.bytes))) {
    return `bytes differ:\n  ours ${Buffer.from(item.bytes).toString('hex')}\n  java ${javaBytes.toString('hex')}`;
  }
  const expected = item.model.withoutUnknownTags(item.message);
  const javaJson: unknown = JSON.parse(Buffer.from(answer[3], 'base64').toString('utf8'));
  const javaValue = item.model.fromKafkaJson(javaJson, item.version, expected);
  if (!deepEqual(javaValue, expected)) {
    return `Java's JSON differs: ${Buffer.from(answer[3], 'base64').toString('utf8').slice(0, 400)}`;
  }
  if (item.mode === 'json') {
    const ours = item.model.withoutUnknownTags(decode(item.codec, javaBytes, item.version) as Record<string, never>);
    if (!deepEqual(ours, expected)) {
      return 'our decoder reads different values from the bytes Java wrote from our JSON';
    }
  }
  return null;
}

function main(): void {
  const perVersion = Number(option('--messages') ?? 20);
  const only = option('--only');
  const specs = new Map(messageSpecs.map((spec) => [spec.name, spec]));
  const started = Date.now();
  const javaArgs = prepareProtocolHarness();
  const cases = buildCases(perVersion, only);
  const input = cases.map((item, id) => requestLine(id, item, specs.get(item.codec.name) as MessageSpec)).join('\n');
  const java = spawnSync('java', javaArgs, { input: `${input}\n`, encoding: 'utf8', maxBuffer: 2 * 1024 * 1024 * 1024 });
  if (java.status !== 0) {
    throw new Error(`the Java harness exited with ${java.status}: ${java.stderr.slice(-2000)}`);
  }
  const answers = java.stdout.split('\n').filter((line) => line !== '').map((line) => line.split('\t'));
  if (answers.length !== cases.length) {
    throw new Error(`the Java harness answered ${answers.length} of ${cases.length} cases`);
  }
  const failures: string[] = [];
  const versionsChecked = new Set<string>();
  const failedVersions = new Set<string>();
  let agreed = 0;
  for (const answer of answers) {
    const item = cases[Number(answer[0])];
    const key = `${item.codec.name} v${item.version}`;
    versionsChecked.add(key);
    const problem = disagreement(item, answer);
    if (problem === null) {
      agreed++;
    } else {
      failedVersions.add(key);
      failures.push(`${key} seed ${item.seed} (${item.mode}): ${problem}`);
    }
  }
  const apiKeys = new Set(allMessages.filter((codec) => codec.type === 'request' && (only === undefined || codec.name === only)).map((codec) => codec.apiKey));
  const messages = new Set(cases.map((item) => item.codec.name));
  console.log(`protocol:crosscheck against Kafka 4.4.0's generated classes, ${perVersion} random messages per version and direction:`);
  console.log(`  ${messages.size} message specs (${apiKeys.size} API keys with request and response, headers, data and group-coordinator records)`);
  console.log(`  ${versionsChecked.size} message versions, ${cases.length} cases (${cases.length / 2} our bytes -> Java, ${cases.length / 2} our JSON -> Java)`);
  console.log(`  ${agreed} agree, ${failures.length} disagree (${failedVersions.size} message versions) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  for (const failure of failures.slice(0, 20)) {
    console.log(`  DISAGREE ${failure}`);
  }
  if (failures.length > 0) {
    process.exitCode = 1;
  }
}

try {
  main();
} catch (error) {
  console.error(errorMessage(error));
  process.exitCode = 1;
}
