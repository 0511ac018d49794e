/**
 * The tree's node data: plain objects, no editor types. Ids are built from raw keys (source id, group id,
 * member id, topic, partition), never from labels, so expansion and selection survive label changes.
 */
import type { ClusterInfo, ConsumerGroupMemberInfo, GroupSummary, Member, PartitionOffsets, StreamsGroupMemberInfo } from '../model/types';
import type { ClusterSource } from '../model/clusterSource';
import type { SimulatedConsumerInfo } from '../model/simulatedConsumer';
import type { TransactionDescription, TransactionListing } from '../model/transactions';

export type SourceKind = ClusterSource['kind'];

/** What the tree knows about one cluster's group list. */
export type ClusterLoadState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'loaded'; info: ClusterInfo; groups: GroupSummary[] }
  | { status: 'error'; message: string; nextRetry?: NextRetry };

/**
 * When a cluster that failed to load is tried again without the user: at a time (exponential backoff),
 * or never (an authentication or authorization failure waits for Retry, Refresh or an edit of the connection).
 */
export type NextRetry = { readonly kind: 'scheduled'; readonly at: number } | { readonly kind: 'user' };

export interface ClusterNode {
  readonly kind: 'cluster';
  readonly id: string;
  readonly sourceId: string;
  readonly sourceKind: SourceKind;
  readonly label: string;
  /** Mutable on purpose: the node object keeps its identity across reloads so it can be refreshed alone. */
  state: ClusterLoadState;
}

export interface GroupNode {
  readonly kind: 'group';
  readonly id: string;
  readonly sourceId: string;
  readonly sourceKind: SourceKind;
  /**
   * Mutable on purpose, like ClusterNode.state: a reload that changes only a group's figures updates
   * this object and refreshes that row alone, so VS Code does not re-fetch the whole cluster subtree
   * (while it does, a right-click on a row can reach the command without its node).
   */
  summary: GroupSummary;
}

export interface MemberNode {
  readonly kind: 'member';
  readonly id: string;
  readonly sourceId: string;
  readonly sourceKind: SourceKind;
  readonly groupId: string;
  readonly member: Member;
  /** Offsets of the partitions assigned to this member (for a KIP-848 member: the ones it keeps). */
  readonly partitions: PartitionOffsets[];
  /** KIP-848 reconciliation: partitions the member still has to give up (owned, not in its target). */
  readonly revoking?: PartitionOffsets[];
  /** KIP-848 and streams reconciliation: partitions in the member's target it does not own yet. */
  readonly awaited?: PartitionOffsets[];
  /** The group's type, which decides what the member's row says. */
  readonly groupType?: GroupSummary['groupType'];
  /** The group's assignment epoch, to say "epoch 5 of 7" of a member that is behind. */
  readonly groupAssignmentEpoch?: number;
  /** What ConsumerGroupDescribe says of the member (KIP-848 groups). */
  readonly consumerMember?: ConsumerGroupMemberInfo;
  /** What StreamsGroupDescribe says of the member (streams groups). */
  readonly streamsMember?: StreamsGroupMemberInfo;
  /** The simulated consumer behind the member, when the source is the simulator and it could be matched. */
  readonly consumer?: SimulatedConsumerInfo;
}

/**
 * Where a partition row sits: owned by a member, committed but owned by nobody, still being given up
 * by its member (KIP-848), or in the member's target and not received yet.
 */
export type PartitionRole = 'assigned' | 'unassigned' | 'revoking' | 'awaited';

export interface PartitionEntry {
  readonly offsets: PartitionOffsets;
  readonly role: PartitionRole;
}

/** The group a row below a group row belongs to, for the commands on it. */
export interface GroupRef {
  readonly sourceId: string;
  readonly groupId: string;
}

/** A member's partitions of one topic, when the member owns several topics. */
export interface TopicNode {
  readonly kind: 'topic';
  readonly id: string;
  readonly group: GroupRef;
  readonly topic: string;
  readonly entries: PartitionEntry[];
  /** Share-partitions show a start offset instead of a committed one. */
  readonly share: boolean;
}

/**
 * A row of a group type's own facts (epochs, assignor, share configs, a streams topology and its
 * subtopologies): label, description and tooltip fields made by the child builder, nested rows inside.
 */
export interface InfoNode {
  readonly kind: 'info';
  readonly id: string;
  readonly label: string;
  readonly description: string;
  readonly fields: Array<[name: string, value: string]>;
  readonly icon: string;
  /** contextValue segment after `kgl:info:`. */
  readonly infoKind: string;
  readonly children: InfoNode[];
}

