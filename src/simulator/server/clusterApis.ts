/** Metadata, FindCoordinator, CreateTopics and DeleteTopics: where topics, partitions and coordinators live. */
import { errorCodeOf } from '../../protocol/errorCodes';
import { errorMessage } from '../../protocol/errors';
import { CreateTopicsRequest, type CreatableTopic, type CreateTopicsRequestData } from '../../protocol/messages/createTopicsRequest';
import { CreateTopicsResponse, type CreatableTopicResult, type CreateTopicsResponseData } from '../../protocol/messages/createTopicsResponse';
import { DeleteTopicsRequest, type DeleteTopicsRequestData } from '../../protocol/messages/deleteTopicsRequest';
import { DeleteTopicsResponse, type DeletableTopicResult, type DeleteTopicsResponseData } from '../../protocol/messages/deleteTopicsResponse';
import { FindCoordinatorRequest, type FindCoordinatorRequestData } from '../../protocol/messages/findCoordinatorRequest';
import { FindCoordinatorResponse, type Coordinator, type FindCoordinatorResponseData } from '../../protocol/messages/findCoordinatorResponse';
import { MetadataRequest, type MetadataRequestData } from '../../protocol/messages/metadataRequest';
import { MetadataResponse, type MetadataResponseData, type MetadataResponseTopic } from '../../protocol/messages/metadataResponse';
import { MAX_CLUSTER_PARTITIONS, validateTopicName, type SimTopic } from '../log/cluster';
import { defineApi, type ApiDefinition, type RequestContext } from './context';
import { ZERO_UUID } from './topicIds';

/** Kafka's ReplicationControlManager.MAX_PARTITIONS_PER_BATCH: partitions one CreateTopics request may ask for. */
const MAX_PARTITIONS_PER_REQUEST = 10_000;
/** num.partitions, what auto-created topics get. */
const DEFAULT_PARTITIONS = 1;
/** Every simulated partition has one replica. */
const REPLICATION_FACTOR = 1;
/** FindCoordinator key types (CoordinatorType): share-group coordinators (2) are not modelled. */
const GROUP_KEY = 0;
const TRANSACTION_KEY = 1;

/** An unknown topic is created when the client allows it (auto.create.topics.enable is on, as in Kafka's default). */
function resolveTopic(ctx: RequestContext, name: string, autoCreate: boolean): SimTopic | number {
  const cluster = ctx.server.simulation.cluster;
  const existing = cluster.topic(name);
  if (existing) {
    return existing;
  }
  if (!autoCreate) {
    return errorCodeOf('UNKNOWN_TOPIC_OR_PARTITION');
  }
  try {
    validateTopicName(name);
    ctx.server.simulation.createTopic(name, DEFAULT_PARTITIONS);
  } catch (error) {
    ctx.server.log(`metadata: cannot auto-create topic "${name}": ${errorMessage(error)}`);
    return errorCodeOf('INVALID_TOPIC_EXCEPTION');
  }
  return cluster.requireTopic(name);
}

function topicMetadata(name: string | null, topic: SimTopic | number, requestedId: string): MetadataResponseTopic {
  if (typeof topic === 'number') {
    return { errorCode: topic, name, topicId: requestedId, isInternal: false, partitions: [] };
  }
  return {
    errorCode: 0,
    name: topic.name,
    topicId: topic.topicId,
    isInternal: topic.internal,
    partitions: topic.leaders.map((leader, partitionIndex) => ({
      errorCode: 0,
      partitionIndex,
      leaderId: leader,
      leaderEpoch: 0,
      replicaNodes: [leader],
      isrNodes: [leader],
      offlineReplicas: [],
    })),
  };
}

function metadata(request: MetadataRequestData, ctx: RequestContext): MetadataResponseData {
  const v = ctx.apiVersion;
  const cluster = ctx.server.simulation.cluster;
  const autoCreate = request.allowAutoTopicCreation ?? true;
  // v0 asks for every topic with an empty list, v1+ with null.
  const everyTopic = request.topics === null || (v === 0 && request.topics.length === 0);
  const topics = everyTopic
    ? cluster.userTopics().map((topic) => topicMetadata(topic.name, topic, topic.topicId))
    : (request.topics ?? []).map((t) => {
        if (t.name === null) {
          // v12+ may name a topic by id alone.
          const byId = t.topicId === undefined ? undefined : cluster.topicById(t.topicId);
          return topicMetadata(null, byId ?? errorCodeOf('UNKNOWN_TOPIC_ID'), t.topicId ?? ZERO_UUID);
        }
        return topicMetadata(t.name, resolveTopic(ctx, t.name, autoCreate), ZERO_UUID);
      });
  return {
    throttleTimeMs: 0,
    brokers: ctx.server.endpoints().map((b) => ({ nodeId: b.nodeId, host: b.host, port: b.port, rack: null })),
    clusterId: cluster.clusterId,
    controllerId: cluster.describe().controllerId ?? -1,
    topics,
    errorCode: 0,
  };
}

