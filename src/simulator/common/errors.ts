import { errorCodeOf } from '../../protocol/errorCodes';

/** Kafka error names the simulated coordinator answers with (org.apache.kafka.common.protocol.Errors). */
export type KafkaErrorCode =
  | 'NONE'
  | 'COORDINATOR_NOT_AVAILABLE'
  | 'NOT_COORDINATOR'
  | 'INVALID_GROUP_ID'
  | 'INVALID_SESSION_TIMEOUT'
  | 'INCONSISTENT_GROUP_PROTOCOL'
  | 'GROUP_MAX_SIZE_REACHED'
  | 'MEMBER_ID_REQUIRED'
  | 'UNKNOWN_MEMBER_ID'
  | 'FENCED_INSTANCE_ID'
  | 'ILLEGAL_GENERATION'
  | 'REBALANCE_IN_PROGRESS'
  | 'OFFSET_METADATA_TOO_LARGE'
  | 'OFFSET_OUT_OF_RANGE'
  | 'UNSTABLE_OFFSET_COMMIT'
  | 'NON_EMPTY_GROUP'
  | 'GROUP_ID_NOT_FOUND'
  | 'GROUP_SUBSCRIBED_TO_TOPIC'
  | 'UNKNOWN_TOPIC_OR_PARTITION'
  | 'GROUP_AUTHORIZATION_FAILED'
  | 'STALE_MEMBER_EPOCH'
  | 'UNRELEASED_INSTANCE_ID'
  | 'INVALID_PRODUCER_EPOCH'
  | 'TRANSACTION_COORDINATOR_FENCED'
  | 'UNKNOWN_SERVER_ERROR';

/** JoinGroup errors after which the Java client gives up (AbstractCoordinator). */
export const FATAL_JOIN_ERRORS: ReadonlySet<KafkaErrorCode> = new Set<KafkaErrorCode>([
  'INCONSISTENT_GROUP_PROTOCOL',
  'INVALID_SESSION_TIMEOUT',
  'INVALID_GROUP_ID',
  'GROUP_AUTHORIZATION_FAILED',
  'GROUP_MAX_SIZE_REACHED',
  'FENCED_INSTANCE_ID',
]);

/**
 * A Kafka ApiException: the error the request fails with (its Errors name and code) and Kafka's
 * message. The handler throws it before changing anything, so a failed request loses nothing.
 */
export class KafkaApiError extends Error {
  readonly errorCode: number;

  constructor(readonly errorName: string, message: string) {
    super(message);
    this.name = 'KafkaApiError';
    this.errorCode = errorCodeOf(errorName);
  }
}
