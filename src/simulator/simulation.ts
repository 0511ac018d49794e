/**
 * One simulated cluster with its clock, coordinator, consumers and producers. It is the engine's
 * SimulatorControl: every control call acts at the current virtual time.
 */
import { VirtualClock } from './common/clock';
import { SimCluster, type ClusterOptions } from './log/cluster';
import { ClusterTopicImage } from './coordinator/group/consumerGroupSeams';
import type { StreamsGroupConfig } from './coordinator/streams/streamsGroupConfig';
import type { ShareGroupConfig } from './coordinator/share/shareGroupConfig';
import type { AssignorName, ConsumerSpec, ProducerSpec, SimulatedConsumerInfo, SimulatorControl } from './common/control';
import { GroupCoordinator, type CoordinatorConfig } from './coordinator/group/groupCoordinator';
import { CONSUMER_DEFAULTS, SimulatedConsumer, type ConsumerConfig } from './clients/consumer/consumer';
import { GROUP_COORDINATOR_RECORD_SERDE, OffsetsTopicWriter } from './coordinator/group/offsetsTopicWriter';
import { groupIdOf } from './coordinator/group/coordinatorRecords';
import { groupProtocolIssues } from './clients/consumer/consumerConfig';
import { STREAMS_COMMIT_INTERVAL_MS, streamsThreadCopy } from './clients/consumer/streamsThreadConfig';
import type { ConfiguredInternalTopic } from './coordinator/streams/topics/configuredTopology';
import { EventLog } from './common/eventLog';
import { SimulatedProducer, type ProducerConfig } from './clients/producer/producer';
import { SeededRandom } from './common/random';
import { TransactionalProducer } from './clients/producer/internals/transactionalProducer';
import type { KafkaErrorCode } from './common/errors';
import type { TransactionResult } from './log/transactionIndex';
import { OFFSETS_TOPIC, offsetsPartitionFor } from '../protocol/offsetsPartition';
import { OFFSETS_TOPIC_PARTITIONS } from './log/cluster';
import { ShareStateStore, shareStatePersister } from './share/shareStateStore';
import { SharePartitionManager } from './share/sharePartitionManager';
import { clusterShareLogs } from './share/clusterShareLogs';

export interface SimulationOptions {
  seed?: number;
  /** Virtual time at which the clock starts (0 for scenarios; epoch ms for the live view). */
  startTime?: number;
  cluster?: ClusterOptions;
  coordinator?: Partial<CoordinatorConfig>;
  /** The broker's group.streams.* configs (Kafka 4.4's defaults otherwise). */
  streamsGroup?: Partial<StreamsGroupConfig>;
  /** The broker's group.share.* configs (Kafka 4.4's defaults otherwise). */
  shareGroup?: Partial<ShareGroupConfig>;
  /** Ring-buffer size of each group's event log. */
  eventsPerGroup?: number;
}

const ASSIGNOR_NAMES: readonly AssignorName[] = ['range', 'roundrobin', 'sticky', 'cooperative-sticky'];

function requirePositive(name: string, value: number | undefined): void {
  if (value !== undefined && (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)) {
    throw new Error(`${name} must be a positive number, got ${String(value)}`);
  }
}

export class Simulation implements SimulatorControl {
  readonly clock: VirtualClock;
  readonly random: SeededRandom;
  readonly cluster: SimCluster;
  readonly events: EventLog;
  readonly coordinator: GroupCoordinator;
  /** The share coordinator's state of every share partition (`__share_group_state`). */
  readonly shareStates = new ShareStateStore();
  /** The share partitions on their leaders, and the brokers' share sessions. */
  readonly shares: SharePartitionManager;
  private readonly consumers = new Map<string, SimulatedConsumer>();
  private readonly producers = new Map<string, SimulatedProducer>();
  private readonly transactionalProducers = new Map<string, TransactionalProducer>();
  private nextProducerId = 0;
  private consumerSeq = 0;
  private producerSeq = 0;

