/**
 * A share group's view of one topic partition, as Kafka 4.4's kafka.server.share.SharePartition keeps it on the
 * partition leader: which records are in flight and in which state, who holds them and until when, how often
 * each was delivered; acknowledgements, releases and lock expiries, each persisted before it takes effect
 * (the share coordinator's `__share_group_state`), and the dead-letter write of KIP-1191 before archiving.
 */
import type { VirtualClock } from '../common/clock';
import { KafkaApiError } from '../common/errors';
import { abortedTransactionBatches, withoutBatches, type AbortedTransaction, type FetchedBatch } from './fetchedData';
import { InFlightBatch } from './inFlightBatch';
import { InFlightRecords, type InFlightRange } from './inFlightRecords';
import { AcquisitionLockTimerTask, EMPTY_MEMBER_ID, type InFlightState } from './inFlightState';
import { acquireRecords, EMPTY_ACQUIRED, type AcquisitionContext, type ShareAcquireMode, type ShareAcquiredRecords } from './recordAcquisition';
import { acknowledgeBatch, type AcknowledgementContext, type PendingStateUpdate, type ShareAcknowledgementBatch } from './shareAcknowledgements';
import { isStateTerminal, RECORD_STATE_ID, recordStateForId, type DeadLetterCause, type RecordState } from './recordState';

/** The group configs a share partition reads at each use (ShareGroupConfigProvider: they can change any time). */
export interface SharePartitionConfig {
  recordLockDurationMs(): number;
  deliveryCountLimit(): number;
  partitionMaxRecordLocks(): number;
  renewAcknowledgeEnabled(): boolean;
  /** errors.deadletterqueue.topic.name where the cluster's share.version allows it (2, Kafka 4.4), else null. */
  deadLetterTopic(): string | null;
}

/** PersisterStateBatch: a run of offsets in one state, as `__share_group_state` stores it. */
export interface PersisterStateBatch {
  firstOffset: number;
  lastOffset: number;
  deliveryState: number;
  deliveryCount: number;
}

/** WriteShareGroupState for one partition (PartitionStateBatchData). */
export interface ShareStateWrite {
  stateEpoch: number;
  leaderEpoch: number;
  startOffset: number;
  deliveryCompleteCount: number;
  stateBatches: PersisterStateBatch[];
}

/** The share coordinator's side: a write that fails throws, and the share partition rolls back. */
export interface SharePartitionPersister {
  writeState(write: ShareStateWrite): void;
}

/** ShareGroupDLQRecordParameter: the records to copy into the group's dead-letter topic. */
export interface DeadLetterRecords {
  topic: string;
  firstOffset: number;
  lastOffset: number;
  deliveryCount: number;
  cause: DeadLetterCause;
}

/** What the share partition reads of its persisted state when it starts (ReadShareGroupState). */
export interface PersistedShareState {
  stateEpoch: number;
  /** -1 when the group never had a start offset here: share.auto.offset.reset decides. */
  startOffset: number;
  stateBatches: readonly PersisterStateBatch[];
}

export interface SharePartitionOptions {
  clock: VirtualClock;
  leaderEpoch: number;
  config: SharePartitionConfig;
  persister: SharePartitionPersister;
  /** Writes dead-letter records; a failure is logged by the caller and the records are archived all the same. */
  writeDeadLetters(records: DeadLetterRecords): void;
  /** Records became available (released, lock expired) or the start offset moved: wake parked fetches. */
  onStateChanged?(): void;
}

export class SharePartition {
  private readonly records = new InFlightRecords();
  private stateEpoch = 0;
  private fenced = false;
  private readonly acquisition: AcquisitionContext;
  private readonly onLockTimeout = (_memberId: string, firstOffset: number, lastOffset: number, task: AcquisitionLockTimerTask): void => {
    this.releaseAcquisitionLockOnTimeout(firstOffset, lastOffset, task);
  };

