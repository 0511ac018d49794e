/**
 * Plain data shared by every layer. The views render only these shapes, whichever source
 * (simulator or real cluster) produced them.
 */

/** Classic group states, plus KIP-848 consumer-group states and "Unknown" for what a broker reports that we do not know. */
export type GroupState =
  | 'Empty'
  | 'PreparingRebalance'
  | 'CompletingRebalance'
  | 'Stable'
  | 'Dead'
  | 'Assigning'
  | 'Reconciling'
  | 'Unknown';

export interface TopicPartition {
  topic: string;
  partition: number;
}

/** Topic (UTF-16 code-unit order, as Java's String.compareTo), then partition number. */
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
  /** True when everything between the committed offset and the group's end (LSO for read_committed, else HW) is transaction markers. */
  markerOnlyLag?: boolean;
  /** Offset a transactional producer sent for this partition, waiting for its transaction to end. */
  pendingTransactionalOffset?: number | null;
  /** Member that owns the partition in the current assignment, if any. */
  ownerMemberId?: string | null;
  /** Age in milliseconds of the oldest record the group has not consumed, when read (see `src/health/lagInTime.ts`). */
  lagInTimeMs?: number | null;
}

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
}

export interface GroupSummary {
  groupId: string;
  state: GroupState;
  /** "consumer" for classic consumer groups; other classic protocol types (connect, ...) are shown undecoded. */
  protocolType: string;
  /** Group type as ListGroups reports it: classic protocol or KIP-848 consumer protocol. */
  groupType: 'classic' | 'consumer' | 'simple' | 'unknown';
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
  | 'offsets-reset';

export interface MemberAssignmentChange {
  memberId: string;
  groupInstanceId?: string | null;
  revoked: TopicPartition[];
  assigned: TopicPartition[];
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
  /** True when the event was inferred from snapshots rather than observed. */
  inferred?: boolean;
}
