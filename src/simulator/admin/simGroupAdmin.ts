/**
 * GroupAdmin over the simulator: every write goes through the simulated coordinator's own requests
 * (OffsetCommit with generation -1, OffsetDelete, DeleteGroups, LeaveGroup by instance id), so the
 * simulator answers exactly what its broker model answers, with the same events in its log.
 */
import type { CommittedOffset, GroupAdmin, GroupDeletion, OffsetDeletion, PartitionLogOffsets, PartitionResult, StaticMemberRemoval } from '../../model/groupAdmin';
import type { GroupState, TopicPartition } from '../../model/types';
import { groupBy } from '../../model/collections';
import { compareTopicPartitions } from '../../offsets/topicPartitions';
import type { KafkaErrorCode } from '../common/errors';
import type { DeleteGroupsResponse, LeaveGroupResponse, OffsetCommitResponse, OffsetDeleteResponse, OffsetFetchResponse, Respond } from '../common/requests';
import type { Simulation } from '../simulation';
import { coordinatorRequest } from './coordinatorRequest';
import { SimShareGroupAdmin } from './simShareGroupAdmin';

/** Admin requests identify themselves with this reason, as Kafka's AdminClient does. */
const ADMIN_REMOVAL_REASON = 'member was removed by an admin';

function failure(code: KafkaErrorCode): string | undefined {
  return code === 'NONE' ? undefined : code;
}

function withError<T extends object>(value: T, code: KafkaErrorCode): T & { error?: string } {
  const error = failure(code);
  return error === undefined ? value : { ...value, error };
}

export class SimGroupAdmin implements GroupAdmin {
  /** The share groups' offsets (kafka-share-groups.sh). */
  readonly share: SimShareGroupAdmin;

  constructor(private readonly simulation: Simulation) {
    this.share = new SimShareGroupAdmin(simulation);
  }

  now(): number {
    return this.simulation.now;
  }

  private request<T>(send: (respond: Respond<T>) => void): T {
    return coordinatorRequest(this.simulation, send);
  }

  async groupState(groupId: string): Promise<GroupState | 'missing'> {
    return this.simulation.coordinator.group(groupId) ? this.simulation.coordinator.describeGroupNow(groupId).groupState : 'missing';
  }

  async committedOffsets(groupId: string): Promise<CommittedOffset[]> {
    const response = this.request<OffsetFetchResponse>((respond) => this.simulation.coordinator.offsetFetch({ groupId, topics: null }, respond));
    if (response.errorCode !== 'NONE') {
      throw new Error(`Committed offsets of ${groupId}: ${response.errorCode}`);
    }
    return response.topics.flatMap((t) =>
      t.partitions.filter((p) => p.committedOffset >= 0).map((p) => ({ topic: t.name, partition: p.partition, offset: p.committedOffset, metadata: p.metadata })),
    ).sort(compareTopicPartitions);
  }

  async partitionCounts(topics: readonly string[]): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    for (const name of topics) {
      const topic = this.simulation.cluster.topic(name);
      if (topic) {
        counts.set(name, topic.partitions.length);
      }
    }
    return counts;
  }

  async logOffsets(partitions: readonly TopicPartition[]): Promise<PartitionLogOffsets[]> {
    const found: PartitionLogOffsets[] = [];
    for (const { topic, partition } of partitions) {
      const log = this.simulation.cluster.partition(topic, partition);
      if (log) {
        found.push({ topic, partition, earliest: log.logStartOffset, latest: log.highWatermark });
      }
    }
    return found;
  }

  async offsetForTimestamp(topic: string, partition: number, timestampMs: number): Promise<number | null> {
    const log = this.simulation.cluster.partition(topic, partition);
    if (!log) {
      throw new Error(`UNKNOWN_TOPIC_OR_PARTITION: ${topic}-${partition}`);
    }
    return log.offsetForTimestamp(timestampMs);
  }

  async commitOffsets(groupId: string, offsets: readonly CommittedOffset[]): Promise<PartitionResult[]> {
    if (offsets.length === 0) {
      return [];
    }
    const topics = [...groupBy(offsets, (o) => o.topic)].map(([name, list]) => ({
      name,
      partitions: list.map((o) => ({ partition: o.partition, offset: o.offset, metadata: o.metadata ?? '' })),
    }));
    const response = this.request<OffsetCommitResponse>((respond) =>
      this.simulation.coordinator.offsetCommit({ groupId, generationId: -1, memberId: '', groupInstanceId: null, topics }, respond),
    );
    return response.topics.flatMap((t) => t.partitions.map((p) => withError({ topic: t.name, partition: p.partition }, p.errorCode)));
  }

  async deleteOffsets(groupId: string, topic: string, partitions: readonly number[]): Promise<OffsetDeletion> {
    if (partitions.length === 0) {
      throw new Error('deleteOffsets needs at least one partition');
    }
    const response = this.request<OffsetDeleteResponse>((respond) =>
      this.simulation.coordinator.offsetDelete({ groupId, topics: [{ name: topic, partitions: [...partitions] }] }, respond),
    );
    const answered = response.topics.flatMap((t) => t.partitions.map((p) => withError({ topic: t.name, partition: p.partition }, p.errorCode)));
    // A refused request answers no partitions: each still gets the group-level reason.
    const results = answered.length > 0 ? answered : partitions.map((partition) => withError({ topic, partition }, response.errorCode));
    return withError({ partitions: results }, response.errorCode);
  }

  async deleteGroups(groupIds: readonly string[]): Promise<GroupDeletion[]> {
    const response = this.request<DeleteGroupsResponse>((respond) => this.simulation.coordinator.deleteGroups({ groupsNames: [...groupIds] }, respond));
    return response.results.map((r) => withError({ groupId: r.groupId }, r.errorCode));
  }

  async removeStaticMembers(groupId: string, instanceIds: readonly string[]): Promise<StaticMemberRemoval> {
    if (instanceIds.length === 0) {
      throw new Error('removeStaticMembers needs at least one group.instance.id');
    }
    const members = instanceIds.map((groupInstanceId) => ({ memberId: '', groupInstanceId, reason: ADMIN_REMOVAL_REASON }));
    const response = this.request<LeaveGroupResponse>((respond) => this.simulation.coordinator.leaveGroup({ groupId, members }, respond));
    const removed = instanceIds.map((groupInstanceId) => {
      const answer = response.members.find((m) => m.groupInstanceId === groupInstanceId);
      return withError({ groupInstanceId }, answer ? answer.errorCode : response.errorCode);
    });
    return withError({ members: removed }, response.errorCode);
  }
}
