/**
 * The Java process that keeps the live bench's members live (bench/java/live, LiveGroups): starts it beside
 * the broker, under the broker's own kafka-clients jar, follows its status lines, waits (bounded) until
 * every member is live, and stops it by closing its stdin (it exits when its stdin closes).
 */
import { spawn, type ChildProcess } from 'child_process';
import type { BrokerHandle } from '../scripts/kafka/broker';
import { liveGroupsClasspath } from './java/javaHarness';

export interface LiveMembersPlan {
  prefix: string;
  count: number;
  types: readonly string[];
  topics: readonly string[];
  partitions: number;
  connections: number;
  heartbeatMs: number;
  sessionMs: number;
}

export class LiveMembers {
  private latest = '';
  private statusLines = 0;
  private ready = false;
  private exited: string | null = null;
  private readonly waiters = new Set<() => void>();

  private constructor(private readonly child: ChildProcess) {
    let buffered = '';
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        if (line === 'ready') {
          this.ready = true;
        } else if (line.startsWith('status ')) {
          this.latest = line.slice('status '.length);
          this.statusLines++;
        }
      }
      this.wake();
    });
    let stderr = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-4000);
    });
    child.on('exit', (code, signal) => {
      this.exited = `LiveGroups exited (${code ?? signal}): ${stderr.trim() || this.latest}`;
      this.wake();
    });
  }

  /** Compiles (once) and starts LiveGroups for the plan's groups against the broker. */
  static start(broker: BrokerHandle, plan: LiveMembersPlan): LiveMembers {
    const { classpath, mainClass } = liveGroupsClasspath(broker.lib);
    const args = [
      '--bootstrap', broker.bootstrap, '--prefix', plan.prefix, '--count', String(plan.count),
      '--types', plan.types.join(','), '--topics', plan.topics.join(','), '--partitions', String(plan.partitions),
      '--connections', String(plan.connections), '--heartbeat-ms', String(plan.heartbeatMs), '--session-ms', String(plan.sessionMs),
    ];
    return new LiveMembers(spawn('java', ['-Xmx512m', '-cp', classpath, mainClass, ...args], { stdio: ['pipe', 'pipe', 'pipe'] }));
  }

  /**
   * A status line printed after this call (members by type, longest heartbeat gaps, rejoins, errors): the
   * last one read may be old when the bench was busy in a synchronous tool run.
   */
  async freshStatus(boundMs = 10000): Promise<string> {
    const seen = this.statusLines;
    await this.until(() => this.statusLines > seen, boundMs, 'no new status line');
    return this.latest;
  }

  /** Resolves once every member has been live at once; rejects past the bound or when the process ends. */
  async untilReady(boundMs: number): Promise<void> {
    await this.until(() => this.ready, boundMs, 'not every member was live');
  }

  private async until(done: () => boolean, boundMs: number, failure: string): Promise<void> {
    const deadline = Date.now() + boundMs;
    while (!done()) {
      if (this.exited !== null) {
        throw new Error(this.exited);
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(`${failure} within ${boundMs} ms: ${this.latest || 'no status yet'}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 5000));
        this.waiters.add(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Closes its stdin and waits for it to exit; kills it (its own pid) if it has not within 10 s. */
  async stop(): Promise<void> {
    if (this.exited !== null) {
      return;
    }
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.stdin?.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10000);
    await exited;
    clearTimeout(timer);
  }

  private wake(): void {
    const waiters = [...this.waiters];
    this.waiters.clear();
    waiters.forEach((w) => w());
  }
}
