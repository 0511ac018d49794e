/** Metadata, FindCoordinator and CreateTopics: where topics, partitions and coordinators live. */
import { ByteReader, ByteWriter } from '../../kafka/protocol/wire';
import { MAX_CLUSTER_PARTITIONS, validateTopicName, type SimTopic } from '../cluster';
import { expectEnd, readNullableArray, type ApiDefinition, type BrokerEndpoint, type RequestContext } from './context';
import { COORDINATOR_NOT_AVAILABLE, NO_ERROR, UNKNOWN_TOPIC_OR_PARTITION } from './errorCodes';
import { errorMessage } from '../../protocol/errors';

const INVALID_TOPIC_EXCEPTION = 17;
const TOPIC_ALREADY_EXISTS = 36;
const INVALID_PARTITIONS = 37;
const POLICY_VIOLATION = 44;
/** Kafka's ReplicationControlManager.MAX_PARTITIONS_PER_BATCH: partitions one CreateTopics request may ask for. */
const MAX_PARTITIONS_PER_REQUEST = 10_000;
/** num.partitions, what auto-created topics get. */
const DEFAULT_PARTITIONS = 1;

function endpointOf(ctx: RequestContext, nodeId: number): BrokerEndpoint | undefined {
  return ctx.server.endpoints().find((e) => e.nodeId === nodeId);
}

/** An unknown topic is created when the client allows it (auto.create.topics.enable is on, as in Kafka's default). */
function resolveTopic(ctx: RequestContext, name: string, autoCreate: boolean): SimTopic | number {
  const cluster = ctx.server.simulation.cluster;
  const existing = cluster.topic(name);
  if (existing) {
    return existing;
  }
  if (!autoCreate) {
    return UNKNOWN_TOPIC_OR_PARTITION;
  }
  try {
    validateTopicName(name);
    ctx.server.simulation.createTopic(name, DEFAULT_PARTITIONS);
  } catch (error) {
    ctx.server.log(`metadata: cannot auto-create topic "${name}": ${errorMessage(error)}`);
    return INVALID_TOPIC_EXCEPTION;
  }
  return cluster.requireTopic(name);
}

function metadata(r: ByteReader, ctx: RequestContext): Buffer {
  const v = ctx.apiVersion;
  const requested = v >= 1 ? readNullableArray(r, (t) => t.string()) : r.array((t) => t.string());
  const autoCreate = v >= 4 ? r.boolean() : true;
  expectEnd(r, 'Metadata');
  const cluster = ctx.server.simulation.cluster;
  // v0 asks for every topic with an empty list, v1+ with null.
  const topics: Array<{ name: string; topic: SimTopic | number }> =
    requested === null || (v === 0 && requested.length === 0)
      ? cluster.userTopics().map((topic) => ({ name: topic.name, topic }))
    : requested.map((name) => ({ name, topic: resolveTopic(ctx, name, autoCreate) }));

  const w = new ByteWriter();
  if (v >= 3) {
    w.int32(0);
  }
  w.array(ctx.server.endpoints(), (bw, b) => {
    bw.int32(b.nodeId).string(b.host).int32(b.port);
    if (v >= 1) {
      bw.string(null);
    }
  });
  if (v >= 2) {
    w.string(cluster.clusterId);
  }
  if (v >= 1) {
    w.int32(cluster.describe().controllerId ?? -1);
  }
  w.array(topics, (tw, { name, topic }) => {
    const error = typeof topic === 'number' ? topic : NO_ERROR;
    tw.int16(error).string(name);
    if (v >= 1) {
      tw.boolean(typeof topic !== 'number' && topic.internal);
    }
    const leaders = typeof topic === 'number' ? [] : topic.leaders;
    tw.array(leaders.map((leader, index) => ({ leader, index })), (pw, { leader, index }) => {
      pw.int16(NO_ERROR).int32(index).int32(leader);
      pw.array([leader], (rw, id) => rw.int32(id)); // replicas: replication factor 1
      pw.array([leader], (iw, id) => iw.int32(id)); // isr
      if (v >= 5) {
        pw.array([], () => undefined);
      }
    });
  });
  return w.toBuffer();
}

