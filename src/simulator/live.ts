/** Runs a simulation against the wall clock: virtual time advances by real elapsed time × speed. */
import type { Simulation } from './simulation';

export interface LiveTimers {
  now(): number;
  setInterval(callback: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export interface LiveSimulationOptions {
  /** Virtual milliseconds per wall millisecond; default 1. */
  speed?: number;
  /** Wall-clock tick; default 100 ms. */
  tickMs?: number;
  /** Injected for tests; defaults to Date.now / setInterval / clearInterval. */
  timers?: LiveTimers;
  /** Called after each tick that ran at least one event. */
  onAdvance?: () => void;
}

const realTimers: LiveTimers = {
  now: () => Date.now(),
  setInterval: (callback, ms) => setInterval(callback, ms),
  clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
};

/** Longest virtual step a single tick may take, so a suspended laptop does not replay hours at once. */
const MAX_STEP_MS = 60000;

export class LiveSimulation {
  readonly speed: number;
  private readonly tickMs: number;
  private readonly timers: LiveTimers;
  private handle: unknown = null;
  private lastWall = 0;
  private carry = 0;

  constructor(
    readonly simulation: Simulation,
    private readonly options: LiveSimulationOptions = {},
  ) {
    const speed = options.speed ?? 1;
    if (typeof speed !== 'number' || !Number.isFinite(speed) || speed <= 0) {
      throw new Error(`Simulation speed must be a positive number, got ${String(speed)}`);
    }
    const tickMs = options.tickMs ?? 100;
    if (!Number.isFinite(tickMs) || tickMs <= 0) {
      throw new Error(`Tick interval must be a positive number of milliseconds, got ${tickMs}`);
    }
    this.speed = speed;
    this.tickMs = tickMs;
    this.timers = options.timers ?? realTimers;
  }

  get running(): boolean {
    return this.handle !== null;
  }

  start(): void {
    if (this.handle !== null) {
      return;
    }
    this.lastWall = this.timers.now();
    this.handle = this.timers.setInterval(() => this.tick(), this.tickMs);
  }

  stop(): void {
    if (this.handle !== null) {
      this.timers.clearInterval(this.handle);
      this.handle = null;
    }
  }

  dispose(): void {
    this.stop();
  }

  /** Advances by the wall time elapsed since the last tick. */
  tick(): void {
    const wall = this.timers.now();
    const elapsed = Math.max(0, wall - this.lastWall);
    this.lastWall = wall;
    const step = Math.min(elapsed * this.speed + this.carry, MAX_STEP_MS);
    const whole = Math.floor(step);
    this.carry = step - whole;
    if (whole <= 0) {
      return;
    }
    const clock = this.simulation.clock;
    const before = clock.executedCount;
    clock.advance(whole);
    if (clock.executedCount !== before) {
      this.options.onAdvance?.();
    }
  }
}
