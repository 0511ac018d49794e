/**
 * The vocabulary of an in-flight record (org.apache.kafka.server.share.fetch.RecordState, DeliveryCountOps and the
 * client's AcknowledgeType), with the transitions RecordState.validateTransition allows.
 */
import { KafkaApiError } from '../common/errors';

/** RecordState with its persisted ids. ARCHIVING (4.4, KIP-1191) is the wait for the dead-letter write. */
export type RecordState = 'AVAILABLE' | 'ACQUIRED' | 'ACKNOWLEDGED' | 'ARCHIVING' | 'ARCHIVED';

export const RECORD_STATE_ID: Readonly<Record<RecordState, number>> = Object.freeze({
  AVAILABLE: 0,
  ACQUIRED: 1,
  ACKNOWLEDGED: 2,
  ARCHIVING: 3,
  ARCHIVED: 4,
});

const RECORD_STATE_BY_ID: readonly RecordState[] = ['AVAILABLE', 'ACQUIRED', 'ACKNOWLEDGED', 'ARCHIVING', 'ARCHIVED'];

/** RecordState.forId: the state a persisted batch carries. */
export function recordStateForId(id: number): RecordState {
  const state = RECORD_STATE_BY_ID[id];
  if (state === undefined) {
    throw new Error(`Unknown record state id: ${id}`);
  }
  return state;
}

/** RecordState.validateTransition: the new state, or an error for a transition Kafka refuses. */
export function validateTransition(current: RecordState, next: RecordState): RecordState {
  if (current === next) {
    throw new Error('The state transition is invalid as the new state is the same as the current state');
  }
  if (current === 'ACKNOWLEDGED' || current === 'ARCHIVED') {
    throw new Error(`The state transition is invalid from the current state: ${current}`);
  }
  if (current === 'AVAILABLE' && next !== 'ACQUIRED') {
    throw new Error('The state can only be transitioned to ACQUIRED from AVAILABLE');
  }
  return next;
}

/** SharePartition.isStateTerminal: what counts as delivery-complete (KIP-1226) and lets the start offset pass. */
export function isStateTerminal(state: RecordState): boolean {
  return state === 'ACKNOWLEDGED' || state === 'ARCHIVED';
}

export type DeliveryCountOps = 'INCREASE' | 'DECREASE' | 'NO_OP';

/** The client's AcknowledgeType ids; 0 is the gap a client sends for offsets it never saw (control records). */
export const AcknowledgeType = Object.freeze({ GAP: 0, ACCEPT: 1, RELEASE: 2, REJECT: 3, RENEW: 4 });
export type AcknowledgeTypeId = (typeof AcknowledgeType)[keyof typeof AcknowledgeType];

/** SharePartition.ACK_TYPE_TO_RECORD_STATE (RENEW keeps the state, so it has none). */
export function ackTypeToRecordState(ackType: number): RecordState | undefined {
  switch (ackType) {
    case AcknowledgeType.GAP:
    case AcknowledgeType.REJECT:
      return 'ARCHIVED';
    case AcknowledgeType.ACCEPT:
      return 'ACKNOWLEDGED';
    case AcknowledgeType.RELEASE:
      return 'AVAILABLE';
    default:
      return undefined;
  }
}

/**
 * SharePartition.fetchAckTypeMapForBatch: offset → ack type for one acknowledgement batch. An id outside
 * AcknowledgeType fails as Kafka's forId does, which acknowledge() answers with INVALID_REQUEST.
 */
export function ackTypeMapForBatch(batch: { firstOffset: number; acknowledgeTypes: readonly number[] }): Map<number, number> {
  const map = new Map<number, number>();
  batch.acknowledgeTypes.forEach((ackType, index) => {
    if (!Number.isInteger(ackType) || ackType < AcknowledgeType.GAP || ackType > AcknowledgeType.RENEW) {
      throw new KafkaApiError('INVALID_REQUEST', `Invalid acknowledge type: [${batch.acknowledgeTypes.join(', ')}]`);
    }
    map.set(batch.firstOffset + index, ackType);
  });
  return map;
}

/** ShareGroupDLQManager's causes: why a record waits in ARCHIVING for its dead-letter copy. */
export type DeadLetterCause = 'DELIVERY_COUNT_EXCEEDED' | 'CLIENT_REJECT';
