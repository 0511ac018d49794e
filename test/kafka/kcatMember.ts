/**
 * A `kcat -G` balanced consumer (librdkafka) as a group member in tests. Its assignment is followed
 * from the rebalance lines kcat 1.7 prints on stderr, one per rebalance callback:
 *   % Group g rebalanced: incremental assignment of 2 partition(s) (memberid m, COOPERATIVE rebalance protocol): t [0], t [1]
 *   % Group g rebalanced (memberid m): assigned: t [0], t [1]        (eager protocol)
 *   % Group g rebalanced (memberid m): revoked: t [0], t [1]
 * Eager callbacks replace (assign) or drop (revoke) the whole assignment; cooperative ones add or remove.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';

const INCREMENTAL_LINE = /^% Group \S+ rebalanced: incremental (assignment|revoke) of (\d+) partition\(s\) \(memberid (\S*), COOPERATIVE rebalance protocol\): ?(.*)$/;
const EAGER_LINE = /^% Group \S+ rebalanced \(memberid (\S*)\): (assigned|revoked): ?(.*)$/;
const PARTITION = /^(\S+) \[(\d+)\]$/;

export interface KcatRebalance {
  memberId: string;
  protocol: string;
  kind: 'assignment' | 'revoke';
  partitions: string[];
}

/** "topic [3]" → "topic-3", the form the tests compare. */
function partitionLabel(text: string): string {
  const match = PARTITION.exec(text.trim());
  if (!match) {
    throw new Error(`kcat printed an unexpected partition "${text}"`);
  }
  return `${match[1]}-${match[2]}`;
}

function partitionList(text: string): string[] {
  return text.trim() === '' ? [] : text.split(',').map(partitionLabel);
}

export function parseRebalanceLine(line: string): KcatRebalance | undefined {
  const incremental = INCREMENTAL_LINE.exec(line.trim());
  if (incremental) {
    const partitions = partitionList(incremental[4]);
    if (partitions.length !== Number(incremental[2])) {
      throw new Error(`kcat rebalance line lists ${partitions.length} of ${incremental[2]} partition(s): ${line}`);
    }
    return { memberId: incremental[3], protocol: 'COOPERATIVE', kind: incremental[1] as KcatRebalance['kind'], partitions };
  }
  const eager = EAGER_LINE.exec(line.trim());
  if (eager) {
    return { memberId: eager[1], protocol: 'EAGER', kind: eager[2] === 'assigned' ? 'assignment' : 'revoke', partitions: partitionList(eager[3]) };
  }
  return undefined;
}

/** Fails with a clear message when kcat is not installed (scripts/kafka/run-tests.js installs it as root). */
export function requireKcat(): void {
  const probe = spawnSync('kcat', ['-V'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new Error('kcat is not installed: `apt-get install -y kcat` (scripts/kafka/run-tests.js does it when run as root)');
  }
}

export class KcatMember {
  private readonly child: ChildProcessWithoutNullStreams;
  private stderr = '';
  private pending = '';
  private owned = new Set<string>();
  readonly rebalances: KcatRebalance[] = [];

  /** `settings` are librdkafka properties (-X name=value). */
  constructor(bootstrap: string, groupId: string, topics: string[], settings: Record<string, string>) {
    const props = Object.entries({ 'auto.commit.interval.ms': '300', ...settings }).flatMap(([name, value]) => ['-X', `${name}=${value}`]);
    this.child = spawn('kcat', ['-b', bootstrap, '-G', groupId, ...props, '-o', 'beginning', '-u', '-J', ...topics]);
    this.child.stdout.resume(); // the consumed records (JSON) are not needed; commits show the consumption
    this.child.stderr.on('data', (chunk: Buffer) => this.receive(chunk.toString('utf8')));
  }

  /** Member id from the latest rebalance callback, or null before the first one. */
  get memberId(): string | null {
    return this.rebalances.at(-1)?.memberId ?? null;
  }

  /** The partitions it holds now, sorted. */
  get assignment(): string[] {
    return [...this.owned].sort();
  }

  get log(): string {
    return this.stderr;
  }

  get exited(): boolean {
    return this.child.exitCode !== null || this.child.signalCode !== null;
  }

  /** SIGTERM makes kcat close its consumer (a dynamic member leaves; a static one does not, KIP-345). */
  async stop(): Promise<void> {
    if (this.exited) {
      return;
    }
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 15000);
    await exited;
    clearTimeout(timer);
  }

  private receive(text: string): void {
    this.stderr += text;
    const lines = (this.pending + text).split('\n');
    this.pending = lines.pop() ?? '';
    for (const line of lines) {
      const rebalance = parseRebalanceLine(line);
      if (rebalance) {
        this.apply(rebalance);
      }
    }
  }

  private apply(rebalance: KcatRebalance): void {
    this.rebalances.push(rebalance);
    const incremental = rebalance.protocol === 'COOPERATIVE';
    if (rebalance.kind === 'assignment') {
      if (!incremental) {
        this.owned = new Set();
      }
      rebalance.partitions.forEach((p) => this.owned.add(p));
    } else if (incremental) {
      rebalance.partitions.forEach((p) => this.owned.delete(p));
    } else {
      this.owned = new Set();
    }
  }
}
