/** Numeric Kafka error codes (org.apache.kafka.common.protocol.Errors) for the codes the server sends. */
import type { KafkaErrorCode } from '../errors';

export const NO_ERROR = 0;
export const OFFSET_OUT_OF_RANGE = 1;
export const UNKNOWN_TOPIC_OR_PARTITION = 3;
export const NOT_LEADER_OR_FOLLOWER = 6;
export const COORDINATOR_NOT_AVAILABLE = 15;
export const UNSUPPORTED_VERSION = 35;
export const INVALID_REQUEST = 42;
export const INVALID_PRODUCER_EPOCH = 47;
export const INVALID_TXN_STATE = 48;
export const INVALID_PRODUCER_ID_MAPPING = 49;

/** Every engine error name with its wire code; the Record type makes a new engine name a compile error here. */
const WIRE_CODES: Record<KafkaErrorCode, number> = {
  NONE: NO_ERROR,
  OFFSET_OUT_OF_RANGE,
  UNKNOWN_TOPIC_OR_PARTITION,
  OFFSET_METADATA_TOO_LARGE: 12,
  COORDINATOR_NOT_AVAILABLE,
  NOT_COORDINATOR: 16,
  ILLEGAL_GENERATION: 22,
  INCONSISTENT_GROUP_PROTOCOL: 23,
  INVALID_GROUP_ID: 24,
  UNKNOWN_MEMBER_ID: 25,
  INVALID_SESSION_TIMEOUT: 26,
  REBALANCE_IN_PROGRESS: 27,
  GROUP_AUTHORIZATION_FAILED: 30,
  NON_EMPTY_GROUP: 68,
  GROUP_ID_NOT_FOUND: 69,
  MEMBER_ID_REQUIRED: 79,
  GROUP_MAX_SIZE_REACHED: 81,
  FENCED_INSTANCE_ID: 82,
  GROUP_SUBSCRIBED_TO_TOPIC: 86,
  UNSTABLE_OFFSET_COMMIT: 88,
};

export function wireErrorCode(name: KafkaErrorCode): number {
  return WIRE_CODES[name];
}
