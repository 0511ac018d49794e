import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Builds (once, cached under .cache/, which git ignores) and runs a Java harness of bench/java against Kafka's own
 * jars from Maven Central: AssignorHarness (classic assignors, kafka-clients 4.0.0, ./pom.xml) or
 * ServerAssignorHarness (Kafka 4.4's server-side assignors, kafka-group-coordinator 4.4.0, ./server/pom.xml);
 * or compiles LiveGroups (./live, many groups' live members) against a broker's own jars.
 */

const repoRoot = path.resolve(__dirname, '..', '..');
export const cacheDir = path.join(repoRoot, '.cache', 'assignor-bench');
const classicSources = path.join(__dirname, 'src', 'main', 'java');

interface HarnessSpec {
  cacheDir: string;
  pomFile: string;
  /** Every .java file under these directories, plus `extraSources`, is compiled. */
  sourceDirs: string[];
  extraSources: string[];
  mainClass: string;
}

const classicHarness: HarnessSpec = {
  cacheDir,
  pomFile: path.join(__dirname, 'pom.xml'),
  sourceDirs: [classicSources],
  extraSources: [],
  mainClass: 'org.apache.kafka.clients.consumer.AssignorHarness',
};

const serverHarness: HarnessSpec = {
  cacheDir: path.join(repoRoot, '.cache', 'server-assignor-bench'),
  pomFile: path.join(__dirname, 'server', 'pom.xml'),
  sourceDirs: [path.join(__dirname, 'server', 'src', 'main', 'java')],
  // The JSON reader is shared with the classic harness; it needs nothing but the JDK.
  extraSources: [path.join(classicSources, 'org', 'apache', 'kafka', 'clients', 'consumer', 'MiniJson.java')],
  mainClass: 'kafkagrouplens.bench.ServerAssignorHarness',
};

export type JavaHarness = { available: true; run(args: string[]): string } | { available: false; reason: string };

function tail(text: string, lines = 15): string {
  return text.trim().split('\n').slice(-lines).join('\n');
}

function runTool(command: string, args: string[], what: string): void {
  try {
    execFileSync(command, args, { cwd: __dirname, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${what} failed: ${tail(`${failure.stdout ?? ''}\n${failure.stderr ?? ''}`) || failure.message}`);
  }
}

function javaSources(spec: Pick<HarnessSpec, 'sourceDirs' | 'extraSources'>): string[] {
  const found: string[] = [...spec.extraSources];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        walk(full);
      } else if (entry.name.endsWith('.java')) {
        found.push(full);
      }
    }
  };
  spec.sourceDirs.forEach(walk);
  return found;
}

function newestMtime(files: string[]): number {
  return Math.max(...files.map((file) => fs.statSync(file).mtimeMs));
}

/** The classic-assignor harness (kafka-clients 4.0.0). */
export function prepareJavaHarness(): JavaHarness {
  return prepareHarness(classicHarness);
}

/** The server-assignor harness (kafka-group-coordinator 4.4.0). */
export function prepareServerAssignorHarness(): JavaHarness {
  return prepareHarness(serverHarness);
}

/** Fetches the dependencies and compiles the harness when the cache is missing or older than the sources. */
function prepareHarness(spec: HarnessSpec): JavaHarness {
  const libDir = path.join(spec.cacheDir, 'lib');
  const pomFile = spec.pomFile;
  let classpath: string;
  try {
    const jarStamp = path.join(libDir, '.complete');
    if (!fs.existsSync(jarStamp) || fs.statSync(jarStamp).mtimeMs < fs.statSync(pomFile).mtimeMs) {
      fs.mkdirSync(libDir, { recursive: true });
      runTool('mvn', ['-q', '-B', '-f', pomFile, 'dependency:copy-dependencies', `-DoutputDirectory=${libDir}`],
        'mvn dependency:copy-dependencies');
      fs.writeFileSync(jarStamp, new Date().toISOString());
    }
    classpath = compileHarness(spec, libDir, jarStamp);
  } catch (error) {
    return { available: false, reason: (error as Error).message };
  }
  return {
    available: true,
    run: (args) => execFileSync('java', ['-cp', classpath, spec.mainClass, ...args], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  };
}

/**
 * Compiles the spec's sources against the jars in libDir into spec.cacheDir/classes when those are missing or
 * older than the sources or `stamp`; returns the classpath to run them with. Throws what javac says.
 */
function compileHarness(spec: Omit<HarnessSpec, 'pomFile'>, libDir: string, stamp: string): string {
  const classesDir = path.join(spec.cacheDir, 'classes');
  const sources = javaSources(spec);
  const classStamp = path.join(classesDir, '.complete');
  if (!fs.existsSync(classStamp) || fs.statSync(classStamp).mtimeMs < newestMtime([...sources, stamp])) {
    fs.rmSync(classesDir, { recursive: true, force: true });
    fs.mkdirSync(classesDir, { recursive: true });
    runTool('javac', ['-nowarn', '-d', classesDir, '-cp', path.join(libDir, '*'), ...sources], 'javac');
    fs.writeFileSync(classStamp, new Date().toISOString());
  }
  return [classesDir, path.join(libDir, '*')].join(path.delimiter);
}

/**
 * The live-members harness (bench/java/live, kafkagrouplens.bench.LiveGroups), compiled against the broker's
 * own jars (a Kafka lib directory from scripts/kafka/broker.js, so the clients match the broker): the
 * classpath to run it with. Throws what javac says.
 */
export function liveGroupsClasspath(kafkaLib: string): { classpath: string; mainClass: string } {
  const spec = {
    cacheDir: path.join(repoRoot, '.cache', `live-groups-${path.basename(path.dirname(kafkaLib))}`),
    sourceDirs: [path.join(__dirname, 'live')],
    extraSources: [],
    mainClass: 'kafkagrouplens.bench.LiveGroups',
  };
  return { classpath: compileHarness(spec, kafkaLib, path.join(path.dirname(kafkaLib), 'lib.complete')), mainClass: spec.mainClass };
}
