/**
 * When a cluster that failed to load is tried again without the user: after an exponential backoff of
 * its failures in a row (reset by a success), or, after an authentication or authorization failure,
 * never (a rejected login retried on its own locks accounts and floods audit logs; the user's Retry,
 * Refresh or an edit of the connection tries again).
 */
import { failureKind, needsUserAction } from '../model/sourceFailure';
import { ExponentialBackoff } from './exponentialBackoff';
import { realTimers, type SchedulerTimers } from './refreshScheduler';
import type { NextRetry } from './treeNodes';

export type RetryTimers = Pick<SchedulerTimers, 'setTimeout' | 'clearTimeout'>;

export interface LoadRetriesOptions {
  timers?: RetryTimers;
  now?: () => number;
  backoff?: ExponentialBackoff;
}

interface FailureRecord {
  failures: number;
  timer?: unknown;
}

export class LoadRetries {
  private readonly records = new Map<string, FailureRecord>();
  private readonly timers: RetryTimers;
  private readonly backoff: ExponentialBackoff;
  readonly now: () => number;

  /** `onDue` is called when a scheduled retry's time has come. */
  constructor(
    private readonly onDue: (sourceId: string) => void,
    options: LoadRetriesOptions = {},
  ) {
    this.timers = options.timers ?? realTimers;
    this.now = options.now ?? Date.now;
    this.backoff = options.backoff ?? new ExponentialBackoff();
  }

  /** Records a failed load and schedules its retry; returns what the row tells about it. */
  failed(sourceId: string, error: unknown): NextRetry {
    const record = this.records.get(sourceId) ?? { failures: 0 };
    this.records.set(sourceId, record);
    this.cancelTimer(record);
    record.failures += 1;
    if (needsUserAction(failureKind(error))) {
      return { kind: 'user' };
    }
    const delay = this.backoff.backoff(record.failures - 1);
    record.timer = this.timers.setTimeout(() => {
      record.timer = undefined;
      this.onDue(sourceId);
    }, delay);
    return { kind: 'scheduled', at: this.now() + delay };
  }

  /** Whether an automatic load may run now, given what the row says about the next retry. */
  allowsAutomaticLoad(nextRetry: NextRetry | undefined): boolean {
    return !nextRetry || (nextRetry.kind === 'scheduled' && this.now() >= nextRetry.at);
  }

  /** After a success, or when the source goes: the backoff starts over. */
  forget(sourceId: string): void {
    const record = this.records.get(sourceId);
    if (record) {
      this.cancelTimer(record);
      this.records.delete(sourceId);
    }
  }

  dispose(): void {
    for (const id of [...this.records.keys()]) {
      this.forget(id);
    }
  }

  private cancelTimer(record: FailureRecord): void {
    if (record.timer !== undefined) {
      this.timers.clearTimeout(record.timer);
      record.timer = undefined;
    }
  }
}
