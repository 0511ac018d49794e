/**
 * In-place row updates of the groups tree: which rows a reload or a details batch really changed, so the
 * editor re-renders only those. Keeps the rows shown below the group rows (shownRows), their parents,
 * and the groups the editor has opened, whose rows re-render for new figures at most every
 * OPENED_GROUP_REFRESH_MS (see there). No editor types; the model owns one and tells it what it loaded.
 */
import type { GroupSummary } from '../model/types';
import { renderKey, ShownRows, type KeptRows } from './shownRows';
import type { ClusterLoadState, ClusterNode, GroupNode, TreeNode } from './treeNodes';

/**
 * An opened group's row is re-rendered for new figures (lag, lag in time) at most this often. The editor
 * re-renders every row under a row it is told about, and a row re-rendered while the pointer rests on it
 * never opens its tooltip (the workbench sets the hover up again and waits for the pointer to move); live
 * lag changes every second, so without quiet spells the rows of an opened group show no tooltips at all.
 * A new label, icon or context menu (state, health, type) is shown at once.
 */
export const OPENED_GROUP_REFRESH_MS = 5000;

/** What the row updates need of the tree model, which implements it. */
export interface RowUpdateHost {
  /** The view's filter and sort over a cluster's groups. */
  arranged(groups: readonly GroupSummary[]): GroupSummary[];
  /** The rows under a node as loaded now (before they are kept). */
  computeChildren(node: TreeNode): Promise<TreeNode[]>;
  /** Tells the editor this row changed. */
  emit(node: TreeNode): void;
  now(): number;
  openedGroupRefreshMs: number;
}

export class GroupRowUpdates {
  private readonly parents = new WeakMap<TreeNode, TreeNode>();
  /** Rows below the group rows, kept while their data does not change. */
  private readonly shownRows = new ShownRows();
  /**
   * Groups whose members the editor has asked for: what is under them (members, partitions) can change
   * while the group row reads the same, so a refresh re-reads them too and reports only the rows under
   * them that show something new (shownRows). A collapsed group costs nothing: the editor does not ask.
   */
  private readonly openedGroups = new Set<string>();
  /** What each opened group's row was last reported as, and when (see OPENED_GROUP_REFRESH_MS). */
  private readonly openedGroupShown = new Map<string, { key: string; at: number }>();

  constructor(private readonly host: RowUpdateHost) {}

  parent(node: TreeNode): TreeNode | undefined {
    return this.parents.get(node);
  }

  setParent(child: TreeNode, parent: TreeNode): void {
    this.parents.set(child, parent);
  }

  /** Keeps the rows already shown under `parent` (updated in place) and registers their parent. */
  keepChildren(parent: TreeNode, computed: TreeNode[]): KeptRows {
    const kept = this.shownRows.keep(parent.id, computed);
    kept.rows.forEach((child) => this.parents.set(child, parent));
    return kept;
  }

  /** The editor asked for the rows under this group. */
  opened(group: GroupNode): void {
    this.openedGroups.add(group.id);
  }

  isOpened(group: GroupNode): boolean {
    return this.openedGroups.has(group.id);
  }

  /** A group row that is gone: a group that comes back starts afresh. */
  forgetGroup(group: GroupNode): void {
    this.openedGroups.delete(group.id);
    this.openedGroupShown.delete(group.id);
    this.shownRows.forgetUnder(group.id);
  }

  /** A source that is gone: its groups are no longer opened and nothing under its cluster row is kept. */
  forgetCluster(clusterId: string, groups: Iterable<GroupNode>): void {
    for (const group of groups) {
      this.openedGroups.delete(group.id);
    }
    this.shownRows.forgetUnder(clusterId);
  }

  /**
   * After a reload: the group rows whose figures changed, and the opened groups whose rows read the same
   * (what is under them is re-read), when the cluster's own row and its list of groups did not change;
   * undefined when the cluster row itself must be refreshed.
   */
  changedGroupsOnly(
    cluster: ClusterNode,
    before: ClusterLoadState,
    nodes: ReadonlyMap<string, GroupNode> | undefined,
    only?: ReadonlySet<string>,
  ): { changed: GroupNode[]; reread: GroupNode[] } | undefined {
    const after = cluster.state;
    if (before.status !== 'loaded' || after.status !== 'loaded') {
      return undefined;
    }
    // Compared as listed: a filter or sort over figures can change which rows show, or their order.
    const beforeGroups = this.host.arranged(before.groups);
    const afterGroups = this.host.arranged(after.groups);
    const sameCluster =
      JSON.stringify(before.info) === JSON.stringify(after.info) &&
      beforeGroups.length === afterGroups.length &&
      beforeGroups.every((g, i) => g.groupId === afterGroups[i].groupId);
    if (!sameCluster || !nodes) {
      return undefined;
    }
    const changed: GroupNode[] = [];
    const reread: GroupNode[] = [];
    afterGroups.forEach((summary) => {
      const node = nodes.get(summary.groupId);
      if (!node || (only && !only.has(summary.groupId))) {
        return;
      }
      const shown = renderKey(node);
      node.summary = summary;
      const now = renderKey(node);
      if (!this.openedGroups.has(node.id)) {
        if (now !== shown) {
          changed.push(node);
        }
        return;
      }
      const at = this.host.now();
      const last = this.openedGroupShown.get(node.id) ?? { key: shown, at: -Infinity };
      const due = at - last.at >= this.host.openedGroupRefreshMs;
      if (now !== last.key && (due || frameKey(now) !== frameKey(last.key))) {
        // The editor re-reads the subtree of a row it is told about.
        changed.push(node);
        this.openedGroupShown.set(node.id, { key: now, at });
      } else if (due) {
        reread.push(node);
        this.openedGroupShown.set(node.id, { key: last.key, at });
      }
    });
    return { changed, reread };
  }

  /** Reports the changed group rows, re-reads the opened ones whose rows did not change and reports only the rows under them that did. */
  async report(rows: { changed: GroupNode[]; reread: GroupNode[] }): Promise<void> {
    rows.changed.forEach((group) => this.host.emit(group));
    await Promise.all(
      rows.reread.map(async (group) => {
        const changed = await this.changedBelow(group, this.keepChildren(group, await this.host.computeChildren(group)));
        changed.forEach((node) => this.host.emit(node));
      }),
    );
  }

  /**
   * The rows to report under `parent` after a re-read: the parent itself when its list of rows changed (the
   * editor re-reads its subtree), else its rows that show something new and, below the others the editor
   * has opened, what changed there. A row that reads the same is not reported, so it is not re-rendered.
   */
  private async changedBelow(parent: TreeNode, kept: KeptRows): Promise<TreeNode[]> {
    if (kept.listChanged) {
      return [parent];
    }
    const changed = [...kept.changed];
    for (const row of kept.rows) {
      if (!kept.changed.includes(row) && this.shownRows.hasShown(row.id)) {
        changed.push(...(await this.changedBelow(row, this.keepChildren(row, await this.host.computeChildren(row)))));
      }
    }
    return changed;
  }
}

/** A row's label, icon and context menu out of its render key: what is shown at once even on an opened group. */
function frameKey(renderKey: string): string {
  const { label, icon, contextValue } = JSON.parse(renderKey) as { label?: unknown; icon?: unknown; contextValue?: unknown };
  return JSON.stringify([label, icon, contextValue]);
}
