/**
 * The JSON scenario format (documented in docs/scenarios.md) as types: what a scenario file holds.
 * scenarioSchema.ts validates a parsed file into these; scenarioWork.ts weighs the work one implies.
 */
import type { ConsumerSpec } from '../common/control';
import type { ConsumerGroupMigrationPolicy } from '../coordinator/group/modern/consumer';

export interface ScenarioConsumer extends Omit<ConsumerSpec, 'topics'> {
  /** Name used by actions ("crash orders-2"); also the control handle. */
  id: string;
  /** Required, except for a consumer-protocol member that subscribes with subscribedTopicRegex. */
  topics?: string[];
}

export interface ScenarioProducer {
  id?: string;
  topic: string;
  recordsPerSecond: number;
  durationMs?: number;
  /** Virtual time at which it starts; default 0. */
  startAtMs?: number;
}

export interface ScenarioOffset {
  topic: string;
  partition: number;
  offset: number;
  metadata?: string;
}

/** A subtopology of a Streams application; internal topics are named as Kafka Streams names them from the application id. */
export interface ScenarioStreamsSubtopology {
  id: string;
  /** User topics it reads. */
  sourceTopics?: string[];
  /** Repartition topics it reads and writes, by name: the topic is `<applicationId>-<name>-repartition`. */
  repartitionSources?: string[];
  repartitionSinks?: string[];
  /** State stores, each with its changelog topic `<applicationId>-<store>-changelog`. */
  stores?: string[];
}

/** An instance (process) of a Streams application; actions name it by `id` to crash, stop or restart it. */
export interface ScenarioStreamsInstance {
  id: string;
  /** num.stream.threads: each thread is a member of the group; default 1. */
  threads?: number;
  /** Virtual time each poll's batch takes to process. */
  processingTimeMs?: number;
}

/** A Kafka Streams application (group.protocol=streams, KIP-1071): its topology and the instances it starts with. */
export interface ScenarioStreamsApp {
  /** application.id: the streams group's id and the prefix of its internal topics. */
  applicationId: string;
  subtopologies: ScenarioStreamsSubtopology[];
  instances?: ScenarioStreamsInstance[];
}

export type ScenarioAction =
  | { atMs: number; type: 'join'; consumer: ScenarioConsumer }
  /** `consumer` names a consumer, or a streams instance (all its threads). */
  | { atMs: number; type: 'leave' | 'crash' | 'restart'; consumer: string }
  /** A new instance of a Streams application: the scale-out. */
  | { atMs: number; type: 'startStreamsInstance'; app: string; instance: ScenarioStreamsInstance }
  | { atMs: number; type: 'pause'; consumer: string; durationMs: number }
  | { atMs: number; type: 'produce'; topic: string; records: number; partition?: number }
  | { atMs: number; type: 'commit'; groupId: string; offsets: ScenarioOffset[] }
  | { atMs: number; type: 'startProducer'; producer: ScenarioProducer }
  | { atMs: number; type: 'stopProducer'; producer: string }
  | { atMs: number; type: 'beginTransaction' | 'commitTransaction'; transactionalId: string }
  /** `rewindConsumer` seeks that consumer back to its committed offsets, so the aborted input is read again. */
  | { atMs: number; type: 'abortTransaction'; transactionalId: string; rewindConsumer?: string }
  | { atMs: number; type: 'produceTransactional'; transactionalId: string; topic: string; records: number; partition?: number }
  | { atMs: number; type: 'sendOffsetsToTransaction'; transactionalId: string; consumer: string };

export interface ScenarioTopic {
  name: string;
  partitions: number;
  /** Records appended to every partition (spread evenly) before the start. */
  initialRecords?: number;
}

export interface Scenario {
  name?: string;
  description?: string;
  seed?: number;
  /** How long to run, in virtual milliseconds. */
  durationMs: number;
  cluster?: { brokers?: number; host?: string; basePort?: number; clusterId?: string };
  coordinator?: {
    initialRebalanceDelayMs?: number;
    minSessionTimeoutMs?: number;
    maxSessionTimeoutMs?: number;
    maxGroupSize?: number;
    offsetsRetentionMs?: number;
    /** group.consumer.migration.policy: which online conversions between classic and consumer groups run. */
    consumerGroupMigrationPolicy?: ConsumerGroupMigrationPolicy;
  };
  /** The broker's group.streams.* configs. */
  streamsGroup?: { numStandbyReplicas?: number; initialRebalanceDelayMs?: number; sessionTimeoutMs?: number; heartbeatIntervalMs?: number };
  topics: ScenarioTopic[];
  consumers?: ScenarioConsumer[];
  streamsApps?: ScenarioStreamsApp[];
  producers?: ScenarioProducer[];
  actions?: ScenarioAction[];
}
