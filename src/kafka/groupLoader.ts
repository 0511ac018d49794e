/**
 * Loads groups of a real cluster over its ClusterConnection: ListGroups on each broker,
 * DescribeGroups (and ConsumerGroupDescribe for KIP-848 groups) and OffsetFetch batched per coordinator
 * with bounded concurrency (coordinatorBatches.ts), three ListOffsets per partition leader (earliest, high
 * watermark, last stable offset) and a small Fetch at lagging committed offsets (transaction
 * markers only? lag in time). A
 * failure of one group lands in that group's `error`; a failure of the connection itself fails the
 * whole load.
 */
import type { BrokerRef, GroupDetail, Member, PartitionOffsets, TopicPartition } from '../model/types';
import { coordinatorBatches, fetchCommittedOffsets, mapWithConcurrency } from './coordinatorBatches';
import type { ClusterConnection, Topology } from './clusterConnection';
import type { KafkaLogger } from './connection';
import { hasLoadingCode, retryWhileCoordinatorLoads } from './coordinatorRetry';
import { classicMembers, offsetRows, partitionKey, toGroupState, toGroupType, totalLag, type PartitionEnds } from './groupDetailMapper';
import { modernGroupType, typedDetailFields, type ModernGroupType, type TypedGroupDescription } from './groupTypes';
import { describeTypedGroups, describeUnlistedGroups } from './groupTypesDescribe';
import { shareOffsetRows } from './shareGroups';
import type { IsolationLevelLookup } from './isolationLevels';
import { readBatchFrames } from '../protocol/recordBatch';
import { sendRequest, type KafkajsBroker } from './kafkajsBridge';
import { describeErrorCode, KafkaErrorCode } from './kafkaErrors';
import { fillLagInTime, lagInTimeCandidates, lagInTimeFetchOffset } from './lagInTime';
import type { NewestRecord } from '../health/lagInTime';
import { markerCandidates, onlyMarkersBetween, readableEnd } from './markerOnlyLag';
import { SharedPartitionReads } from './roundReads';
import { fillLsoHolders } from '../transactions/lsoHolders';
import { KafkaTransactionAdmin } from './kafkaTransactionAdmin';
import {
  describeGroupsRequest,
  listGroupsRequest,
  type DescribedGroup,
  type ListedGroup,
} from './requests/groupRequests';
import { offsetFetchRequest, type OffsetFetchResult } from './requests/offsetRequests';

export interface GroupLoaderOptions {
  logger: KafkaLogger;
  /** How many OffsetFetch requests run at once. */
  concurrency: number;
  isolationLevelFor?: IsolationLevelLookup;
  /** A classic group's generation, when something knows it (DescribeGroups does not say). */
  generationOf(groupId: string): number | undefined;
}

export interface DescribedForLoad {
  groupId: string;
  coordinator: BrokerRef | null;
  classic?: DescribedGroup;
  /** A consumer, share or streams group, described with its type's API. */
  typed?: TypedGroupDescription;
  error?: string;
}

export class GroupLoader {
  /** Log ends and reads at committed offsets, shared by the detail batches of the current round. */
  private roundReads: SharedPartitionReads;

  private readonly transactions: KafkaTransactionAdmin;

  constructor(private readonly connection: ClusterConnection, private readonly options: GroupLoaderOptions) {
    this.roundReads = this.newReads();
    this.transactions = new KafkaTransactionAdmin(connection);
  }

  /** A new round of detail batches (a new listing): none of them takes the last round's reads. */
  startRound(): void {
    this.roundReads = this.newReads();
  }

  private newReads(): SharedPartitionReads {
    return new SharedPartitionReads(this.connection, { concurrency: this.options.concurrency, logger: this.options.logger });
  }

