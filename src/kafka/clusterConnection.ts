/**
 * One real cluster's connections, shared by everything that talks to it (the tree's loads, the
 * reset planner's lookups, the `__consumer_offsets` reader): one kafkajs Cluster, so one set of
 * sockets and one SASL login per broker. It also keeps the cluster's topology (brokers, the leaders
 * of `__consumer_offsets` that give every group's coordinator, and the leaders of the topics the
 * groups use) for a moment, so one refresh asks for metadata once, and turns connection-level
 * failures into KafkaConnectionError with a kind the views decide retries on.
 */
import type { Kafka } from 'kafkajs';
import type { BrokerRef, TopicPartition } from '../model/types';
import { groupBy } from './collections';
import { classifyError, type ClassifiedError, type ConnectionConfig } from './connection';
import { partitionKey } from './groupDetailMapper';
import { createCluster, sendRequest, type KafkajsBroker, type KafkajsCluster } from './kafkajsBridge';
import { OFFSETS_TOPIC, offsetsPartitionFor } from '../protocol/offsetsPartition';
import { describeErrorCode, UNKNOWN_TOPIC_OR_PARTITION } from './kafkaErrors';
import { listOffsetsRequest, metadataRequest, type ListedOffset, type MetadataResult } from './requests/offsetRequests';

/**
 * How long a topology answers further questions. Shorter than any refresh interval, so each refresh
 * sees fresh leaders, and long enough for the calls of one refresh or one reset to share it.
 */
export const TOPOLOGY_MAX_AGE_MS = 1000;

/** A failure to talk to the cluster at all, already classified for display and for retry decisions. */
export class KafkaConnectionError extends Error {
  constructor(readonly classified: ClassifiedError, readonly original: unknown) {
    super(classified.message);
    this.name = 'KafkaConnectionError';
  }

  get kind(): ClassifiedError['kind'] {
    return this.classified.kind;
  }
}

export interface Topology {
  metadata: MetadataResult;
  brokers: Map<number, BrokerRef>;
  /** Leader per `__consumer_offsets` partition, when the topic exists. */
  offsetsLeaders: number[] | null;
}

export interface PartitionLeaders {
  /** Leader node id per partitionKey; -1 when the partition has none. */
  leaders: Map<string, number>;
  /** Topic-level metadata errors, per topic. */
  topicErrors: Map<string, string>;
  /** Topics the cluster does not have (UNKNOWN_TOPIC_OR_PARTITION), also in topicErrors. */
  unknownTopics: Set<string>;
  /** Partition counts of the topics that exist. */
  partitionCounts: Map<string, number>;
  /** Topic ids, for the topics whose Metadata carried one (Fetch v13+ needs them). */
  topicIds: Map<string, string>;
}

interface CachedTopology {
  topology: Promise<Topology>;
  /** When the answer came; null while it is on its way (callers then share it). */
  at: number | null;
}

export class ClusterConnection {
  private cluster: KafkajsCluster;
  private connected: Promise<void> | null = null;
  private cached: CachedTopology | null = null;
  /** Topics whose leaders the next topology request includes (the groups' topics of the last load). */
  private topicsOfInterest: string[] = [];

  constructor(private readonly config: ConnectionConfig, private readonly kafka: Kafka, private readonly now: () => number = Date.now) {
    this.cluster = createCluster(kafka);
  }

  /** Human text for a failure, as classifyError puts it for this cluster. */
  errorText(e: unknown): string {
    return classifyError(e, this.config).message;
  }

  /** Whether the failure is about the connection (reach, TLS, login, timeout) rather than one request. */
  isConnectionFailure(e: unknown): boolean {
    return e instanceof KafkaConnectionError || classifyError(e, this.config).kind !== 'other';
  }

