/**
 * ClusterSource over a real cluster, through kafkajs 2.2.4's connections.
 *
 * A refresh costs: one Metadata request (brokers and `__consumer_offsets` leaders, which give every
 * group's coordinator via offsetsPartitionFor), ListGroups on each broker, DescribeGroups (and
 * ConsumerGroupDescribe for KIP-848 groups) batched per coordinator, OffsetFetch per group with
 * bounded concurrency, one Metadata request for the groups' topics, and three ListOffsets per
 * partition leader (earliest, high watermark, last stable offset). A failure of one group lands in
 * that group's `error`; the rest still load.
 *
 * Rebalance history: while a group is watched (its timeline is open), OffsetsTopicReader reads the
 * group's partition of `__consumer_offsets` with one long-polling Fetch per leader, joining no group.
 */
import { Kafka } from 'kafkajs';
import type { CliCommandConfig, ClusterSource, Unsubscribe } from '../model/clusterSource';
import type { BrokerRef, ClusterInfo, GroupDetail, GroupSummary, Member, PartitionOffsets, RebalanceEvent, TopicPartition } from '../model/types';
import { groupBy } from './collections';
import { commandConfigFileName, commandConfigProperties } from './commandConfig';
import { hasLoadingCode, retryWhileCoordinatorLoads } from './coordinatorRetry';
import { buildKafkaConfig, classifyError, type ClassifiedError, type ConnectionConfig, type KafkaLogger, type Secrets } from './connection';
import { classicMembers, consumerGroupMembers, offsetRows, partitionKey, toGroupState, toGroupType, toSummary, totalLag, type PartitionEnds } from './groupView';
import { createCluster, pickVersion, requireVersion, sendRequest, type KafkajsBroker, type KafkajsCluster } from './kafkajsBridge';
import type { IsolationLevelLookup } from './isolationLevels';
import { offsetsPartitionFor } from './offsetsPartition';
import { OFFSETS_TOPIC, OffsetsTopicReader, type UnavailableListener } from './offsetsTopicReader';
import { ClusterOffsetsTopicTransport } from './offsetsTopicTransport';
import { adminOffsetCommitRequest, deleteGroupsRequest, leaveGroupByInstanceIdRequest, offsetDeleteRequest, type OffsetToCommit } from './protocol/adminRequests';
import { ApiKeys } from './protocol/apiRequest';
import { describeErrorCode } from './protocol/errorCodes';
import { fetchRequest, MAX_FETCH_VERSION, MIN_FETCH_VERSION, type FetchLimits } from './protocol/fetchRequest';
import { markerCandidates, onlyMarkersBetween, readableEnd } from './markerOnlyLag';
import { readBatchFrames } from './recordBatches';
import {
  consumerGroupDescribeRequest,
  describeGroupsRequest,
  listGroupsRequest,
  type ConsumerGroupDescription,
  type DescribedGroup,
  type ListedGroup,
} from './protocol/groupRequests';
import {
  EARLIEST_TIMESTAMP,
  LATEST_TIMESTAMP,
  READ_COMMITTED,
  READ_UNCOMMITTED,
  listOffsetsRequest,
  metadataRequest,
  offsetFetchRequest,
  type CommittedOffset,
  type ListedOffset,
  type MetadataResult,
} from './protocol/offsetRequests';

const GROUP_ID_NOT_FOUND = 69;
const DEFAULT_OFFSET_FETCH_CONCURRENCY = 8;
/** A failure to talk to the cluster at all, already classified for display. */
export class KafkaConnectionError extends Error {
  constructor(readonly classified: ClassifiedError, readonly original: unknown) {
    super(classified.message);
    this.name = 'KafkaConnectionError';
  }

  get kind(): ClassifiedError['kind'] {
    return this.classified.kind;
  }
}

