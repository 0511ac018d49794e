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
 * Admin lookups and writes go through GroupAdminClient (`admin`), on the same connections.
 *
 * Rebalance history: while a group is watched (its timeline is open), OffsetsTopicReader reads the
 * group's partition of `__consumer_offsets` with one long-polling Fetch per leader, joining no group.
 */
import { Kafka } from 'kafkajs';
import type { CliCommandConfig, ClusterSource, Unsubscribe } from '../model/clusterSource';
import type { ClusterInfo, GroupDetail, GroupSummary, RebalanceEvent } from '../model/types';
import { errorMessage } from '../protocol/errors';
import { ClusterConnection } from './clusterConnection';
import { commandConfigFileName, commandConfigProperties } from './commandConfig';
import { buildKafkaConfig, type ConnectionConfig, type KafkaLogger, type Secrets } from './connection';
import { GroupAdminClient, type PartitionOperationResult } from './groupAdminClient';
import { GroupLoader } from './groupLoader';
import { listedSummary, toSummary } from './groupDetailMapper';
import type { IsolationLevelLookup } from './isolationLevels';
import { OffsetsTopicReader, type UnavailableListener } from './offsetsTopicReader';
import { ClusterOffsetsTopicTransport } from './offsetsTopicTransport';
import type { OffsetToCommit } from './requests/adminRequests';
import type { ListedGroup } from './requests/groupRequests';
import type { FetchLimits } from './requests/fetchRequest';

export { KafkaConnectionError } from './clusterConnection';
export type { GroupDeletionResult, MemberRemovalOutcome, MemberRemovalResult, OffsetDeleteOutcome, PartitionOperationResult } from './groupAdminClient';

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

export class KafkaSource implements ClusterSource {
  readonly kind = 'kafka' as const;
  readonly id: string;
  readonly label: string;
  /** The cluster's connections, shared with KafkaGroupAdmin and the `__consumer_offsets` reader. */
  readonly connection: ClusterConnection;
  /** The lookups a write re-checks and the writes, on the same connections. */
  readonly admin: GroupAdminClient;
  private readonly loader: GroupLoader;
  /** Rebalance history from the group-metadata records of `__consumer_offsets`, read only while watched. */
  private readonly rebalanceReader: OffsetsTopicReader;
  private readonly changeListeners = new Set<() => void>();
  /** The last listGroupsOnly answer: loadGroupDetails describes each group with its listed type. */
  private listed: ReadonlyMap<string, ListedGroup> = new Map();
  /** Topics of the details loaded since the last listing, and of the round before: the next Metadata carries their leaders. */
  private detailTopics = { current: new Set<string>(), previous: new Set<string>() };

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
    this.admin = new GroupAdminClient(this.connection, this.loader);
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
   * Classic, consumer, share and streams groups all have their records read there.
   * `onUnavailable` is told when the user may not read the topic.
   */
  watchRebalances(groupId: string, onUnavailable: UnavailableListener): Unsubscribe {
    const stop = this.rebalanceReader.watchGroup(groupId, onUnavailable);
    this.rebalanceReader.start();
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
    return (await this.loadAllGroups(false)).map(toSummary);
  }

  /** With lag in time (a Fetch at each lagging committed offset), which listGroups and describeGroup leave out, as SimSource's do. */
  listGroupDetails(): Promise<GroupDetail[]> {
    return this.loadAllGroups(true);
  }

  private async loadAllGroups(lagInTime: boolean): Promise<GroupDetail[]> {
    const topology = await this.connection.topology();
    const listed = await this.loader.listAllGroups(topology);
    const details = await this.loader.loadGroups([...listed.keys()], topology, listed, { lagInTime });
    // The next refresh's one Metadata request carries these topics' leaders too.
    this.connection.setTopicsOfInterest(details.flatMap((d) => d.offsets.map((o) => o.topic)));
    return details;
  }

  /** ListGroups on every broker: one request each, whatever the number of groups. */
  async listGroupsOnly(): Promise<GroupSummary[]> {
    const topology = await this.connection.topology();
    this.listed = await this.loader.listAllGroups(topology);
    this.loader.startRound();
    this.detailTopics = { current: new Set(), previous: this.detailTopics.current };
    return [...this.listed.values()].map((group) => {
      const nodeId = this.connection.coordinatorId(group.groupId, topology);
      return listedSummary(group, nodeId === null ? null : (topology.brokers.get(nodeId) ?? null));
    });
  }

  /**
   * With lag in time, as listGroupDetails; DescribeGroups and OffsetFetch go per coordinator in batches
   * (coordinatorBatches.ts); the batches after one listing share their log ends and reads (roundReads.ts).
   */
  async loadGroupDetails(groupIds: readonly string[]): Promise<GroupDetail[]> {
    if (groupIds.length === 0) {
      return [];
    }
    const topology = await this.connection.topology();
    const details = await this.loader.loadGroups(groupIds, topology, this.listed, { lagInTime: true, inRound: true });
    for (const detail of details) {
      detail.offsets.forEach((o) => this.detailTopics.current.add(o.topic));
    }
    this.connection.setTopicsOfInterest([...this.detailTopics.previous, ...this.detailTopics.current]);
    return details;
  }

  async describeGroup(groupId: string): Promise<GroupDetail> {
    if (!groupId) {
      throw new Error('describeGroup needs a group id');
    }
    const topology = await this.connection.topology();
    const [detail] = await this.loader.loadGroups([groupId], topology, new Map());
    return detail;
  }

  /** Admin OffsetCommit (generation -1): only an Empty or unknown group accepts it. */
  commitOffsets(groupId: string, offsets: readonly OffsetToCommit[]): Promise<PartitionOperationResult[]> {
    return this.admin.commitOffsets(groupId, offsets);
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
