/**
 * A timeline panel's LSO holds while it follows a source's event log, which says nothing of
 * transactions holding the LSO: the group is read for them at most once per interval, with backoff
 * after failures, and never again on its own after a login or ACL failure (only the user can mend
 * those; a wrong password retried in a loop locks accounts). No `vscode` here: the panel gives it the
 * source and a log line for each new failure.
 */
import type { ClusterSource } from '../model/clusterSource';
import { failureKind, needsUserAction } from '../model/sourceFailure';
import type { RebalanceEvent } from '../model/types';
import { errorMessage } from '../protocol/errors';
import { LsoHoldObserver } from '../timeline/lsoHoldObserver';

/** How often, at most, the group is read for its LSO holds. */
export const LSO_CHECK_INTERVAL_MS = 5000;
const LSO_MAX_BACKOFF_MS = 5 * 60 * 1000;

export class LsoHoldWatch {
  readonly observer: LsoHoldObserver;
  private checkedAt = -Infinity;
  /** Added to the interval after failures: doubles up to LSO_MAX_BACKOFF_MS; Infinity stops the checks. */
  private backoffMs = 0;
  /** The last failure, logged once until a check succeeds. */
  private failure: string | undefined;

  constructor(
    readonly groupId: string,
    private readonly warn: (message: string) => void,
    private readonly wallClock: () => number = Date.now,
  ) {
    this.observer = new LsoHoldObserver(groupId);
  }

  /** Reads the group for its holds unless it was read within the interval (and backoff); a failure keeps the events shown. */
  async check(source: Pick<ClusterSource, 'describeGroup' | 'now'>): Promise<void> {
    const wall = this.wallClock();
    if (this.backoffMs === Infinity || wall - this.checkedAt < LSO_CHECK_INTERVAL_MS + this.backoffMs) {
      return;
    }
    this.checkedAt = wall;
    try {
      const detail = await source.describeGroup(this.groupId);
      if (detail.error !== undefined) {
        throw new Error(detail.error);
      }
      this.observer.observe(detail, source.now?.() ?? wall);
      this.failure = undefined;
      this.backoffMs = 0;
    } catch (error) {
      const reason = errorMessage(error);
      const stop = needsUserAction(failureKind(error));
      this.backoffMs = stop ? Infinity : Math.min(Math.max(this.backoffMs * 2, LSO_CHECK_INTERVAL_MS), LSO_MAX_BACKOFF_MS);
      if (reason !== this.failure || stop) {
        this.failure = reason;
        this.warn(`Timeline ${this.groupId}: could not read the group for transactions holding its LSO: ${reason}${stop ? ' (not retried: reopen the panel once it is mended)' : ''}`);
      }
    }
  }

  events(): RebalanceEvent[] {
    return this.observer.events();
  }
}
