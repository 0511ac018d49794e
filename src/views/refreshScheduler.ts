/**
 * Decides when the tree reloads by itself (manual refreshes bypass it): pushes from sources are coalesced
 * into at most one reload per window, of the sources that pushed and no other (the simulator pushes about
 * once a second; a real cluster must not be reloaded with it); the interval timer reloads every source and
 * runs only while the view is visible; pushes that arrive while it is hidden are remembered and served,
 * for those sources, when it shows again.
 */

/** The timer functions used, injectable so tests drive time by hand. */
export interface SchedulerTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  setInterval(callback: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export const realTimers: SchedulerTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
  setInterval: (callback, ms) => setInterval(callback, ms),
  clearInterval: (handle) => clearInterval(handle as NodeJS.Timeout),
};

export type RefreshReason = 'interval' | 'source-change' | 'became-visible';

export const DEFAULT_COALESCE_MS = 500;

/** `sourceIds` names the sources to reload; undefined means every source. */
export type RefreshCallback = (reason: RefreshReason, sourceIds?: readonly string[]) => void;

export class RefreshScheduler {
  private visible = false;
  private intervalSeconds = 0;
  private intervalHandle: unknown;
  private pendingHandle: unknown;
  /** Sources that pushed within the open coalescing window. */
  private readonly pending = new Set<string>();
  /** Sources that pushed while the view was hidden. */
  private readonly stale = new Set<string>();
  private disposed = false;

  constructor(
    private readonly refresh: RefreshCallback,
    private readonly timers: SchedulerTimers = realTimers,
    private readonly coalesceMs = DEFAULT_COALESCE_MS,
  ) {}

  setVisible(visible: boolean): void {
    if (this.disposed || visible === this.visible) {
      return;
    }
    this.visible = visible;
    if (!visible && this.pendingHandle !== undefined) {
      // Serve the pending push when the view shows again rather than reloading a hidden tree.
      this.pending.forEach((id) => this.stale.add(id));
      this.cancelPending();
    }
    if (visible && this.stale.size > 0) {
      const sourceIds = [...this.stale];
      this.stale.clear();
      this.refresh('became-visible', sourceIds);
    }
    this.restartInterval();
  }

  /** Seconds between automatic reloads; 0 turns polling off. */
  setIntervalSeconds(seconds: number): void {
    if (!Number.isFinite(seconds) || seconds < 0) {
      throw new Error(`Refresh interval must be 0 (off) or a positive number of seconds, got ${seconds}`);
    }
    this.intervalSeconds = seconds;
    this.restartInterval();
  }

  /**
   * A source pushed "something changed" (or its retry is due): coalesces bursts, the first request opens a
   * window and later ones within it ride along; the window's end reloads the sources named in it.
   */
  requestSourceChange(sourceId: string): void {
    if (this.disposed) {
      return;
    }
    if (!this.visible) {
      this.stale.add(sourceId);
      return;
    }
    this.pending.add(sourceId);
    if (this.pendingHandle !== undefined) {
      return;
    }
    this.pendingHandle = this.timers.setTimeout(() => {
      this.pendingHandle = undefined;
      const sourceIds = [...this.pending];
      this.pending.clear();
      this.refresh('source-change', sourceIds);
    }, this.coalesceMs);
  }

  dispose(): void {
    this.disposed = true;
    this.cancelPending();
    this.stopInterval();
  }

  private restartInterval(): void {
    this.stopInterval();
    if (this.disposed || !this.visible || this.intervalSeconds <= 0) {
      return;
    }
    this.intervalHandle = this.timers.setInterval(() => this.refresh('interval'), this.intervalSeconds * 1000);
  }

  private stopInterval(): void {
    if (this.intervalHandle !== undefined) {
      this.timers.clearInterval(this.intervalHandle);
      this.intervalHandle = undefined;
    }
  }

  private cancelPending(): void {
    if (this.pendingHandle !== undefined) {
      this.timers.clearTimeout(this.pendingHandle);
      this.pendingHandle = undefined;
    }
    this.pending.clear();
  }
}
