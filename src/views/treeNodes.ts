/**
 * The tree's node data: plain objects, no editor types. Ids are built from raw keys (source id, group id,
 * member id, topic, partition), never from labels, so expansion and selection survive label changes.
 */
import type { ClusterInfo, GroupSummary, Member, PartitionOffsets } from '../model/types';
import type { ClusterSource } from '../model/clusterSource';
import type { SimulatedConsumerInfo } from '../model/simulatedConsumer';

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
  /** Offsets of the partitions assigned to this member. */
  readonly partitions: PartitionOffsets[];
  /** The simulated consumer behind the member, when the source is the simulator and it could be matched. */
  readonly consumer?: SimulatedConsumerInfo;
}

export interface PartitionNode {
  readonly kind: 'partition';
  readonly id: string;
  readonly offsets: PartitionOffsets;
  readonly assigned: boolean;
}

export interface UnassignedNode {
  readonly kind: 'unassigned';
  readonly id: string;
  readonly partitions: PartitionOffsets[];
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
  | UnassignedNode
  | StoppedConsumersNode
  | ConsumerNode
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
  /** A partition row under its member or under the group's unassigned node. */
  partition: (parentId: string, topic: string, partition: number): string => `${parentId}/${idPath('tp', topic, partition)}`,
  stoppedConsumers: (sourceId: string, groupId: string): string =>
    idPath('kgl', sourceId, 'group', groupId, 'stopped'),
  consumer: (sourceId: string, groupId: string, handle: string): string =>
    idPath('kgl', sourceId, 'group', groupId, 'stopped', handle),
  /** Message rows hang under a parent; `slot` tells apart several rows under one parent. */
  message: (parentId: string, slot: string): string => `${parentId}/~${slot}`,
};