  constructor(private readonly options: SharePartitionOptions, persisted: PersistedShareState, offsetForReset: () => number) {
    this.acquisition = {
      records: this.records,
      maxDeliveryCount: () => options.config.deliveryCountLimit(),
      maxInFlightRecords: () => options.config.partitionMaxRecordLocks(),
      dlqEnabled: () => this.dlqEnabled(),
      recordLockDurationMs: () => options.config.recordLockDurationMs(),
      newBatch: (memberId, first, last, lock) => new InFlightBatch(options.clock, this.onLockTimeout, memberId, first, last, 'ACQUIRED', 1, lock),
      scheduleLock: (memberId, first, last) => this.scheduleLock(memberId, first, last),
    };
    this.initialize(persisted, offsetForReset);
  }

  get startOffset(): number {
    return this.records.startOffset;
  }

  get endOffset(): number {
    return this.records.endOffset;
  }

  get deliveryCompleteCount(): number {
    return this.records.deliveryCompleteCount;
  }

  get isFenced(): boolean {
    return this.fenced;
  }

  /** A reset or delete of the group's offsets made this state stale: the next fetch starts a new share partition. */
  markFenced(): void {
    this.fenced = true;
  }

  nextFetchOffset(): number {
    return this.records.nextFetchOffset();
  }

  /** SharePartition.canAcquireRecords: something AVAILABLE before the end, or room under the record-lock limit. */
  canAcquireRecords(): boolean {
    return this.records.nextFetchOffset() !== this.records.endOffset + 1
      || this.records.numInFlightRecords() < this.options.config.partitionMaxRecordLocks();
  }

  /** The delivery view: the in-flight records from the start offset on, in runs. */
  inFlightRanges(): InFlightRange[] {
    return this.records.inFlightRanges();
  }

  /**
   * SharePartition.acquire: what `memberId` acquires of the batches read from `fetchOffset`; a read_committed
   * group archives the records of aborted transactions instead of delivering them.
   */
  acquire(memberId: string, mode: ShareAcquireMode, batchSize: number, maxFetchRecords: number, fetchOffset: number, batches: readonly FetchedBatch[], abortedTransactions: readonly AbortedTransaction[] | null): ShareAcquiredRecords {
    if (this.fenced) {
      return EMPTY_ACQUIRED;
    }
    const acquired = acquireRecords(this.acquisition, memberId, mode, batchSize, maxFetchRecords, fetchOffset, batches);
    if (abortedTransactions === null || abortedTransactions.length === 0 || acquired.count === 0) {
      return acquired;
    }
    const aborted = abortedTransactionBatches(batches, abortedTransactions);
    for (const batch of aborted) {
      const floor = this.records.cachedState.floorEntry(batch.baseOffset);
      if (floor !== undefined) {
        this.records.archiveRecords(batch.baseOffset, batch.lastOffset + 1, this.records.cachedState.subMap(floor.firstOffset, batch.lastOffset), 'ACQUIRED', true);
      }
    }
    const kept = withoutBatches(acquired.acquiredRecords, aborted);
    return { acquiredRecords: kept, count: kept.reduce((sum, range) => sum + range.lastOffset - range.firstOffset + 1, 0) };
  }

  /**
   * SharePartition.acknowledge: ACCEPT, RELEASE, REJECT or RENEW the member's acquired records. All batches or
   * none: an invalid one rolls back those before it and throws (INVALID_REQUEST, INVALID_RECORD_STATE).
   */
  acknowledge(memberId: string, batches: readonly ShareAcknowledgementBatch[]): void {
    const pending: PendingStateUpdate[] = [];
    const context = this.acknowledgementContext(pending);
    let failure: KafkaApiError | null = null;
    for (const batch of batches) {
      failure = acknowledgeBatch(context, memberId, batch);
      if (failure !== null) {
        break;
      }
    }
    this.rollbackOrProcessStateUpdates(failure, pending);
  }

