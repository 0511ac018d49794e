/**
 * GroupAdmin over a real cluster, built on its KafkaSource and the source's connections (one
 * connection pool and one login per broker for the tree and the admin alike). Writes go through
 * the source's GroupAdminClient (admin OffsetCommit with generation -1, OffsetDelete, DeleteGroups, LeaveGroup by
 * instance id); the reset planner's lookups are sent as kafka-consumer-groups.sh sends them: one
 * DescribeGroups for the state and one OffsetFetch for the committed offsets, to the coordinator the
 * topology names; Metadata (from the shared topology when fresh) and ListOffsets READ_UNCOMMITTED to
 * each partition's leader.
 */
import type { CommittedOffset, GroupAdmin, GroupDeletion, OffsetDeletion, PartitionLogOffsets, PartitionResult, ShareGroupAdmin, StaticMemberRemoval, StreamsGroupAdmin } from '../model/groupAdmin';
import { compareTopicPartitions, type GroupState, type TopicPartition } from '../model/types';
import { partitionKey } from './groupDetailMapper';
import { describeErrorCode } from './kafkaErrors';
import type { KafkaSource } from './kafkaSource';
import { deleteInternalTopics } from './streamsGroups';
import { EARLIEST_TIMESTAMP, LATEST_TIMESTAMP, READ_UNCOMMITTED, type ListedOffset } from './requests/offsetRequests';

export class KafkaGroupAdmin implements GroupAdmin {
  constructor(private readonly source: KafkaSource) {}

  get share(): ShareGroupAdmin {
    return this.source.admin.share;
  }

  get streams(): StreamsGroupAdmin {
    return { deleteTopics: (topics) => deleteInternalTopics(this.source.connection, topics) };
  }

  now(): number {
    return Date.now();
  }

  /** DescribeGroups answers Dead for a group the coordinator does not know; both may be reset. */
  groupState(groupId: string): Promise<GroupState> {
    return this.source.admin.groupState(groupId);
  }

  async committedOffsets(groupId: string): Promise<CommittedOffset[]> {
    const offsets = await this.source.admin.committedOffsets(groupId);
    return offsets.map((o) => ({ topic: o.topic, partition: o.partition, offset: o.offset, metadata: o.metadata ?? '' })).sort(compareTopicPartitions);
  }

  async partitionCounts(topics: readonly string[]): Promise<Map<string, number>> {
    const found = await this.source.connection.guard(() => this.source.connection.partitionLeaders(topics));
    for (const [topic, error] of found.topicErrors) {
      if (!found.unknownTopics.has(topic)) {
        throw new Error(error);
      }
    }
    return found.partitionCounts;
  }

  async logOffsets(partitions: readonly TopicPartition[]): Promise<PartitionLogOffsets[]> {
    const [earliest, latest] = await this.listOffsets(partitions, [EARLIEST_TIMESTAMP, LATEST_TIMESTAMP]);
    const found: PartitionLogOffsets[] = [];
    const index = (list: ListedOffset[]) => new Map(list.map((o) => [partitionKey(o), o.offset]));
    const [starts, ends] = [index(earliest), index(latest)];
    for (const tp of partitions) {
      const start = starts.get(partitionKey(tp));
      const end = ends.get(partitionKey(tp));
      if (start !== undefined && end !== undefined) {
        found.push({ topic: tp.topic, partition: tp.partition, earliest: start, latest: end });
      }
    }
    return found;
  }

  async offsetForTimestamp(topic: string, partition: number, timestampMs: number): Promise<number | null> {
    if (!Number.isSafeInteger(timestampMs) || timestampMs < 0) {
      throw new Error(`A timestamp lookup needs epoch milliseconds from 0, got ${timestampMs}`);
    }
    const [[answer]] = await this.listOffsets([{ topic, partition }], [timestampMs], { throwOnError: true });
    if (!answer) {
      throw new Error(`No ListOffsets answer for ${topic}-${partition}`);
    }
    // -1: no record at or after the timestamp (the CLI then falls back to the log end with a warning).
    return answer.offset < 0 ? null : answer.offset;
  }

  commitOffsets(groupId: string, offsets: readonly CommittedOffset[]): Promise<PartitionResult[]> {
    return this.source.admin.commitOffsets(groupId, offsets);
  }

  deleteOffsets(groupId: string, topic: string, partitions: readonly number[]): Promise<OffsetDeletion> {
    return this.source.admin.deleteOffsets(groupId, topic, partitions);
  }

  deleteGroups(groupIds: readonly string[]): Promise<GroupDeletion[]> {
    return this.source.admin.deleteGroups(groupIds);
  }

  async removeStaticMembers(groupId: string, instanceIds: readonly string[]): Promise<StaticMemberRemoval> {
    const outcome = await this.source.admin.removeStaticMembers(groupId, instanceIds);
    const members = instanceIds.map((groupInstanceId) => {
      const answer = outcome.members.find((m) => m.groupInstanceId === groupInstanceId);
      const error = answer ? answer.error : (outcome.error ?? 'The coordinator did not answer for this member');
      return error === undefined ? { groupInstanceId } : { groupInstanceId, error };
    });
    return outcome.error === undefined ? { members } : { error: outcome.error, members };
  }

  /** The connections are the source's: it closes them. */
  async dispose(): Promise<void> {}

  /**
   * ListOffsets (READ_UNCOMMITTED) at each timestamp, one request per leader and timestamp; failed
   * partitions are left out unless asked to throw.
   */
  private async listOffsets(partitions: readonly TopicPartition[], timestamps: readonly number[], options: { throwOnError?: boolean } = {}): Promise<ListedOffset[][]> {
    if (partitions.length === 0) {
      return timestamps.map(() => []);
    }
    const connection = this.source.connection;
    return connection.guard(async () => {
      const found = await connection.partitionLeaders([...new Set(partitions.map((p) => p.topic))]);
      const leaderless = partitions.find((p) => (found.leaders.get(partitionKey(p)) ?? -1) < 0);
      if (leaderless && options.throwOnError) {
        throw new Error(found.topicErrors.get(leaderless.topic) ?? `${leaderless.topic}-${leaderless.partition} has no leader`);
      }
      const listed = await connection.listOffsets(partitions, found.leaders, timestamps.map((timestamp) => ({ isolationLevel: READ_UNCOMMITTED, timestamp })));
      if (options.throwOnError && listed.failures.length > 0) {
        throw new Error(`ListOffsets from broker ${listed.failures[0].leader}: ${listed.failures[0].error}`);
      }
      return listed.answers.map((answers) => {
        const failed = answers.find((o) => o.errorCode !== 0);
        if (failed && options.throwOnError) {
          throw new Error(`ListOffsets for ${failed.topic}-${failed.partition}: ${describeErrorCode(failed.errorCode)}`);
        }
        return answers.filter((o) => o.errorCode === 0);
      });
    });
  }
}