export interface KafkaSourceOptions {
  logger: KafkaLogger;
  /** How many OffsetFetch requests run at once. */
  offsetFetchConcurrency?: number;
  /** Injected for tests of unusual setups; defaults to new Kafka(buildKafkaConfig(...)). */
  kafka?: Kafka;
  /** Bounds of the Fetch requests that read `__consumer_offsets` for rebalance timelines. */
  offsetsTopicFetchLimits?: Partial<FetchLimits>;
  /**
   * The isolation.level of a group's consumers, which the broker cannot tell; read_committed groups
   * get their lag to the last stable offset. Without it every group counts as read_uncommitted.
   */
  isolationLevelFor?: IsolationLevelLookup;
}

export interface PartitionOperationResult extends TopicPartition {
  /** Human error text, absent on success. */
  error?: string;
}

export interface OffsetDeleteOutcome {
  /** Group-level error (e.g. GROUP_ID_NOT_FOUND), absent when the request was accepted. */
  error?: string;
  partitions: PartitionOperationResult[];
}

export interface MemberRemovalResult {
  groupInstanceId: string;
  memberId: string;
  error?: string;
}

export interface MemberRemovalOutcome {
  error?: string;
  members: MemberRemovalResult[];
}

export interface GroupDeletionResult {
  groupId: string;
  error?: string;
}

interface Topology {
  metadata: MetadataResult;
  brokers: Map<number, BrokerRef>;
  /** Leader per `__consumer_offsets` partition, when the topic exists. */
  offsetsLeaders: number[] | null;
}

interface DescribedForLoad {
  groupId: string;
  coordinator: BrokerRef | null;
  classic?: DescribedGroup;
  kip848?: ConsumerGroupDescription;
  error?: string;
}

function errorText(e: unknown, config: ConnectionConfig): string {
  return classifyError(e, config).message;
}

async function mapWithConcurrency<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

export class KafkaSource implements ClusterSource {
  readonly kind = 'kafka' as const;
  readonly id: string;
  readonly label: string;
  private readonly kafka: Kafka;
  private readonly cluster: KafkajsCluster;
  private readonly concurrency: number;
  private connected: Promise<void> | null = null;
  /** Rebalance history from the group-metadata records of `__consumer_offsets`, read only while watched. */
  private readonly rebalanceReader: OffsetsTopicReader;
  private readonly changeListeners = new Set<() => void>();

  constructor(private readonly config: ConnectionConfig, secrets: Secrets, private readonly options: KafkaSourceOptions) {
    this.id = config.id;
    this.label = config.name;
    this.kafka = options.kafka ?? new Kafka(buildKafkaConfig(config, secrets, { logger: options.logger }));
    this.cluster = createCluster(this.kafka);
    this.concurrency = options.offsetFetchConcurrency ?? DEFAULT_OFFSET_FETCH_CONCURRENCY;
    const transport = new ClusterOffsetsTopicTransport(
      async () => (await this.topology()).metadata,
      (nodeId) => this.cluster.findBroker({ nodeId }),
    );
    this.rebalanceReader = new OffsetsTopicReader(transport, {
      logger: options.logger,
      limits: options.offsetsTopicFetchLimits,
      onEvents: () => this.notifyChange(),
    });
  }

  /** Told when watched groups got new rebalance events. */
  onDidChange(listener: () => void): Unsubscribe {
    const entry = (): void => listener();
    this.changeListeners.add(entry);
    return () => this.changeListeners.delete(entry);
  }

  /** Events read so far from `__consumer_offsets` for the group (none until it is watched and read). */
  rebalanceEvents(groupId: string): RebalanceEvent[] {
    return this.rebalanceReader.events(groupId);
  }

  /**
   * Reads the partition of `__consumer_offsets` that holds the group, from its start, then tails it.
   * `onUnavailable` is told when the user may not read the topic, or when the group turns out to be
   * a KIP-848 group, whose records (ConsumerGroup*) carry no generations for the reader.
   */
  watchRebalances(groupId: string, onUnavailable: UnavailableListener): Unsubscribe {
    let watching = true;
    const stopReading = this.rebalanceReader.watchGroup(groupId, (reason) => {
      if (watching) {
        onUnavailable(reason);
      }
    });
    const stop = (): void => {
      watching = false;
      stopReading();
    };
    this.rebalanceReader.start();
    this.describeGroup(groupId).then(
      (detail) => {
        if (watching && detail.groupType === 'consumer') {
          stop();
          onUnavailable(`${groupId} is a KIP-848 consumer group, which writes no generation records to ${OFFSETS_TOPIC}`);
        }
      },
      (error: unknown) => this.options.logger.debug(`Could not tell the type of group ${groupId}: ${errorText(error, this.config)}`),
    );
    return stop;
  }