  /** SharePartition.releaseAcquiredRecords: a member left or its share session closed; its records go back. */
  releaseAcquiredRecords(memberId: string): void {
    const pending: PendingStateUpdate[] = [];
    const records = this.records;
    /** One acquired state of the member (or of nobody) back to AVAILABLE, or archived below the start offset. */
    const release = (state: InFlightState, first: number, last: number, what: 'batch' | 'offset'): boolean => {
      if ((state.memberId !== memberId && state.memberId !== EMPTY_MEMBER_ID) || state.state !== 'ACQUIRED') {
        return true;
      }
      const updated = state.startStateTransition(last < records.startOffset ? 'ARCHIVED' : 'AVAILABLE', 'NO_OP', this.options.config.deliveryCountLimit(), EMPTY_MEMBER_ID, this.dlqEnabled());
      if (updated === null) {
        this.rollbackOrProcessStateUpdates(new KafkaApiError('INVALID_RECORD_STATE', `Unable to release acquired records for the ${what}`), pending);
        return false;
      }
      this.addPending(pending, updated, first, last, 'DELIVERY_COUNT_EXCEEDED');
      return true;
    };
    for (const batch of records.cachedState.values()) {
      if (batch.offsetState === null && batch.batchState === 'ACQUIRED' && batch.batchMemberId === memberId && records.startOffsetWithinBatch(batch.firstOffset, batch.lastOffset)) {
        batch.maybeInitializeOffsetStateUpdate();
      }
      const offsets = batch.offsetState;
      if (offsets === null) {
        if (!release(batch.inFlightState(), batch.firstOffset, batch.lastOffset, 'batch')) {
          return;
        }
        continue;
      }
      for (const [offset, state] of offsets) {
        if (!release(state, offset, offset, 'offset')) {
          return;
        }
      }
    }
    this.rollbackOrProcessStateUpdates(null, pending);
  }

  /** SharePartition.updateCacheAndOffsets: the log start offset moved past the start offset. */
  updateCacheAndOffsets(logStartOffset: number): void {
    this.records.updateCacheAndOffsets(logStartOffset);
  }

  private acknowledgementContext(pending: PendingStateUpdate[]): AcknowledgementContext {
    return {
      records: this.records,
      maxDeliveryCount: this.options.config.deliveryCountLimit(),
      dlqEnabled: this.dlqEnabled(),
      renewEnabled: this.options.config.renewAcknowledgeEnabled(),
      scheduleLock: (memberId, first, last) => this.scheduleLock(memberId, first, last),
      addPending: (updated, first, last, dlqCause) => this.addPending(pending, updated, first, last, dlqCause),
    };
  }

  private dlqEnabled(): boolean {
    return this.options.config.deadLetterTopic() !== null;
  }

  /** A state change to persist; terminal records count as delivery-complete at once (as Kafka counts them). */
  private addPending(pending: PendingStateUpdate[], updated: InFlightState, first: number, last: number, dlqCause: DeadLetterCause | null): void {
    pending.push({ updated, firstOffset: first, lastOffset: last, dlqCause: updated.state === 'ARCHIVING' ? dlqCause : null });
    if (isStateTerminal(updated.state)) {
      this.records.deliveryCompleteCount += this.records.numInFlightRecordsInBatch(first, last);
    }
  }