  constructor(options: SimulationOptions = {}) {
    this.clock = new VirtualClock(options.startTime ?? 0);
    this.random = new SeededRandom(options.seed ?? 1);
    this.cluster = new SimCluster(this.random, options.cluster, GROUP_COORDINATOR_RECORD_SERDE);
    this.events = new EventLog(options.eventsPerGroup);
    const records = new OffsetsTopicWriter(this.clock, (groupId) => this.cluster.offsetsTopicRecords(groupId));
    this.coordinator = new GroupCoordinator(
      this.clock,
      this.random,
      this.events,
      (topic, partition) => this.cluster.partition(topic, partition) !== undefined,
      options.coordinator,
      {
        metadataImage: new ClusterTopicImage(this.cluster),
        streamsGroupConfig: options.streamsGroup,
        shareGroupConfig: options.shareGroup,
        sharePersister: shareStatePersister(this.shareStates, (groupId, topicIds) => this.shares.dropGroup(groupId, topicIds)),
        // One heartbeat's records are one batch in the group's __consumer_offsets partition.
        records: (batch) => {
          if (batch.length > 0) {
            records.write(groupIdOf(batch[0]), batch);
          }
        },
      },
      records,
    );
    this.shares = new SharePartitionManager({
      clock: this.clock,
      store: this.shareStates,
      logs: clusterShareLogs(this.cluster, this.clock),
    });
  }

  get now(): number {
    return this.clock.now;
  }

  advance(ms: number): void {
    this.clock.advance(ms);
  }

  runUntil(time: number): void {
    this.clock.runUntil(time);
  }

  /** The simulated consumer behind a handle, for tests and views that need more than the info record. */
  consumer(handle: string): SimulatedConsumer {
    const consumer = this.consumers.get(handle);
    if (!consumer) {
      const known = [...this.consumers.keys()];
      throw new Error(`Unknown consumer handle "${handle}"; known handles: ${known.length ? known.join(', ') : '(none)'}`);
    }
    return consumer;
  }

  // ---------------------------------------------------------------- SimulatorControl

  /** Adds and starts a consumer. `handle` may be chosen (scenarios name their consumers); it must be unique. */
  addConsumer(spec: ConsumerSpec, handle?: string): SimulatedConsumerInfo {
    const config = this.consumerConfig(spec);
    const id = handle ?? `consumer-${++this.consumerSeq}`;
    if (this.consumers.has(id)) {
      throw new Error(`A consumer with handle "${id}" already exists`);
    }
    const consumer = new SimulatedConsumer(id, config, {
      clock: this.clock, cluster: this.cluster, coordinator: this.coordinator, events: this.events, random: this.random,
      createStreamsInternalTopics: (topics) => this.createStreamsInternalTopics(topics),
    });
    this.consumers.set(id, consumer);
    consumer.start();
    return this.info(consumer);
  }

  stopConsumer(handle: string): void {
    this.consumer(handle).close();
  }

  crashConsumer(handle: string): void {
    this.consumer(handle).crash();
  }

  pausePolling(handle: string, durationMs: number): void {
    this.consumer(handle).pausePolling(durationMs);
  }

  restartConsumer(handle: string): void {
    const consumer = this.consumer(handle);
    if (consumer.isRunning) {
      throw new Error(`Consumer "${handle}" is running; stop or crash it before restarting it`);
    }
    consumer.start();
  }

  startProducer(spec: ProducerSpec & Pick<ProducerConfig, 'flushIntervalMs' | 'recordsPerBatch'>, handle?: string): string {
    const topic = this.cluster.requireTopic(spec.topic);
    const id = handle ?? `producer-${++this.producerSeq}`;
    if (this.producers.get(id)?.running) {
      throw new Error(`A producer with handle "${id}" is already running`);
    }
    const producer = new SimulatedProducer(id, topic, spec, this.clock);
    this.producers.set(id, producer);
    producer.start();
    return id;
  }

