/**
 * Checks for what the simulator commands ask the user. Each returns an error message, or undefined when
 * the text is acceptable, which is the contract of an input box's validateInput.
 */

export const MAX_GROUP_ID_LENGTH = 255;
/** Kafka's limit for topic names and group.instance.id (Topic.validate, JoinGroupRequest.validateGroupInstanceId). */
export const MAX_TOPIC_NAME_LENGTH = 249;

export type Validator = (text: string) => string | undefined;

export function validateGroupId(text: string, existingGroupIds: ReadonlySet<string> = new Set()): string | undefined {
  if (text.trim() === '') {
    return 'Group id must not be empty';
  }
  if (text.length > MAX_GROUP_ID_LENGTH) {
    return `Group id must be at most ${MAX_GROUP_ID_LENGTH} characters (it has ${text.length})`;
  }
  if (existingGroupIds.has(text)) {
    return `Group "${text}" already exists; use "Add Consumer…" on it instead`;
  }
  return undefined;
}

/** Kafka's Topic.validate rules, which also apply to group.instance.id. */
export function validateKafkaName(what: string, text: string): string | undefined {
  if (text === '') {
    return `${what} must not be empty`;
  }
  if (text === '.' || text === '..') {
    return `${what} cannot be "." or ".."`;
  }
  if (text.length > MAX_TOPIC_NAME_LENGTH) {
    return `${what} must be at most ${MAX_TOPIC_NAME_LENGTH} characters (it has ${text.length})`;
  }
  if (!/^[a-zA-Z0-9._-]+$/.test(text)) {
    return `${what} may contain only ASCII letters, digits, ".", "_" and "-"`;
  }
  return undefined;
}

/** A number typed into an input box: its check for validateInput and its parse for afterwards. */
export interface NumberRule {
  validate: Validator;
  /** Parses text that passed `validate`; throws with the same message otherwise. */
  parse(text: string): number;
}

interface RangeOptions {
  name: string;
  min: number;
  max: number;
  integer: boolean;
  /** Unit shown in messages, e.g. "ms". */
  unit?: string;
}

export function numberRule({ name, min, max, integer, unit }: RangeOptions): NumberRule {
  const suffix = unit ? ` ${unit}` : '';
  const validate: Validator = (text) => {
    const trimmed = text.trim();
    // Number('') is 0 and Number('0x10') is 16: accept plain decimal notation only.
    if (!/^[+-]?\d+(\.\d+)?$/.test(trimmed)) {
      return `${name} must be ${integer ? 'a whole number' : 'a number'}, e.g. ${min}`;
    }
    const value = Number(trimmed);
    if (integer && !Number.isInteger(value)) {
      return `${name} must be a whole number`;
    }
    if (value < min || value > max) {
      return `${name} must be between ${min} and ${max}${suffix}`;
    }
    return undefined;
  };
  return {
    validate,
    parse: (text) => {
      const message = validate(text);
      if (message) {
        throw new Error(message);
      }
      return Number(text.trim());
    },
  };
}

// Session timeout bounds are the broker defaults group.min/max.session.timeout.ms: outside them a real
// broker rejects the JoinGroup with INVALID_SESSION_TIMEOUT. The others are the client's int limits.
export const sessionTimeoutRule = numberRule({ name: 'session.timeout.ms', min: 6000, max: 1_800_000, integer: true, unit: 'ms' });
export const maxPollIntervalRule = numberRule({ name: 'max.poll.interval.ms', min: 1, max: 2_147_483_647, integer: true, unit: 'ms' });
export const processingTimeRule = numberRule({ name: 'Processing time per poll', min: 0, max: 3_600_000, integer: true, unit: 'ms' });
export const pauseSecondsRule = numberRule({ name: 'Pause', min: 0.001, max: 86_400, integer: false, unit: 's' });
export const recordsPerSecondRule = numberRule({ name: 'Rate', min: 0.001, max: 100_000, integer: false, unit: 'records/s' });
export const producerDurationRule = numberRule({ name: 'Duration', min: 0, max: 86_400, integer: false, unit: 's (0 = until stopped)' });
export const consumerCountRule = numberRule({ name: 'Number of consumers', min: 1, max: 100, integer: true });
export const partitionCountRule = numberRule({ name: 'Partitions', min: 1, max: 1000, integer: true });
