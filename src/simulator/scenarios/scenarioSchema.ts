/**
 * The JSON scenario format (documented in docs/scenarios.md) and its validation. Every problem is
 * reported with the path of the bad field and what was expected; all problems are listed at once.
 */
import { MAX_CLUSTER_PARTITIONS } from '../log/cluster';
import { CONSUMER_DEFAULTS } from '../clients/consumer/consumer';
import { groupProtocolIssues } from '../clients/consumer/consumerConfig';
import type { AssignorName } from '../common/control';
import { DEFAULT_COORDINATOR_CONFIG } from '../coordinator/group/groupCoordinator';
import { CONSUMER_GROUP_MIGRATION_POLICIES } from '../coordinator/group/modern/consumer';
import { Checker, describe, type Json, type ScenarioContext as Context } from './scenarioChecker';
import { scenarioWorkIssues } from './scenarioWork';
import { checkStartStreamsInstance, checkStreamsApps, checkStreamsGroupConfig } from './streamsAppSchema';
import type { Scenario } from './scenarioTypes';

export type { Scenario, ScenarioAction, ScenarioConsumer, ScenarioOffset, ScenarioProducer, ScenarioStreamsApp, ScenarioTopic } from './scenarioTypes';

export class ScenarioValidationError extends Error {
  constructor(readonly issues: string[]) {
    super(`Invalid scenario:\n  ${issues.join('\n  ')}`);
    this.name = 'ScenarioValidationError';
  }
}

const ASSIGNORS: readonly AssignorName[] = ['range', 'roundrobin', 'sticky', 'cooperative-sticky'];
const ACTION_TYPES = [
  'join', 'leave', 'crash', 'pause', 'restart', 'produce', 'commit', 'startProducer', 'stopProducer',
  'beginTransaction', 'produceTransactional', 'sendOffsetsToTransaction', 'commitTransaction', 'abortTransaction', 'startStreamsInstance',
] as const;
const MAX_DURATION_MS = 30 * 24 * 3600 * 1000;

const CONSUMER_KEYS = [
  'id', 'groupId', 'clientId', 'groupInstanceId', 'groupProtocol', 'topics', 'assignors', 'groupRemoteAssignor', 'subscribedTopicRegex',
  'sessionTimeoutMs', 'heartbeatIntervalMs', 'maxPollIntervalMs', 'processingTimeMs', 'maxPollRecords', 'clientHost', 'autoOffsetReset',
  'enableAutoCommit', 'autoCommitIntervalMs', 'isolationLevel',
] as const;

