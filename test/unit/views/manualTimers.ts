/**
 * Timers driven by hand for the view tests: `advance(ms)` runs what falls due, in order, synchronously;
 * `run(ms)` does the same but lets promises settle after each callback, for code that loads asynchronously
 * (the tree's reloads). One object serves the scheduler, the retries, and the simulator's pacing and
 * notification timers, so they all share one clock.
 */
export class ManualTimers {
  /** The current time, in ms. */
  time = 0;
  private nextId = 1;
  private readonly timers = new Map<number, { due: number; every?: number; callback: () => void }>();

  /** The clock, as a function (for `now` options). */
  readonly clock = (): number => this.time;

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.set(id, { due: this.time + Math.max(0, ms), callback });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }
  setInterval(callback: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.set(id, { due: this.time + ms, every: ms, callback });
    return id;
  }
  clearInterval(handle: unknown): void {
    this.timers.delete(handle as number);
  }
  pending(): number {
    return this.timers.size;
  }

  advance(ms: number): void {
    const end = this.time + ms;
    for (let timer = this.nextDue(end); timer; timer = this.nextDue(end)) {
      this.fire(timer);
    }
    this.time = end;
  }

  async run(ms: number): Promise<void> {
    const end = this.time + ms;
    await settle();
    for (let timer = this.nextDue(end); timer; timer = this.nextDue(end)) {
      this.fire(timer);
      await settle();
    }
    this.time = end;
  }

  private nextDue(end: number): [number, { due: number; every?: number; callback: () => void }] | undefined {
    let next: [number, { due: number; every?: number; callback: () => void }] | undefined;
    for (const entry of this.timers) {
      if (entry[1].due <= end && (!next || entry[1].due < next[1].due)) {
        next = entry;
      }
    }
    return next;
  }

  private fire([id, timer]: [number, { due: number; every?: number; callback: () => void }]): void {
    this.time = timer.due;
    if (timer.every) {
      timer.due += timer.every;
    } else {
      this.timers.delete(id);
    }
    timer.callback();
  }
}

/** Lets every promise chain that is ready run (loads over in-memory sources finish within a few turns). */
async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    await new Promise((resolve) => setImmediate(resolve));
  }
}
