import type { ClusterInfo, GroupDetail, GroupSummary, RebalanceEvent } from './types';

/** Minimal disposable so the engine layers need no editor types. */
export interface Unsubscribe {
  (): void;
}

/**
 * Everything the views show comes from this interface. The simulator and real clusters
 * both implement it; views never know which one they talk to.
 */
export interface CliCommandConfig {
  /** A file name to suggest, e.g. "Production.properties". */
  fileName: string;
  /** The properties text. */
  properties: string;
}

export interface ClusterSource {
  /** Stable id, used for tree ids and settings keys. */
  readonly id: string;
  /** Name shown on the cluster node. */
  readonly label: string;
  readonly kind: 'simulator' | 'kafka';
  /**
   * How to read event and record times: 'epoch' (milliseconds since 1970, the default) or 'virtual'
   * (milliseconds since a simulation started, for a simulator run in virtual time).
   */
  readonly timeBase?: 'epoch' | 'virtual';
  /** The clock event times are measured on, when it is not the wall clock (a simulation's). */
  now?(): number;

  describeCluster(): Promise<ClusterInfo>;
  /** Every group with its summary; groups that fail to load carry `error` instead of failing the list. */
  listGroups(): Promise<GroupSummary[]>;
  describeGroup(groupId: string): Promise<GroupDetail>;
  /**
   * listGroups with each group's members and offsets, when the source reads them for the list anyway: the view
   * samples every group's lag from it for the health evaluation. Same groups, same cost as listGroups.
   */
  listGroupDetails?(): Promise<GroupDetail[]>;
  /**
   * The list phase of a two-phase load, for clusters with thousands of groups: every group as ListGroups
   * gives it (id, type, state), each marked `detailsPending`, for one request per broker. Sources with
   * it have loadGroupDetails too.
   */
  listGroupsOnly?(): Promise<GroupSummary[]>;
  /**
   * The details phase: the named groups (listed by the last listGroupsOnly) with members, offsets, lag and
   * lag in time, as listGroupDetails gives them; the source cuts them into requests per coordinator.
   */
  loadGroupDetails?(groupIds: readonly string[]): Promise<GroupDetail[]>;

  /** Subscribes to "something changed" notifications, when the source can push them. */
  onDidChange?(listener: () => void): Unsubscribe;
  /** Rebalance events observed so far for a group, oldest first, when the source keeps them. */
  rebalanceEvents?(groupId: string): RebalanceEvent[];
  /**
   * Starts keeping a group's rebalance history (a real cluster reads `__consumer_offsets` for it)
   * until the returned function is called; rebalanceEvents and onDidChange report what arrives.
   * `onUnavailable` is told once when the history cannot be read (e.g. the user may not read the
   * topic): the caller then falls back to polling.
   */
  watchRebalances?(groupId: string, onUnavailable: (reason: string) => void): Unsubscribe;
  /**
   * The client properties Apache Kafka's CLI tools need for this cluster (`--command-config`), with
   * placeholders instead of secrets; undefined when plain connections do.
   */
  cliCommandConfig?(): CliCommandConfig | undefined;

  dispose(): Promise<void>;
}