function checkConsumer(c: Checker, value: unknown, path: string, ctx: Context): void {
  const obj = c.object(value, path);
  if (!obj) {
    return;
  }
  c.unknownKeys(obj, path, CONSUMER_KEYS);
  const id = c.string(obj, 'id', path);
  if (id !== undefined) {
    if (ctx.consumerIds.has(id)) {
      c.issues.push(`${path}.id: consumer id "${id}" is used twice`);
    }
    ctx.consumerIds.add(id);
  }
  c.string(obj, 'groupId', path);
  c.string(obj, 'clientId', path, true);
  if (obj.groupInstanceId !== undefined && obj.groupInstanceId !== null) {
    c.string(obj, 'groupInstanceId', path);
  }
  // group.protocol and what goes with it, as the Java consumer checks them (and topics or a regex).
  if (obj.groupProtocol === 'streams') {
    c.issues.push(`${path}.groupProtocol: a Kafka Streams thread is declared with its application in streamsApps`);
    return;
  }
  const protocolIssues = groupProtocolIssues(obj);
  c.issues.push(...protocolIssues.map((issue) => `${path}.${issue.field}: ${issue.message}`));
  const topicsIssue = protocolIssues.some((issue) => issue.field === 'topics');
  const topics = obj.topics === undefined && (obj.subscribedTopicRegex !== undefined || topicsIssue) ? [] : c.array(obj.topics, `${path}.topics`);
  if (topics) {
    if (topics.length === 0 && obj.subscribedTopicRegex === undefined && !topicsIssue) {
      c.issues.push(`${path}.topics: expected at least one topic`);
    }
    topics.forEach((t, i) => {
      if (typeof t !== 'string' || !ctx.topics.has(t)) {
        c.fail(`${path}.topics[${i}]`, `a topic declared in topics (${[...ctx.topics.keys()].join(', ')})`, t);
      }
    });
  }
  if (obj.assignors !== undefined) {
    const assignors = c.array(obj.assignors, `${path}.assignors`);
    assignors?.forEach((a, i) => {
      if (typeof a !== 'string' || !ASSIGNORS.includes(a as AssignorName)) {
        c.fail(`${path}.assignors[${i}]`, `one of ${ASSIGNORS.join(', ')}`, a);
      }
    });
    if (assignors && assignors.length === 0) {
      c.issues.push(`${path}.assignors: expected at least one assignor`);
    }
    assignors?.forEach((a, i) => {
      if (assignors.indexOf(a) < i) {
        // The coordinator refuses a JoinGroup naming a protocol twice (INCONSISTENT_GROUP_PROTOCOL).
        c.issues.push(`${path}.assignors[${i}]: assignor ${describe(a)} is listed twice`);
      }
    });
  }
  for (const key of ['sessionTimeoutMs', 'heartbeatIntervalMs', 'maxPollIntervalMs', 'maxPollRecords', 'autoCommitIntervalMs'] as const) {
    c.number(obj, key, path, { optional: true, min: 1, integer: true });
  }
  const session = typeof obj.sessionTimeoutMs === 'number' ? obj.sessionTimeoutMs : CONSUMER_DEFAULTS.sessionTimeoutMs;
  const heartbeat = typeof obj.heartbeatIntervalMs === 'number' ? obj.heartbeatIntervalMs : CONSUMER_DEFAULTS.heartbeatIntervalMs;
  if (heartbeat >= session) {
    // The Java consumer refuses this configuration ("Heartbeat must be set lower than the session timeout").
    c.issues.push(`${path}.heartbeatIntervalMs: ${heartbeat} must be lower than the session timeout (${session} ms)`);
  }
  c.number(obj, 'processingTimeMs', path, { optional: true, min: 0 });
  c.string(obj, 'clientHost', path, true);
  c.oneOf(obj, 'autoOffsetReset', path, ['earliest', 'latest'] as const, true);
  c.oneOf(obj, 'isolationLevel', path, ['read_uncommitted', 'read_committed'] as const, true);
  if (obj.enableAutoCommit !== undefined && typeof obj.enableAutoCommit !== 'boolean') {
    c.fail(`${path}.enableAutoCommit`, 'true or false', obj.enableAutoCommit);
  }
}

function checkProducer(c: Checker, value: unknown, path: string, ctx: Context): void {
  const obj = c.object(value, path);
  if (!obj) {
    return;
  }
  c.unknownKeys(obj, path, ['id', 'topic', 'recordsPerSecond', 'durationMs', 'startAtMs']);
  const id = c.string(obj, 'id', path, true);
  if (id !== undefined) {
    if (ctx.producerIds.has(id)) {
      c.issues.push(`${path}.id: producer id "${id}" is used twice`);
    }
    ctx.producerIds.add(id);
  }
  checkTopicRef(c, obj, path, ctx);
  c.number(obj, 'recordsPerSecond', path, { min: 0.001, max: 10_000_000 });
  c.number(obj, 'durationMs', path, { optional: true, min: 1 });
  c.number(obj, 'startAtMs', path, { optional: true });
}

function checkTopicRef(c: Checker, obj: Json, path: string, ctx: Context): number | undefined {
  const topic = obj.topic;
  if (typeof topic !== 'string' || !ctx.topics.has(topic)) {
    c.fail(`${path}.topic`, `a topic declared in topics (${[...ctx.topics.keys()].join(', ')})`, topic);
    return undefined;
  }
  return ctx.topics.get(topic);
}

