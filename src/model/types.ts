/**
 * Plain data shared by every layer. The views render only these shapes, whichever source
 * (simulator or real cluster) produced them.
 */
import type { ProducerState, TransactionDescription } from './transactions';

/**
 * Classic group states, plus the KIP-848 consumer-group and KIP-1071 streams-group states ("NotReady":
 * a streams group whose internal topics are missing) and "Unknown" for what a broker reports that we do not know.
 */
export type GroupState =
  | 'Empty'
  | 'PreparingRebalance'
  | 'CompletingRebalance'
  | 'Stable'
  | 'Dead'
  | 'Assigning'
  | 'Reconciling'
  | 'NotReady'
  | 'Unknown';

/** Every GroupState, the one list the views, filters and encoders take them from ("Unknown" last). */
export const GROUP_STATES: readonly GroupState[] = ['Empty', 'PreparingRebalance', 'CompletingRebalance', 'Stable', 'Dead', 'Assigning', 'Reconciling', 'NotReady', 'Unknown'];

/** The four group types of Kafka 4.x, as ListGroups v5 names them. */
export type KafkaGroupType = 'classic' | 'consumer' | 'share' | 'streams';

/** Each type's own states: Kafka's GroupState.groupStatesForType. */
export const GROUP_STATES_BY_TYPE: Readonly<Record<KafkaGroupType, readonly GroupState[]>> = {
  classic: ['PreparingRebalance', 'CompletingRebalance', 'Stable', 'Dead', 'Empty'],
  consumer: ['PreparingRebalance', 'CompletingRebalance', 'Stable', 'Dead', 'Empty', 'Assigning', 'Reconciling'],
  share: ['Stable', 'Dead', 'Empty'],
  streams: ['Stable', 'Dead', 'Empty', 'Assigning', 'Reconciling', 'NotReady'],
};

export interface TopicPartition {
  topic: string;
  partition: number;
}

/** Topic (UTF-16 code-unit order, as Java's String.compareTo), then partition number. */
/** Whether an open transaction holds read_committed consumers back here: the LSO below the high watermark. */
export function isLsoHeld(r: { lastStableOffset?: number | null; logEndOffset: number | null }): r is { lastStableOffset: number; logEndOffset: number } {
  return r.lastStableOffset != null && r.logEndOffset != null && r.lastStableOffset < r.logEndOffset;
}

/** One key per topic partition, for maps and sets (a NUL cannot be in a topic name). */
export function topicPartitionKey(tp: TopicPartition): string {
  return `${tp.topic}\u0000${tp.partition}`;
}

export function compareTopicPartitions(a: TopicPartition, b: TopicPartition): number {
  if (a.topic !== b.topic) {
    return a.topic < b.topic ? -1 : 1;
  }
  return a.partition - b.partition;
}

export interface BrokerRef {
  nodeId: number;
  host: string;
  port: number;
}

export interface ClusterInfo {
  clusterId: string;
  controllerId: number | null;
  brokers: BrokerRef[];
}

/** Offsets of one partition as a group sees it. Offsets are numbers: JS doubles are exact up to 2^53. */
export interface PartitionOffsets extends TopicPartition {
  /** The group's committed offset, or null when it has none. */
  committedOffset: number | null;
  /** Metadata string stored with the commit. */
  commitMetadata?: string;
  /** Log start offset (earliest), when known. */
  logStartOffset: number | null;
  /** High watermark: what `kafka-consumer-groups.sh` prints as LOG-END-OFFSET. */
  logEndOffset: number | null;
  /** Last stable offset (read_committed end), when known. */
  lastStableOffset?: number | null;
  /** logEndOffset - committedOffset, or null when either is missing. */
  lag: number | null;
  /** lastStableOffset - committedOffset, for read_committed groups (the client's own lag metric). */
  lastStableLag?: number | null;
  /**
   * What holds the LSO below the high watermark: the producer whose open transaction starts at it
   * (DescribeProducers) and, when it could be named, its transaction (DescribeTransactions); `error` says
   * why it was not named. null when the LSO is below the HW but no producer's transaction starts there.
   */
  lsoHolder?: LsoHolder | null;
  /** True when everything between the committed offset and the group's end (LSO for read_committed, else HW) is transaction markers. */
  markerOnlyLag?: boolean;
  /** Offset a transactional producer sent for this partition, waiting for its transaction to end. */
  pendingTransactionalOffset?: number | null;
  /** Member that owns the partition in the current assignment, if any. */
  ownerMemberId?: string | null;
  /** Age in milliseconds of the oldest record the group has not consumed, when read (see `src/health/lagInTime.ts`). */
  lagInTimeMs?: number | null;
  /**
   * Produced time still to consume in milliseconds: the newest record's timestamp minus the oldest unconsumed
   * one's; 0 when nothing is left, null or absent when the newest record could not be read.
   */
  lagInTimeSpanMs?: number | null;
  /** Why the lag in time figures are approximate (absent or empty when exact or not read). */
  lagInTimeApproximate?: LagInTimeApproximation[];
}

