/**
 * A share group's group configs as Kafka 4.4's GroupConfig defines and validates them (types, ConfigDef minimums,
 * then the broker's group.share.min/max.* bounds), set and deleted with IncrementalAlterConfigs and listed by
 * DescribeConfigs on the GROUP resource. Only the configs the simulator's share partitions read are served;
 * any other group config is refused by name rather than accepted and ignored.
 */
import { KafkaApiError } from '../common/errors';
import type { IsolationLevel } from '../log/transactionIndex';

/** The group configs a share group's partitions follow (GroupConfig's share.* keys). */
export interface ShareGroupSettings {
  /** share.record.lock.duration.ms */
  recordLockDurationMs: number;
  /** share.delivery.count.limit */
  deliveryCountLimit: number;
  /** share.partition.max.record.locks */
  partitionMaxRecordLocks: number;
  /** share.renew.acknowledge.enable */
  renewAcknowledgeEnable: boolean;
  /** share.auto.offset.reset: where a partition without state starts (earliest, latest, by_duration:<ISO-8601>). */
  autoOffsetReset: string;
  /** share.isolation.level */
  isolationLevel: IsolationLevel;
  /** errors.deadletterqueue.topic.name (KIP-1191), null for none. */
  deadLetterTopic: string | null;
}

/** Kafka 4.4's defaults. */
export const DEFAULT_SHARE_GROUP_SETTINGS: Readonly<ShareGroupSettings> = Object.freeze({
  recordLockDurationMs: 30_000,
  deliveryCountLimit: 5,
  partitionMaxRecordLocks: 2_000,
  renewAcknowledgeEnable: true,
  autoOffsetReset: 'latest',
  isolationLevel: 'read_uncommitted',
  deadLetterTopic: null,
});


/** IncrementalAlterConfigs' operations (AlterConfigOp.OpType ids). */
export const CONFIG_OPERATION = Object.freeze({ SET: 0, DELETE: 1, APPEND: 2, SUBTRACT: 3 });

/** DescribeConfigsResponse's ConfigType ids. */
const CONFIG_TYPE = Object.freeze({ BOOLEAN: 1, STRING: 2, INT: 3 });

interface ConfigKey {
  key: keyof ShareGroupSettings;
  type: keyof typeof CONFIG_TYPE;
  /** Parses a value as GroupConfig does, or throws its message. */
  parse(value: string): ShareGroupSettings[keyof ShareGroupSettings];
  render(value: ShareGroupSettings[keyof ShareGroupSettings]): string;
  doc: string;
}

function invalid(message: string): KafkaApiError {
  return new KafkaApiError('INVALID_CONFIG', message);
}

/** An INT config: ConfigDef's type check and Range.atLeast, then GroupConfig.validateIntRange with the broker's bounds. */
function intConfig(name: string, atLeast: number, min: number, max: number): (value: string) => number {
  return (value) => {
    const trimmed = value.trim();
    const parsed = /^[+-]?\d+$/.test(trimmed) ? Number(trimmed) : NaN;
    if (!Number.isSafeInteger(parsed) || parsed < -(2 ** 31) || parsed >= 2 ** 31) {
      throw invalid(`Invalid value ${value} for configuration ${name}: Not a number of type INT`);
    }
    if (parsed < atLeast) {
      throw invalid(`Invalid value ${parsed} for configuration ${name}: Value must be at least ${atLeast}`);
    }
    if (parsed < min || parsed > max) {
      throw invalid(`${name} must be in the range ${min} to ${max} inclusive.`);
    }
    return parsed;
  };
}

/** ShareGroupAutoOffsetResetStrategy.Validator: earliest, latest or by_duration:<ISO-8601 duration, not negative>. */
function parseAutoOffsetReset(value: string): string {
  const lower = value.trim().toLowerCase();
  if (lower === 'earliest' || lower === 'latest') {
    return lower;
  }
  if (lower.startsWith('by_duration:') && durationMs(value.trim().slice('by_duration:'.length)) !== null) {
    return `by_duration:${value.trim().slice('by_duration:'.length)}`;
  }
  throw invalid(`Invalid value ${value} for configuration share.auto.offset.reset: Invalid value \`${value}\` for configuration share.auto.offset.reset. The value must be either 'earliest', 'latest' or of the format 'by_duration:<PnDTnHnMn.nS.>'.`);
}

/** Milliseconds of an ISO-8601 duration as java.time.Duration.parse reads PnDTnHnMn.nS; null when malformed or negative. */
export function durationMs(text: string): number | null {
  const match = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)(?:\.(\d{1,9}))?S)?)?$/i.exec(text);
  if (match === null || text.toUpperCase() === 'P' || /T$/i.test(text)) {
    return null;
  }
  const [, days, hours, minutes, seconds, fraction] = match;
  const ms = (Number(days ?? 0) * 86_400 + Number(hours ?? 0) * 3_600 + Number(minutes ?? 0) * 60 + Number(seconds ?? 0)) * 1000 + Math.floor(Number(`0.${fraction ?? '0'}`) * 1000);
  return Number.isSafeInteger(ms) ? ms : null;
}

