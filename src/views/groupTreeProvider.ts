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

  constructor(
    private readonly data: GroupTreeModel,
    hoverHoldOptions?: HoverHoldOptions,
  ) {
    this.hoverHold = new HoverHold((node) => this.onDidChangeTreeDataEmitter.fire(node), (node) => this.lineage(node), hoverHoldOptions);
    this.unsubscribe = data.onDidChange((node) => this.hoverHold.changed(node));
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    return toTreeItem(node);
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