  /** Reads every partition of `__consumer_offsets`: the history of every classic group. */
  watchAllRebalances(onUnavailable: UnavailableListener): Unsubscribe {
    const stop = this.rebalanceReader.watchAll(onUnavailable);
    this.rebalanceReader.start();
    return stop;
  }

  cliCommandConfig(): CliCommandConfig | undefined {
    const properties = commandConfigProperties(this.config);
    return properties === undefined ? undefined : { fileName: commandConfigFileName(this.config), properties };
  }

  async describeCluster(): Promise<ClusterInfo> {
    const topology = await this.topology();
    return {
      clusterId: topology.metadata.clusterId ?? '',
      controllerId: topology.metadata.controllerId >= 0 ? topology.metadata.controllerId : null,
      brokers: [...topology.brokers.values()],
    };
  }

  async listGroups(): Promise<GroupSummary[]> {
    const topology = await this.topology();
    const listed = await this.listAllGroups(topology);
    const details = await this.loadGroups([...listed.keys()], topology, listed);
    return details.map(toSummary);
  }

  async describeGroup(groupId: string): Promise<GroupDetail> {
    if (!groupId) {
      throw new Error('describeGroup needs a group id');
    }
    const topology = await this.topology();
    const [detail] = await this.loadGroups([groupId], topology, new Map());
    return detail;
  }

  /** Admin OffsetCommit (generation -1): only an Empty or unknown group accepts it. */
  async commitOffsets(groupId: string, offsets: readonly OffsetToCommit[]): Promise<PartitionOperationResult[]> {
    if (offsets.length === 0) {
      return [];
    }
    for (const o of offsets) {
      if (!Number.isSafeInteger(o.offset) || o.offset < 0) {
        throw new Error(`Offset for ${o.topic}-${o.partition} must be a non-negative integer, got ${o.offset}`);
      }
    }
    return this.guard(async () => {
      const topology = await this.topology();
      const results = await retryWhileCoordinatorLoads(async () => {
        const broker = await this.coordinatorBroker(groupId, topology);
        const version = requireVersion(broker, ApiKeys.OffsetCommit, 'OffsetCommit', 2, 7);
        return sendRequest(broker, adminOffsetCommitRequest(groupId, offsets, version));
      }, hasLoadingCode);
      return results.map(({ topic, partition, errorCode }) => (errorCode === 0 ? { topic, partition } : { topic, partition, error: describeErrorCode(errorCode) }));
    });
  }

  /** OffsetDelete: the broker refuses partitions of topics an active group subscribes to. */
  async deleteOffsets(groupId: string, topic: string, partitions: readonly number[]): Promise<OffsetDeleteOutcome> {
    if (partitions.length === 0) {
      throw new Error('deleteOffsets needs at least one partition');
    }
    return this.guard(async () => {
      const topology = await this.topology();
      const result = await retryWhileCoordinatorLoads(async () => {
        const broker = await this.coordinatorBroker(groupId, topology);
        requireVersion(broker, ApiKeys.OffsetDelete, 'OffsetDelete', 0, 0);
        return sendRequest(broker, offsetDeleteRequest(groupId, topic, partitions));
      }, (r) => hasLoadingCode([r]));
      const outcome: OffsetDeleteOutcome = {
        partitions: result.partitions.map((p) => (p.errorCode === 0 ? { topic: p.topic, partition: p.partition } : { topic: p.topic, partition: p.partition, error: describeErrorCode(p.errorCode) })),
      };
      if (result.errorCode !== 0) {
        outcome.error = describeErrorCode(result.errorCode);
      }
      return outcome;
    });
  }

