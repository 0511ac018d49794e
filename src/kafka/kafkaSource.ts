/**
 * ClusterSource over a real cluster, through kafkajs 2.2.4's connections.
 *
 * A refresh costs: one Metadata request (brokers, the `__consumer_offsets` leaders that give every
 * group's coordinator via offsetsPartitionFor, and the leaders of the topics the groups used last
 * time; ClusterConnection shares it between describeCluster and listGroups), ListGroups on each
 * broker, DescribeGroups (and ConsumerGroupDescribe for KIP-848 groups) batched per coordinator,
 * OffsetFetch per group with bounded concurrency, and three ListOffsets per partition leader
 * (earliest, high watermark, last stable offset). A failure of one group lands in that group's
 * `error`; the rest still load. A failure of the connection itself (unreachable, TLS, login,
 * timeout) fails the whole load at once with a KafkaConnectionError that says its kind.
 *
 * Rebalance history: while a group is watched (its timeline is open), OffsetsTopicReader reads the
 * group's partition of `__consumer_offsets` with one long-polling Fetch per leader, joining no group.
 */
import { Kafka } from 'kafkajs';
import type { CliCommandConfig, ClusterSource, Unsubscribe } from '../model/clusterSource';
import type { BrokerRef, ClusterInfo, GroupDetail, GroupState, GroupSummary, Member, PartitionOffsets, RebalanceEvent, TopicPartition } from '../model/types';
import { groupBy } from './collections';
import { commandConfigFileName, commandConfigProperties } from './commandConfig';
import { hasLoadingCode, retryWhileCoordinatorLoads } from './coordinatorRetry';
import { ClusterConnection, type Topology } from './clusterConnection';
import { buildKafkaConfig, type ConnectionConfig, type KafkaLogger, type Secrets } from './connection';
import { classicMembers, consumerGroupMembers, offsetRows, partitionKey, toGroupState, toGroupType, toSummary, totalLag, type PartitionEnds } from './groupView';
import { pickVersion, requireVersion, sendRequest, type KafkajsBroker } from './kafkajsBridge';
import type { IsolationLevelLookup } from './isolationLevels';
import { OFFSETS_TOPIC, OffsetsTopicReader, type UnavailableListener } from './offsetsTopicReader';
import { ClusterOffsetsTopicTransport } from './offsetsTopicTransport';
import { adminOffsetCommitRequest, deleteGroupsRequest, leaveGroupByInstanceIdRequest, offsetDeleteRequest, type OffsetToCommit } from './protocol/adminRequests';
import { ApiKeys } from './protocol/apiRequest';
import { describeErrorCode, KafkaErrorCode } from './protocol/errorCodes';
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
  offsetFetchRequest,
  type CommittedOffset,
  type ListedOffset,
  type OffsetFetchResult,
} from './protocol/offsetRequests';

export { KafkaConnectionError } from './clusterConnection';

const GROUP_ID_NOT_FOUND = 69;
const MAX_INT64 = 2n ** 63n - 1n;
const DEFAULT_OFFSET_FETCH_CONCURRENCY = 8;
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

interface DescribedForLoad {
  groupId: string;
  coordinator: BrokerRef | null;
  classic?: DescribedGroup;
  kip848?: ConsumerGroupDescription;
  error?: string;
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
  /** The cluster's connections, shared with KafkaGroupAdmin and the `__consumer_offsets` reader. */
  readonly connection: ClusterConnection;
  private readonly concurrency: number;
  /** Rebalance history from the group-metadata records of `__consumer_offsets`, read only while watched. */
  private readonly rebalanceReader: OffsetsTopicReader;
  private readonly changeListeners = new Set<() => void>();