function findCoordinator(r: ByteReader, ctx: RequestContext): Buffer {
  const v = ctx.apiVersion;
  const key = r.string();
  if (v >= 1) {
    r.int8(); // key type: groups and transactional ids hash onto the same 50 partitions
  }
  expectEnd(r, 'FindCoordinator');
  const nodeId = ctx.server.simulation.cluster.coordinatorFor(key).nodeId;
  const endpoint = endpointOf(ctx, nodeId);
  const w = new ByteWriter();
  if (v >= 1) {
    w.int32(0);
  }
  w.int16(endpoint ? NO_ERROR : COORDINATOR_NOT_AVAILABLE);
  if (v >= 1) {
    w.string(endpoint ? null : `broker ${nodeId} is not listening`);
  }
  return w.int32(endpoint ? nodeId : -1).string(endpoint?.host ?? '').int32(endpoint?.port ?? -1).toBuffer();
}

interface TopicCreation {
  name: string;
  partitions: number;
}

function readTopicCreation(r: ByteReader): TopicCreation {
  const name = r.string();
  const partitions = r.int32();
  r.int16(); // replication factor: every simulated partition has one replica
  r.array((a) => ({ partition: a.int32(), brokers: a.array((b) => b.int32()) }));
  r.array((c) => ({ name: c.string(), value: c.nullableString() }));
  return { name, partitions };
}

function createTopic(ctx: RequestContext, topic: TopicCreation, validateOnly: boolean): { error: number; message: string | null } {
  const partitions = topic.partitions === -1 ? DEFAULT_PARTITIONS : topic.partitions;
  if (ctx.server.simulation.cluster.topic(topic.name)) {
    return { error: TOPIC_ALREADY_EXISTS, message: `Topic '${topic.name}' already exists.` };
  }
  if (!Number.isInteger(partitions) || partitions < 1) {
    return { error: INVALID_PARTITIONS, message: `Number of partitions must be larger than 0, got ${partitions}.` };
  }
  const room = ctx.server.simulation.cluster.partitionRoom();
  if (partitions > room) {
    return { error: POLICY_VIOLATION, message: `The simulator holds at most ${MAX_CLUSTER_PARTITIONS} partitions; ${room} are left, ${partitions} requested.` };
  }
  try {
    validateTopicName(topic.name);
    if (!validateOnly) {
      ctx.server.simulation.createTopic(topic.name, partitions);
    }
  } catch (error) {
    return { error: INVALID_TOPIC_EXCEPTION, message: errorMessage(error) };
  }
  return { error: NO_ERROR, message: null };
}

function createTopics(r: ByteReader, ctx: RequestContext): Buffer {
  const v = ctx.apiVersion;
  const topics = r.array(readTopicCreation);
  r.int32(); // timeout
  const validateOnly = v >= 1 ? r.boolean() : false;
  expectEnd(r, 'CreateTopics');
  // As Kafka's controller: past the per-request bound no topic is created, each is answered POLICY_VIOLATION.
  const requested = topics.reduce((sum, t) => sum + (t.partitions === -1 ? DEFAULT_PARTITIONS : Math.max(0, t.partitions)), 0);
  const results =
    requested > MAX_PARTITIONS_PER_REQUEST
      ? topics.map((topic) => ({ name: topic.name, error: POLICY_VIOLATION, message: 'Excessively large number of partitions per request.' }))
      : topics.map((topic) => ({ name: topic.name, ...createTopic(ctx, topic, validateOnly) }));
  const w = new ByteWriter();
  if (v >= 2) {
    w.int32(0);
  }
  return w
    .array(results, (tw, result) => {
      tw.string(result.name).int16(result.error);
      if (v >= 1) {
        tw.string(result.message);
      }
    })
    .toBuffer();
}

export const CLUSTER_APIS: readonly ApiDefinition[] = [
  { key: 3, name: 'Metadata', minVersion: 0, maxVersion: 6, handle: metadata },
  { key: 10, name: 'FindCoordinator', minVersion: 0, maxVersion: 2, handle: findCoordinator },
  { key: 19, name: 'CreateTopics', minVersion: 0, maxVersion: 4, handle: createTopics },
];