function checkConsumerRef(c: Checker, obj: Json, path: string, ctx: Context, key = 'consumer'): void {
  const id = obj[key];
  if (typeof id !== 'string' || !ctx.consumerIds.has(id)) {
    c.fail(`${path}.${key}`, `the id of a consumer or streams instance declared or started by an earlier action (${[...ctx.consumerIds].join(', ')})`, id);
  }
}

/** `topic`, `records` and an optional `partition` of that topic. */
function checkRecords(c: Checker, obj: Json, path: string, ctx: Context): void {
  const partitions = checkTopicRef(c, obj, path, ctx);
  c.number(obj, 'records', path, { min: 1, integer: true });
  if (partitions !== undefined) {
    c.number(obj, 'partition', path, { optional: true, max: partitions - 1, integer: true });
  }
}

/** A transactional action must find its transaction open (or, for beginTransaction, closed) at its time. */
function checkTransaction(c: Checker, obj: Json, path: string, ctx: Context, type: string): void {
  const id = c.string(obj, 'transactionalId', path);
  if (id === undefined) {
    return;
  }
  const open = ctx.openTransactions.has(id);
  if (type === 'beginTransaction') {
    if (open) {
      c.issues.push(`${path}: transactional producer "${id}" already has a transaction in progress (commit or abort it first)`);
    }
    ctx.openTransactions.add(id);
    return;
  }
  if (!open) {
    c.issues.push(`${path}: transactional producer "${id}" has no transaction in progress (add a beginTransaction action before it)`);
  }
  if (type === 'commitTransaction' || type === 'abortTransaction') {
    ctx.openTransactions.delete(id);
  }
}

function checkAction(c: Checker, value: unknown, path: string, ctx: Context): void {
  const obj = c.object(value, path);
  if (!obj) {
    return;
  }
  c.number(obj, 'atMs', path, { max: MAX_DURATION_MS });
  const type = c.oneOf(obj, 'type', path, ACTION_TYPES);
  switch (type) {
    case 'join':
      c.unknownKeys(obj, path, ['atMs', 'type', 'consumer']);
      checkConsumer(c, obj.consumer, `${path}.consumer`, ctx);
      break;
    case 'leave':
    case 'crash':
    case 'restart':
      c.unknownKeys(obj, path, ['atMs', 'type', 'consumer']);
      checkConsumerRef(c, obj, path, ctx);
      break;
    case 'pause':
      c.unknownKeys(obj, path, ['atMs', 'type', 'consumer', 'durationMs']);
      checkConsumerRef(c, obj, path, ctx);
      c.number(obj, 'durationMs', path, { min: 1 });
      break;
    case 'produce':
      c.unknownKeys(obj, path, ['atMs', 'type', 'topic', 'records', 'partition']);
      checkRecords(c, obj, path, ctx);
      break;
    case 'beginTransaction':
    case 'commitTransaction':
      c.unknownKeys(obj, path, ['atMs', 'type', 'transactionalId']);
      checkTransaction(c, obj, path, ctx, type);
      break;
    case 'abortTransaction':
      c.unknownKeys(obj, path, ['atMs', 'type', 'transactionalId', 'rewindConsumer']);
      checkTransaction(c, obj, path, ctx, type);
      if (obj.rewindConsumer !== undefined) {
        checkConsumerRef(c, obj, path, ctx, 'rewindConsumer');
      }
      break;
    case 'produceTransactional':
      c.unknownKeys(obj, path, ['atMs', 'type', 'transactionalId', 'topic', 'records', 'partition']);
      checkTransaction(c, obj, path, ctx, type);
      checkRecords(c, obj, path, ctx);
      break;
    case 'sendOffsetsToTransaction':
      c.unknownKeys(obj, path, ['atMs', 'type', 'transactionalId', 'consumer']);
      checkTransaction(c, obj, path, ctx, type);
      checkConsumerRef(c, obj, path, ctx);
      break;
    case 'commit': {
      c.unknownKeys(obj, path, ['atMs', 'type', 'groupId', 'offsets']);
      c.string(obj, 'groupId', path);
      const offsets = c.array(obj.offsets, `${path}.offsets`);
      offsets?.forEach((o, i) => {
        const p = `${path}.offsets[${i}]`;
        const entry = c.object(o, p);
        if (!entry) {
          return;
        }
        c.unknownKeys(entry, p, ['topic', 'partition', 'offset', 'metadata']);
        const partitions = checkTopicRef(c, entry, p, ctx);
        if (partitions !== undefined) {
          c.number(entry, 'partition', p, { max: partitions - 1, integer: true });
        }
        c.number(entry, 'offset', p, { integer: true });
        if (entry.metadata !== undefined && typeof entry.metadata !== 'string') {
          c.fail(`${p}.metadata`, 'a string', entry.metadata);
        }
      });
      break;
    }
    case 'startProducer':
      c.unknownKeys(obj, path, ['atMs', 'type', 'producer']);
      checkProducer(c, obj.producer, `${path}.producer`, ctx);
      break;
    case 'startStreamsInstance':
      checkStartStreamsInstance(c, obj, path, ctx);
      break;
    case 'stopProducer':
      c.unknownKeys(obj, path, ['atMs', 'type', 'producer']);
      if (typeof obj.producer !== 'string' || !ctx.producerIds.has(obj.producer)) {
        c.fail(`${path}.producer`, `the id of a producer declared earlier (${[...ctx.producerIds].join(', ')})`, obj.producer);
      }
      break;
    default:
      break;
  }
}

