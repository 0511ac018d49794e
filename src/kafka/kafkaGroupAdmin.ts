/**
 * GroupAdmin over a real cluster. Writes go through KafkaSource (admin OffsetCommit with generation -1,
 * OffsetDelete, DeleteGroups, LeaveGroup by instance id); the reset planner's lookups (committed offsets
 * with metadata, partition counts, log start / high watermark, offsets by timestamp) are sent here over a
 * kafkajs Cluster of our own, as kafka-consumer-groups.sh sends them: Metadata, OffsetFetch, ListOffsets
 * READ_UNCOMMITTED to each partition's leader.
 */
import type { Kafka } from 'kafkajs';
import type { CommittedOffset, GroupAdmin, GroupDeletion, OffsetDeletion, PartitionLogOffsets, PartitionResult, StaticMemberRemoval } from '../model/groupAdmin';
import type { GroupState, TopicPartition } from '../model/types';
import { compareTopicPartitions } from '../offsets/topicPartitions';
import { groupBy } from './collections';
import { createCluster, sendRequest, type KafkajsBroker, type KafkajsCluster } from './kafkajsBridge';
import type { KafkaSource } from './kafkaSource';
import { describeErrorCode } from './protocol/errorCodes';
import {
  EARLIEST_TIMESTAMP,
  LATEST_TIMESTAMP,
  READ_UNCOMMITTED,
  listOffsetsRequest,
  metadataRequest,
  offsetFetchRequest,
  type ListedOffset,
  type MetadataResult,
} from './protocol/offsetRequests';

const UNKNOWN_TOPIC_OR_PARTITION = 3;

export class KafkaGroupAdmin implements GroupAdmin {
  private readonly cluster: KafkajsCluster;
  private connected: Promise<void> | null = null;

  constructor(private readonly source: KafkaSource, kafka: Kafka) {
    this.cluster = createCluster(kafka);
  }

  now(): number {
    return Date.now();
  }

  async groupState(groupId: string): Promise<GroupState | 'missing'> {
    const detail = await this.source.describeGroup(groupId);
    // DescribeGroups answers Dead for a group the coordinator does not know; both may be reset.
    return detail.state;
  }

  async committedOffsets(groupId: string): Promise<CommittedOffset[]> {
    await this.connect();
    const coordinator = await this.cluster.findGroupCoordinator({ groupId });
    const result = await sendRequest(coordinator, offsetFetchRequest(groupId));
    if (result.errorCode !== 0) {
      throw new Error(`Committed offsets of ${groupId}: ${describeErrorCode(result.errorCode)}`);
    }
    const failed = result.offsets.find((o) => o.errorCode !== 0);
    if (failed) {
      throw new Error(`Committed offset of ${failed.topic}-${failed.partition}: ${describeErrorCode(failed.errorCode)}`);
    }
    return result.offsets
      .filter((o) => o.offset >= 0)
      .map((o) => ({ topic: o.topic, partition: o.partition, offset: o.offset, metadata: o.metadata ?? '' }))
      .sort(compareTopicPartitions);
  }

