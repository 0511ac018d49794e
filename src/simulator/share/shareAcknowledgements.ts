/**
 * SharePartition.acknowledge for one acknowledgement batch: which in-flight records it names, whether the member
 * holds them, and the transition each ack type asks for (ACCEPT → ACKNOWLEDGED, RELEASE → AVAILABLE or archived
 * at the delivery limit, REJECT and GAP → ARCHIVED or ARCHIVING for the dead-letter topic, RENEW → a new lock).
 */
import { KafkaApiError } from '../common/errors';
import type { InFlightBatch } from './inFlightBatch';
import type { InFlightRecords } from './inFlightRecords';
import type { AcquisitionLockTimerTask, InFlightState } from './inFlightState';
import { AcknowledgeType, ackTypeMapForBatch, ackTypeToRecordState, type DeadLetterCause, type RecordState } from './recordState';

/** ShareAcknowledgementBatch: one ack type for the whole range, or one per offset. */
export interface ShareAcknowledgementBatch {
  firstOffset: number;
  lastOffset: number;
  acknowledgeTypes: readonly number[];
}

/** A transition started here, to persist and then commit (or roll back). */
export interface PendingStateUpdate {
  updated: InFlightState;
  firstOffset: number;
  lastOffset: number;
  /** Why a record waits in ARCHIVING for the dead-letter write, else null. */
  dlqCause: DeadLetterCause | null;
}

export interface AcknowledgementContext {
  records: InFlightRecords;
  maxDeliveryCount: number;
  dlqEnabled: boolean;
  renewEnabled: boolean;
  scheduleLock(memberId: string, firstOffset: number, lastOffset: number): AcquisitionLockTimerTask;
  /** Records the transition (and counts terminal records as delivery-complete). */
  addPending(updated: InFlightState, firstOffset: number, lastOffset: number, dlqCause: DeadLetterCause | null): void;
}

const INVALID_STATE = 'The record state is invalid. The acknowledgement of delivery could not be completed.';

/** Acknowledges one batch; the error that stops the request, or null. */
export function acknowledgeBatch(ctx: AcknowledgementContext, memberId: string, batch: ShareAcknowledgementBatch): KafkaApiError | null {
  let ackTypes: Map<number, number>;
  try {
    ackTypes = ackTypeMapForBatch(batch);
  } catch (error) {
    return error instanceof KafkaApiError ? error : new KafkaApiError('INVALID_REQUEST', String(error));
  }
  const records = ctx.records;
  if (batch.lastOffset < records.startOffset) {
    return null; // already archived
  }
  let inFlight: InFlightBatch[];
  try {
    inFlight = subMapForAcknowledgement(records, batch);
  } catch (error) {
    return error as KafkaApiError;
  }
  for (const candidate of inFlight) {
    if (candidate.lastOffset < records.startOffset) {
      continue;
    }
    if (candidate.offsetState === null) {
      if (candidate.batchMemberId === '') {
        return new KafkaApiError('INVALID_RECORD_STATE', 'The batch cannot be acknowledged. The batch is not in the acquired state.');
      }
      if (candidate.batchMemberId !== memberId) {
        return new KafkaApiError('INVALID_RECORD_STATE', 'Member is not the owner of batch record');
      }
      if (candidate.batchHasOngoingStateTransition()) {
        return new KafkaApiError('INVALID_RECORD_STATE', INVALID_STATE);
      }
    }
    const fullMatch = candidate.firstOffset >= batch.firstOffset && candidate.lastOffset <= batch.lastOffset;
    const perOffset = batch.acknowledgeTypes.length > 1;
    const startMoved = records.startOffsetWithinBatch(candidate.firstOffset, candidate.lastOffset);
    const failure = !fullMatch || candidate.offsetState !== null || perOffset || startMoved
      ? acknowledgePerOffset(ctx, memberId, batch, candidate, ackTypes)
      : acknowledgeCompleteBatch(ctx, memberId, candidate, batch.acknowledgeTypes[0]);
    if (failure !== null) {
      return failure;
    }
  }
  return null;
}

