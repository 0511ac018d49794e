/**
 * The write and lookup operations the offset and group-administration commands need, over either source.
 * Every write answers per partition (or per member, per group) so nothing is skipped silently: a refused
 * item carries the broker's reason, spelled `ERROR_NAME: message` as Kafka's Errors enum does.
 */
import type { GroupState, TopicPartition } from './types';

/** A group's committed offset of one partition, as the offset commands read and write it. */
export interface CommittedOffset extends TopicPartition {
  offset: number;
  /** The commit's metadata string, kept by the undo snapshot. */
  metadata?: string;
}

/** The log's bounds of one partition, as the reset planner needs them. */
export interface PartitionLogOffsets extends TopicPartition {
  /** Log start offset (ListOffsets earliest). */
  earliest: number;
  /** Log end offset as the CLI reads it: ListOffsets latest, READ_UNCOMMITTED, i.e. the high watermark. */
  latest: number;
}

export interface PartitionResult extends TopicPartition {
  /** The broker's reason, absent on success. */
  error?: string;
}

export interface OffsetDeletion {
  /** A refusal of the whole request (GROUP_ID_NOT_FOUND, NON_EMPTY_GROUP), absent when it was accepted. */
  error?: string;
  partitions: PartitionResult[];
}

export interface MemberRemoval {
  groupInstanceId: string;
  error?: string;
}

export interface StaticMemberRemoval {
  error?: string;
  members: MemberRemoval[];
}

export interface GroupDeletion {
  groupId: string;
  error?: string;
}

/** The start offset of one share-partition of a share group: null when the group has no state for it yet. */
export interface ShareStartOffset extends TopicPartition {
  startOffset: number | null;
}

export interface TopicResult {
  topic: string;
  /** The broker's reason, absent on success. */
  error?: string;
}

export interface ShareOffsetDeletion {
  /** A refusal of the whole request (GROUP_ID_NOT_FOUND, NON_EMPTY_GROUP), absent when it was accepted. */
  error?: string;
  topics: TopicResult[];
}

/**
 * The offset operations of KIP-932 share groups (kafka-share-groups.sh): share groups have start offsets per
 * share-partition instead of committed offsets, written with AlterShareGroupOffsets and removed per topic.
 */
export interface ShareGroupAdmin {
  /** ShareGroupDescribe: the share group's state, or 'missing' when no share group has this id. */
  shareGroupState(groupId: string): Promise<GroupState | 'missing'>;
  /** DescribeShareGroupOffsets for every topic, sorted; empty for a group that does not exist. */
  shareStartOffsets(groupId: string): Promise<ShareStartOffset[]>;
  /** AlterShareGroupOffsets: only an Empty group (or a new one, which it creates) accepts it. */
  alterShareGroupOffsets(groupId: string, offsets: readonly CommittedOffset[]): Promise<PartitionResult[]>;
  /** DeleteShareGroupOffsets: whole topics only. */
  deleteShareGroupOffsets(groupId: string, topics: readonly string[]): Promise<ShareOffsetDeletion>;
}

/**
 * What deleting a KIP-1071 streams group needs beyond DeleteGroups: kafka-streams-groups.sh --delete
 * --delete-all-internal-topics deletes the group, then its internal (repartition and changelog) topics.
 */
export interface StreamsGroupAdmin {
  /** DeleteTopics, one result per topic asked for (the broker's reason on a refusal). */
  deleteTopics(topics: readonly string[]): Promise<TopicResult[]>;
}

export interface GroupAdmin {
  /** Epoch milliseconds as the cluster sees them (the simulator's virtual time), for --by-duration. */
  now(): number;
  /** The group's state, or 'missing' when the coordinator does not know it. */
  groupState(groupId: string): Promise<GroupState | 'missing'>;
  /** Every committed offset of the group (OffsetFetch for all topics), sorted by topic then partition. */
  committedOffsets(groupId: string): Promise<CommittedOffset[]>;
  /** Partition counts of the named topics; a topic that does not exist is left out. */
  partitionCounts(topics: readonly string[]): Promise<Map<string, number>>;
  /** Log start and high watermark of each partition; one that cannot be read is left out (the planner names it). */
  logOffsets(partitions: readonly TopicPartition[]): Promise<PartitionLogOffsets[]>;
  /** ListOffsets by timestamp: the first offset at or after it, or null when every record is older. */
  offsetForTimestamp(topic: string, partition: number, timestampMs: number): Promise<number | null>;
  /** Admin OffsetCommit with generation -1 (never by joining the group). */
  commitOffsets(groupId: string, offsets: readonly CommittedOffset[]): Promise<PartitionResult[]>;
  /** OffsetDelete for partitions of one topic. */
  deleteOffsets(groupId: string, topic: string, partitions: readonly number[]): Promise<OffsetDeletion>;
  /** DeleteGroups: only Empty groups go; others get NON_EMPTY_GROUP or GROUP_ID_NOT_FOUND. */
  deleteGroups(groupIds: readonly string[]): Promise<GroupDeletion[]>;
  /** LeaveGroup by group.instance.id with member id "", as AdminClient.removeMembersFromConsumerGroup does. */
  removeStaticMembers(groupId: string, instanceIds: readonly string[]): Promise<StaticMemberRemoval>;
  /** Share-group offsets; absent where the source has no share groups (the simulator). */
  readonly share?: ShareGroupAdmin;
  /** Streams-group writes; absent where the source has no streams groups (the simulator). */
  readonly streams?: StreamsGroupAdmin;
  /** Releases connections the admin opened itself. */
  dispose?(): Promise<void>;
}
