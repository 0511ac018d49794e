/**
 * Virtual time: a clock plus an event queue ordered by (time, insertion sequence), so two
 * events due at the same millisecond always run in the order they were scheduled.
 */

export interface ScheduledTask {
  readonly time: number;
  /** True once cancelled or run; a cancelled task stays in the heap and is skipped when popped. */
  readonly done: boolean;
}

interface QueueEntry extends ScheduledTask {
  time: number;
  seq: number;
  done: boolean;
  run: (arg: unknown) => void;
  /** Passed to `run`, so hot paths (responses) need no closure per event. */
  arg: unknown;
}

function before(a: QueueEntry, b: QueueEntry): boolean {
  return a.time < b.time || (a.time === b.time && a.seq < b.seq);
}

/** Binary min-heap keyed by time then sequence. */
class EventHeap {
  private readonly items: QueueEntry[] = [];

  get size(): number {
    return this.items.length;
  }

  peek(): QueueEntry | undefined {
    return this.items[0];
  }

  push(entry: QueueEntry): void {
    const items = this.items;
    let i = items.length;
    items.push(entry);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(entry, items[parent])) {
        break;
      }
      items[i] = items[parent];
      i = parent;
    }
    items[i] = entry;
  }

  /** Drops the entries `keep` refuses; a sorted array is a valid heap, so sorting restores the order. */
  retain(keep: (entry: QueueEntry) => boolean): void {
    const kept = this.items.filter(keep).sort((a, b) => a.time - b.time || a.seq - b.seq);
    this.items.length = kept.length;
    for (let i = 0; i < kept.length; i++) {
      this.items[i] = kept[i];
    }
  }

  pop(): QueueEntry | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length === 0 || last === undefined) {
      return top;
    }
    const n = items.length;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) {
        break;
      }
      const right = left + 1;
      const child = right < n && before(items[right], items[left]) ? right : left;
      if (!before(items[child], last)) {
        break;
      }
      items[i] = items[child];
      i = child;
    }
    items[i] = last;
    return top;
  }
}

/** The heap is swept of cancelled entries only past this many, so small queues never pay for it. */
const COMPACT_MIN_CANCELLED = 1024;

export class VirtualClock {
  private current: number;
  private seq = 0;
  private readonly heap = new EventHeap();
  private executed = 0;
  /** Entries cancelled but still in the heap. */
  private cancelledInHeap = 0;
  /**
   * When set, an event that throws is reported here and the queue goes on with the next event;
   * when null the error propagates (scenarios and tests want engine bugs loud). A server that takes
   * requests from sockets sets it: nothing a client sends may stop the clock or the process.
   */
  onEventError: ((error: unknown) => void) | null = null;

  constructor(startTime = 0) {
    this.current = startTime;
  }

  /** Current virtual time in milliseconds. */
  get now(): number {
    return this.current;
  }

  /** Events run so far (for benchmarks). */
  get executedCount(): number {
    return this.executed;
  }

  /** Entries in the queue, cancelled ones included. */
  get queuedCount(): number {
    return this.heap.size;
  }

  /** Runs `run` after `delayMs` of virtual time (0 = later in this same millisecond). */
  schedule(delayMs: number, run: () => void): ScheduledTask {
    if (!(delayMs >= 0)) {
      throw new Error(`Cannot schedule an event ${delayMs} ms in the past`);
    }
    return this.scheduleAt(this.current + delayMs, run);
  }

  scheduleAt(time: number, run: () => void): ScheduledTask {
    return this.push(time, run, undefined);
  }

  /** Runs `run(arg)` after `delayMs`; like `schedule` without allocating a closure for the argument. */
  scheduleCall<T>(delayMs: number, run: (arg: T) => void, arg: T): ScheduledTask {
    if (!(delayMs >= 0)) {
      throw new Error(`Cannot schedule an event ${delayMs} ms in the past`);
    }
    return this.push(this.current + delayMs, run as (arg: unknown) => void, arg);
  }

  private push(time: number, run: (arg: unknown) => void, arg: unknown): QueueEntry {
    const entry: QueueEntry = { time: Math.max(time, this.current), seq: this.seq++, done: false, run, arg };
    this.heap.push(entry);
    return entry;
  }

  cancel(task: ScheduledTask | undefined | null): void {
    const entry = task as QueueEntry | undefined | null;
    if (entry && !entry.done) {
      entry.done = true;
      this.cancelledInHeap++;
      // Cancelled entries wait in the heap for their time; when they are most of it (many long
      // timers cancelled early, e.g. parked fetches), they are swept so they cannot pile up.
      if (this.cancelledInHeap > COMPACT_MIN_CANCELLED && this.cancelledInHeap * 2 > this.heap.size) {
        this.heap.retain((e) => !e.done);
        this.cancelledInHeap = 0;
      }
    }
  }

  /** Time of the next live event, or null when nothing is queued. */
  nextEventTime(): number | null {
    this.dropCancelledHead();
    return this.heap.peek()?.time ?? null;
  }

  /** Runs every event due up to and including `time`, then sets the clock to `time`. */
  runUntil(time: number): void {
    if (time < this.current) {
      throw new Error(`Cannot run the clock backwards from ${this.current} to ${time}`);
    }
    for (;;) {
      const head = this.heap.peek();
      if (!head || head.time > time) {
        break;
      }
      this.heap.pop();
      if (head.done) {
        this.cancelledInHeap--;
        continue;
      }
      head.done = true;
      this.current = head.time;
      this.executed++;
      if (this.onEventError === null) {
        head.run(head.arg);
      } else {
        try {
          head.run(head.arg);
        } catch (error) {
          this.onEventError(error);
        }
      }
    }
    this.current = time;
  }

  advance(ms: number): void {
    this.runUntil(this.current + ms);
  }

  private dropCancelledHead(): void {
    let head = this.heap.peek();
    while (head && head.done) {
      this.heap.pop();
      this.cancelledInHeap--;
      head = this.heap.peek();
    }
  }
}

/**
 * A timer whose deadline can be pushed back cheaply: resetting only moves the deadline, and the
 * queued task re-arms itself when it fires early. Heartbeats reset session timers thousands of
 * times, so this avoids a heap entry per reset.
 */
export class Deadline {
  private task: ScheduledTask | null = null;
  private deadline = Infinity;

  constructor(
    private readonly clock: VirtualClock,
    private readonly onExpire: () => void,
  ) {}

  get expiresAt(): number {
    return this.deadline;
  }

  get armed(): boolean {
    return this.deadline !== Infinity;
  }

  reset(timeoutMs: number): void {
    const deadline = this.clock.now + timeoutMs;
    const shorter = deadline < this.deadline;
    this.deadline = deadline;
    if (!this.task || this.task.done || shorter) {
      this.clock.cancel(this.task);
      this.task = this.clock.scheduleAt(deadline, () => this.fire());
    }
  }

  cancel(): void {
    this.deadline = Infinity;
    this.clock.cancel(this.task);
    this.task = null;
  }

  private fire(): void {
    if (this.clock.now < this.deadline) {
      this.task = this.clock.scheduleAt(this.deadline, () => this.fire());
      return;
    }
    this.deadline = Infinity;
    this.task = null;
    this.onExpire();
  }
}
