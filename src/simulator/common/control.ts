/**
 * What the editor's simulator commands may do to a running simulation. The engine implements it;
 * `src/commands/` calls it through `SimSource.control`. No editor types here.
 */
import type { SimulatedConsumerInfo } from '../../model/simulatedConsumer';

export type { SimulatedConsumerInfo, SimulatedConsumerStatus } from '../../model/simulatedConsumer';

export type AssignorName = 'range' | 'roundrobin' | 'sticky' | 'cooperative-sticky';

/** A subtopology of a simulated Kafka Streams application, its internal topics by full name. */
export interface StreamsSubtopologySpec {
  id: string;
  /** The user topics it reads. */
  sourceTopics: string[];
  /** The repartition topics it reads (the broker creates them, partitioned as Kafka derives). */
  repartitionSourceTopics?: string[];
  /** The repartition topics it writes. */
  repartitionSinkTopics?: string[];
  /** The changelog topics of its state stores (the broker creates them, partitioned as its input). */
  stateChangelogTopics?: string[];
}

/** One StreamThread of a Kafka Streams instance: its process and the application's topology. */
export interface StreamsThreadSpec {
  /** The instance's process id: a UUID Kafka Streams keeps in its state directory, so a restart keeps it. */
  processId: string;
  subtopologies: StreamsSubtopologySpec[];
}

export interface ConsumerSpec {
  groupId: string;
  /** client.id; a unique one is made when omitted. */
  clientId?: string;
  /** group.instance.id for a static member; omit or null for a dynamic one. */
  groupInstanceId?: string | null;
  /** group.protocol: "classic" (the default), "consumer" (KIP-848), or "streams" (a Kafka Streams thread, KIP-1071). */
  groupProtocol?: 'classic' | 'consumer' | 'streams';
  /** group.protocol=streams: the thread's process and topology (the groupId is the application.id). */
  streams?: StreamsThreadSpec;
  /** The subscribed topics; empty for a consumer-protocol member that subscribes with subscribedTopicRegex. */
  topics: string[];
  /** partition.assignment.strategy in config order (classic protocol only); Kafka's default is ["range", "cooperative-sticky"]. */
  assignors?: AssignorName[];
  /** group.remote.assignor (consumer protocol only): "uniform" or "range"; the coordinator's first assignor when omitted. */
  groupRemoteAssignor?: 'uniform' | 'range';
  /** subscribe(SubscriptionPattern) (consumer protocol only): a regex the coordinator resolves to topics. */
  subscribedTopicRegex?: string;
  sessionTimeoutMs?: number;
  heartbeatIntervalMs?: number;
  maxPollIntervalMs?: number;
  /** Virtual time each poll's batch takes to process. */
  processingTimeMs?: number;
  /** How many records a poll returns at most (max.poll.records). */
  maxPollRecords?: number;
  /** Host the member reports, as "/127.0.0.1" in Kafka's form. */
  clientHost?: string;
  /** auto.offset.reset for partitions without a committed offset; Kafka's default is "latest". */
  autoOffsetReset?: 'earliest' | 'latest';
  /** isolation.level; Kafka's default is "read_uncommitted". read_committed reads up to the last stable offset. */
  isolationLevel?: 'read_uncommitted' | 'read_committed';
  /** enable.auto.commit; default true. */
  enableAutoCommit?: boolean;
  /** auto.commit.interval.ms; default 5000. */
  autoCommitIntervalMs?: number;
}

export interface ProducerSpec {
  topic: string;
  recordsPerSecond: number;
  /** Stops after this long; runs until stopped when omitted. */
  durationMs?: number;
}

export interface SimulatorControl {
  addConsumer(spec: ConsumerSpec): SimulatedConsumerInfo;
  /** Graceful close: a dynamic member sends LeaveGroup; a static one does not (KIP-345). */
  stopConsumer(handle: string): void;
  /** Process death: no LeaveGroup, heartbeats stop; the coordinator expires it after session.timeout.ms. */
  crashConsumer(handle: string): void;
  /** The poll loop stalls for this long; past max.poll.interval.ms the client leaves the group. */
  pausePolling(handle: string, durationMs: number): void;
  /** Starts a stopped or crashed consumer again with the same config (same group.instance.id when static). */
  restartConsumer(handle: string): void;
  /** Starts a producer; returns its handle. */
  startProducer(spec: ProducerSpec): string;
  stopProducer(handle: string): void;
  listConsumers(groupId?: string): SimulatedConsumerInfo[];
  listTopics(): Array<{ name: string; partitions: number }>;
  createTopic(name: string, partitions: number): void;
}
