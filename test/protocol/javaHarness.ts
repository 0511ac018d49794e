import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Builds test/protocol/java's ProtocolHarness once (cached under .cache/protocol-crosscheck/, which git ignores)
 * against Kafka 4.4.0's jars from Maven Central, and gives the java command line that runs it.
 */
const repoRoot = path.resolve(__dirname, '..', '..');
const cacheDir = path.join(repoRoot, '.cache', 'protocol-crosscheck');
const libDir = path.join(cacheDir, 'lib');
const classesDir = path.join(cacheDir, 'classes');
const projectDir = path.join(__dirname, 'java');
const pomFile = path.join(projectDir, 'pom.xml');
const sourceFile = path.join(projectDir, 'src', 'main', 'java', 'kgl', 'protocol', 'ProtocolHarness.java');

function run(command: string, args: string[], what: string): void {
  try {
    execFileSync(command, args, { cwd: projectDir, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string; message: string };
    const detail = `${failure.stdout ?? ''}\n${failure.stderr ?? ''}`.trim().split('\n').slice(-15).join('\n');
    throw new Error(`${what} failed: ${detail || failure.message}`);
  }
}

function isNewer(stamp: string, than: string[]): boolean {
  return fs.existsSync(stamp) && than.every((file) => fs.statSync(stamp).mtimeMs >= fs.statSync(file).mtimeMs);
}

/** The java arguments (classpath and main class) of the harness, building it first when its sources changed. */
export function prepareProtocolHarness(): string[] {
  const jarStamp = path.join(libDir, '.complete');
  if (!isNewer(jarStamp, [pomFile])) {
    fs.rmSync(libDir, { recursive: true, force: true });
    fs.mkdirSync(libDir, { recursive: true });
    run('mvn', ['-q', '-B', '-f', pomFile, 'dependency:copy-dependencies', `-DoutputDirectory=${libDir}`], 'mvn dependency:copy-dependencies');
    fs.writeFileSync(jarStamp, new Date().toISOString());
  }
  const classStamp = path.join(classesDir, '.complete');
  if (!isNewer(classStamp, [sourceFile, jarStamp])) {
    fs.rmSync(classesDir, { recursive: true, force: true });
    fs.mkdirSync(classesDir, { recursive: true });
    run('javac', ['-nowarn', '-d', classesDir, '-cp', path.join(libDir, '*'), sourceFile], 'javac');
    fs.writeFileSync(classStamp, new Date().toISOString());
  }
  return ['-cp', [classesDir, path.join(libDir, '*')].join(path.delimiter), 'kgl.protocol.ProtocolHarness'];
}
