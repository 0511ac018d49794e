/**
 * One record's (or one whole batch's) delivery state, as org.apache.kafka.server.share.fetch.InFlightState keeps it,
 * and the acquisition lock (AcquisitionLockTimerTask) on the simulator's virtual clock.
 */
import type { ScheduledTask, VirtualClock } from '../common/clock';
import { validateTransition, type DeliveryCountOps, type RecordState } from './recordState';

export const EMPTY_MEMBER_ID = '';

/** AcquisitionLockTimeoutHandler: what runs when a lock over [firstOffset, lastOffset] expires. */
export type AcquisitionLockTimeoutHandler = (memberId: string, firstOffset: number, lastOffset: number, task: AcquisitionLockTimerTask) => void;

/** AcquisitionLockTimerTask: a lock that fires once at its deadline unless cancelled first. */
export class AcquisitionLockTimerTask {
  readonly expirationMs: number;
  private readonly scheduled: ScheduledTask;
  private cancelled = false;

  constructor(
    private readonly clock: VirtualClock,
    delayMs: number,
    readonly memberId: string,
    readonly firstOffset: number,
    readonly lastOffset: number,
    handler: AcquisitionLockTimeoutHandler,
  ) {
    this.expirationMs = clock.now + delayMs;
    this.scheduled = clock.schedule(Math.max(0, delayMs), () => handler(memberId, firstOffset, lastOffset, this));
  }

  get isCancelled(): boolean {
    return this.cancelled;
  }

  /** True once the deadline has passed (the task may still be queued for this millisecond). */
  hasExpired(): boolean {
    return this.clock.now >= this.expirationMs;
  }

  cancel(): void {
    this.cancelled = true;
    this.clock.cancel(this.scheduled);
  }
}

interface RollbackState {
  state: RecordState;
  deliveryCount: number;
  memberId: string;
  maxDeliveryCount: number;
}

export class InFlightState {
  private rollbackState: RollbackState | null = null;
  /** Set by archive(): a record archived while its transition was open stays archived on rollback. */
  private isTerminalState = false;

  constructor(
    private stateValue: RecordState,
    private deliveryCountValue: number,
    private memberIdValue: string,
    private lockTask: AcquisitionLockTimerTask | null = null,
  ) {}

  get state(): RecordState {
    return this.stateValue;
  }

  get deliveryCount(): number {
    return this.deliveryCountValue;
  }

  get memberId(): string {
    return this.memberIdValue;
  }

  get acquisitionLockTimeoutTask(): AcquisitionLockTimerTask | null {
    return this.lockTask;
  }

  /** InFlightState.updateAcquisitionLockTimeoutTask: a record holds at most one lock. */
  updateAcquisitionLockTimeoutTask(task: AcquisitionLockTimerTask): void {
    if (this.lockTask !== null) {
      throw new Error('Existing acquisition lock timeout exists, cannot override.');
    }
    this.lockTask = task;
  }

  cancelAndClearAcquisitionLockTimeoutTask(): void {
    this.lockTask?.cancel();
    this.lockTask = null;
  }

  hasOngoingStateTransition(): boolean {
    return this.rollbackState !== null;
  }

  /**
   * InFlightState.tryUpdateState: a release (to AVAILABLE) at the delivery limit archives instead (ARCHIVING when
   * the group has a dead-letter topic); null when the transition is refused or another one is open.
   */
  tryUpdateState(newState: RecordState, ops: DeliveryCountOps, maxDeliveryCount: number, newMemberId: string, dlqEnabled: boolean): InFlightState | null {
    if (this.hasOngoingStateTransition()) {
      return null;
    }
    let target = newState;
    if (target === 'AVAILABLE' && ops !== 'DECREASE' && this.deliveryCountValue >= maxDeliveryCount) {
      target = dlqEnabled ? 'ARCHIVING' : 'ARCHIVED';
    }
    try {
      this.stateValue = validateTransition(this.stateValue, target);
    } catch {
      return null;
    }
    if (target !== 'ARCHIVED') {
      this.deliveryCountValue += ops === 'INCREASE' ? 1 : ops === 'DECREASE' ? -1 : 0;
    }
    this.memberIdValue = newMemberId;
    return this;
  }

  /** InFlightState.archive: terminal at once, whatever transition is open. */
  archive(): void {
    this.isTerminalState = true;
    this.stateValue = 'ARCHIVED';
    this.memberIdValue = EMPTY_MEMBER_ID;
    this.cancelAndClearAcquisitionLockTimeoutTask();
  }

  /** InFlightState.startStateTransition: update now, remembering the old state until the persister answers. */
  startStateTransition(newState: RecordState, ops: DeliveryCountOps, maxDeliveryCount: number, newMemberId: string, dlqEnabled: boolean): InFlightState | null {
    const previous = { state: this.stateValue, deliveryCount: this.deliveryCountValue, memberId: this.memberIdValue, maxDeliveryCount };
    const updated = this.tryUpdateState(newState, ops, maxDeliveryCount, newMemberId, dlqEnabled);
    if (updated !== null) {
      this.rollbackState = previous;
    }
    return updated;
  }

  /**
   * InFlightState.completeStateTransition: on commit the lock goes; on rollback the old state returns, unless its
   * lock expired meanwhile, when the record is released (or archived at the limit) as the expiry would have done.
   */
  completeStateTransition(commit: boolean): void {
    const previous = this.rollbackState;
    if (commit || this.isTerminalState || previous === null) {
      this.cancelAndClearAcquisitionLockTimeoutTask();
      this.rollbackState = null;
      return;
    }
    if (this.lockTask !== null && this.lockTask.hasExpired()) {
      this.stateValue = previous.deliveryCount >= previous.maxDeliveryCount ? 'ARCHIVED' : 'AVAILABLE';
      this.memberIdValue = EMPTY_MEMBER_ID;
      this.cancelAndClearAcquisitionLockTimeoutTask();
    } else {
      this.stateValue = previous.state;
      this.memberIdValue = previous.memberId;
    }
    this.rollbackState = null;
  }
}