  stopProducer(handle: string): void {
    const producer = this.producers.get(handle);
    if (!producer) {
      const known = [...this.producers.keys()];
      throw new Error(`Unknown producer handle "${handle}"; known handles: ${known.length ? known.join(', ') : '(none)'}`);
    }
    producer.stop();
  }

  /**
   * initTransactions() for a transactional.id: the first call allocates a producer id; a later one
   * (a restarted producer) aborts the transaction the old instance left open, as InitProducerId does.
   */
  initTransactions(transactionalId: string, transactionTimeoutMs?: number): TransactionalProducer {
    if (typeof transactionalId !== 'string' || transactionalId.length === 0) {
      throw new Error('transactionalId must be a non-empty string');
    }
    const existing = this.transactionalProducers.get(transactionalId);
    if (existing) {
      existing.reinitialize(transactionTimeoutMs);
      return existing;
    }
    const producer = new TransactionalProducer(transactionalId, this.nextProducerId++, { clock: this.clock, cluster: this.cluster, coordinator: this.coordinator });
    if (transactionTimeoutMs !== undefined) {
      producer.setTransactionTimeout(transactionTimeoutMs);
    }
    this.transactionalProducers.set(transactionalId, producer);
    return producer;
  }

  /** The producer of a transactional.id, if it was ever initialized. */
  findTransactionalProducer(transactionalId: string): TransactionalProducer | undefined {
    return this.transactionalProducers.get(transactionalId);
  }

  /**
   * A transaction marker on one partition, as its leader appends it for WriteTxnMarkers
   * (ProducerAppendInfo.appendEndTxnMarker): older than the producer's epoch there is
   * INVALID_PRODUCER_EPOCH, from an older coordinator epoch TRANSACTION_COORDINATOR_FENCED. On
   * `__consumer_offsets` it reaches the groups holding the producer's transactional offsets there;
   * elsewhere it ends the producer's open transaction, and is written even where none is open.
   */
  writeTxnMarker(marker: { producerId: number; producerEpoch: number; coordinatorEpoch: number; result: TransactionResult }, topic: string, partition: number): KafkaErrorCode {
    const log = this.cluster.partition(topic, partition);
    if (!log) {
      return 'UNKNOWN_TOPIC_OR_PARTITION';
    }
    const known = log.producerEpochs(marker.producerId);
    if (known && marker.producerEpoch < known.producerEpoch) {
      return 'INVALID_PRODUCER_EPOCH';
    }
    if (known && marker.coordinatorEpoch < known.coordinatorEpoch) {
      return 'TRANSACTION_COORDINATOR_FENCED';
    }
    if (topic === OFFSETS_TOPIC) {
      for (const groupId of this.coordinator.groupsInTransaction(marker.producerId)) {
        if (offsetsPartitionFor(groupId, OFFSETS_TOPIC_PARTITIONS) === partition) {
          this.coordinator.completeTransaction(groupId, marker.producerId, marker.result);
        }
      }
      return 'NONE';
    }
    log.writeControlMarker(marker.producerId, marker.result, this.clock.now, marker.producerEpoch, marker.coordinatorEpoch);
    return 'NONE';
  }

  /** Every transactional id the transaction coordinator knows, in the order first initialized. */
  listTransactionalProducers(): readonly TransactionalProducer[] {
    return [...this.transactionalProducers.values()];
  }

  /** The producer for a transactional.id, initialized on first use only (scenarios begin transactions this way). */
  initTransactionsOnce(transactionalId: string): TransactionalProducer {
    return this.transactionalProducers.get(transactionalId) ?? this.initTransactions(transactionalId);
  }

  transactionalProducer(transactionalId: string): TransactionalProducer {
    const producer = this.transactionalProducers.get(transactionalId);
    if (!producer) {
      const known = [...this.transactionalProducers.keys()];
      throw new Error(`Unknown transactional producer "${transactionalId}"; known: ${known.length ? known.join(', ') : '(none)'}`);
    }
    return producer;
  }

  listConsumers(groupId?: string): SimulatedConsumerInfo[] {
    return [...this.consumers.values()].filter((c) => groupId === undefined || c.config.groupId === groupId).map((c) => this.info(c));
  }

