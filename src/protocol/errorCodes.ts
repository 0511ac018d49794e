// The one table of Kafka's error codes: every entry of Kafka 4.4.0's Errors enum (messages/errorTable.ts, taken
// from the kafka-clients jar by the generator), with the lookups the client and the simulator need.
import { errorTable, type KafkaErrorInfo } from './messages/errorTable';

export type { KafkaErrorInfo } from './messages/errorTable';

const byCode = new Map(errorTable.map((error) => [error.code, error]));
const byName = new Map(errorTable.map((error) => [error.name, error]));

/** The error with this code; undefined for a code Kafka 4.4 does not define (a newer broker's). */
export function kafkaError(code: number): KafkaErrorInfo | undefined {
  return byCode.get(code);
}

/** The code of an error name; throws for a name Kafka does not define, so a typo cannot become a wrong code. */
export function errorCodeOf(name: string): number {
  const error = byName.get(name);
  if (error === undefined) {
    throw new Error(`Kafka has no error named ${name}`);
  }
  return error.code;
}

export function errorName(code: number): string {
  return byCode.get(code)?.name ?? `UNKNOWN_ERROR_CODE_${code}`;
}

/** "NOT_COORDINATOR: This is not the correct coordinator." for a code; "Kafka error code 999" for an unknown one. */
export function describeError(code: number): string {
  const error = byCode.get(code);
  if (error === undefined) {
    return `Kafka error code ${code}`;
  }
  return error.message === '' ? error.name : `${error.name}: ${error.message}`;
}
