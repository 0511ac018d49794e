import { errorCodes } from 'kafkajs/src/protocol/error';

/** Codes newer than kafkajs 2.2.4's table that group administration meets on Kafka 3.x/4.x. */
const NEWER_CODES: Record<number, { type: string; message: string }> = {
  110: { type: 'FENCED_MEMBER_EPOCH', message: 'The member epoch is fenced by the group coordinator' },
  112: { type: 'UNSUPPORTED_ASSIGNOR', message: 'The assignor or its version range is not supported by the consumer group' },
  113: { type: 'STALE_MEMBER_EPOCH', message: 'The member epoch is stale' },
};

export function errorCodeName(code: number): string {
  return errorCodes.find((e) => e.code === code)?.type ?? NEWER_CODES[code]?.type ?? `ERROR_${code}`;
}

/** "GROUP_ID_NOT_FOUND: The group id does not exist" style text for a Kafka error code. */
export function describeErrorCode(code: number): string {
  const known = errorCodes.find((e) => e.code === code) ?? NEWER_CODES[code];
  return known ? `${known.type}: ${known.message}` : `Kafka error code ${code}`;
}

export class KafkaErrorCode extends Error {
  constructor(readonly code: number, context: string) {
    super(`${context}: ${describeErrorCode(code)}`);
    this.name = 'KafkaErrorCode';
  }
}
