/**
 * The tree's model: loads each cluster's group list, keeps the last good snapshot while a reload runs
 * (so rows do not flicker), and says which node changed. Group details are fetched when a group is
 * expanded. A source that lists its groups before their details (listGroupsOnly) shows the rows at once
 * and fills in their figures batch by batch, the groups the user looks at first (groupDetailsPhase.ts).
 * Which rows a load really changed is groupRowUpdates.ts's job. A cluster that failed to load is retried
 * on its own with exponential backoff, or, after an authentication or authorization failure, only when
 * the user asks. No editor types: the provider adapts this to a TreeDataProvider.
 */
import type { ClusterSource, Unsubscribe } from '../model/clusterSource';
import { mergeListing, type DetailBatchLimits } from './groupDetailRounds';
import { isTwoPhase, loadDetails, type DetailsPhaseHost } from './groupDetailsPhase';
import { entryRows, groupChildren, memberChildren, partitionChildren } from './groupChildren';
import { GroupRowUpdates, OPENED_GROUP_REFRESH_MS } from './groupRowUpdates';
import { LoadRetries, type LoadRetriesOptions } from './loadRetries';
import type { TreeSources } from './treeSources';
import type { ClusterInfo, GroupDetail, GroupSummary } from '../model/types';
import { nodeIds, type ClusterNode, type GroupNode, type MessageNode, type TransactionsNode, type TreeNode } from './treeNodes';

export { OPENED_GROUP_REFRESH_MS } from './groupRowUpdates';
import { errorMessage } from '../protocol/errors';
import { transactionChildren } from './transactionRows';

export interface GroupTreeModelOptions {
  /** Called when a source pushes "something changed"; the caller decides when to reload. */
  onSourceChanged?: (sourceId: string) => void;
  /** A failed cluster's automatic retry is due; the caller decides when it runs (default: reload it at once). */
  onRetryDue?: (sourceId: string) => void;
  /** Load failures, for the output channel. */
  logError?: (message: string) => void;
  /** Timers, clock and backoff of the automatic retries; injectable so tests drive time by hand. */
  retries?: LoadRetriesOptions;
  /** Loads a cluster's groups (default: `listGroups`); the view's health tracker samples and evaluates them here. */
  loadGroups?: (source: ClusterSource) => Promise<GroupSummary[]>;
  /** The view's filter and sort over a cluster's groups (default: all of them, by id). */
  arrangeGroups?: (groups: readonly GroupSummary[]) => GroupSummary[];
  /** A two-phase source's batch of details to rows (default: the summaries); the health tracker samples them here. */
  summarizeDetails?: (source: ClusterSource, details: GroupDetail[]) => GroupSummary[];
  /** Batch sizes of the details phase. */
  detailBatchLimits?: DetailBatchLimits;
  /** How often an opened group's figures may re-render it and the rows under it (default OPENED_GROUP_REFRESH_MS). */
  openedGroupRefreshMs?: number;
}

interface RunningLoad {
  running: Promise<void>;
  /** A reload was requested while this one ran: run once more when it ends. */
  again: boolean;
  /** The next round is the user's (see refresh()). */
  manual: boolean;
}

export interface LoadCounts {
  /** Loads a user asked for (Refresh, Retry), which re-read every row of the cluster. */
  full: number;
  /** Loads started by the refresh interval, a source's change push or a due retry. */
  background: number;
}

export class GroupTreeModel {
  private readonly clusters = new Map<string, ClusterNode>();
  /** Group rows per source, by group id: the same objects across reloads (see GroupNode.summary). */
  private readonly groupNodes = new Map<string, Map<string, GroupNode>>();
  private readonly transactionNodes = new Map<string, TransactionsNode>();
  private readonly sourceSubscriptions = new Map<string, Unsubscribe>();
  private readonly loads = new Map<string, RunningLoad>();
  /** Loads finished per source, user-requested (full) and background: what the extension-host tests check. */
  private readonly finishedLoads = new Map<string, LoadCounts>();
  private readonly listeners = new Set<(node: TreeNode | undefined) => void>();
  /** Which rows a load changed, the rows kept under the groups, and the groups the editor opened. */
  private readonly rows: GroupRowUpdates;
  private readonly retries: LoadRetries;
  private readonly unsubscribeRegistry: Unsubscribe;