/**
 * Why a lag in time is approximate: unread records deleted by retention, the record at the committed offset
 * compacted away, transaction markers at it, or producer-set timestamps that go backwards or lie in the future.
 */
export type LagInTimeApproximation = 'retention' | 'compaction' | 'transaction-markers' | 'client-timestamps';

export interface Member {
  memberId: string;
  /** group.instance.id of a static member; null for dynamic members. */
  groupInstanceId: string | null;
  clientId: string;
  clientHost: string;
  /** Topics the member subscribes to, when its metadata could be decoded. */
  subscription: string[];
  /** Partitions the member is assigned in the current generation. */
  assignment: TopicPartition[];
  /**
   * KIP-848 and streams members: what the coordinator's target assignment gives the member. Partitions
   * in it but not in `assignment` are still awaited (the member is reconciling, not unassigned).
   */
  targetAssignment?: TopicPartition[];
  /** KIP-848, share and streams members: the member's epoch (compare with the group's assignment epoch). */
  memberEpoch?: number;
  /** client.rack of the member, when it set one (KIP-848, share and streams members). */
  rackId?: string | null;
}

export interface GroupSummary {
  groupId: string;
  state: GroupState;
  /** "consumer" for classic consumer groups; other classic protocol types (connect, ...) are shown undecoded. */
  protocolType: string;
  /**
   * Group type as ListGroups reports it: classic protocol, KIP-848 consumer protocol, KIP-932 share
   * group or KIP-1071 streams group ("simple": a classic group with no protocol type, offsets only).
   */
  groupType: 'classic' | 'consumer' | 'share' | 'streams' | 'simple' | 'unknown';
  /** Selected assignor (the classic group's protocol name), or "" when none. */
  assignor: string;
  /**
   * The group's generation (a KIP-848 group's epoch), when known: a real cluster's DescribeGroups
   * carries none, so a classic group has one only while its `__consumer_offsets` records are read.
   */
  generation?: number;
  coordinator: BrokerRef | null;
  memberCount: number;
  /** Sum of the known partition lags; null when nothing is known. */
  totalLag: number | null;
  /** A load error for this one group; the rest of the tree still loads. */
  error?: string;
  /**
   * Listed only (ClusterSource.listGroupsOnly): id, type and state are ListGroups'; members, offsets and
   * lag are not loaded yet (memberCount 0 and totalLag null say nothing).
   */
  detailsPending?: boolean;
  /** Partitions with transactional offsets waiting for their transaction to end, when known. */
  pendingTransactionalPartitions?: number;
  /**
   * The group's largest lag in time (milliseconds): the age of the oldest record it has not consumed, over its
   * partitions, when it was read (see `src/health/lagInTime.ts`); null when it could not be; absent when not asked.
   */
  maxLagInTimeMs?: number | null;
  /** The Burrow-style health of the group's lag over the recent samples (see `src/health/lagEvaluation.ts`), when evaluated. */
  health?: GroupHealth;
}

/** Lag health, from best to worst (Burrow's statuses; see `src/health/lagEvaluation.ts` for the rules). */
export type LagHealthStatus = 'OK' | 'WARNING' | 'STALLED' | 'STOPPED' | 'REWIND' | 'ERROR';

export interface GroupHealth {
  status: LagHealthStatus;
  /** Why, naming the worst partition and the rule, for a tooltip. */
  reason: string;
}

export interface GroupDetail extends GroupSummary {
  leaderId: string | null;
  /** isolation.level of the group's consumers, when known (the simulator knows; a real cluster does not say). */
  isolationLevel?: 'read_uncommitted' | 'read_committed';
  members: Member[];
  /** Every partition the group owns or has committed, one row each. */
  offsets: PartitionOffsets[];
  /** KIP-848 groups: what ConsumerGroupDescribe says beyond members and offsets. */
  consumerGroup?: ConsumerGroupInfo;
  /** Share groups: what ShareGroupDescribe, DescribeShareGroupOffsets and the group's configs say. */
  shareGroup?: ShareGroupInfo;
  /** Streams groups: what StreamsGroupDescribe says. */
  streamsGroup?: StreamsGroupInfo;
}

