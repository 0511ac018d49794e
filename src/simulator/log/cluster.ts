import { createHash } from 'node:crypto';
import { OFFSETS_TOPIC, offsetsPartitionFor } from '../../protocol/offsetsPartition';
import type { BrokerRef, ClusterInfo } from '../../model/types';
import { CoordinatorRecordLog } from './coordinatorRecordLog';
import type { RecordSerde } from './storedBatches';
import { PartitionLog } from './partitionLog';
import type { SeededRandom } from '../common/random';

export { OFFSETS_TOPIC };
export const OFFSETS_TOPIC_PARTITIONS = 50;
const LEGAL_TOPIC_NAME = /^[a-zA-Z0-9._-]+$/;
const MAX_TOPIC_NAME_LENGTH = 249;
/**
 * Partitions the simulator holds across its user topics (and so in one topic): each costs a log,
 * and a client's request must not make it allocate without bound. Scenarios are held to it too.
 */
export const MAX_CLUSTER_PARTITIONS = 100_000;

export interface SimTopic {
  readonly name: string;
  /** Kafka's topic id (Uuid.toString(): 22 characters of URL-safe base64), stable for the topic's life. */
  readonly topicId: string;
  readonly internal: boolean;
  readonly partitions: PartitionLog[];
  /** Leader broker id of each partition. */
  readonly leaders: number[];
}

export interface ClusterOptions {
  /** Number of brokers (ids 1..n); default 3. */
  brokers?: number;
  host?: string;
  /** Port of broker 1; broker n listens on basePort + n - 1. Default 9092. */
  basePort?: number;
  clusterId?: string;
}

/** Throws a clear error unless `name` is a topic name Kafka would accept. */
export function validateTopicName(name: string): void {
  if (typeof name !== 'string' || name.length === 0) {
    throw new Error('Topic name must be a non-empty string');
  }
  if (name === '.' || name === '..') {
    throw new Error(`Topic name cannot be "${name}"`);
  }
  if (name.length > MAX_TOPIC_NAME_LENGTH) {
    throw new Error(`Topic name is ${name.length} characters; the limit is ${MAX_TOPIC_NAME_LENGTH}`);
  }
  if (!LEGAL_TOPIC_NAME.test(name)) {
    throw new Error(`Topic name "${name}" may contain only ASCII letters, digits, '.', '_' and '-'`);
  }
}

/** Brokers, topics with their partition logs, and `__consumer_offsets` (which decides each group's coordinator). */
export class SimCluster {
  readonly brokers: BrokerRef[];
  readonly clusterId: string;
  private readonly topics = new Map<string, SimTopic>();
  private readonly topicsById = new Map<string, SimTopic>();
  private userPartitions = 0;
  /** How many times a topic of each name was deleted (its next id differs). */
  private readonly deletions = new Map<string, number>();
  /** The stored records of each `__consumer_offsets` partition, by partition. */
  private readonly offsetsRecords: CoordinatorRecordLog[] = [];

  constructor(
    private readonly random: SeededRandom,
    options: ClusterOptions = {},
    /** How the coordinators' records are keyed and encoded; without one, `__consumer_offsets` keeps no records. */
    recordSerde: RecordSerde | null = null,
  ) {
    const count = options.brokers ?? 3;
    if (!Number.isInteger(count) || count < 1) {
      throw new Error(`Broker count must be a positive integer, got ${count}`);
    }
    const host = options.host ?? '127.0.0.1';
    const basePort = options.basePort ?? 9092;
    this.brokers = Array.from({ length: count }, (_, i) => ({ nodeId: i + 1, host, port: basePort + i }));
    this.clusterId = options.clusterId ?? 'sim-cluster';
    for (const log of this.addTopic(OFFSETS_TOPIC, OFFSETS_TOPIC_PARTITIONS, true).partitions) {
      if (recordSerde !== null) {
        const records = new CoordinatorRecordLog(log, recordSerde);
        log.storedRecords = records;
        this.offsetsRecords.push(records);
      }
    }
  }

  /** The stored records of the group's `__consumer_offsets` partition, where its coordinator writes. */
  offsetsTopicRecords(groupId: string): CoordinatorRecordLog {
    const records = this.offsetsRecords.at(offsetsPartitionFor(groupId, OFFSETS_TOPIC_PARTITIONS));
    if (!records) {
      throw new Error(`${OFFSETS_TOPIC} is missing`);
    }
    return records;
  }

  describe(): ClusterInfo {
    return { clusterId: this.clusterId, controllerId: this.brokers[0].nodeId, brokers: this.brokers.map((b) => ({ ...b })) };
  }

