/**
 * ClusterSource over a real cluster, through kafkajs 2.2.4's connections.
 *
 * A refresh costs: one Metadata request (brokers, the `__consumer_offsets` leaders that give every
 * group's coordinator via offsetsPartitionFor, and the leaders of the topics the groups used last
 * time; ClusterConnection shares it between describeCluster and listGroups), then what GroupLoader
 * sends. A failure of one group lands in that group's `error`; the rest still load. A failure of
 * the connection itself (unreachable, TLS, login, timeout) fails the whole load at once with a
 * KafkaConnectionError that says its kind.
 *
 * Rebalance history: while a group is watched (its timeline is open), OffsetsTopicReader reads the
 * group's partition of `__consumer_offsets` with one long-polling Fetch per leader, joining no group.
 */
import { Kafka } from 'kafkajs';
import type { CliCommandConfig, ClusterSource, Unsubscribe } from '../model/clusterSource';
import type { ClusterInfo, GroupDetail, GroupState, GroupSummary, RebalanceEvent, TopicPartition } from '../model/types';
import { ClusterConnection } from './clusterConnection';
import { groupBy } from './collections';
import { commandConfigFileName, commandConfigProperties } from './commandConfig';
import { buildKafkaConfig, type ConnectionConfig, type KafkaLogger, type Secrets } from './connection';
import { hasLoadingCode, retryWhileCoordinatorLoads } from './coordinatorRetry';
import { GroupLoader } from './groupLoader';
import { GROUP_ID_NOT_FOUND } from './groupTypes';
import { toGroupState, toSummary } from './groupView';
import type { IsolationLevelLookup } from './isolationLevels';
import { requireVersion, sendRequest } from './kafkajsBridge';
import { OFFSETS_TOPIC, OffsetsTopicReader, type UnavailableListener } from './offsetsTopicReader';
import { ClusterOffsetsTopicTransport } from './offsetsTopicTransport';
import { adminOffsetCommitRequest, deleteGroupsRequest, leaveGroupByInstanceIdRequest, offsetDeleteRequest, type OffsetToCommit } from './protocol/adminRequests';
import { ApiKeys } from './protocol/apiRequest';
import { describeErrorCode, KafkaErrorCode } from './protocol/errorCodes';
import type { FetchLimits } from './protocol/fetchRequest';
import type { CommittedOffset } from './protocol/offsetRequests';
import { errorMessage } from '../protocol/errors';

export { KafkaConnectionError } from './clusterConnection';

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

export class KafkaSource implements ClusterSource {
  readonly kind = 'kafka' as const;
  readonly id: string;
  readonly label: string;
  /** The cluster's connections, shared with KafkaGroupAdmin and the `__consumer_offsets` reader. */
  readonly connection: ClusterConnection;
  private readonly loader: GroupLoader;
  /** Rebalance history from the group-metadata records of `__consumer_offsets`, read only while watched. */
  private readonly rebalanceReader: OffsetsTopicReader;
  private readonly changeListeners = new Set<() => void>();

  constructor(private readonly config: ConnectionConfig, secrets: Secrets, private readonly options: KafkaSourceOptions) {
    this.id = config.id;
    this.label = config.name;
    const kafka = options.kafka ?? new Kafka(buildKafkaConfig(config, secrets, { logger: options.logger }));
    this.connection = new ClusterConnection(config, kafka);
    const transport = new ClusterOffsetsTopicTransport(
      async () => (await this.connection.topology()).metadata,
      (nodeId) => this.connection.broker(nodeId),
    );
    this.rebalanceReader = new OffsetsTopicReader(transport, {
      logger: options.logger,
      limits: options.offsetsTopicFetchLimits,
      onEvents: () => this.notifyChange(),
    });
    this.loader = new GroupLoader(this.connection, {
      logger: options.logger,
      concurrency: options.offsetFetchConcurrency ?? DEFAULT_OFFSET_FETCH_CONCURRENCY,
      isolationLevelFor: options.isolationLevelFor,
      generationOf: (groupId) => this.rebalanceReader.generation(groupId),
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
    const listed = await this.loader.listAllGroups(topology);
    const details = await this.loader.loadGroups([...listed.keys()], topology, listed);
    // The next refresh's one Metadata request carries these topics' leaders too.
    this.connection.setTopicsOfInterest(details.flatMap((d) => d.offsets.map((o) => o.topic)));
    return details.map(toSummary);
  }

  async describeGroup(groupId: string): Promise<GroupDetail> {
    if (!groupId) {
      throw new Error('describeGroup needs a group id');
    }
    const topology = await this.connection.topology();
    const [detail] = await this.loader.loadGroups([groupId], topology, new Map());
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
      const [described] = await this.loader.describeOnCoordinator(broker, null, [groupId], new Map());
      if (described.typed) {
        if (described.typed.error !== undefined) {
          throw new Error(`State of group ${groupId}: ${described.typed.error}`);
        }
        return described.typed.state;
      }
      const answer = described.classic;
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
      const result = await this.loader.offsetFetch(groupId, await this.connection.topology());
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
        this.options.logger.error(`A change listener failed: ${errorMessage(error)}`);
      }
    }
  }

}