/** A KIP-848 consumer group, as ConsumerGroupDescribe v0–v1 describes it. */
export interface ConsumerGroupInfo {
  groupEpoch: number;
  /** The epoch of the target assignment. */
  assignmentEpoch: number;
  /** The group epoch moved past the target assignment's: the coordinator has a new assignment to compute. */
  assignmentPending: boolean;
  /** The server assignor (`uniform`, `range`, or a custom one). */
  assignorName: string;
  /** Topic names the members subscribe to, sorted, each once. */
  subscribedTopicNames: string[];
  /** Regular expressions the members subscribe with (KIP-848 broker-side regex), sorted, each once. */
  subscribedTopicRegexes: string[];
  members: ConsumerGroupMemberInfo[];
  /**
   * An online migration from classic under way: the group has members of both protocols. Null when
   * the broker does not say (ConsumerGroupDescribe v0) or every member speaks one protocol.
   */
  migration: { classicMembers: number; consumerMembers: number } | null;
}

export interface ConsumerGroupMemberInfo {
  memberId: string;
  instanceId: string | null;
  rackId: string | null;
  clientId: string;
  clientHost: string;
  memberEpoch: number;
  subscribedTopicNames: string[];
  subscribedTopicRegex: string | null;
  /** The member's current assignment (the broker's: assigned and still being revoked). */
  assignment: TopicPartition[];
  targetAssignment: TopicPartition[];
  /** In the current assignment, not in the target: the member still has to give these up. */
  partitionsToRevoke: TopicPartition[];
  /** In the target, not yet in the current assignment: the member is waiting for them. */
  partitionsAwaited: TopicPartition[];
  /** The member is behind the group's target assignment epoch, or has partitions to revoke or to receive. */
  reconciling: boolean;
  /** KIP-1099 (ConsumerGroupDescribe v1): a classic member not upgraded yet, or a consumer-protocol one; unknown before v1. */
  memberType: 'classic' | 'consumer' | 'unknown';
}

/** A share group (KIP-932). */
export interface ShareGroupInfo {
  groupEpoch: number;
  assignmentEpoch: number;
  assignorName: string;
  /** Per partition: the share-partition start offset, and lag when the broker reports it (Kafka 4.2+). */
  partitions: SharePartitionInfo[];
  /** The group's share configs (explicit or defaults), as DescribeConfigs on the group gives them. */
  configs: ShareGroupConfigs;
}

export interface SharePartitionInfo extends TopicPartition {
  /** Earliest offset of records still in flight; null when the partition has no state yet. */
  startOffset: number | null;
  leaderEpoch: number | null;
  /** Offsets not yet delivery-complete (DescribeShareGroupOffsets v1, Kafka 4.2+); null when not reported. */
  lag: number | null;
}

export interface ShareGroupConfigs {
  /** share.auto.offset.reset: latest, earliest or by_duration:<ISO-8601>. */
  autoOffsetReset: string | null;
  /** share.record.lock.duration.ms */
  recordLockDurationMs: number | null;
  /** share.delivery.count.limit (group config from Kafka 4.3) */
  deliveryCountLimit: number | null;
  /** errors.deadletterqueue.topic.name (Kafka 4.4, KIP-1191); null when not set or not known to the broker. */
  deadLetterTopic: string | null;
  /** Every group config the broker returned, by name; null when the configs could not be read (see `configsError`). */
  all: Record<string, string | null> | null;
  /** Why the configs could not be read (e.g. not authorized); the rest of the group still loads. */
  configsError?: string;
}

/** A streams group (KIP-1071), as StreamsGroupDescribe v0–v1 describes it. */
export interface StreamsGroupInfo {
  groupEpoch: number;
  assignmentEpoch: number;
  /** The broker's task assignor (StreamsGroupDescribe v1, Kafka 4.4), when it says. */
  assignorName: string | null;
  /** The topology the group runs; null when no member has sent it yet. */
  topology: StreamsTopologyInfo | null;
  members: StreamsGroupMemberInfo[];
}

export interface StreamsTopologyInfo {
  epoch: number;
  subtopologies: StreamsSubtopologyInfo[];
}

export interface StreamsSubtopologyInfo {
  subtopologyId: string;
  sourceTopics: string[];
  repartitionSinkTopics: string[];
  repartitionSourceTopics: string[];
  stateChangelogTopics: string[];
}

/** Tasks of one subtopology: the partitions of its source topics. */
export interface StreamsTasks {
  subtopologyId: string;
  partitions: number[];
}