  /**
   * SharePartition.rollbackOrProcessStateUpdates: on an error the transitions roll back; else they are persisted,
   * then committed, the start offset moves, and the records that wait for the dead-letter write get it.
   */
  private rollbackOrProcessStateUpdates(failure: KafkaApiError | null, pending: readonly PendingStateUpdate[]): void {
    if (failure === null && pending.length > 0) {
      try {
        this.writeState(pending.map((batch) => ({ firstOffset: batch.firstOffset, lastOffset: batch.lastOffset, deliveryState: RECORD_STATE_ID[batch.updated.state], deliveryCount: batch.updated.deliveryCount })));
      } catch (error) {
        failure = error instanceof KafkaApiError ? error : new KafkaApiError('UNKNOWN_SERVER_ERROR', 'Failed to write the share group state');
      }
    }
    if (failure !== null) {
      for (const batch of pending) {
        const stateBefore = batch.updated.state;
        batch.updated.completeStateTransition(false);
        if (batch.updated.state === 'AVAILABLE') {
          this.records.findNextFetchOffset = true;
        }
        if (isStateTerminal(stateBefore) && !isStateTerminal(batch.updated.state)) {
          this.records.deliveryCompleteCount -= this.records.numInFlightRecordsInBatch(batch.firstOffset, batch.lastOffset);
        }
      }
      throw failure;
    }
    const deadLetters: PendingStateUpdate[] = [];
    for (const batch of pending) {
      batch.updated.completeStateTransition(true);
      if (batch.updated.state === 'AVAILABLE') {
        this.records.findNextFetchOffset = true;
      }
      if (batch.updated.state === 'ARCHIVING') {
        deadLetters.push(batch);
      }
    }
    const moved = this.records.maybeUpdateCachedStateAndOffsets();
    if (moved || pending.some((batch) => batch.updated.state === 'AVAILABLE')) {
      this.options.onStateChanged?.();
    }
    for (const batch of deadLetters) {
      this.deadLetterAndArchive(batch.updated, batch.firstOffset, batch.lastOffset, batch.updated.deliveryCount, batch.dlqCause ?? 'DELIVERY_COUNT_EXCEEDED');
    }
  }

  /** SharePartition.initiateDLQAndArchive: the copy goes to the dead-letter topic, then the records are archived. */
  private deadLetterAndArchive(state: InFlightState, first: number, last: number, deliveryCount: number, cause: DeadLetterCause): void {
    const topic = this.options.config.deadLetterTopic();
    if (topic !== null) {
      this.options.writeDeadLetters({ topic, firstOffset: first, lastOffset: last, deliveryCount, cause });
    }
    state.archive();
    this.records.deliveryCompleteCount += this.records.numInFlightRecordsInBatch(first, last);
    this.tryWriteState([{ firstOffset: first, lastOffset: last, deliveryState: RECORD_STATE_ID.ARCHIVED, deliveryCount }]);
    if (this.records.maybeUpdateCachedStateAndOffsets()) {
      this.options.onStateChanged?.();
    }
  }

  /** SharePartition.releaseAcquisitionLockOnTimeout: the holder kept the records too long; they are available again. */
  private releaseAcquisitionLockOnTimeout(firstOffset: number, lastOffset: number, task: AcquisitionLockTimerTask): void {
    if (task.isCancelled) {
      return;
    }
    const records = this.records;
    const floor = records.cachedState.floorEntry(firstOffset);
    if (floor === undefined) {
      return;
    }
    const stateBatches: PersisterStateBatch[] = [];
    const deadLetters: { state: InFlightState; first: number; last: number }[] = [];
    const expire = (state: InFlightState, first: number, last: number): void => {
      const updated = state.tryUpdateState(last < records.startOffset ? 'ARCHIVED' : 'AVAILABLE', 'NO_OP', this.options.config.deliveryCountLimit(), EMPTY_MEMBER_ID, this.dlqEnabled());
      if (updated === null) {
        return;
      }
      stateBatches.push({ firstOffset: first, lastOffset: last, deliveryState: RECORD_STATE_ID[updated.state], deliveryCount: updated.deliveryCount });
      updated.cancelAndClearAcquisitionLockTimeoutTask();
      if (updated.state === 'ARCHIVING') {
        deadLetters.push({ state: updated, first, last });
        return;
      }
      if (updated.state !== 'ARCHIVED') {
        records.findNextFetchOffset = true;
      }
      if (isStateTerminal(updated.state)) {
        records.deliveryCompleteCount += records.numInFlightRecordsInBatch(first, last);
      }
    };
    for (const batch of records.cachedState.subMap(floor.firstOffset, lastOffset)) {
      if (batch.offsetState === null && batch.batchState === 'ACQUIRED' && records.startOffsetWithinBatch(batch.firstOffset, batch.lastOffset)) {
        batch.maybeInitializeOffsetStateUpdate();
      }
      const offsets = batch.offsetState;
      if (offsets === null) {
        if (batch.batchState === 'ACQUIRED') {
          expire(batch.inFlightState(), batch.firstOffset, batch.lastOffset);
        }
        continue;
      }
      for (const [offset, state] of offsets) {
        if (offset >= firstOffset && offset <= lastOffset && state.state === 'ACQUIRED') {
          expire(state, offset, offset);
        }
      }
    }
    if (stateBatches.length === 0) {
      return;
    }
    this.tryWriteState(stateBatches);
    records.maybeUpdateCachedStateAndOffsets();
    for (const { state, first, last } of deadLetters) {
      this.deadLetterAndArchive(state, first, last, state.deliveryCount, 'DELIVERY_COUNT_EXCEEDED');
    }
    this.options.onStateChanged?.();
  }