  /** Runs fn, turning connection-level failures into KafkaConnectionError with a human message and a kind. */
  async guard<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      if (e instanceof KafkaConnectionError) {
        throw e;
      }
      const classified = classifyError(e, this.config);
      if (classified.kind === 'other') {
        throw e;
      }
      throw new KafkaConnectionError(classified, e);
    }
  }

  /** The topics the next topologies should carry leaders for (replaces the previous list). */
  setTopicsOfInterest(topics: Iterable<string>): void {
    this.topicsOfInterest = [...new Set(topics)].filter((t) => t !== OFFSETS_TOPIC).sort();
  }

  /** The cluster's topology, asked for at most once per TOPOLOGY_MAX_AGE_MS; concurrent callers share one request. */
  topology(): Promise<Topology> {
    const cached = this.cached;
    if (cached && (cached.at === null || this.now() - cached.at < TOPOLOGY_MAX_AGE_MS)) {
      return cached.topology;
    }
    const entry: CachedTopology = { topology: this.guard(() => this.fetchTopology()), at: null };
    this.cached = entry;
    entry.topology.then(
      () => {
        entry.at = this.now();
      },
      () => {
        if (this.cached === entry) {
          this.cached = null;
        }
      },
    );
    return entry.topology;
  }

  /** The next topology() asks the cluster again (after leadership or coordinator errors). */
  forgetTopology(): void {
    this.cached = null;
  }

  /** A connected broker: the first known one that connects. Throws the connection's own failure. */
  async anyBroker(): Promise<KafkajsBroker> {
    if (!this.connected) {
      this.connected = this.cluster.connect().catch(async (e: unknown) => {
        await this.startOver();
        throw e;
      });
    }
    await this.connected;
    let lastError: unknown = new Error('kafkajs knows no broker after connect()');
    for (const nodeId of Object.keys(this.cluster.brokerPool.brokers)) {
      try {
        return await this.cluster.findBroker({ nodeId });
      } catch (e) {
        lastError = e;
      }
    }
    const seed = this.cluster.brokerPool.seedBroker;
    if (seed?.versions) {
      return seed;
    }
    // Every broker failed: start over on the next call, and say why (never a stale broker without versions).
    await this.startOver();
    throw lastError;
  }

  /** The broker with that node id, connected. */
  broker(nodeId: number): Promise<KafkajsBroker> {
    return this.cluster.findBroker({ nodeId });
  }

  coordinatorId(groupId: string, topology: Topology): number | null {
    if (!topology.offsetsLeaders || topology.offsetsLeaders.length === 0) {
      return null;
    }
    const leader = topology.offsetsLeaders[offsetsPartitionFor(groupId, topology.offsetsLeaders.length)];
    return leader >= 0 ? leader : null;
  }

  async coordinatorBroker(groupId: string, topology: Topology): Promise<KafkajsBroker> {
    return this.brokerFor(this.coordinatorId(groupId, topology), groupId);
  }

  /** The broker with that node id, or (when `__consumer_offsets` does not exist yet) FindCoordinator's answer for the group. */
  brokerFor(nodeId: number | null, groupId: string): Promise<KafkajsBroker> {
    return nodeId === null ? this.cluster.findGroupCoordinator({ groupId }) : this.broker(nodeId);
  }

  /**
   * Leaders of every partition of the topics: from the cached topology when it carries them all,
   * else with one Metadata request for the missing ones.
   */
  async partitionLeaders(topics: readonly string[]): Promise<PartitionLeaders> {
    const result: PartitionLeaders = { leaders: new Map(), topicErrors: new Map(), unknownTopics: new Set(), partitionCounts: new Map(), topicIds: new Map() };
    if (topics.length === 0) {
      return result;
    }
    const topology = await this.topology();
    const known = new Map(topology.metadata.topics.map((t) => [t.topic, t]));
    const missing = [...new Set(topics)].filter((t) => !known.has(t));
    if (missing.length > 0) {
      const metadata = await this.guard(async () => sendRequest(await this.anyBroker(), metadataRequest(missing)));
      for (const t of metadata.topics) {
        known.set(t.topic, t);
      }
    }
    for (const topic of new Set(topics)) {
      const t = known.get(topic);
      if (!t) {
        result.topicErrors.set(topic, `Topic ${topic}: the broker did not answer for it`);
        continue;
      }
      if (t.errorCode !== 0) {
        result.topicErrors.set(topic, `Topic ${topic}: ${describeErrorCode(t.errorCode)}`);
        if (t.errorCode === UNKNOWN_TOPIC_OR_PARTITION) {
          result.unknownTopics.add(topic);
        }
        continue;
      }
      result.partitionCounts.set(topic, t.partitions.length);
      if (t.topicId !== null) {
        result.topicIds.set(topic, t.topicId);
      }
      for (const p of t.partitions) {
        result.leaders.set(partitionKey({ topic, partition: p.partition }), p.leader);
      }
    }
    return result;
  }

  /**
   * ListOffsets at each timestamp, one request per partition leader and timestamp. A leader that
   * fails is reported in `failures` (its partitions missing from the answers); a connection-level
   * failure (unreachable, login, timeout) fails the whole call.
   */
  async listOffsets(
    partitions: readonly TopicPartition[],
    leaders: ReadonlyMap<string, number>,
    queries: ReadonlyArray<{ isolationLevel: number; timestamp: number }>,
  ): Promise<{ answers: ListedOffset[][]; failures: Array<{ leader: number; partitions: TopicPartition[]; error: string }> }> {
    const answers: ListedOffset[][] = queries.map(() => []);
    const failures: Array<{ leader: number; partitions: TopicPartition[]; error: string }> = [];
    const byLeader = groupBy(
      partitions.filter((p) => (leaders.get(partitionKey(p)) ?? -1) >= 0),
      (p) => leaders.get(partitionKey(p)) as number,
    );
    await Promise.all(
      [...byLeader].map(async ([leader, parts]) => {
        try {
          const broker = await this.broker(leader);
          const listed = await Promise.all(queries.map((q) => sendRequest(broker, listOffsetsRequest(q.isolationLevel, q.timestamp, parts))));
          listed.forEach((list, i) => answers[i].push(...list));
        } catch (e) {
          if (this.isConnectionFailure(e)) {
            throw e;
          }
          failures.push({ leader, partitions: parts, error: this.errorText(e) });
        }
      }),
    );
    return { answers, failures };
  }

  async disconnect(): Promise<void> {
    this.connected = null;
    this.cached = null;
    await this.cluster.disconnect();
  }

  /**
   * After a failed connect, the next one starts on a new kafkajs Cluster. The old one is closed,
   * not reused: a socket that failed its login stays open otherwise (the next load would log in on it
   * a second time), and kafkajs's Connection objects take late errors of a closed socket for their
   * next one ("write after end").
   */
  private async startOver(): Promise<void> {
    const failed = this.cluster;
    this.cluster = createCluster(this.kafka);
    this.connected = null;
    this.cached = null;
    await failed.disconnect().catch(() => undefined);
  }

  private async fetchTopology(): Promise<Topology> {
    const metadata = await sendRequest(await this.anyBroker(), metadataRequest([OFFSETS_TOPIC, ...this.topicsOfInterest]));
    const offsetsTopic = metadata.topics.find((t) => t.topic === OFFSETS_TOPIC && t.errorCode === 0);
    const offsetsLeaders = offsetsTopic ? [...offsetsTopic.partitions].sort((a, b) => a.partition - b.partition).map((p) => p.leader) : null;
    await this.syncBrokerPool(metadata, offsetsLeaders !== null);
    const brokers = new Map(metadata.brokers.map(({ nodeId, host, port }) => [nodeId, { nodeId, host, port }]));
    return { metadata, brokers, offsetsLeaders };
  }

  /** kafkajs creates Broker objects only from its own metadata refresh; make it know every node we saw. */
  private async syncBrokerPool(metadata: MetadataResult, offsetsTopicExists: boolean): Promise<void> {
    const known = this.cluster.brokerPool.brokers;
    if (metadata.brokers.every((b) => known[String(b.nodeId)])) {
      return;
    }
    // Target one small topic so kafkajs does not ask for the metadata of every topic.
    this.cluster.targetTopics.clear();
    if (offsetsTopicExists) {
      this.cluster.targetTopics.add(OFFSETS_TOPIC);
    }
    await this.cluster.refreshMetadata();
  }
}