const CONFIGS: ReadonlyMap<string, ConfigKey> = new Map<string, ConfigKey>([
  ['share.record.lock.duration.ms', { key: 'recordLockDurationMs', type: 'INT', parse: intConfig('share.record.lock.duration.ms', 1000, 15_000, 60_000), render: String, doc: 'The record acquisition lock duration in milliseconds for share groups.' }],
  ['share.delivery.count.limit', { key: 'deliveryCountLimit', type: 'INT', parse: intConfig('share.delivery.count.limit', 2, 2, 10), render: String, doc: 'The maximum number of delivery attempts for a record delivered to a share group.' }],
  ['share.partition.max.record.locks', { key: 'partitionMaxRecordLocks', type: 'INT', parse: intConfig('share.partition.max.record.locks', 100, 100, 4000), render: String, doc: 'Share-group record lock limit per share-partition.' }],
  ['share.auto.offset.reset', { key: 'autoOffsetReset', type: 'STRING', parse: parseAutoOffsetReset, render: String, doc: 'The strategy to initialize the share-partition start offset.' }],
  ['share.isolation.level', {
    key: 'isolationLevel', type: 'STRING', render: String, doc: 'Controls how to read records written transactionally.',
    parse: (value) => {
      if (value !== 'read_committed' && value !== 'read_uncommitted') {
        throw invalid(`Invalid value ${value} for configuration share.isolation.level: String must be one of: read_committed, read_uncommitted`);
      }
      return value;
    },
  }],
  ['share.renew.acknowledge.enable', {
    key: 'renewAcknowledgeEnable', type: 'BOOLEAN', render: String, doc: 'Whether the renew acknowledge type is enabled for the share group.',
    parse: (value) => {
      const lower = value.trim().toLowerCase();
      if (lower !== 'true' && lower !== 'false') {
        throw invalid(`Invalid value ${value} for configuration share.renew.acknowledge.enable: Expected value to be either true or false`);
      }
      return lower === 'true';
    },
  }],
  ['errors.deadletterqueue.topic.name', {
    key: 'deadLetterTopic', type: 'STRING', render: (value) => (value === null ? '' : String(value)), doc: 'The name of the topic to be used as the dead-letter queue (DLQ) topic for this share group.',
    parse: (value) => {
      if (value.startsWith('__')) {
        throw invalid("errors.deadletterqueue.topic.name: DLQ topic name must not start with '__'");
      }
      return value === '' ? null : value;
    },
  }],
]);

/** The group configs of Kafka 4.4 the simulator does not model: refused by name, so nothing is silently ignored. */
const UNMODELLED = /^(consumer|share|streams)\.|^errors\.deadletterqueue\./;

/** ConfigAdminManager and GroupConfig.validate for one group's operations: the new explicit settings, or the first error. */
export function alterShareGroupConfigs(current: Partial<ShareGroupSettings>, operations: readonly { name: string; configOperation: number; value: string | null }[]): Partial<ShareGroupSettings> {
  const next: Partial<ShareGroupSettings> = { ...current };
  for (const { name, configOperation, value } of operations) {
    const config = CONFIGS.get(name);
    if (config === undefined) {
      throw invalid(UNMODELLED.test(name) ? `The simulator does not model the group config ${name}.` : `Unknown group config name: ${name}`);
    }
    if (configOperation === CONFIG_OPERATION.DELETE) {
      delete next[config.key];
    } else if (configOperation === CONFIG_OPERATION.SET) {
      if (value === null) {
        throw invalid(`Null value not supported for : ${name}`);
      }
      Object.assign(next, { [config.key]: config.parse(value) });
    } else if (configOperation === CONFIG_OPERATION.APPEND || configOperation === CONFIG_OPERATION.SUBTRACT) {
      throw invalid(`Config value append is not allowed for config key: ${name}`);
    } else {
      throw invalid(`Unknown alter configs operation type ${configOperation}`);
    }
  }
  return next;
}

export interface DescribedGroupConfig {
  name: string;
  value: string;
  /** DescribeConfigsResponse's ConfigSource: GROUP_CONFIG (8) when set on the group, DEFAULT_CONFIG (5) otherwise. */
  configSource: number;
  configType: number;
  documentation: string;
}

/** DescribeConfigs of a group: every served config (or those asked for), set ones as GROUP_CONFIG. */
export function describeShareGroupConfigs(explicit: Partial<ShareGroupSettings>, keys: readonly string[] | null): DescribedGroupConfig[] {
  const settings: ShareGroupSettings = { ...DEFAULT_SHARE_GROUP_SETTINGS, ...explicit };
  return [...CONFIGS].filter(([name]) => keys === null || keys.includes(name)).map(([name, config]) => ({
    name,
    value: config.render(settings[config.key]),
    configSource: explicit[config.key] !== undefined ? 8 : 5,
    configType: CONFIG_TYPE[config.type],
    documentation: config.doc,
  }));
}