export interface StreamsTaskAssignment {
  active: StreamsTasks[];
  standby: StreamsTasks[];
  warmup: StreamsTasks[];
}

export interface StreamsGroupMemberInfo {
  memberId: string;
  memberEpoch: number;
  instanceId: string | null;
  rackId: string | null;
  clientId: string;
  clientHost: string;
  topologyEpoch: number;
  /** The Kafka Streams instance the member (one stream thread) belongs to. */
  processId: string;
  userEndpoint: { host: string; port: number } | null;
  clientTags: Record<string, string>;
  assignment: StreamsTaskAssignment;
  targetAssignment: StreamsTaskAssignment;
  /** A classic member not upgraded yet (MEMBER-PROTOCOL classic). */
  isClassic: boolean;
}

export type RebalanceEventKind =
  | 'member-joined'
  | 'member-left'
  | 'member-expired'
  | 'poll-timeout'
  | 'static-rejoin'
  | 'rebalance-started'
  | 'sync-completed'
  | 'state-changed'
  | 'assignment-changed'
  | 'offsets-committed'
  | 'offsets-reset'
  /** A TxnOffsetCommit staged offsets of the group in a transaction: pending until its marker. */
  | 'transaction-offsets'
  /** The marker of a transaction that staged offsets of the group: COMMIT made them the committed ones. */
  | 'transaction-committed'
  /** ABORT: the transaction's staged offsets were dropped. */
  | 'transaction-aborted'
  /** An open transaction started holding the LSO of a partition the group reads. */
  | 'lso-held'
  /** That transaction no longer holds the partition's LSO (its marker was written). */
  | 'lso-released';

export interface MemberAssignmentChange {
  memberId: string;
  groupInstanceId?: string | null;
  revoked: TopicPartition[];
  assigned: TopicPartition[];
}

/** A KIP-848 member's reconciliation after one of its epoch steps (ConsumerGroupCurrentMemberAssignment). */
export interface MemberReconciliation {
  memberEpoch: number;
  previousMemberEpoch: number;
  /** Kafka's MemberState: stable, revoking (unrevoked-partitions) or waiting for partitions others still own (unreleased-partitions). */
  state: 'stable' | 'unrevoked-partitions' | 'unreleased-partitions' | 'unknown';
  /** The group's target assignment epoch the member is reconciling towards. */
  targetEpoch: number;
  /** Partitions the member still owns but must revoke. */
  pendingRevocation: TopicPartition[];
  /** Partitions of its target not assigned to it yet (another member still owns them). */
  pendingAssignment: TopicPartition[];
  /** On the step that reaches the target: milliseconds from the target assignment to this step. */
  convergedAfterMs?: number;
  /** Streams groups: the standby and the warm-up tasks the member holds after the step (neither stops processing). */
  standbyTasks?: TopicPartition[];
  warmupTasks?: TopicPartition[];
}

export interface RebalanceEvent {
  groupId: string;
  /** Milliseconds: virtual time in the simulator, epoch milliseconds for real clusters. */
  time: number;
  kind: RebalanceEventKind;
  generation: number;
  stateBefore?: GroupState;
  stateAfter?: GroupState;
  memberId?: string;
  groupInstanceId?: string | null;
  clientId?: string;
  /** Human cause, in Kafka's own words where it has them. */
  cause?: string;
  /** For assignment events: what each member lost and gained. */
  assignments?: MemberAssignmentChange[];
  /** For a KIP-848 member's epoch step: where its reconciliation stands after it. */
  reconciliation?: MemberReconciliation;
  /** True when the event was inferred from snapshots rather than observed. */
  inferred?: boolean;
  /** For transaction-* and lso-* events: the transaction and the partitions it concerns. */
  transaction?: EventTransaction;
}

/** The transaction a transaction-* or lso-* event is about. */
export interface EventTransaction {
  producerId: number;
  /** -1 when not known. */
  producerEpoch: number;
  /** When known (TxnOffsetCommit carries it; a marker does not). */
  transactionalId?: string;
  /** transaction-offsets: the group's partitions whose offsets it staged; lso-*: the held partition. */
  partitions: TopicPartition[];
  /** lso-held: the LSO the transaction holds the partition at (its first offset there). */
  offset?: number;
}

/** The open transaction that holds a partition's last stable offset. */
export interface LsoHolder {
  /** The source's clock when it was read: how long the transaction had been open is measured to it. */
  observedAtMs: number;
  /** Missing when the partition's producers could not be read (then `error` says why). */
  producer?: ProducerState;
  transaction?: TransactionDescription;
  /** Why the transaction was not named (a refusal, a missing ACL, an old broker). */
  error?: string;
}
