/**
 * The VS Code face of the consumer-group tree: copies the vscode-free descriptors onto TreeItems and turns
 * the tree model's change reports into onDidChangeTreeData events.
 */
import * as vscode from 'vscode';
import { describeNode } from './groupTreeRows';
import type { NodeDescriptor } from './rowFormat';
import type { GroupTreeModel } from './groupTreeModel';
import { HoverHold, type HoverHoldOptions } from './hoverHold';
import type { TreeNode } from './treeNodes';

const collapsibleStates: Record<NodeDescriptor['collapsible'], vscode.TreeItemCollapsibleState> = {
  none: vscode.TreeItemCollapsibleState.None,
  collapsed: vscode.TreeItemCollapsibleState.Collapsed,
  expanded: vscode.TreeItemCollapsibleState.Expanded,
};

export function toTreeItem(node: TreeNode, descriptor: NodeDescriptor = describeNode(node)): vscode.TreeItem {
  const item = new vscode.TreeItem(descriptor.label, collapsibleStates[descriptor.collapsible]);
  item.id = node.id;
  item.description = descriptor.description;
  item.contextValue = descriptor.contextValue;
  item.iconPath = new vscode.ThemeIcon(
    descriptor.icon.id,
    descriptor.icon.color ? new vscode.ThemeColor(descriptor.icon.color) : undefined,
  );
  if (descriptor.tooltip) {
    // Values inside are escaped; no HTML, no command links, no theme-icon syntax.
    const tooltip = new vscode.MarkdownString(descriptor.tooltip);
    tooltip.isTrusted = false;
    tooltip.supportHtml = false;
    tooltip.supportThemeIcons = false;
    item.tooltip = tooltip;
  }
  if (descriptor.command) {
    item.command = { command: descriptor.command.id, title: descriptor.command.title, arguments: [node] };
  }
  return item;
}

export class GroupTreeProvider implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly onDidChangeTreeDataEmitter = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.onDidChangeTreeDataEmitter.event;
  private readonly unsubscribe: () => void;
  /** Keeps a row whose tooltip is open from being replaced by a background refresh (issue 19). */
  private readonly hoverHold: HoverHold;
  /**
   * Each cluster row as the editor last asked for it (its description). The editor can drop the change of a
   * row that it is rendering at that moment (seen: a cluster row left at "loading…" by its first load, which
   * ended while the workbench was still laying the view out), and a background reload then reports only the
   * group rows. So any report under a cluster whose row reads otherwise now also refreshes that row.
   */
  private readonly renderedClusters = new Map<string, string | undefined>();

  constructor(
    private readonly data: GroupTreeModel,
    hoverHoldOptions?: HoverHoldOptions,
  ) {
    this.hoverHold = new HoverHold((node) => this.onDidChangeTreeDataEmitter.fire(node), (node) => this.lineage(node), hoverHoldOptions);
    this.unsubscribe = data.onDidChange((node) => this.changed(node));
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    const descriptor = describeNode(node);
    if (node.kind === 'cluster') {
      this.renderedClusters.set(node.id, descriptor.description);
    }
    return toTreeItem(node, descriptor);
  }

  private changed(node: TreeNode | undefined): void {
    const cluster = node && this.lineage(node).at(-1);
    if (cluster && cluster !== node && cluster.kind === 'cluster' && this.renderedClusters.has(cluster.id)
      && this.renderedClusters.get(cluster.id) !== describeNode(cluster).description) {
      // Refreshing the cluster row re-reads what is under it, the reported row included.
      this.hoverHold.changed(cluster);
      return;
    }
    this.hoverHold.changed(node);
  }

  /** Called by the editor when a row's tooltip is about to show: the row is held while it is read. */
  resolveTreeItem(item: vscode.TreeItem, node: TreeNode): vscode.TreeItem {
    this.hoverHold.hovered(node);
    return item;
  }

  getChildren(node?: TreeNode): Promise<TreeNode[]> {
    return this.data.children(node);
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return this.data.parent(node);
  }

  private lineage(node: TreeNode): TreeNode[] {
    const lineage: TreeNode[] = [];
    for (let current: TreeNode | undefined = node; current; current = this.data.parent(current)) {
      lineage.push(current);
    }
    return lineage;
  }

  dispose(): void {
    this.unsubscribe();
    this.hoverHold.dispose();
    this.onDidChangeTreeDataEmitter.dispose();
  }
}