  constructor(
    private readonly registry: TreeSources,
    private readonly options: GroupTreeModelOptions = {},
  ) {
    this.rows = new GroupRowUpdates({
      arranged: (groups) => this.arranged(groups),
      computeChildren: (node) => this.computeChildren(node),
      emit: (node) => this.emit(node),
      now: () => (this.options.retries?.now ?? Date.now)(),
      openedGroupRefreshMs: options.openedGroupRefreshMs ?? OPENED_GROUP_REFRESH_MS,
    });
    this.retries = new LoadRetries((sourceId) => this.retryDue(sourceId), options.retries);
    this.unsubscribeRegistry = registry.onDidChangeSources(() => this.syncSources());
    this.syncSources();
  }

  /** `undefined` means the whole tree changed. */
  onDidChange(listener: (node: TreeNode | undefined) => void): Unsubscribe {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** One node per registered source; empty when there is none, so the view's welcome content shows. */
  roots(): ClusterNode[] {
    return [...this.clusters.values()];
  }

  async children(node?: TreeNode): Promise<TreeNode[]> {
    const computed = await this.computeChildren(node);
    if (!node) {
      return computed;
    }
    if (node.kind === 'cluster') {
      computed.forEach((child) => this.rows.setParent(child, node));
      return computed;
    }
    return this.rows.keepChildren(node, computed).rows;
  }

  parent(node: TreeNode): TreeNode | undefined {
    return this.rows.parent(node);
  }

  /**
   * Reloads one cluster, or all of them. A `manual` reload (the user's Refresh or Retry, or after a
   * command) reports each cluster node (its whole subtree is re-read), shows "loading…" over an error
   * and tries a failed cluster at once. An automatic one (interval, push, due retry) reports only the rows
   * whose figures changed, never shows "loading…" over what is shown, and skips a failed cluster until
   * its retry is due, or for good when it waits for the user.
   */
  async refresh(sourceId?: string, manual = false): Promise<void> {
    const targets = sourceId === undefined ? this.roots() : [this.clusters.get(sourceId)].filter((n) => n !== undefined);
    await Promise.all(targets.map((node) => this.reload(node, manual)));
  }

  /** The filter or sort changed: every cluster row lists its groups again, from what is loaded (no reload). */
  rearranged(): void {
    this.emit(undefined);
  }

  /** How many loads of a source have finished so far, by kind. */
  loadCounts(sourceId: string): LoadCounts {
    return { ...(this.finishedLoads.get(sourceId) ?? { full: 0, background: 0 }) };
  }

  dispose(): void {
    this.retries.dispose();
    this.unsubscribeRegistry();
    for (const unsubscribe of this.sourceSubscriptions.values()) {
      unsubscribe();
    }
    this.sourceSubscriptions.clear();
    this.listeners.clear();
  }

  private async computeChildren(node?: TreeNode): Promise<TreeNode[]> {
    if (!node) {
      return this.roots();
    }
    switch (node.kind) {
      case 'cluster':
        return this.clusterChildren(node);
      case 'group':
        return this.groupChildren(node);
      case 'member':
        return memberChildren(node);
      case 'topic':
        return entryRows(node.id, node.entries, node.share, node.group);
      case 'info':
        return node.children;
      case 'unassigned':
        return partitionChildren(node.id, node.partitions, 'unassigned', node.share ?? false, node.group);
      case 'stoppedConsumers':
        return node.consumers.map((consumer) => ({
          kind: 'consumer',
          id: nodeIds.consumer(node.sourceId, consumer.groupId, consumer.handle),
          sourceId: node.sourceId,
          consumer,
        }));
      case 'transactions': {
        const admin = this.registry.get(node.sourceId)?.transactions;
        return admin ? transactionChildren(node, admin) : [];
      }
      case 'partition':
      case 'consumer':
      case 'transaction':
      case 'message':
        return [];
    }
  }

  private clusterChildren(node: ClusterNode): TreeNode[] {
    const state = node.state;
    switch (state.status) {
      case 'idle':
        void this.reload(node);
        return [loadingRow(node.id)];
      case 'loading':
        return [loadingRow(node.id)];
      case 'error':
        return [errorRow(node.id, `Failed to load consumer groups: ${state.message}`, node.sourceId)];
      case 'loaded': {
        // A cluster whose transactions can be listed shows them first, groups or not.
        const first: TreeNode[] = this.registry.get(node.sourceId)?.transactions ? [this.transactionsNode(node)] : [];
        if (!state.groups.length) {
          return [...first, { kind: 'message', id: nodeIds.message(node.id, 'empty'), severity: 'info', text: 'No consumer groups' }];
        }
        const shown = this.arranged(state.groups);
        if (!shown.length) {
          return [...first, { kind: 'message', id: nodeIds.message(node.id, 'filtered'), severity: 'info', text: `No groups match the filter (${state.groups.length} hidden)` }];
        }
        return [...first, ...shown.map((summary) => this.groupNode(node, summary))];
      }
    }
  }

  /** One Transactions row object per cluster, so its expansion survives reloads. */
  private transactionsNode(cluster: ClusterNode): TransactionsNode {
    let node = this.transactionNodes.get(cluster.sourceId);
    if (!node) {
      node = { kind: 'transactions', id: nodeIds.transactions(cluster.sourceId), sourceId: cluster.sourceId };
      this.transactionNodes.set(cluster.sourceId, node);
    }
    return node;
  }

  private groupNode(cluster: ClusterNode, summary: GroupSummary): GroupNode {
    let nodes = this.groupNodes.get(cluster.sourceId);
    if (!nodes) {
      nodes = new Map();
      this.groupNodes.set(cluster.sourceId, nodes);
    }
    let node = nodes.get(summary.groupId);
    if (!node) {
      node = { kind: 'group', id: nodeIds.group(cluster.sourceId, summary.groupId), sourceId: cluster.sourceId, sourceKind: cluster.sourceKind, summary };
      nodes.set(summary.groupId, node);
    }
    node.summary = summary;
    return node;
  }

  private arranged(groups: readonly GroupSummary[]): GroupSummary[] {
    return this.options.arrangeGroups ? this.options.arrangeGroups(groups) : [...groups];
  }

  private async groupChildren(node: GroupNode): Promise<TreeNode[]> {
    this.rows.opened(node);
    const { groupId, error } = node.summary;
    if (error) {
      return [errorRow(node.id, `Failed to load group: ${error}`, node.sourceId)];
    }
    const entry = this.registry.get(node.sourceId);
    if (!entry) {
      return [];
    }
    try {
      const detail = await entry.source.describeGroup(groupId);
      const consumers = entry.control ? entry.control.listConsumers(groupId) : [];
      return groupChildren({ sourceId: node.sourceId, sourceKind: node.sourceKind, detail, consumers });
    } catch (e) {
      this.options.logError?.(`Describing group "${groupId}" on ${entry.source.label} failed: ${errorMessage(e)}`);
      return [errorRow(node.id, `Failed to describe group: ${errorMessage(e)}`, node.sourceId)];
    }
  }

  private reload(node: ClusterNode, manual = false): Promise<void> {
    const current = this.loads.get(node.sourceId);
    if (current) {
      // A two-phase round re-reads every group anyway: an automatic reload that falls inside it is
      // dropped rather than queued, so a round longer than the interval never runs back to back.
      const source = this.registry.get(node.sourceId)?.source;
      if (!manual && source && isTwoPhase(source)) {
        return current.running;
      }
      current.again = true;
      current.manual ||= manual;
      return current.running;
    }
    if (!manual && !this.automaticLoadAllowed(node)) {
      return Promise.resolve();
    }
    const load: RunningLoad = { running: Promise.resolve(), again: false, manual };
    // Registered before it starts, so that its end (which may come before the first await) unregisters it.
    this.loads.set(node.sourceId, load);
    load.running = (async () => {
      try {
        do {
          load.again = false;
          const manualRound = load.manual;
          load.manual = false;
          if (!manualRound && !this.automaticLoadAllowed(node)) {
            break;
          }
          await this.loadOnce(node, manualRound);
          this.countLoad(node.sourceId, manualRound);
        } while (load.again && this.clusters.get(node.sourceId) === node);
      } finally {
        this.loads.delete(node.sourceId);
      }
    })();
    return load.running;
  }

  private countLoad(sourceId: string, full: boolean): void {
    const counts = this.finishedLoads.get(sourceId) ?? { full: 0, background: 0 };
    counts[full ? 'full' : 'background']++;
    this.finishedLoads.set(sourceId, counts);
  }

  /** An automatic load may not run while a failed cluster waits for its retry time, or for the user. */
  private automaticLoadAllowed(node: ClusterNode): boolean {
    return node.state.status !== 'error' || this.retries.allowsAutomaticLoad(node.state.nextRetry);
  }

  private retryDue(sourceId: string): void {
    if (!this.clusters.has(sourceId)) {
      return;
    }
    if (this.options.onRetryDue) {
      this.options.onRetryDue(sourceId);
    } else {
      this.refresh(sourceId).catch((e: unknown) => this.options.logError?.(`Retrying ${sourceId} failed: ${errorMessage(e)}`));
    }
  }

  private async loadOnce(node: ClusterNode, manual: boolean): Promise<void> {
    const entry = this.registry.get(node.sourceId);
    if (!entry) {
      return;
    }
    // The first load, and the user's retry after an error, show the loading row; every other load keeps
    // what is on screen (the last snapshot, or the error with its retry time) until it ends.
    const wasError = node.state.status === 'error';
    if (node.state.status === 'idle' || (manual && wasError)) {
      node.state = { status: 'loading' };
      if (wasError) {
        this.emit(node);
      }
    }
    const before = node.state;
    const source = entry.source;
    let loaded: { info: ClusterInfo; groups: GroupSummary[] } | undefined;
    let failure: unknown;
    try {
      const listing = isTwoPhase(source)
        ? source.listGroupsOnly().then((listed) => mergeListing(before.status === 'loaded' ? before.groups : [], listed))
        : this.options.loadGroups
          ? this.options.loadGroups(source)
          : source.listGroups();
      const [info, groups] = await Promise.all([source.describeCluster(), listing]);
      groups.sort((a, b) => (a.groupId < b.groupId ? -1 : a.groupId > b.groupId ? 1 : 0));
      loaded = { info, groups };
    } catch (e) {
      this.options.logError?.(`Loading consumer groups of ${entry.source.label} failed: ${errorMessage(e)}`);
      failure = e;
    }
    if (this.clusters.get(node.sourceId) !== node) {
      return;
    }
    if (loaded) {
      this.retries.forget(node.sourceId);
      node.state = { status: 'loaded', ...loaded };
    } else {
      node.state = { status: 'error', message: errorMessage(failure), nextRetry: this.retries.failed(node.sourceId, failure) };
    }
    const changedGroups = manual ? undefined : this.rows.changedGroupsOnly(node, before, this.groupNodes.get(node.sourceId));
    if (changedGroups) {
      await this.rows.report(changedGroups);
    } else {
      this.forgetGroupsNotIn(node);
      this.emit(node);
    }
    if (loaded && isTwoPhase(source)) {
      await loadDetails(node, source, this.detailsPhaseHost());
    }
  }

  private detailsPhaseHost(): DetailsPhaseHost {
    return {
      rows: this.rows,
      groupNodes: (sourceId) => this.groupNodes.get(sourceId),
      isCurrent: (node) => this.clusters.get(node.sourceId) === node,
      arranged: (groups) => this.arranged(groups),
      emit: (node) => this.emit(node),
      summarizeDetails: this.options.summarizeDetails,
      detailBatchLimits: this.options.detailBatchLimits,
      logError: this.options.logError,
    };
  }

  /** Drops the row objects of groups that are gone, so a group that comes back gets a fresh row. */
  private forgetGroupsNotIn(cluster: ClusterNode): void {
    const nodes = this.groupNodes.get(cluster.sourceId);
    if (!nodes) {
      return;
    }
    const present = new Set(cluster.state.status === 'loaded' ? cluster.state.groups.map((g) => g.groupId) : []);
    for (const [groupId, node] of [...nodes]) {
      if (!present.has(groupId)) {
        nodes.delete(groupId);
        this.rows.forgetGroup(node);
      }
    }
  }

  /** Keeps one cluster node per registered source (same object while registered) and one push subscription each. */
  private syncSources(): void {
    const registered = new Map(this.registry.list().map((e) => [e.source.id, e.source]));
    for (const id of [...this.clusters.keys()]) {
      if (!registered.has(id)) {
        this.clusters.delete(id);
        this.rows.forgetCluster(nodeIds.cluster(id), this.groupNodes.get(id)?.values() ?? []);
        this.groupNodes.delete(id);
        this.retries.forget(id);
        this.sourceSubscriptions.get(id)?.();
        this.sourceSubscriptions.delete(id);
      }
    }
    const ordered = new Map<string, ClusterNode>();
    for (const [id, source] of registered) {
      let node = this.clusters.get(id);
      if (!node) {
        node = { kind: 'cluster', id: nodeIds.cluster(id), sourceId: id, sourceKind: source.kind, label: source.label, state: { status: 'idle' } };
        const onSourceChanged = this.options.onSourceChanged;
        if (source.onDidChange && onSourceChanged) {
          this.sourceSubscriptions.set(id, source.onDidChange(() => onSourceChanged(id)));
        }
      }
      ordered.set(id, node);
    }
    this.clusters.clear();
    for (const [id, node] of ordered) {
      this.clusters.set(id, node);
    }
    this.emit(undefined);
  }

  private emit(node: TreeNode | undefined): void {
    for (const listener of [...this.listeners]) {
      listener(node);
    }
  }
}

function loadingRow(parentId: string): MessageNode {
  return { kind: 'message', id: nodeIds.message(parentId, 'loading'), severity: 'loading', text: 'Loading consumer groups…' };
}

function errorRow(parentId: string, text: string, retrySourceId: string): MessageNode {
  return { kind: 'message', id: nodeIds.message(parentId, 'error'), severity: 'error', text, retrySourceId };
}