  listProducers(): Array<{ handle: string; topic: string; running: boolean; recordsProduced: number }> {
    return [...this.producers.values()].map((p) => ({ handle: p.handle, topic: p.topic.name, running: p.running, recordsProduced: p.recordsProduced }));
  }

  listTopics(): Array<{ name: string; partitions: number }> {
    return this.cluster.userTopics().map((t) => ({ name: t.name, partitions: t.partitions.length }));
  }

  createTopic(name: string, partitions: number): void {
    this.cluster.createTopic(name, partitions);
    this.coordinator.onTopicsChanged([name]);
  }

  /**
   * DeleteTopics: the topic leaves the metadata, its producers stop, the groups' offsets of it go and
   * the groups that read it see the change (their consumers lose the partitions on their next assignment).
   */
  deleteTopic(name: string): void {
    const topicId = this.cluster.topic(name)?.topicId;
    const topic = this.cluster.deleteTopic(name);
    if (topicId !== undefined) {
      this.shares.dropTopic(topicId);
      this.shareStates.deleteTopic(topicId);
    }
    for (const producer of this.producers.values()) {
      if (producer.topic === topic && producer.running) {
        producer.stop();
      }
    }
    this.coordinator.onTopicDeleted(name);
  }

  /** AutoTopicCreationManager.createStreamsInternalTopics for in-process Streams threads: each missing topic. */
  private createStreamsInternalTopics(topics: ReadonlyMap<string, ConfiguredInternalTopic>): void {
    for (const topic of topics.values()) {
      if (this.cluster.topic(topic.name) === undefined) {
        this.createTopic(topic.name, topic.numberOfPartitions);
      }
    }
  }

  dispose(): void {
    for (const consumer of this.consumers.values()) {
      if (consumer.isRunning) {
        consumer.crash();
      }
    }
    for (const producer of this.producers.values()) {
      producer.stop();
    }
    this.coordinator.dispose();
  }

  private info(consumer: SimulatedConsumer): SimulatedConsumerInfo {
    const info: SimulatedConsumerInfo = {
      handle: consumer.handle,
      groupId: consumer.config.groupId,
      clientId: consumer.config.clientId,
      groupInstanceId: consumer.config.groupInstanceId,
      memberId: consumer.currentMemberId,
      status: consumer.currentStatus,
    };
    if (consumer.failureReason) {
      info.error = consumer.failureReason;
    }
    return info;
  }