  /** LeaveGroup by group.instance.id, as kafka-consumer-groups.sh would for static members. */
  async removeStaticMembers(groupId: string, instanceIds: readonly string[]): Promise<MemberRemovalOutcome> {
    if (instanceIds.length === 0) {
      throw new Error('removeStaticMembers needs at least one group.instance.id');
    }
    return this.guard(async () => {
      const topology = await this.topology();
      const result = await retryWhileCoordinatorLoads(async () => {
        const broker = await this.coordinatorBroker(groupId, topology);
        requireVersion(broker, ApiKeys.LeaveGroup, 'LeaveGroup', 3, 3);
        return sendRequest(broker, leaveGroupByInstanceIdRequest(groupId, instanceIds));
      }, (r) => hasLoadingCode([r]));
      const outcome: MemberRemovalOutcome = {
        members: result.members.map((m) => {
          const member: MemberRemovalResult = { groupInstanceId: m.groupInstanceId ?? '', memberId: m.memberId };
          if (m.errorCode !== 0) {
            member.error = describeErrorCode(m.errorCode);
          }
          return member;
        }),
      };
      if (result.errorCode !== 0) {
        outcome.error = describeErrorCode(result.errorCode);
      }
      return outcome;
    });
  }

  /** DeleteGroups batched per coordinator; each group gets its own result. */
  async deleteGroups(groupIds: readonly string[]): Promise<GroupDeletionResult[]> {
    return this.guard(async () => {
      const topology = await this.topology();
      const byCoordinator = groupBy(groupIds, (id) => this.coordinatorId(id, topology));
      const results = await Promise.all(
        [...byCoordinator].map(async ([nodeId, ids]): Promise<GroupDeletionResult[]> => {
          try {
            const answers = await retryWhileCoordinatorLoads(async () => {
              const broker = await this.brokerFor(nodeId, ids[0]);
              requireVersion(broker, ApiKeys.DeleteGroups, 'DeleteGroups', 1, 1);
              return sendRequest(broker, deleteGroupsRequest(ids));
            }, hasLoadingCode);
            return answers.map((a) => (a.errorCode === 0 ? { groupId: a.groupId } : { groupId: a.groupId, error: describeErrorCode(a.errorCode) }));
          } catch (e) {
            const error = errorText(e, this.config);
            return ids.map((groupId) => ({ groupId, error }));
          }
        }),
      );
      return results.flat();
    });
  }

  async dispose(): Promise<void> {
    this.changeListeners.clear();
    const readerStopped = this.rebalanceReader.dispose();
    this.connected = null;
    // Closing the connections ends the reader's in-flight long poll.
    await this.cluster.disconnect();
    await readerStopped;
  }