export interface PartitionNode {
  readonly kind: 'partition';
  readonly id: string;
  /** The group the row is under (Reset Offsets of This Partition…); absent only where a row is drawn alone. */
  readonly group?: GroupRef;
  readonly offsets: PartitionOffsets;
  readonly role: PartitionRole;
  /** A share-partition: its committed offset is the share-partition start offset. */
  readonly share?: boolean;
}

export interface UnassignedNode {
  readonly kind: 'unassigned';
  readonly id: string;
  readonly group: GroupRef;
  readonly partitions: PartitionOffsets[];
  /** Share-partitions no member is assigned. */
  readonly share?: boolean;
}

export interface StoppedConsumersNode {
  readonly kind: 'stoppedConsumers';
  readonly id: string;
  readonly sourceId: string;
  readonly consumers: SimulatedConsumerInfo[];
}

/** A simulated consumer that is not (or no longer) a member of its group. */
export interface ConsumerNode {
  readonly kind: 'consumer';
  readonly id: string;
  readonly sourceId: string;
  readonly consumer: SimulatedConsumerInfo;
}

/** A cluster's transactional ids, as kafka-transactions.sh list and describe show them: the first row under a cluster that can list them. */
export interface TransactionsNode {
  readonly kind: 'transactions';
  readonly id: string;
  readonly sourceId: string;
}

/** One transactional id: its listing, and for an open transaction what DescribeTransactions said. */
export interface TransactionNode {
  readonly kind: 'transaction';
  readonly id: string;
  readonly sourceId: string;
  readonly listing: TransactionListing;
  readonly description?: TransactionDescription;
  /** Why DescribeTransactions gave no description (`ERROR_NAME: message`). */
  readonly describeError?: string;
  /** The source's clock when the row was read, for "open 12 min". */
  readonly readAt: number;
}

export type MessageSeverity = 'info' | 'loading' | 'error';

export interface MessageNode {
  readonly kind: 'message';
  readonly id: string;
  readonly severity: MessageSeverity;
  readonly text: string;
  /** Set on an error row whose click retries loading this source. */
  readonly retrySourceId?: string;
}

export type TreeNode =
  | ClusterNode
  | GroupNode
  | MemberNode
  | PartitionNode
  | TopicNode
  | InfoNode
  | UnassignedNode
  | StoppedConsumersNode
  | ConsumerNode
  | TransactionsNode
  | TransactionNode
  | MessageNode;

/** Node ids are paths of URI-encoded raw keys, so a "/" inside a group id cannot make two ids collide. */
function idPath(...segments: Array<string | number>): string {
  return segments.map((s) => encodeURIComponent(String(s))).join('/');
}

export const nodeIds = {
  cluster: (sourceId: string): string => idPath('kgl', sourceId),
  group: (sourceId: string, groupId: string): string => idPath('kgl', sourceId, 'group', groupId),
  member: (sourceId: string, groupId: string, memberId: string): string =>
    idPath('kgl', sourceId, 'group', groupId, 'member', memberId),
  unassigned: (sourceId: string, groupId: string): string => idPath('kgl', sourceId, 'group', groupId, 'unassigned'),
  /** A member's topic row. */
  topic: (memberId: string, topic: string): string => `${memberId}/${idPath('topic', topic)}`,
  /** A type info row under its group (or under another info row). */
  info: (parentId: string, slot: string): string => `${parentId}/${idPath('info', slot)}`,
  /** A partition row under its member, topic or the group's unassigned node. */
  partition: (parentId: string, topic: string, partition: number): string => `${parentId}/${idPath('tp', topic, partition)}`,
  stoppedConsumers: (sourceId: string, groupId: string): string =>
    idPath('kgl', sourceId, 'group', groupId, 'stopped'),
  consumer: (sourceId: string, groupId: string, handle: string): string =>
    idPath('kgl', sourceId, 'group', groupId, 'stopped', handle),
  transactions: (sourceId: string): string => idPath('kgl', sourceId, 'transactions'),
  transaction: (sourceId: string, transactionalId: string): string => idPath('kgl', sourceId, 'transactions', transactionalId),
  /** Message rows hang under a parent; `slot` tells apart several rows under one parent. */
  message: (parentId: string, slot: string): string => `${parentId}/~${slot}`,
};