  private consumerConfig(spec: ConsumerSpec): ConsumerConfig {
    if (!spec || typeof spec !== 'object') {
      throw new Error('Consumer spec must be an object');
    }
    if (typeof spec.groupId !== 'string' || spec.groupId.length === 0) {
      throw new Error('Consumer spec needs a non-empty groupId');
    }
    const protocolIssue = groupProtocolIssues(spec)[0];
    if (protocolIssue !== undefined) {
      throw new Error(`Consumer of group "${spec.groupId}": ${protocolIssue.field}: ${protocolIssue.message}`);
    }
    const groupProtocol = spec.groupProtocol ?? 'classic';
    const streams = groupProtocol === 'streams' && spec.streams !== undefined ? streamsThreadCopy(spec.streams) : null;
    // A Streams thread reads the source topics its topology names; missing ones are the coordinator's MISSING_SOURCE_TOPICS.
    const topics = streams === null ? spec.topics ?? [] : [...new Set(streams.subtopologies.flatMap((s) => s.sourceTopics))];
    if (groupProtocol === 'classic' && topics.length === 0) {
      throw new Error(`Consumer of group "${spec.groupId}" needs at least one topic`);
    }
    for (const topic of streams === null ? topics : []) {
      this.cluster.requireTopic(topic);
    }
    const assignors = groupProtocol !== 'classic' ? [] : spec.assignors ?? CONSUMER_DEFAULTS.assignors;
    if (!Array.isArray(assignors) || (groupProtocol === 'classic' && assignors.length === 0)) {
      throw new Error('assignors must be a non-empty list');
    }
    for (const name of assignors) {
      if (!ASSIGNOR_NAMES.includes(name)) {
        throw new Error(`Unknown assignor "${String(name)}"; expected one of ${ASSIGNOR_NAMES.join(', ')}`);
      }
    }
    for (const key of ['sessionTimeoutMs', 'heartbeatIntervalMs', 'maxPollIntervalMs', 'maxPollRecords', 'autoCommitIntervalMs'] as const) {
      requirePositive(key, spec[key]);
    }
    if (spec.processingTimeMs !== undefined && !(spec.processingTimeMs >= 0)) {
      throw new Error(`processingTimeMs must be zero or more, got ${String(spec.processingTimeMs)}`);
    }
    if (spec.autoOffsetReset !== undefined && spec.autoOffsetReset !== 'earliest' && spec.autoOffsetReset !== 'latest') {
      throw new Error(`autoOffsetReset must be "earliest" or "latest", got ${String(spec.autoOffsetReset)}`);
    }
    if (spec.isolationLevel !== undefined && spec.isolationLevel !== 'read_committed' && spec.isolationLevel !== 'read_uncommitted') {
      throw new Error(`isolationLevel must be "read_committed" or "read_uncommitted", got ${String(spec.isolationLevel)}`);
    }
    const sessionTimeoutMs = spec.sessionTimeoutMs ?? CONSUMER_DEFAULTS.sessionTimeoutMs;
    const heartbeatIntervalMs = spec.heartbeatIntervalMs ?? CONSUMER_DEFAULTS.heartbeatIntervalMs;
    if (heartbeatIntervalMs >= sessionTimeoutMs) {
      throw new Error(`heartbeatIntervalMs (${heartbeatIntervalMs}) must be lower than sessionTimeoutMs (${sessionTimeoutMs})`);
    }
    const groupInstanceId = spec.groupInstanceId ?? null;
    if (groupInstanceId !== null && (typeof groupInstanceId !== 'string' || groupInstanceId.length === 0)) {
      throw new Error('groupInstanceId must be a non-empty string or null');
    }
    return {
      groupId: spec.groupId,
      clientId: spec.clientId ?? `consumer-${spec.groupId}-${this.consumerSeq + 1}`,
      groupInstanceId,
      groupProtocol,
      streams,
      topics: topics.slice(),
      assignors: assignors.slice(),
      groupRemoteAssignor: spec.groupRemoteAssignor ?? null,
      subscribedTopicRegex: spec.subscribedTopicRegex ?? null,
      sessionTimeoutMs,
      heartbeatIntervalMs,
      maxPollIntervalMs: spec.maxPollIntervalMs ?? CONSUMER_DEFAULTS.maxPollIntervalMs,
      processingTimeMs: spec.processingTimeMs ?? CONSUMER_DEFAULTS.processingTimeMs,
      maxPollRecords: spec.maxPollRecords ?? CONSUMER_DEFAULTS.maxPollRecords,
      clientHost: spec.clientHost ?? CONSUMER_DEFAULTS.clientHost,
      enableAutoCommit: spec.enableAutoCommit ?? CONSUMER_DEFAULTS.enableAutoCommit,
      // Kafka Streams commits every commit.interval.ms (30 s) and reads from the earliest offset.
      autoCommitIntervalMs: spec.autoCommitIntervalMs ?? (streams === null ? CONSUMER_DEFAULTS.autoCommitIntervalMs : STREAMS_COMMIT_INTERVAL_MS),
      autoOffsetReset: spec.autoOffsetReset ?? (streams === null ? CONSUMER_DEFAULTS.autoOffsetReset : 'earliest'),
      isolationLevel: spec.isolationLevel ?? CONSUMER_DEFAULTS.isolationLevel,
      fetchMaxWaitMs: CONSUMER_DEFAULTS.fetchMaxWaitMs,
      retryBackoffMs: CONSUMER_DEFAULTS.retryBackoffMs,
    };
  }
}