/** acknowledgePerOffsetBatchRecords: the request's offsets of a batch tracked per offset (split here if need be). */
function acknowledgePerOffset(context: AcknowledgementContext, member: string, request: ShareAcknowledgementBatch, candidate: InFlightBatch, types: Map<number, number>): KafkaApiError | null {
  if (candidate.offsetState === null) {
    if (candidate.batchState !== 'ACQUIRED') {
      return new KafkaApiError('INVALID_RECORD_STATE', 'The batch cannot be acknowledged. The subset batch is not in the acquired state.');
    }
    candidate.maybeInitializeOffsetStateUpdate();
  }
  for (const [offset, state] of candidate.offsetState ?? []) {
    if (offset < request.firstOffset || offset < context.records.startOffset) {
      continue;
    }
    if (offset > request.lastOffset) {
      break;
    }
    if (state.state !== 'ACQUIRED') {
      return new KafkaApiError('INVALID_RECORD_STATE', 'The offset cannot be acknowledged. The offset is not acquired.');
    }
    if (state.hasOngoingStateTransition()) {
      return new KafkaApiError('INVALID_RECORD_STATE', INVALID_STATE);
    }
    if (state.memberId !== member) {
      return new KafkaApiError('INVALID_RECORD_STATE', 'Member is not the owner of offset');
    }
    const ackType = types.size > 1 ? (types.get(offset) ?? AcknowledgeType.GAP) : request.acknowledgeTypes[0];
    const failure = transition(context, member, state, offset, offset, ackType);
    if (failure !== null) {
      return failure;
    }
  }
  return null;
}

/** acknowledgeCompleteBatch: one transition for a whole batch the request covers exactly. */
function acknowledgeCompleteBatch(context: AcknowledgementContext, member: string, candidate: InFlightBatch, ackType: number): KafkaApiError | null {
  if (candidate.batchState !== 'ACQUIRED') {
    return new KafkaApiError('INVALID_RECORD_STATE', 'The batch cannot be acknowledged. The batch is not in the acquired state.');
  }
  return transition(context, member, candidate.inFlightState(), candidate.firstOffset, candidate.lastOffset, ackType);
}

/** One record's (or whole batch's) transition for an ack type. */
function transition(ctx: AcknowledgementContext, memberId: string, state: InFlightState, first: number, last: number, ackType: number): KafkaApiError | null {
  if (ackType === AcknowledgeType.RENEW) {
    if (!ctx.renewEnabled) {
      return new KafkaApiError('INVALID_RECORD_STATE', 'Renewing acquisition locks is not enabled for the group.');
    }
    state.cancelAndClearAcquisitionLockTimeoutTask();
    state.updateAcquisitionLockTimeoutTask(ctx.scheduleLock(memberId, first, last));
    return null;
  }
  const target = recordStateWithDlq(ackType, ctx.dlqEnabled);
  if (target === undefined) {
    return new KafkaApiError('INVALID_REQUEST', `Unknown acknowledge type id: ${ackType}`);
  }
  const updated = state.startStateTransition(target, 'NO_OP', ctx.maxDeliveryCount, '', ctx.dlqEnabled);
  if (updated === null) {
    return new KafkaApiError('INVALID_RECORD_STATE', 'Unable to acknowledge records for the batch');
  }
  const dlqCause: DeadLetterCause | null = updated.state !== 'ARCHIVING' ? null : target === 'ARCHIVING' ? 'CLIENT_REJECT' : 'DELIVERY_COUNT_EXCEEDED';
  ctx.addPending(updated, first, last, dlqCause);
  return null;
}

/** SharePartition.recordStateWithDlq: a rejected record waits for its dead-letter copy where the group has a topic. */
function recordStateWithDlq(ackType: number, dlqEnabled: boolean): RecordState | undefined {
  return dlqEnabled && ackType === AcknowledgeType.REJECT ? 'ARCHIVING' : ackTypeToRecordState(ackType);
}

/** SharePartition.fetchSubMapForAcknowledgementBatch: the in-flight batches the request covers, or why none. */
function subMapForAcknowledgement(records: InFlightRecords, batch: ShareAcknowledgementBatch): InFlightBatch[] {
  let floor = records.cachedState.floorEntry(batch.firstOffset);
  if (floor === undefined) {
    if (!records.startOffsetWithinBatch(batch.firstOffset, batch.lastOffset)) {
      throw new KafkaApiError('INVALID_RECORD_STATE', 'Batch record not found. The request batch offsets are not found in the cache.');
    }
    floor = records.cachedState.floorEntry(records.startOffset);
  }
  const covered = floor === undefined ? [] : records.cachedState.subMap(floor.firstOffset, batch.lastOffset);
  const last = covered[covered.length - 1];
  if (last === undefined || last.lastOffset < batch.firstOffset) {
    throw new KafkaApiError('INVALID_REQUEST', 'Batch record not found. The first offset in request is past acquired records.');
  }
  if (batch.lastOffset > last.lastOffset) {
    throw new KafkaApiError('INVALID_REQUEST', 'Batch record not found. The last offset in request is past acquired records.');
  }
  return covered;
}
