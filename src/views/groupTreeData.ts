/**
 * The tree's data layer: loads each cluster's group list, keeps the last good snapshot while a reload runs
 * (so rows do not flicker), and says which node changed. Group details are fetched when a group is
 * expanded. No editor types: the provider adapts this to a TreeDataProvider.
 */
import type { Unsubscribe } from '../model/clusterSource';
import { groupChildren, partitionChildren } from './groupChildren';
import type { SourceRegistry } from './sourceRegistry';
import { nodeIds, type ClusterNode, type GroupNode, type MessageNode, type TreeNode } from './treeNodes';

export interface GroupTreeDataOptions {
  /** Called when a source pushes "something changed"; the caller decides when to reload. */
  onSourceChanged?: (sourceId: string) => void;
  /** Load failures, for the output channel. */
  logError?: (message: string) => void;
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

interface RunningLoad {
  running: Promise<void>;
  /** A reload was requested while this one ran: run once more when it ends. */
  again: boolean;
}

export class GroupTreeData {
  private readonly clusters = new Map<string, ClusterNode>();
  private readonly sourceSubscriptions = new Map<string, Unsubscribe>();
  private readonly loads = new Map<string, RunningLoad>();
  private readonly listeners = new Set<(node: TreeNode | undefined) => void>();
  private readonly parents = new WeakMap<TreeNode, TreeNode>();
  private readonly unsubscribeRegistry: Unsubscribe;

  constructor(
    private readonly registry: SourceRegistry,
    private readonly options: GroupTreeDataOptions = {},
  ) {
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
    const children = await this.computeChildren(node);
    if (node) {
      for (const child of children) {
        this.parents.set(child, node);
      }
    }
    return children;
  }

  parent(node: TreeNode): TreeNode | undefined {
    return this.parents.get(node);
  }

  /** Reloads one cluster, or all of them; each cluster node is reported as it settles. */
  async refresh(sourceId?: string): Promise<void> {
    const targets = sourceId === undefined ? this.roots() : [this.clusters.get(sourceId)].filter((n) => n !== undefined);
    await Promise.all(targets.map((node) => this.reload(node)));
  }

  dispose(): void {
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
        return partitionChildren(node.id, node.partitions, true);
      case 'unassigned':
        return partitionChildren(node.id, node.partitions, false);
      case 'stoppedConsumers':
        return node.consumers.map((consumer) => ({
          kind: 'consumer',
          id: nodeIds.consumer(node.sourceId, consumer.groupId, consumer.handle),
          sourceId: node.sourceId,
          consumer,
        }));
      case 'partition':
      case 'consumer':
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
      case 'loaded':
        if (!state.groups.length) {
          return [{ kind: 'message', id: nodeIds.message(node.id, 'empty'), severity: 'info', text: 'No consumer groups' }];
        }
        return state.groups.map(
          (summary): GroupNode => ({
            kind: 'group',
            id: nodeIds.group(node.sourceId, summary.groupId),
            sourceId: node.sourceId,
            sourceKind: node.sourceKind,
            summary,
          }),
        );
    }
  }

  private async groupChildren(node: GroupNode): Promise<TreeNode[]> {
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

  private reload(node: ClusterNode): Promise<void> {
    const current = this.loads.get(node.sourceId);
    if (current) {
      current.again = true;
      return current.running;
    }
    const load: RunningLoad = { running: Promise.resolve(), again: false };
    load.running = (async () => {
      try {
        do {
          load.again = false;
          await this.loadOnce(node);
        } while (load.again && this.clusters.get(node.sourceId) === node);
      } finally {
        this.loads.delete(node.sourceId);
      }
    })();
    this.loads.set(node.sourceId, load);
    return load.running;
  }

  private async loadOnce(node: ClusterNode): Promise<void> {
    const entry = this.registry.get(node.sourceId);
    if (!entry) {
      return;
    }
    // A retry after an error shows the loading row at once; later reloads keep the last snapshot on screen.
    const wasError = node.state.status === 'error';
    if (node.state.status === 'idle' || wasError) {
      node.state = { status: 'loading' };
      if (wasError) {
        this.emit(node);
      }
    }
    try {
      const [info, groups] = await Promise.all([entry.source.describeCluster(), entry.source.listGroups()]);
      groups.sort((a, b) => (a.groupId < b.groupId ? -1 : a.groupId > b.groupId ? 1 : 0));
      node.state = { status: 'loaded', info, groups };
    } catch (e) {
      this.options.logError?.(`Loading consumer groups of ${entry.source.label} failed: ${errorMessage(e)}`);
      node.state = { status: 'error', message: errorMessage(e) };
    }
    if (this.clusters.get(node.sourceId) === node) {
      this.emit(node);
    }
  }

  /** Keeps one cluster node per registered source (same object while registered) and one push subscription each. */
  private syncSources(): void {
    const registered = new Map(this.registry.list().map((e) => [e.source.id, e.source]));
    for (const id of [...this.clusters.keys()]) {
      if (!registered.has(id)) {
        this.clusters.delete(id);
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