function coordinatorFor(ctx: RequestContext, key: string, keyType: number): Coordinator {
  if (keyType !== GROUP_KEY && keyType !== TRANSACTION_KEY) {
    return { key, nodeId: -1, host: '', port: -1, errorCode: errorCodeOf('INVALID_REQUEST'), errorMessage: `key type ${keyType} is not served: the simulator has group and transaction coordinators only` };
  }
  // Groups and transactional ids hash onto the same 50 partitions here.
  const nodeId = ctx.server.simulation.cluster.coordinatorFor(key).nodeId;
  const endpoint = ctx.server.endpoints().find((e) => e.nodeId === nodeId);
  if (!endpoint) {
    return { key, nodeId: -1, host: '', port: -1, errorCode: errorCodeOf('COORDINATOR_NOT_AVAILABLE'), errorMessage: `broker ${nodeId} is not listening` };
  }
  return { key, nodeId, host: endpoint.host, port: endpoint.port, errorCode: 0, errorMessage: null };
}

function findCoordinator(request: FindCoordinatorRequestData, ctx: RequestContext): FindCoordinatorResponseData {
  const keyType = request.keyType ?? GROUP_KEY;
  if (ctx.apiVersion >= 4) {
    // v4+ (KIP-699) asks for many keys at once.
    return { throttleTimeMs: 0, coordinators: (request.coordinatorKeys ?? []).map((key) => coordinatorFor(ctx, key, keyType)) };
  }
  const found = coordinatorFor(ctx, request.key ?? '', keyType);
  return {
    throttleTimeMs: 0,
    errorCode: found.errorCode,
    ...(ctx.apiVersion >= 1 ? { errorMessage: found.errorMessage } : {}),
    nodeId: found.nodeId,
    host: found.host,
    port: found.port,
  };
}

/** One topic of CreateTopics (also the internal topics a streams heartbeat asks for), answered as Kafka answers it. */
export function createTopic(ctx: RequestContext, topic: CreatableTopic, validateOnly: boolean): CreatableTopicResult {
  const partitions = topic.numPartitions === -1 ? DEFAULT_PARTITIONS : topic.numPartitions;
  const failed = (error: string, message: string): CreatableTopicResult => ({ name: topic.name, errorCode: errorCodeOf(error), errorMessage: message, numPartitions: -1, replicationFactor: -1, configs: null });
  const cluster = ctx.server.simulation.cluster;
  if (cluster.topic(topic.name)) {
    return failed('TOPIC_ALREADY_EXISTS', `Topic '${topic.name}' already exists.`);
  }
  if (!Number.isInteger(partitions) || partitions < 1) {
    return failed('INVALID_PARTITIONS', `Number of partitions must be larger than 0, got ${partitions}.`);
  }
  const room = cluster.partitionRoom();
  if (partitions > room) {
    return failed('POLICY_VIOLATION', `The simulator holds at most ${MAX_CLUSTER_PARTITIONS} partitions; ${room} are left, ${partitions} requested.`);
  }
  try {
    validateTopicName(topic.name);
    if (!validateOnly) {
      ctx.server.simulation.createTopic(topic.name, partitions);
    }
  } catch (error) {
    return failed('INVALID_TOPIC_EXCEPTION', errorMessage(error));
  }
  return {
    name: topic.name,
    topicId: cluster.topic(topic.name)?.topicId ?? ZERO_UUID,
    errorCode: 0,
    errorMessage: null,
    numPartitions: partitions,
    replicationFactor: REPLICATION_FACTOR,
    configs: [],
  };
}

