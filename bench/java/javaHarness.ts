import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Builds (once, cached under .cache/assignor-bench/, which git ignores) and runs bench/java's AssignorHarness
 * against Kafka's own kafka-clients jar from Maven Central.
 */

const repoRoot = path.resolve(__dirname, '..', '..');
export const cacheDir = path.join(repoRoot, '.cache', 'assignor-bench');
const libDir = path.join(cacheDir, 'lib');
const classesDir = path.join(cacheDir, 'classes');
const sourcesDir = path.join(__dirname, 'src', 'main', 'java');
const pomFile = path.join(__dirname, 'pom.xml');
const harnessClass = 'org.apache.kafka.clients.consumer.AssignorHarness';

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

function javaSources(): string[] {
  const found: string[] = [];
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
  walk(sourcesDir);
  return found;
}

function newestMtime(files: string[]): number {
  return Math.max(...files.map((file) => fs.statSync(file).mtimeMs));
}

/** Fetches the dependencies and compiles the harness when the cache is missing or older than the sources. */
export function prepareJavaHarness(): JavaHarness {
  try {
    const sources = javaSources();
    const jarStamp = path.join(libDir, '.complete');
    if (!fs.existsSync(jarStamp) || fs.statSync(jarStamp).mtimeMs < fs.statSync(pomFile).mtimeMs) {
      fs.mkdirSync(libDir, { recursive: true });
      runTool('mvn', ['-q', '-B', '-f', pomFile, 'dependency:copy-dependencies', `-DoutputDirectory=${libDir}`],
        'mvn dependency:copy-dependencies');
      fs.writeFileSync(jarStamp, new Date().toISOString());
    }
    const classStamp = path.join(classesDir, '.complete');
    if (!fs.existsSync(classStamp) || fs.statSync(classStamp).mtimeMs < newestMtime([...sources, jarStamp])) {
      fs.rmSync(classesDir, { recursive: true, force: true });
      fs.mkdirSync(classesDir, { recursive: true });
      runTool('javac', ['-nowarn', '-d', classesDir, '-cp', path.join(libDir, '*'), ...sources], 'javac');
      fs.writeFileSync(classStamp, new Date().toISOString());
    }
  } catch (error) {
    return { available: false, reason: (error as Error).message };
  }
  const classpath = [classesDir, path.join(libDir, '*')].join(path.delimiter);
  return {
    available: true,
    run: (args) => execFileSync('java', ['-cp', classpath, harnessClass, ...args], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  };
}