  createTopic(name: string, partitions: number): SimTopic {
    validateTopicName(name);
    if (name.startsWith('__')) {
      throw new Error(`Topic name "${name}" is reserved for internal topics`);
    }
    if (this.topics.has(name)) {
      throw new Error(`Topic "${name}" already exists`);
    }
    if (!Number.isInteger(partitions) || partitions < 1) {
      throw new Error(`Topic "${name}" needs a positive integer partition count, got ${partitions}`);
    }
    const room = this.partitionRoom();
    if (partitions > room) {
      throw new Error(`Topic "${name}" with ${partitions} partition(s) would pass the simulator's limit of ${MAX_CLUSTER_PARTITIONS} partitions (${room} left)`);
    }
    return this.addTopic(name, partitions, false);
  }

  topic(name: string): SimTopic | undefined {
    return this.topics.get(name);
  }

  /** The topic with this topic id (requests of Fetch v13+, Produce v13+, OffsetCommit v10+ name topics by id). */
  topicById(topicId: string): SimTopic | undefined {
    return this.topicsById.get(topicId);
  }

  /** The topic, or an error naming the topics that exist. */
  requireTopic(name: string): SimTopic {
    const topic = this.topics.get(name);
    if (!topic || topic.internal) {
      const known = this.userTopics().map((t) => t.name);
      throw new Error(`Unknown topic "${name}"; known topics: ${known.length ? known.join(', ') : '(none)'}`);
    }
    return topic;
  }

  /** Partitions new user topics may still have under MAX_CLUSTER_PARTITIONS. */
  partitionRoom(): number {
    return MAX_CLUSTER_PARTITIONS - this.userPartitions;
  }

  userTopics(): SimTopic[] {
    return [...this.topics.values()].filter((t) => !t.internal);
  }

  partitionCount(name: string): number {
    return this.topics.get(name)?.partitions.length ?? 0;
  }

  partition(topic: string, partition: number): PartitionLog | undefined {
    return this.topics.get(topic)?.partitions[partition];
  }

  /** The coordinator of a group: the leader of its `__consumer_offsets` partition. */
  coordinatorFor(groupId: string): BrokerRef {
    const offsets = this.topics.get(OFFSETS_TOPIC);
    if (!offsets) {
      throw new Error(`${OFFSETS_TOPIC} is missing`);
    }
    const leader = offsets.leaders[offsetsPartitionFor(groupId, OFFSETS_TOPIC_PARTITIONS)];
    return this.broker(leader);
  }

  broker(nodeId: number): BrokerRef {
    const broker = this.brokers.find((b) => b.nodeId === nodeId);
    if (!broker) {
      throw new Error(`Unknown broker ${nodeId}`);
    }
    return broker;
  }

  /**
   * Deletes a user topic (DeleteTopics): it leaves the metadata at once, and a topic created again under
   * its name gets a new id. Internal topics stay.
   */
  deleteTopic(name: string): SimTopic {
    const topic = this.requireTopic(name);
    this.topics.delete(name);
    this.topicsById.delete(topic.topicId);
    this.userPartitions -= topic.partitions.length;
    this.deletions.set(name, (this.deletions.get(name) ?? 0) + 1);
    return topic;
  }

  private addTopic(name: string, partitions: number, internal: boolean): SimTopic {
    // Leaders go round-robin over the brokers from a seeded start, as Kafka's replica placement does.
    const start = this.random.nextInt(this.brokers.length);
    const topic: SimTopic = {
      name,
      topicId: topicIdFor(this.clusterId, name, this.deletions.get(name) ?? 0),
      internal,
      partitions: Array.from({ length: partitions }, () => new PartitionLog()),
      leaders: Array.from({ length: partitions }, (_, p) => this.brokers[(start + p) % this.brokers.length].nodeId),
    };
    this.topics.set(name, topic);
    this.topicsById.set(topic.topicId, topic);
    if (!internal) {
      this.userPartitions += partitions;
    }
    return topic;
  }
}

/**
 * A topic id derived from the cluster id, the topic name and how often a topic of that name was deleted,
 * so a scenario's topics keep their ids from run to run without drawing on the seeded random sequence,
 * and a topic created again gets a new one. Never Kafka's reserved ZERO_UUID or METADATA_TOPIC_ID: a hash does not hit them.
 */
export function topicIdFor(clusterId: string, name: string, deletions = 0): string {
  const seed = deletions === 0 ? `${clusterId}\u0000${name}` : `${clusterId}\u0000${name}\u0000${deletions}`;
  return createHash('sha256').update(seed).digest().subarray(0, 16).toString('base64url');
}