  /** ListGroups on every broker; a broker that fails is logged and its groups are missing, unless all fail. */
  async listAllGroups(topology: Topology): Promise<Map<string, ListedGroup>> {
    const settled = await Promise.allSettled(
      [...topology.brokers.keys()].map(async (nodeId) => {
        const broker = await this.connection.broker(nodeId);
        const result = await sendRequest(broker, listGroupsRequest());
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

  /**
   * Describes the groups, fetches their offsets and log ends, and builds each one's detail; with
   * `lagInTime`, also each lagging partition's lag in time and the group's maximum. With `inRound`, the
   * log ends and reads are shared with the round's other batches (startRound); else this load reads afresh.
   */
  async loadGroups(groupIds: readonly string[], topology: Topology, listed: ReadonlyMap<string, ListedGroup>, { lagInTime = false, inRound = false } = {}): Promise<GroupDetail[]> {
    const reads = inRound ? this.roundReads : this.newReads();
    const described = await this.describeAll(groupIds, topology, listed);
    const membersOf = new Map<string, { members: Member[]; decodeErrors: string[] }>();
    for (const d of described) {
      if (d.typed) {
        membersOf.set(d.groupId, { members: d.typed.members, decodeErrors: [] });
      } else if (d.classic) {
        membersOf.set(d.groupId, classicMembers(d.classic));
      }
    }
    // A share group has no committed offsets: its share-partitions' start offsets came with its describe.
    const committedOf = await fetchCommittedOffsets(this.connection, described.filter((d) => !d.typed?.shareGroup).map((d) => d.groupId), topology, {
      concurrency: this.options.concurrency,
      single: (groupId) => this.offsetFetch(groupId, topology),
    });
    const committed = described.map((d) => committedOf.get(d.groupId) ?? []);
    const partitions = new Map<string, TopicPartition>();
    described.forEach((d, i) => {
      const commits = committed[i];
      for (const tp of [...(Array.isArray(commits) ? commits : []), ...(membersOf.get(d.groupId)?.members.flatMap((m) => m.assignment) ?? []), ...(d.typed?.shareGroup?.partitions ?? [])]) {
        partitions.set(partitionKey(tp), { topic: tp.topic, partition: tp.partition });
      }
    });
    const ends = await this.partitionEnds(reads, [...partitions.values()]);
    const isolationOf = (groupId: string) => this.options.isolationLevelFor?.(groupId);
    const rowsOf = described.map((d, i) => {
      const commits = committed[i];
      const share = d.typed?.shareGroup;
      if (share) {
        return shareOffsetRows(share.partitions, (p) => {
          const end = ends.ends.get(partitionKey(p));
          return { logStartOffset: end?.logStartOffset ?? null, logEndOffset: end?.highWatermark ?? null };
        });
      }
      return offsetRows(membersOf.get(d.groupId)?.members ?? [], Array.isArray(commits) ? commits : [], ends.ends, isolationOf(d.groupId));
    });
    // A share group's rows hold share-partition start offsets, not commits: no lag in time.
    const maxLagsInTime = await this.readAtCommitted(
      reads,
      described.map((d, i) => ({ rows: rowsOf[i], readCommitted: isolationOf(d.groupId) === 'read_committed', skipLagInTime: Boolean(d.typed?.shareGroup) || !lagInTime })),
      ends.leaders,
      ends.topicIds,
    );

    // Only where a read_committed group's LSO is below the HW: names the open transaction holding it (issue 28).
    await fillLsoHolders(rowsOf.filter((_, i) => isolationOf(described[i].groupId) === 'read_committed').flat(), this.transactions, (e) => this.connection.errorText(e));

    return described.map((d, i): GroupDetail => {
      const listing = listed.get(d.groupId);
      const members = membersOf.get(d.groupId);
      const commits = committed[i];
      const isolationLevel = isolationOf(d.groupId);
      const rows = rowsOf[i];
      const typed = d.typed;
      const protocolType = typed ? (listing?.protocolType ?? typed.groupType) : (d.classic?.protocolType ?? listing?.protocolType ?? '');
      const state = typed ? typed.state : d.classic ? toGroupState(d.classic.groupState) : toGroupState(listing?.groupState ?? '');
      const topicErrors = [...new Set(rows.map((r) => r.topic))].map((t) => ends.topicErrors.get(t));
      const errors = [d.error, typed?.error, typeof commits === 'string' ? commits : undefined, ...(members?.decodeErrors ?? []), ...topicErrors].filter((e): e is string => Boolean(e));
      const detail: GroupDetail = {
        groupId: d.groupId,
        state,
        protocolType,
        groupType: typed ? typed.groupType : toGroupType(listing?.groupType ?? null, protocolType),
        assignor: typed ? typed.assignor : (d.classic?.protocolData ?? ''),
        coordinator: d.coordinator,
        memberCount: members?.members.length ?? 0,
        totalLag: totalLag(rows),
        leaderId: null,
        members: members?.members ?? [],
        offsets: rows,
      };
      // DescribeGroups carries no generation: a classic group's is known only from its record in
      // `__consumer_offsets`, while that is being read; the members' subscriptions lag behind.
      const generation = typed ? typed.groupEpoch : this.options.generationOf(d.groupId);
      if (generation !== undefined) {
        detail.generation = generation;
      }
      if (maxLagsInTime[i] !== undefined) {
        detail.maxLagInTimeMs = maxLagsInTime[i];
      }
      if (isolationLevel) {
        detail.isolationLevel = isolationLevel;
      }
      if (typed) {
        Object.assign(detail, typedDetailFields(typed));
      }
      if (errors.length > 0) {
        detail.error = errors.join('; ');
      }
      return detail;
    });
  }

  /** DescribeGroups per coordinator, and ConsumerGroupDescribe for KIP-848 groups. */
  private async describeAll(groupIds: readonly string[], topology: Topology, listed: ReadonlyMap<string, ListedGroup>): Promise<DescribedForLoad[]> {
    // One DescribeGroups per batch of a coordinator's groups, a bounded number at once.
    const batches = await mapWithConcurrency(
      coordinatorBatches(this.connection, groupIds, topology),
      this.options.concurrency,
      async ({ nodeId, groupIds: ids }): Promise<DescribedForLoad[]> => {
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
      },
    );
    const byId = new Map(batches.flat().map((d) => [d.groupId, d]));
    return groupIds.map((id) => byId.get(id) ?? { groupId: id, coordinator: null, error: 'The coordinator did not describe this group' });
  }

  /**
   * DescribeGroups on one coordinator for classic groups, and each Kafka 4.x group type's own describe
   * (groupTypesDescribe.ts) for consumer, share and streams groups. A group of no listed type that
   * DescribeGroups calls Dead with no members may be one of those: it is asked with their describes
   * too, and keeps DescribeGroups' answer when none knows it.
   */
  async describeOnCoordinator(broker: KafkajsBroker, coordinator: BrokerRef | null, ids: readonly string[], listed: ReadonlyMap<string, ListedGroup>): Promise<DescribedForLoad[]> {
    const typedIds: Array<{ groupId: string; groupType: ModernGroupType }> = [];
    for (const groupId of ids) {
      const groupType = modernGroupType(listed.get(groupId)?.groupType);
      if (groupType) {
        typedIds.push({ groupId, groupType });
      }
    }
    const classicIds = ids.filter((id) => !typedIds.some((t) => t.groupId === id));
    const unlistedIds: string[] = [];
    const results = new Map<string, DescribedForLoad>();
    const describeOptions = { errorText: (e: unknown) => this.connection.errorText(e), isConnectionFailure: (e: unknown) => this.connection.isConnectionFailure(e) };
    try {
      if (classicIds.length > 0) {
        const describe = () => sendRequest(broker, describeGroupsRequest(classicIds));
        for (const group of await retryWhileCoordinatorLoads(describe, hasLoadingCode)) {
          const entry: DescribedForLoad = { groupId: group.groupId, coordinator, classic: group };
          if (group.errorCode !== 0) {
            entry.error = group.errorMessage ?? describeErrorCode(group.errorCode);
          }
          results.set(group.groupId, entry);
          if (!listed.get(group.groupId)?.groupType && group.groupState === 'Dead' && group.members.length === 0) {
            unlistedIds.push(group.groupId);
          }
        }
      }
      const [typedGroups, unlistedGroups] = await Promise.all([describeTypedGroups(broker, typedIds, describeOptions), describeUnlistedGroups(broker, unlistedIds, describeOptions)]);
      for (const typed of [...typedGroups, ...unlistedGroups]) {
        if (typed.notThisType && results.has(typed.groupId)) {
          continue; // really a classic (or unknown) group: keep DescribeGroups' answer
        }
        results.set(typed.groupId, { groupId: typed.groupId, coordinator, typed });
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
  offsetFetch(groupId: string, topology: Topology): Promise<OffsetFetchResult> {
    return retryWhileCoordinatorLoads(
      async () => sendRequest(await this.connection.coordinatorBroker(groupId, topology), offsetFetchRequest(groupId)),
      (r) => hasLoadingCode([r]),
    );
  }

  /**
   * Earliest, high watermark and last stable offset of each partition (leaders from the refresh's topology
   * when it has them), shared with the round's other batches (roundReads.ts); failures per topic.
   */
  private async partitionEnds(
    reads: SharedPartitionReads,
    partitions: readonly TopicPartition[],
  ): Promise<{ ends: Map<string, PartitionEnds>; topicErrors: Map<string, string>; leaders: Map<string, number>; topicIds: Map<string, string> }> {
    if (partitions.length === 0) {
      return { ends: new Map(), topicErrors: new Map(), leaders: new Map(), topicIds: new Map() };
    }
    const found = await this.connection.partitionLeaders([...new Set(partitions.map((p) => p.topic))]);
    const read = await reads.partitionEnds(partitions, found.leaders);
    const topicErrors = new Map<string, string>(found.topicErrors);
    for (const [topic, errors] of read.topicErrors) {
      topicErrors.set(topic, [topicErrors.get(topic), ...errors].filter((e): e is string => Boolean(e)).join('; '));
    }
    return { ends: read.ends, topicErrors, leaders: found.leaders, topicIds: found.topicIds };
  }

  /**
   * Reads at the committed offsets: flags rows whose lag is only transaction markers (see
   * markerOnlyLag.ts) and fills lag in time (lagInTime.ts) from the same Fetch. Best effort: a
   * failed Fetch leaves the rows as they were.
   */
  private async readAtCommitted(
    reads: SharedPartitionReads,
    groups: ReadonlyArray<{ rows: PartitionOffsets[]; readCommitted: boolean; skipLagInTime: boolean }>,
    leaders: ReadonlyMap<string, number>,
    topicIds: ReadonlyMap<string, string>,
  ): Promise<Array<number | null | undefined>> {
    const checks = groups.flatMap(({ rows, readCommitted }) => markerCandidates(rows, readCommitted).map((row) => ({ row, end: readableEnd(row, readCommitted) as number })));
    const timed = groups.flatMap(({ rows, skipLagInTime }) => (skipLagInTime ? [] : lagInTimeCandidates(rows)));
    const [fetched, newest] = await Promise.all([
      reads.fetchAt(
        [...checks.map(({ row }) => ({ row, offset: row.committedOffset as number })), ...timed.map((row) => ({ row, offset: lagInTimeFetchOffset(row) }))],
        leaders,
        topicIds,
      ),
      // Best effort like the Fetch: without the newest records only the span is unknown.
      reads.newestRecordsOf(timed, leaders).catch((err: unknown) => {
        this.options.logger.debug(`Newest record timestamps: ${this.connection.errorText(err)}`);
        return new Map<string, NewestRecord>();
      }),
    ]);
    const newestOf = (row: TopicPartition) => newest.get(partitionKey(row));
    const bytesAt = (row: TopicPartition, offset: number) => fetched.get(`${partitionKey(row)}@${offset}`);
    for (const { row, end } of checks) {
      const bytes = bytesAt(row, row.committedOffset as number);
      try {
        if (bytes && onlyMarkersBetween(readBatchFrames(bytes), row.committedOffset as number, end) === true) {
          row.markerOnlyLag = true;
        }
      } catch (err) {
        this.options.logger.debug(`Transaction-marker check of ${row.topic}-${row.partition}: ${this.connection.errorText(err)}`);
      }
    }
    const now = Date.now();
    const debug = (message: string) => this.options.logger.debug(message);
    return groups.map(({ rows, skipLagInTime }) => (skipLagInTime ? undefined : fillLagInTime(rows, { bytesAt, newestOf, now, debug })));
  }
}

export { MAX_COMMITTED_FETCH_ROUNDS } from './roundReads';