  private scheduleLock(memberId: string, firstOffset: number, lastOffset: number): AcquisitionLockTimerTask {
    return new AcquisitionLockTimerTask(this.options.clock, this.options.config.recordLockDurationMs(), memberId, firstOffset, lastOffset, this.onLockTimeout);
  }

  private writeState(stateBatches: PersisterStateBatch[]): void {
    this.options.persister.writeState({
      stateEpoch: this.stateEpoch,
      leaderEpoch: this.options.leaderEpoch,
      startOffset: this.records.startOffset,
      deliveryCompleteCount: this.records.deliveryCompleteCount,
      stateBatches,
    });
  }

  /** A write whose failure changes nothing here (lock expiry, the archive after a dead-letter write): Kafka logs it. */
  private tryWriteState(stateBatches: PersisterStateBatch[]): void {
    try {
      this.writeState(stateBatches);
    } catch {
      // The in-memory state stays authoritative, as on a broker; the next write carries the start offset again.
    }
  }

  /**
   * SharePartition.maybeInitialize: the persisted start offset (or share.auto.offset.reset's) and batches. A
   * record persisted ACQUIRED had no holder left, so it is AVAILABLE; offsets between persisted batches were
   * never acquired and are tracked as AVAILABLE with no delivery (Kafka's persister gap window).
   */
  private initialize(persisted: PersistedShareState, offsetForReset: () => number): void {
    this.stateEpoch = persisted.stateEpoch;
    const records = this.records;
    records.startOffset = persisted.startOffset !== -1 ? persisted.startOffset : offsetForReset();
    let next = records.startOffset;
    const batches = [...persisted.stateBatches].filter((batch) => batch.lastOffset >= records.startOffset).sort((a, b) => a.firstOffset - b.firstOffset);
    for (const batch of batches) {
      const first = Math.max(batch.firstOffset, next);
      if (first > batch.lastOffset) {
        continue;
      }
      if (first > next) {
        records.cachedState.put(new InFlightBatch(this.options.clock, this.onLockTimeout, EMPTY_MEMBER_ID, next, first - 1, 'AVAILABLE', 0, null));
      }
      const stored = recordStateForId(batch.deliveryState);
      const state: RecordState = stored === 'ACQUIRED' ? 'AVAILABLE' : stored;
      records.cachedState.put(new InFlightBatch(this.options.clock, this.onLockTimeout, EMPTY_MEMBER_ID, first, batch.lastOffset, state, batch.deliveryCount, null));
      if (isStateTerminal(state)) {
        records.deliveryCompleteCount += batch.lastOffset - first + 1;
      }
      next = batch.lastOffset + 1;
    }
    const last = records.cachedState.last();
    records.endOffset = last === undefined ? records.startOffset : last.lastOffset;
    records.findNextFetchOffset = last !== undefined;
    records.maybeUpdateCachedStateAndOffsets();
    for (const batch of [...records.cachedState.values()]) {
      if (batch.offsetState === null && batch.batchState === 'ARCHIVING') {
        this.deadLetterAndArchive(batch.inFlightState(), batch.firstOffset, batch.lastOffset, batch.batchDeliveryCount,
          batch.batchDeliveryCount >= this.options.config.deliveryCountLimit() ? 'DELIVERY_COUNT_EXCEEDED' : 'CLIENT_REJECT');
      }
    }
  }
}