  private notifyChange(): void {
    for (const listener of [...this.changeListeners]) {
      try {
        listener();
      } catch (error) {
        this.options.logger.error(`A change listener failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  /** Runs fn, turning connection-level failures into KafkaConnectionError with a human message. */
  private async guard<T>(fn: () => Promise<T>): Promise<T> {
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

  private async anyBroker(): Promise<KafkajsBroker> {
    if (!this.connected) {
      this.connected = this.cluster.connect().catch((e: unknown) => {
        this.connected = null;
        throw e;
      });
    }
    await this.connected;
    for (const nodeId of Object.keys(this.cluster.brokerPool.brokers)) {
      try {
        return await this.cluster.findBroker({ nodeId });
      } catch {
        // try the next one
      }
    }
    const seed = this.cluster.brokerPool.seedBroker;
    if (!seed) {
      throw new Error('kafkajs has no connected broker after connect()');
    }
    return seed;
  }

  private async topology(): Promise<Topology> {
    return this.guard(async () => {
      const metadata = await sendRequest(await this.anyBroker(), metadataRequest([OFFSETS_TOPIC]));
      const offsetsTopic = metadata.topics.find((t) => t.topic === OFFSETS_TOPIC && t.errorCode === 0);
      const offsetsLeaders = offsetsTopic ? [...offsetsTopic.partitions].sort((a, b) => a.partition - b.partition).map((p) => p.leader) : null;
      await this.syncBrokerPool(metadata, offsetsLeaders !== null);
      const brokers = new Map(metadata.brokers.map(({ nodeId, host, port }) => [nodeId, { nodeId, host, port }]));
      return { metadata, brokers, offsetsLeaders };
    });
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

  private coordinatorId(groupId: string, topology: Topology): number | null {
    if (!topology.offsetsLeaders || topology.offsetsLeaders.length === 0) {
      return null;
    }
    const leader = topology.offsetsLeaders[offsetsPartitionFor(groupId, topology.offsetsLeaders.length)];
    return leader >= 0 ? leader : null;
  }

  private async coordinatorBroker(groupId: string, topology: Topology): Promise<KafkajsBroker> {
    return this.brokerFor(this.coordinatorId(groupId, topology), groupId);
  }

  /** The broker with that node id, or (when `__consumer_offsets` does not exist yet) FindCoordinator's answer for the group. */
  private brokerFor(nodeId: number | null, groupId: string): Promise<KafkajsBroker> {
    return nodeId === null ? this.cluster.findGroupCoordinator({ groupId }) : this.cluster.findBroker({ nodeId });
  }

  private async listAllGroups(topology: Topology): Promise<Map<string, ListedGroup>> {
    const settled = await Promise.allSettled(
      [...topology.brokers.keys()].map(async (nodeId) => {
        const broker = await this.cluster.findBroker({ nodeId });
        const version = requireVersion(broker, ApiKeys.ListGroups, 'ListGroups', 0, 5);
        const result = await sendRequest(broker, listGroupsRequest(version));
        if (result.errorCode !== 0) {
          throw new Error(`ListGroups on broker ${nodeId}: ${describeErrorCode(result.errorCode)}`);
        }
        return result.groups;
      }),
    );
    const failures = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failures.length === settled.length && failures.length > 0) {
      return this.guard(() => Promise.reject(failures[0].reason));
    }
    for (const failure of failures) {
      this.options.logger.warn(`ListGroups failed on one broker; its groups are missing: ${errorText(failure.reason, this.config)}`);
    }
    const listed = new Map<string, ListedGroup>();
    for (const s of settled) {
      if (s.status === 'fulfilled') {
        for (const group of s.value) {
          listed.set(group.groupId, group);
        }
      }
    }
    return listed;
  }

  private async loadGroups(groupIds: readonly string[], topology: Topology, listed: ReadonlyMap<string, ListedGroup>): Promise<GroupDetail[]> {
    const described = await this.describeAll(groupIds, topology, listed);
    const membersOf = new Map<string, { members: Member[]; generation: number; decodeErrors: string[] }>();
    for (const d of described) {
      if (d.kip848) {
        membersOf.set(d.groupId, { members: consumerGroupMembers(d.kip848), generation: d.kip848.groupEpoch, decodeErrors: [] });
      } else if (d.classic) {
        membersOf.set(d.groupId, classicMembers(d.classic));
      }
    }
    const committed = await mapWithConcurrency(described, this.concurrency, async (d) => this.fetchCommitted(d.groupId, topology));
    const partitions = new Map<string, TopicPartition>();
    described.forEach((d, i) => {
      const commits = committed[i];
      for (const tp of [...(Array.isArray(commits) ? commits : []), ...(membersOf.get(d.groupId)?.members.flatMap((m) => m.assignment) ?? [])]) {
        partitions.set(partitionKey(tp), { topic: tp.topic, partition: tp.partition });
      }
    });
    const ends = await this.partitionEnds([...partitions.values()]);
    const isolationOf = (groupId: string) => this.options.isolationLevelFor?.(groupId);
    const rowsOf = described.map((d, i) => {
      const commits = committed[i];
      return offsetRows(membersOf.get(d.groupId)?.members ?? [], Array.isArray(commits) ? commits : [], ends.ends, isolationOf(d.groupId));
    });
    await this.markMarkerOnlyLag(
      described.map((d, i) => ({ rows: rowsOf[i], readCommitted: isolationOf(d.groupId) === 'read_committed' })),
      ends.leaders,
    );

    return described.map((d, i): GroupDetail => {
      const listing = listed.get(d.groupId);
      const members = membersOf.get(d.groupId);
      const commits = committed[i];
      const isolationLevel = isolationOf(d.groupId);
      const rows = rowsOf[i];
      const protocolType = d.kip848 ? 'consumer' : (d.classic?.protocolType ?? listing?.protocolType ?? '');
      const state = d.kip848 ? toGroupState(d.kip848.groupState) : d.classic ? toGroupState(d.classic.groupState) : toGroupState(listing?.groupState ?? '');
      const topicErrors = [...new Set(rows.map((r) => r.topic))].map((t) => ends.topicErrors.get(t));
      const errors = [d.error, typeof commits === 'string' ? commits : undefined, ...(members?.decodeErrors ?? []), ...topicErrors].filter((e): e is string => Boolean(e));
      const detail: GroupDetail = {
        groupId: d.groupId,
        state,
        protocolType,
        groupType: d.kip848 ? 'consumer' : toGroupType(listing?.groupType ?? null, protocolType),
        assignor: d.kip848 ? d.kip848.assignorName : (d.classic?.protocolData ?? ''),
        generation: members?.generation ?? -1,
        coordinator: d.coordinator,
        memberCount: members?.members.length ?? 0,
        totalLag: totalLag(rows),
        leaderId: null,
        members: members?.members ?? [],
        offsets: rows,
      };
      if (isolationLevel) {
        detail.isolationLevel = isolationLevel;
      }
      if (errors.length > 0) {
        detail.error = errors.join('; ');
      }
      return detail;
    });
  }

  /** DescribeGroups per coordinator, and ConsumerGroupDescribe for KIP-848 groups. */
  private async describeAll(groupIds: readonly string[], topology: Topology, listed: ReadonlyMap<string, ListedGroup>): Promise<DescribedForLoad[]> {
    const byCoordinator = groupBy(groupIds, (id) => this.coordinatorId(id, topology));
    const batches = await Promise.all(
      [...byCoordinator].map(async ([nodeId, ids]): Promise<DescribedForLoad[]> => {
        let broker: KafkajsBroker;
        try {
          broker = await retryWhileCoordinatorLoads(() => this.brokerFor(nodeId, ids[0]), () => false);
        } catch (e) {
          const error = `Cannot reach the group coordinator: ${errorText(e, this.config)}`;
          return ids.map((groupId) => ({ groupId, coordinator: nodeId === null ? null : (topology.brokers.get(nodeId) ?? null), error }));
        }
        const coordinator = broker.nodeId !== null ? (topology.brokers.get(broker.nodeId) ?? null) : null;
        return this.describeOnCoordinator(broker, coordinator, ids, listed);
      }),
    );
    const byId = new Map(batches.flat().map((d) => [d.groupId, d]));
    return groupIds.map((id) => byId.get(id) ?? { groupId: id, coordinator: null, error: 'The coordinator did not describe this group' });
  }

  private async describeOnCoordinator(broker: KafkajsBroker, coordinator: BrokerRef | null, ids: readonly string[], listed: ReadonlyMap<string, ListedGroup>): Promise<DescribedForLoad[]> {
    const supportsKip848 = pickVersion(broker, ApiKeys.ConsumerGroupDescribe, 0, 0) !== null;
    const kip848Ids = ids.filter((id) => listed.get(id)?.groupType === 'consumer' && supportsKip848);
    const classicIds = ids.filter((id) => !kip848Ids.includes(id));
    const results = new Map<string, DescribedForLoad>();
    try {
      if (classicIds.length > 0) {
        const version = requireVersion(broker, ApiKeys.DescribeGroups, 'DescribeGroups', 0, 6);
        const describe = () => sendRequest(broker, describeGroupsRequest(classicIds, version));
        for (const group of await retryWhileCoordinatorLoads(describe, hasLoadingCode)) {
          const entry: DescribedForLoad = { groupId: group.groupId, coordinator, classic: group };
          if (group.errorCode !== 0) {
            entry.error = group.errorMessage ?? describeErrorCode(group.errorCode);
          }
          results.set(group.groupId, entry);
          // Without ListGroups v5 a KIP-848 group shows up here as Dead with no members.
          const maybeKip848 = supportsKip848 && !listed.get(group.groupId)?.groupType && group.groupState === 'Dead' && group.members.length === 0;
          if (maybeKip848) {
            kip848Ids.push(group.groupId);
          }
        }
      }
      if (kip848Ids.length > 0) {
        const describe = () => sendRequest(broker, consumerGroupDescribeRequest(kip848Ids));
        for (const group of await retryWhileCoordinatorLoads(describe, hasLoadingCode)) {
          if (group.errorCode === GROUP_ID_NOT_FOUND && results.has(group.groupId)) {
            continue; // really a classic (or unknown) group: keep DescribeGroups' answer
          }
          const entry: DescribedForLoad = { groupId: group.groupId, coordinator, kip848: group };
          if (group.errorCode !== 0) {
            entry.error = group.errorMessage ?? describeErrorCode(group.errorCode);
          }
          results.set(group.groupId, entry);
        }
      }
    } catch (e) {
      const error = errorText(e, this.config);
      return ids.map((groupId) => results.get(groupId) ?? { groupId, coordinator, error });
    }
    return ids.map((groupId) => results.get(groupId) ?? { groupId, coordinator, error: 'The coordinator did not describe this group' });
  }

  /** The group's committed offsets, or an error text for that group alone. */
  private async fetchCommitted(groupId: string, topology: Topology): Promise<CommittedOffset[] | string> {
    try {
      const result = await retryWhileCoordinatorLoads(
        async () => sendRequest(await this.coordinatorBroker(groupId, topology), offsetFetchRequest(groupId)),
        (r) => hasLoadingCode([r]),
      );
      if (result.errorCode !== 0) {
        return `Committed offsets: ${describeErrorCode(result.errorCode)}`;
      }
      const failed = result.offsets.find((o) => o.errorCode !== 0);
      if (failed) {
        return `Committed offset of ${failed.topic}-${failed.partition}: ${describeErrorCode(failed.errorCode)}`;
      }
      return result.offsets;
    } catch (e) {
      return `Committed offsets: ${errorText(e, this.config)}`;
    }
  }

  /** Earliest, high watermark and last stable offset of each partition, batched per leader; failures per topic. */
  private async partitionEnds(
    partitions: readonly TopicPartition[],
  ): Promise<{ ends: Map<string, PartitionEnds>; topicErrors: Map<string, string>; leaders: Map<string, number> }> {
    const ends = new Map<string, PartitionEnds>();
    const leaders = new Map<string, number>();
    const topicErrors = new Map<string, string>();
    const fail = (topics: Iterable<string>, message: string) => {
      for (const topic of topics) {
        topicErrors.set(topic, topicErrors.has(topic) ? `${topicErrors.get(topic)}; ${message}` : message);
      }
    };
    if (partitions.length === 0) {
      return { ends, topicErrors, leaders };
    }
    const topics = [...new Set(partitions.map((p) => p.topic))];
    try {
      const metadata = await sendRequest(await this.anyBroker(), metadataRequest(topics));
      for (const t of metadata.topics) {
        if (t.errorCode !== 0) {
          fail([t.topic], `Topic ${t.topic}: ${describeErrorCode(t.errorCode)}`);
        }
        for (const p of t.partitions) {
          leaders.set(partitionKey({ topic: t.topic, partition: p.partition }), p.leader);
        }
      }
      const byLeader = groupBy(
        partitions.filter((p) => (leaders.get(partitionKey(p)) ?? -1) >= 0),
        (p) => leaders.get(partitionKey(p)) as number,
      );
      await Promise.all(
        [...byLeader].map(async ([leader, parts]) => {
          try {
            const broker = await this.cluster.findBroker({ nodeId: leader });
            const [earliest, latest, stable] = await Promise.all([
              sendRequest(broker, listOffsetsRequest(READ_UNCOMMITTED, EARLIEST_TIMESTAMP, parts)),
              sendRequest(broker, listOffsetsRequest(READ_UNCOMMITTED, LATEST_TIMESTAMP, parts)),
              sendRequest(broker, listOffsetsRequest(READ_COMMITTED, LATEST_TIMESTAMP, parts)),
            ]);
            const index = (list: ListedOffset[]) => new Map(list.filter((o) => o.errorCode === 0).map((o) => [partitionKey(o), o.offset]));
            const [e, l, s] = [index(earliest), index(latest), index(stable)];
            for (const p of parts) {
              const key = partitionKey(p);
              ends.set(key, { logStartOffset: e.get(key) ?? null, highWatermark: l.get(key) ?? null, lastStableOffset: s.get(key) ?? null });
            }
            for (const failed of latest.filter((o) => o.errorCode !== 0)) {
              fail([failed.topic], `Log end offset of ${failed.topic}-${failed.partition}: ${describeErrorCode(failed.errorCode)}`);
            }
          } catch (err) {
            fail(new Set(parts.map((p) => p.topic)), `Log offsets from broker ${leader}: ${errorText(err, this.config)}`);
          }
        }),
      );
    } catch (err) {
      fail(topics, `Log offsets: ${errorText(err, this.config)}`);
    }
    return { ends, topicErrors, leaders };
  }

  /**
   * Flags rows whose lag is only transaction markers (see markerOnlyLag.ts): one Fetch per leader
   * and topic, at the lowest committed offset asked for each partition. Best effort: a failed
   * Fetch leaves the rows as they were.
   */
  private async markMarkerOnlyLag(groups: ReadonlyArray<{ rows: PartitionOffsets[]; readCommitted: boolean }>, leaders: ReadonlyMap<string, number>): Promise<void> {
    const checks = groups.flatMap(({ rows, readCommitted }) => markerCandidates(rows, readCommitted).map((row) => ({ row, end: readableEnd(row, readCommitted) as number })));
    const fetchFrom = new Map<string, TopicPartition & { offset: number }>();
    for (const { row } of checks) {
      const key = partitionKey(row);
      const offset = row.committedOffset as number;
      if ((fetchFrom.get(key)?.offset ?? Infinity) > offset) {
        fetchFrom.set(key, { topic: row.topic, partition: row.partition, offset });
      }
    }
    const byLeaderAndTopic = groupBy(
      [...fetchFrom.values()].filter((p) => leaders.has(partitionKey(p))),
      (p) => `${leaders.get(partitionKey(p))}\u0000${p.topic}`,
    );
    const frames = new Map<string, ReturnType<typeof readBatchFrames>>();
    await Promise.all(
      [...byLeaderAndTopic.values()].map(async (positions) => {
        const { topic } = positions[0];
        try {
          const broker = await this.cluster.findBroker({ nodeId: leaders.get(partitionKey(positions[0])) as number });
          const version = requireVersion(broker, ApiKeys.Fetch, 'Fetch', MIN_FETCH_VERSION, MAX_FETCH_VERSION);
          const request = fetchRequest(version, topic, positions.map((p) => ({ partition: p.partition, fetchOffset: p.offset })), MARKER_FETCH_LIMITS);
          for (const answer of (await sendRequest(broker, request)).partitions) {
            if (answer.errorCode === 0 && answer.records) {
              frames.set(partitionKey(answer), readBatchFrames(answer.records));
            }
          }
        } catch (err) {
          this.options.logger.debug(`Transaction-marker check of ${topic}: ${errorText(err, this.config)}`);
        }
      }),
    );
    for (const { row, end } of checks) {
      const fetched = frames.get(partitionKey(row));
      if (fetched && onlyMarkersBetween(fetched, row.committedOffset as number, end) === true) {
        row.markerOnlyLag = true;
      }
    }
  }
}

/** Small answers: a marker batch is under 100 bytes, and a data batch says enough from its header. */
const MARKER_FETCH_LIMITS: FetchLimits = { maxWaitMs: 0, maxBytes: 1024 * 1024, maxBytesPerPartition: 16 * 1024 };