  async partitionCounts(topics: readonly string[]): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    if (topics.length === 0) {
      return counts;
    }
    for (const t of (await this.metadata(topics)).topics) {
      if (t.errorCode === 0) {
        counts.set(t.topic, t.partitions.length);
      } else if (t.errorCode !== UNKNOWN_TOPIC_OR_PARTITION) {
        throw new Error(`Topic ${t.topic}: ${describeErrorCode(t.errorCode)}`);
      }
    }
    return counts;
  }

  async logOffsets(partitions: readonly TopicPartition[]): Promise<PartitionLogOffsets[]> {
    const [earliest, latest] = await Promise.all([this.listOffsets(partitions, EARLIEST_TIMESTAMP), this.listOffsets(partitions, LATEST_TIMESTAMP)]);
    const found: PartitionLogOffsets[] = [];
    for (const tp of partitions) {
      const start = earliest.find((o) => o.topic === tp.topic && o.partition === tp.partition);
      const end = latest.find((o) => o.topic === tp.topic && o.partition === tp.partition);
      if (start && end) {
        found.push({ topic: tp.topic, partition: tp.partition, earliest: start.offset, latest: end.offset });
      }
    }
    return found;
  }

  async offsetForTimestamp(topic: string, partition: number, timestampMs: number): Promise<number | null> {
    if (!Number.isSafeInteger(timestampMs) || timestampMs < 0) {
      throw new Error(`A timestamp lookup needs epoch milliseconds from 0, got ${timestampMs}`);
    }
    const [answer] = await this.listOffsets([{ topic, partition }], timestampMs, { throwOnError: true });
    if (!answer) {
      throw new Error(`No ListOffsets answer for ${topic}-${partition}`);
    }
    // -1: no record at or after the timestamp (the CLI then falls back to the log end with a warning).
    return answer.offset < 0 ? null : answer.offset;
  }

  commitOffsets(groupId: string, offsets: readonly CommittedOffset[]): Promise<PartitionResult[]> {
    return this.source.commitOffsets(groupId, offsets);
  }

  deleteOffsets(groupId: string, topic: string, partitions: readonly number[]): Promise<OffsetDeletion> {
    return this.source.deleteOffsets(groupId, topic, partitions);
  }

  deleteGroups(groupIds: readonly string[]): Promise<GroupDeletion[]> {
    return this.source.deleteGroups(groupIds);
  }

  async removeStaticMembers(groupId: string, instanceIds: readonly string[]): Promise<StaticMemberRemoval> {
    const outcome = await this.source.removeStaticMembers(groupId, instanceIds);
    const members = instanceIds.map((groupInstanceId) => {
      const answer = outcome.members.find((m) => m.groupInstanceId === groupInstanceId);
      const error = answer ? answer.error : (outcome.error ?? 'The coordinator did not answer for this member');
      return error === undefined ? { groupInstanceId } : { groupInstanceId, error };
    });
    return outcome.error === undefined ? { members } : { error: outcome.error, members };
  }

  async dispose(): Promise<void> {
    this.connected = null;
    await this.cluster.disconnect();
  }

  private async connect(): Promise<void> {
    if (!this.connected) {
      this.connected = this.cluster.connect().catch((e: unknown) => {
        this.connected = null;
        throw e;
      });
    }
    await this.connected;
  }

  private async anyBroker(): Promise<KafkajsBroker> {
    await this.connect();
    const seed = this.cluster.brokerPool.seedBroker;
    if (!seed) {
      throw new Error('kafkajs has no connected broker after connect()');
    }
    return seed;
  }

  private async metadata(topics: readonly string[]): Promise<MetadataResult> {
    return sendRequest(await this.anyBroker(), metadataRequest(topics));
  }

  /** ListOffsets (READ_UNCOMMITTED) to each partition's leader; failed partitions are left out unless asked to throw. */
  private async listOffsets(partitions: readonly TopicPartition[], timestamp: number, options: { throwOnError?: boolean } = {}): Promise<ListedOffset[]> {
    if (partitions.length === 0) {
      return [];
    }
    const metadata = await this.metadata([...new Set(partitions.map((p) => p.topic))]);
    const leaderOf = (tp: TopicPartition): number =>
      metadata.topics.find((t) => t.topic === tp.topic)?.partitions.find((p) => p.partition === tp.partition)?.leader ?? -1;
    const known = this.cluster.brokerPool.brokers;
    if (metadata.brokers.some((b) => !known[String(b.nodeId)])) {
      // kafkajs creates Broker objects only from its own metadata refresh.
      for (const topic of new Set(partitions.map((p) => p.topic))) {
        this.cluster.targetTopics.add(topic);
      }
      await this.cluster.refreshMetadata();
    }
    const byLeader = groupBy(partitions, leaderOf);
    const answers = await Promise.all(
      [...byLeader].map(async ([leader, parts]) => {
        if (leader < 0) {
          if (options.throwOnError) {
            throw new Error(`${parts[0].topic}-${parts[0].partition} has no leader`);
          }
          return [];
        }
        const broker = await this.cluster.findBroker({ nodeId: leader });
        return sendRequest(broker, listOffsetsRequest(READ_UNCOMMITTED, timestamp, parts));
      }),
    );
    const listed = answers.flat();
    const failed = listed.find((o) => o.errorCode !== 0);
    if (failed && options.throwOnError) {
      throw new Error(`ListOffsets for ${failed.topic}-${failed.partition}: ${describeErrorCode(failed.errorCode)}`);
    }
    return listed.filter((o) => o.errorCode === 0);
  }
}