/** Checks a parsed JSON value against the scenario format; throws ScenarioValidationError listing every problem. */
export function validateScenario(value: unknown): Scenario {
  const c = new Checker();
  const root = c.object(value, 'scenario');
  if (!root) {
    throw new ScenarioValidationError(c.issues);
  }
  c.unknownKeys(root, 'scenario', ['name', 'description', 'seed', 'durationMs', 'cluster', 'coordinator', 'streamsGroup', 'topics', 'consumers', 'streamsApps', 'producers', 'actions']);
  c.string(root, 'name', 'scenario', true);
  c.string(root, 'description', 'scenario', true);
  c.number(root, 'seed', 'scenario', { optional: true, integer: true });
  c.number(root, 'durationMs', 'scenario', { min: 1, max: MAX_DURATION_MS });
  if (root.cluster !== undefined) {
    const cluster = c.object(root.cluster, 'scenario.cluster');
    if (cluster) {
      c.unknownKeys(cluster, 'scenario.cluster', ['brokers', 'host', 'basePort', 'clusterId']);
      c.number(cluster, 'brokers', 'scenario.cluster', { optional: true, min: 1, max: 100, integer: true });
      c.string(cluster, 'host', 'scenario.cluster', true);
      c.number(cluster, 'basePort', 'scenario.cluster', { optional: true, min: 1, max: 65535, integer: true });
      c.string(cluster, 'clusterId', 'scenario.cluster', true);
    }
  }
  if (root.coordinator !== undefined) {
    const coordinator = c.object(root.coordinator, 'scenario.coordinator');
    if (coordinator) {
      const keys = ['initialRebalanceDelayMs', 'minSessionTimeoutMs', 'maxSessionTimeoutMs', 'maxGroupSize', 'offsetsRetentionMs'] as const;
      c.unknownKeys(coordinator, 'scenario.coordinator', [...keys, 'consumerGroupMigrationPolicy']);
      c.oneOf(coordinator, 'consumerGroupMigrationPolicy', 'scenario.coordinator', CONSUMER_GROUP_MIGRATION_POLICIES, true);
      for (const key of keys) {
        c.number(coordinator, key, 'scenario.coordinator', { optional: true, integer: true, min: key === 'maxGroupSize' ? 1 : 0 });
      }
      const min = typeof coordinator.minSessionTimeoutMs === 'number' ? coordinator.minSessionTimeoutMs : DEFAULT_COORDINATOR_CONFIG.minSessionTimeoutMs;
      const max = typeof coordinator.maxSessionTimeoutMs === 'number' ? coordinator.maxSessionTimeoutMs : DEFAULT_COORDINATOR_CONFIG.maxSessionTimeoutMs;
      if (min > max) {
        // As Kafka's group.min.session.timeout.ms / group.max.session.timeout.ms: otherwise no session timeout is accepted and nobody joins.
        c.issues.push(`scenario.coordinator.minSessionTimeoutMs: ${min} must not exceed maxSessionTimeoutMs (${max}), or no consumer can join`);
      }
    }
  }
  if (root.streamsGroup !== undefined) {
    checkStreamsGroupConfig(c, root.streamsGroup);
  }
  const ctx: Context = { topics: new Map(), consumerIds: new Set(), producerIds: new Set(), openTransactions: new Set(), streamsApps: new Set() };
  const topics = c.array(root.topics, 'scenario.topics');
  topics?.forEach((t, i) => {
    const path = `scenario.topics[${i}]`;
    const obj = c.object(t, path);
    if (!obj) {
      return;
    }
    c.unknownKeys(obj, path, ['name', 'partitions', 'initialRecords']);
    const name = c.string(obj, 'name', path);
    const partitions = c.number(obj, 'partitions', path, { min: 1, max: MAX_CLUSTER_PARTITIONS, integer: true });
    c.number(obj, 'initialRecords', path, { optional: true, integer: true });
    if (name !== undefined) {
      if (ctx.topics.has(name)) {
        c.issues.push(`${path}.name: topic "${name}" is declared twice`);
      }
      ctx.topics.set(name, partitions ?? 1);
    }
  });
  const declaredPartitions = [...ctx.topics.values()].reduce((sum, n) => sum + n, 0);
  if (declaredPartitions > MAX_CLUSTER_PARTITIONS) {
    c.issues.push(`scenario.topics: ${declaredPartitions} partitions in all; the simulator holds at most ${MAX_CLUSTER_PARTITIONS}`);
  }
  if (root.consumers !== undefined) {
    c.array(root.consumers, 'scenario.consumers')?.forEach((v, i) => checkConsumer(c, v, `scenario.consumers[${i}]`, ctx));
  }
  if (root.streamsApps !== undefined) {
    const groupIds = new Set((Array.isArray(root.consumers) ? root.consumers : []).map((consumer) => (consumer as Json | null)?.groupId));
    const actions = Array.isArray(root.actions) ? root.actions : [];
    actions.forEach((action) => groupIds.add(((action as Json | null)?.consumer as Json | undefined)?.groupId));
    checkStreamsApps(c, root.streamsApps, ctx, new Set([...groupIds].filter((id): id is string => typeof id === 'string')));
  }
  if (root.producers !== undefined) {
    c.array(root.producers, 'scenario.producers')?.forEach((v, i) => checkProducer(c, v, `scenario.producers[${i}]`, ctx));
  }
  if (root.actions !== undefined) {
    const actions = c.array(root.actions, 'scenario.actions');
    // Actions are checked in time order so "restart" may refer to a consumer joined earlier.
    const order = (actions ?? []).map((a, i) => ({ a, i })).sort((x, y) => atOf(x.a) - atOf(y.a) || x.i - y.i);
    for (const { a, i } of order) {
      checkAction(c, a, `scenario.actions[${i}]`, ctx);
    }
  }
  if (c.issues.length === 0) {
    c.issues.push(...scenarioWorkIssues(value as Scenario));
  }
  if (c.issues.length > 0) {
    throw new ScenarioValidationError(c.issues);
  }
  return value as Scenario;
}

function atOf(action: unknown): number {
  const at = action !== null && typeof action === 'object' ? (action as Json).atMs : undefined;
  return typeof at === 'number' && Number.isFinite(at) ? at : 0;
}