  constructor(private readonly config: ConnectionConfig, secrets: Secrets, private readonly options: KafkaSourceOptions) {
    this.id = config.id;
    this.label = config.name;
    const kafka = options.kafka ?? new Kafka(buildKafkaConfig(config, secrets, { logger: options.logger }));
    this.connection = new ClusterConnection(config, kafka);
    this.concurrency = options.offsetFetchConcurrency ?? DEFAULT_OFFSET_FETCH_CONCURRENCY;
    const transport = new ClusterOffsetsTopicTransport(
      async () => (await this.connection.topology()).metadata,
      (nodeId) => this.connection.broker(nodeId),
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
      (error: unknown) => this.options.logger.debug(`Could not tell the type of group ${groupId}: ${this.connection.errorText(error)}`),
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
    const topology = await this.connection.topology();
    return {
      clusterId: topology.metadata.clusterId ?? '',
      controllerId: topology.metadata.controllerId >= 0 ? topology.metadata.controllerId : null,
      brokers: [...topology.brokers.values()],
    };
  }

  async listGroups(): Promise<GroupSummary[]> {
    const topology = await this.connection.topology();
    const listed = await this.listAllGroups(topology);
    const details = await this.loadGroups([...listed.keys()], topology, listed);
    // The next refresh's one Metadata request carries these topics' leaders too.
    this.connection.setTopicsOfInterest(details.flatMap((d) => d.offsets.map((o) => o.topic)));
    return details.map(toSummary);
  }

  async describeGroup(groupId: string): Promise<GroupDetail> {
    if (!groupId) {
      throw new Error('describeGroup needs a group id');
    }
    const topology = await this.connection.topology();
    const [detail] = await this.loadGroups([groupId], topology, new Map());
    return detail;
  }

  /**
   * The group's state from one DescribeGroups to its coordinator (and ConsumerGroupDescribe when it
   * answers Dead for what may be a KIP-848 group), without loading offsets: what a reset re-checks.
   */
  async groupState(groupId: string): Promise<GroupState> {
    if (!groupId) {
      throw new Error('groupState needs a group id');
    }
    return this.connection.guard(async () => {
      const topology = await this.connection.topology();
      const broker = await retryWhileCoordinatorLoads(() => this.connection.coordinatorBroker(groupId, topology), () => false);
      const [described] = await this.describeOnCoordinator(broker, null, [groupId], new Map());
      const answer = described.kip848 ?? described.classic;
      if (!answer) {
        throw new Error(`State of group ${groupId}: ${described.error ?? 'the coordinator did not describe it'}`);
      }
      if (answer.errorCode === GROUP_ID_NOT_FOUND) {
        return 'Dead'; // DescribeGroups v6 (Kafka 4) says so for a group older versions describe as Dead
      }
      if (answer.errorCode !== 0) {
        throw new KafkaErrorCode(answer.errorCode, `State of group ${groupId}`);
      }
      return toGroupState(answer.groupState);
    });
  }

  /** The group's committed offsets (every topic, no-commit entries dropped) from one OffsetFetch to its coordinator. */
  async committedOffsets(groupId: string): Promise<CommittedOffset[]> {
    return this.connection.guard(async () => {
      const result = await this.offsetFetch(groupId, await this.connection.topology());
      if (result.errorCode !== 0) {
        throw new KafkaErrorCode(result.errorCode, `Committed offsets of ${groupId}`);
      }
      const failed = result.offsets.find((o) => o.errorCode !== 0);
      if (failed) {
        throw new KafkaErrorCode(failed.errorCode, `Committed offset of ${failed.topic}-${failed.partition}`);
      }
      return result.offsets.filter((o) => o.offset >= 0);
    });
  }

  /** Admin OffsetCommit (generation -1): only an Empty or unknown group accepts it. */
  async commitOffsets(groupId: string, offsets: readonly OffsetToCommit[]): Promise<PartitionOperationResult[]> {
    if (offsets.length === 0) {
      return [];
    }
    for (const o of offsets) {
      const valid = typeof o.offset === 'bigint' ? o.offset >= 0n && o.offset <= MAX_INT64 : Number.isSafeInteger(o.offset) && o.offset >= 0;
      if (!valid) {
        throw new Error(`Offset for ${o.topic}-${o.partition} must be a non-negative integer (a bigint up to 2^63-1 beyond 2^53), got ${o.offset}`);
      }
    }
    return this.connection.guard(async () => {
      const topology = await this.connection.topology();
      const results = await retryWhileCoordinatorLoads(async () => {
        const broker = await this.connection.coordinatorBroker(groupId, topology);
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
    return this.connection.guard(async () => {
      const topology = await this.connection.topology();
      const result = await retryWhileCoordinatorLoads(async () => {
        const broker = await this.connection.coordinatorBroker(groupId, topology);
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
    return this.connection.guard(async () => {
      const topology = await this.connection.topology();
      const result = await retryWhileCoordinatorLoads(async () => {
        const broker = await this.connection.coordinatorBroker(groupId, topology);
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
    return this.connection.guard(async () => {
      const topology = await this.connection.topology();
      const byCoordinator = groupBy(groupIds, (id) => this.connection.coordinatorId(id, topology));
      const results = await Promise.all(
        [...byCoordinator].map(async ([nodeId, ids]): Promise<GroupDeletionResult[]> => {
          try {
            const answers = await retryWhileCoordinatorLoads(async () => {
              const broker = await this.connection.brokerFor(nodeId, ids[0]);
              requireVersion(broker, ApiKeys.DeleteGroups, 'DeleteGroups', 1, 1);
              return sendRequest(broker, deleteGroupsRequest(ids));
            }, hasLoadingCode);
            return answers.map((a) => (a.errorCode === 0 ? { groupId: a.groupId } : { groupId: a.groupId, error: describeErrorCode(a.errorCode) }));
          } catch (e) {
            const error = this.connection.errorText(e);
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
    // Closing the connections ends the reader's in-flight long poll.
    await this.connection.disconnect();
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

  private async listAllGroups(topology: Topology): Promise<Map<string, ListedGroup>> {
    const settled = await Promise.allSettled(
      [...topology.brokers.keys()].map(async (nodeId) => {
        const broker = await this.connection.broker(nodeId);
        const version = requireVersion(broker, ApiKeys.ListGroups, 'ListGroups', 0, 5);
        const result = await sendRequest(broker, listGroupsRequest(version));
        if (result.errorCode !== 0) {
          throw new KafkaErrorCode(result.errorCode, `ListGroups on broker ${nodeId}`);
        }
        return result.groups;
      }),
    );
    const failures = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failures.length === settled.length && failures.length > 0) {
      return this.connection.guard(() => Promise.reject(failures[0].reason));
    }
    for (const failure of failures) {
      this.options.logger.warn(`ListGroups failed on one broker; its groups are missing: ${this.connection.errorText(failure.reason)}`);
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
    const membersOf = new Map<string, { members: Member[]; decodeErrors: string[] }>();
    for (const d of described) {
      if (d.kip848) {
        membersOf.set(d.groupId, { members: consumerGroupMembers(d.kip848), decodeErrors: [] });
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
        coordinator: d.coordinator,
        memberCount: members?.members.length ?? 0,
        totalLag: totalLag(rows),
        leaderId: null,
        members: members?.members ?? [],
        offsets: rows,
      };
      // DescribeGroups carries no generation: a classic group's is known only from its record in
      // `__consumer_offsets`, while that is being read; the members' subscriptions lag behind.
      const generation = d.kip848 ? d.kip848.groupEpoch : this.rebalanceReader.generation(d.groupId);
      if (generation !== undefined) {
        detail.generation = generation;
      }
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
    const byCoordinator = groupBy(groupIds, (id) => this.connection.coordinatorId(id, topology));
    const batches = await Promise.all(
      [...byCoordinator].map(async ([nodeId, ids]): Promise<DescribedForLoad[]> => {
        let broker: KafkajsBroker;
        try {
          broker = await retryWhileCoordinatorLoads(() => this.connection.brokerFor(nodeId, ids[0]), () => false);
        } catch (e) {
          if (this.connection.isConnectionFailure(e)) {
            throw e;
          }
          const error = `Cannot reach the group coordinator: ${this.connection.errorText(e)}`;
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
      if (this.connection.isConnectionFailure(e)) {
        throw e;
      }
      const error = this.connection.errorText(e);
      return ids.map((groupId) => results.get(groupId) ?? { groupId, coordinator, error });
    }
    return ids.map((groupId) => results.get(groupId) ?? { groupId, coordinator, error: 'The coordinator did not describe this group' });
  }

  /** One OffsetFetch (every committed topic) to the group's coordinator, repeated while it loads. */
  private offsetFetch(groupId: string, topology: Topology): Promise<OffsetFetchResult> {
    return retryWhileCoordinatorLoads(
      async () => sendRequest(await this.connection.coordinatorBroker(groupId, topology), offsetFetchRequest(groupId)),
      (r) => hasLoadingCode([r]),
    );
  }

  /** The group's committed offsets, or an error text for that group alone; a connection failure fails the load. */
  private async fetchCommitted(groupId: string, topology: Topology): Promise<CommittedOffset[] | string> {
    try {
      const result = await this.offsetFetch(groupId, topology);
      if (result.errorCode !== 0) {
        return `Committed offsets: ${describeErrorCode(result.errorCode)}`;
      }
      const failed = result.offsets.find((o) => o.errorCode !== 0);
      if (failed) {
        return `Committed offset of ${failed.topic}-${failed.partition}: ${describeErrorCode(failed.errorCode)}`;
      }
      return result.offsets;
    } catch (e) {
      if (this.connection.isConnectionFailure(e)) {
        throw e;
      }
      return `Committed offsets: ${this.connection.errorText(e)}`;
    }
  }

  /**
   * Earliest, high watermark and last stable offset of each partition, batched per leader (leaders
   * from the refresh's topology when it has them); failures per topic.
   */
  private async partitionEnds(
    partitions: readonly TopicPartition[],
  ): Promise<{ ends: Map<string, PartitionEnds>; topicErrors: Map<string, string>; leaders: Map<string, number> }> {
    const ends = new Map<string, PartitionEnds>();
    const topicErrors = new Map<string, string>();
    const fail = (topics: Iterable<string>, message: string) => {
      for (const topic of topics) {
        topicErrors.set(topic, topicErrors.has(topic) ? `${topicErrors.get(topic)}; ${message}` : message);
      }
    };
    if (partitions.length === 0) {
      return { ends, topicErrors, leaders: new Map() };
    }
    const found = await this.connection.partitionLeaders([...new Set(partitions.map((p) => p.topic))]);
    for (const [topic, error] of found.topicErrors) {
      fail([topic], error);
    }
    const listed = await this.connection.listOffsets(partitions, found.leaders, [
      { isolationLevel: READ_UNCOMMITTED, timestamp: EARLIEST_TIMESTAMP },
      { isolationLevel: READ_UNCOMMITTED, timestamp: LATEST_TIMESTAMP },
      { isolationLevel: READ_COMMITTED, timestamp: LATEST_TIMESTAMP },
    ]);
    const index = (list: ListedOffset[]) => new Map(list.filter((o) => o.errorCode === 0).map((o) => [partitionKey(o), o.offset]));
    const [earliest, latest, stable] = listed.answers.map(index);
    for (const p of partitions) {
      const key = partitionKey(p);
      if (latest.has(key) || earliest.has(key) || stable.has(key)) {
        ends.set(key, { logStartOffset: earliest.get(key) ?? null, highWatermark: latest.get(key) ?? null, lastStableOffset: stable.get(key) ?? null });
      }
    }
    for (const failed of listed.answers[1].filter((o) => o.errorCode !== 0)) {
      fail([failed.topic], `Log end offset of ${failed.topic}-${failed.partition}: ${describeErrorCode(failed.errorCode)}`);
    }
    for (const { leader, partitions: parts, error } of listed.failures) {
      fail(new Set(parts.map((p) => p.topic)), `Log offsets from broker ${leader}: ${error}`);
    }
    return { ends, topicErrors, leaders: found.leaders };
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
          const broker = await this.connection.broker(leaders.get(partitionKey(positions[0])) as number);
          const version = requireVersion(broker, ApiKeys.Fetch, 'Fetch', MIN_FETCH_VERSION, MAX_FETCH_VERSION);
          const request = fetchRequest(version, topic, positions.map((p) => ({ partition: p.partition, fetchOffset: p.offset })), MARKER_FETCH_LIMITS);
          for (const answer of (await sendRequest(broker, request)).partitions) {
            if (answer.errorCode === 0 && answer.records) {
              frames.set(partitionKey(answer), readBatchFrames(answer.records));
            }
          }
        } catch (err) {
          this.options.logger.debug(`Transaction-marker check of ${topic}: ${this.connection.errorText(err)}`);
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
