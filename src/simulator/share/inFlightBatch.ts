/**
 * A run of offsets acquired together (org.apache.kafka.server.share.fetch.InFlightBatch): one InFlightState for the
 * whole batch until some offsets need their own, then one per offset (offsetState) for good.
 */
import type { VirtualClock } from '../common/clock';
import { AcquisitionLockTimerTask, InFlightState, EMPTY_MEMBER_ID, type AcquisitionLockTimeoutHandler } from './inFlightState';
import type { DeliveryCountOps, RecordState } from './recordState';

export class InFlightBatch {
  private batchStateValue: InFlightState | null;
  private offsetStateValue: Map<number, InFlightState> | null = null;

  constructor(
    private readonly clock: VirtualClock,
    private readonly timeoutHandler: AcquisitionLockTimeoutHandler,
    memberId: string,
    readonly firstOffset: number,
    readonly lastOffset: number,
    state: RecordState,
    deliveryCount: number,
    lockTask: AcquisitionLockTimerTask | null,
  ) {
    this.batchStateValue = new InFlightState(state, deliveryCount, memberId, lockTask);
  }

  /** Offset → state once the batch is tracked per offset (in offset order); null while one state covers it. */
  get offsetState(): ReadonlyMap<number, InFlightState> | null {
    return this.offsetStateValue;
  }

  get batchState(): RecordState {
    return this.inFlightState().state;
  }

  get batchMemberId(): string {
    return this.inFlightState().memberId;
  }

  get batchDeliveryCount(): number {
    return this.inFlightState().deliveryCount;
  }

  get batchAcquisitionLockTimeoutTask(): AcquisitionLockTimerTask | null {
    return this.inFlightState().acquisitionLockTimeoutTask;
  }

  get recordCount(): number {
    return this.lastOffset - this.firstOffset + 1;
  }

  /** The batch-level state itself (only while the batch is not tracked per offset). */
  inFlightState(): InFlightState {
    if (this.batchStateValue === null) {
      throw new Error('The batch state is not available as the offset state is maintained');
    }
    return this.batchStateValue;
  }

  batchHasOngoingStateTransition(): boolean {
    return this.inFlightState().hasOngoingStateTransition();
  }

  tryUpdateBatchState(newState: RecordState, ops: DeliveryCountOps, maxDeliveryCount: number, newMemberId: string, dlqEnabled: boolean): InFlightState | null {
    return this.inFlightState().tryUpdateState(newState, ops, maxDeliveryCount, newMemberId, dlqEnabled);
  }

  startBatchStateTransition(newState: RecordState, ops: DeliveryCountOps, maxDeliveryCount: number, newMemberId: string, dlqEnabled: boolean): InFlightState | null {
    return this.inFlightState().startStateTransition(newState, ops, maxDeliveryCount, newMemberId, dlqEnabled);
  }

  updateAcquisitionLockTimeout(task: AcquisitionLockTimerTask): void {
    this.inFlightState().updateAcquisitionLockTimeoutTask(task);
  }

  /**
   * maybeInitializeOffsetStateUpdate(): splits the batch state into one state per offset, each keeping what is left
   * of the batch's lock as a lock of its own.
   */
  maybeInitializeOffsetStateUpdate(): void {
    if (this.offsetStateValue !== null) {
      return;
    }
    const batch = this.inFlightState();
    const lock = batch.acquisitionLockTimeoutTask;
    const offsets = new Map<number, InFlightState>();
    for (let offset = this.firstOffset; offset <= this.lastOffset; offset++) {
      const task = lock === null ? null : this.lockTask(batch.memberId, offset, lock.expirationMs - this.clock.now);
      offsets.set(offset, new InFlightState(batch.state, batch.deliveryCount, batch.memberId, task));
    }
    batch.cancelAndClearAcquisitionLockTimeoutTask();
    this.offsetStateValue = offsets;
    this.batchStateValue = null;
  }

  /**
   * maybeInitializeOffsetStateUpdate(targetOffset, delayMs): a record-limit acquisition keeps only offsets up to
   * targetOffset acquired; the rest of the fetched batch stays AVAILABLE, as never delivered.
   */
  initializeOffsetStateUpTo(targetOffset: number, delayMs: number): void {
    if (this.offsetStateValue !== null) {
      return;
    }
    const batch = this.inFlightState();
    const offsets = new Map<number, InFlightState>();
    for (let offset = this.firstOffset; offset <= this.lastOffset; offset++) {
      offsets.set(offset, offset <= targetOffset
        ? new InFlightState(batch.state, batch.deliveryCount, batch.memberId, this.lockTask(batch.memberId, offset, delayMs))
        : new InFlightState('AVAILABLE', batch.deliveryCount - 1, EMPTY_MEMBER_ID));
    }
    this.offsetStateValue = offsets;
    this.batchStateValue = null;
  }

  archiveBatch(): void {
    this.inFlightState().archive();
  }

  private lockTask(memberId: string, offset: number, delayMs: number): AcquisitionLockTimerTask {
    return new AcquisitionLockTimerTask(this.clock, delayMs, memberId, offset, offset, this.timeoutHandler);
  }
}

/** The records of [first, last] inside this batch's per-offset states, in offset order. */
export function offsetsInRange(batch: InFlightBatch, first: number, last: number): [number, InFlightState][] {
  const result: [number, InFlightState][] = [];
  const offsets = batch.offsetState;
  if (offsets !== null) {
    for (let offset = Math.max(first, batch.firstOffset); offset <= Math.min(last, batch.lastOffset); offset++) {
      const state = offsets.get(offset);
      if (state !== undefined) {
        result.push([offset, state]);
      }
    }
  }
  return result;
}