function createTopics(request: CreateTopicsRequestData, ctx: RequestContext): CreateTopicsResponseData {
  // As Kafka's controller: past the per-request bound no topic is created, each is answered POLICY_VIOLATION.
  const requested = request.topics.reduce((sum, t) => sum + (t.numPartitions === -1 ? DEFAULT_PARTITIONS : Math.max(0, t.numPartitions)), 0);
  const topics =
    requested > MAX_PARTITIONS_PER_REQUEST
      ? request.topics.map((topic): CreatableTopicResult => ({ name: topic.name, errorCode: errorCodeOf('POLICY_VIOLATION'), errorMessage: 'Excessively large number of partitions per request.', numPartitions: -1, replicationFactor: -1, configs: null }))
      : request.topics.map((topic) => createTopic(ctx, topic, request.validateOnly));
  return { throttleTimeMs: 0, topics };
}

/**
 * DeleteTopics as Kafka 4.4's ControllerApis answers it: topics by name (v1–5) or by name or id (v6), each
 * refused for what is wrong with it (duplicates, neither or both of name and id, unknown), the rest deleted.
 * The simulator keeps its internal topics.
 */
function deleteTopics(request: DeleteTopicsRequestData, ctx: RequestContext): DeleteTopicsResponseData {
  const cluster = ctx.server.simulation.cluster;
  const responses: DeletableTopicResult[] = [];
  const answer = (name: string | null, topicId: string, error: string, message: string | null = null): void => {
    responses.push({ name, topicId, errorCode: errorCodeOf(error), errorMessage: message });
  };
  const named: Array<string> = [...(request.topicNames ?? [])];
  const byId: string[] = [];
  for (const topic of request.topics ?? []) {
    if (topic.name === null && topic.topicId === ZERO_UUID) {
      answer(null, ZERO_UUID, 'INVALID_REQUEST', 'Neither topic name nor id were specified.');
    } else if (topic.name !== null && topic.topicId !== ZERO_UUID) {
      answer(topic.name, topic.topicId, 'INVALID_REQUEST', 'You may not specify both topic name and topic id.');
    } else if (topic.name !== null) {
      named.push(topic.name);
    } else {
      byId.push(topic.topicId);
    }
  }
  const once = <T>(list: T[], duplicate: (item: T) => void): T[] => {
    const counts = new Map<T, number>();
    list.forEach((item) => counts.set(item, (counts.get(item) ?? 0) + 1));
    [...counts].filter(([, n]) => n > 1).forEach(([item]) => duplicate(item));
    return [...counts].filter(([, n]) => n === 1).map(([item]) => item);
  };
  const targets: SimTopic[] = [];
  for (const name of once(named, (n) => answer(n, ZERO_UUID, 'INVALID_REQUEST', 'Duplicate topic name.'))) {
    const topic = cluster.topic(name);
    if (topic === undefined) {
      answer(name, ZERO_UUID, 'UNKNOWN_TOPIC_OR_PARTITION');
    } else {
      targets.push(topic);
    }
  }
  for (const id of once(byId, (i) => answer(null, i, 'INVALID_REQUEST', 'Duplicate topic id.'))) {
    const topic = cluster.topicById(id);
    if (topic === undefined) {
      answer(null, id, 'UNKNOWN_TOPIC_ID');
    } else {
      targets.push(topic);
    }
  }
  for (const topic of new Set(targets)) {
    if (topic.internal) {
      answer(topic.name, topic.topicId, 'INVALID_REQUEST', `The simulator does not delete its internal topic ${topic.name}.`);
      continue;
    }
    ctx.server.simulation.deleteTopic(topic.name);
    answer(topic.name, topic.topicId, 'NONE');
  }
  return { throttleTimeMs: 0, responses };
}

export const CLUSTER_APIS: readonly ApiDefinition[] = [
  defineApi({ key: 3, name: 'Metadata', minVersion: 0, maxVersion: 13, request: MetadataRequest, response: MetadataResponse, handle: metadata }),
  defineApi({ key: 10, name: 'FindCoordinator', minVersion: 0, maxVersion: 6, request: FindCoordinatorRequest, response: FindCoordinatorResponse, handle: findCoordinator }),
  defineApi({ key: 19, name: 'CreateTopics', minVersion: 2, maxVersion: 7, request: CreateTopicsRequest, response: CreateTopicsResponse, handle: createTopics }),
  defineApi({ key: 20, name: 'DeleteTopics', minVersion: 1, maxVersion: 6, request: DeleteTopicsRequest, response: DeleteTopicsResponse, handle: deleteTopics }),
];
