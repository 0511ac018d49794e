/** Kafka error codes the client decides on, named from the one table (src/protocol/errorCodes.ts), and the error that carries one. */
import { describeError, errorCodeOf } from '../protocol/errorCodes';

export const NONE = 0;
export const OFFSET_OUT_OF_RANGE = errorCodeOf('OFFSET_OUT_OF_RANGE');
export const UNKNOWN_TOPIC_OR_PARTITION = errorCodeOf('UNKNOWN_TOPIC_OR_PARTITION');
export const COORDINATOR_LOAD_IN_PROGRESS = errorCodeOf('COORDINATOR_LOAD_IN_PROGRESS');
export const COORDINATOR_NOT_AVAILABLE = errorCodeOf('COORDINATOR_NOT_AVAILABLE');
export const NOT_COORDINATOR = errorCodeOf('NOT_COORDINATOR');
export const TOPIC_AUTHORIZATION_FAILED = errorCodeOf('TOPIC_AUTHORIZATION_FAILED');
export const CLUSTER_AUTHORIZATION_FAILED = errorCodeOf('CLUSTER_AUTHORIZATION_FAILED');
export const GROUP_ID_NOT_FOUND = errorCodeOf('GROUP_ID_NOT_FOUND');
export const UNSUPPORTED_VERSION = errorCodeOf('UNSUPPORTED_VERSION');

/** "GROUP_ID_NOT_FOUND: The group id does not exist." style text for a Kafka error code. */
export function describeErrorCode(code: number): string {
  return describeError(code);
}

/** A request's answer carried a Kafka error code; `code` lets callers (classifyError) decide by it. */
export class KafkaErrorCode extends Error {
  constructor(readonly code: number, context: string) {
    super(`${context}: ${describeError(code)}`);
    this.name = 'KafkaErrorCode';
  }
}
