/**
 * The VS Code face of the consumer-group tree: copies the vscode-free descriptors onto TreeItems and turns
 * the tree model's change reports into onDidChangeTreeData events.
 */
import * as vscode from 'vscode';
import { describeNode, type NodeDescriptor } from './groupTreeRows';
import type { GroupTreeModel } from './groupTreeModel';
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

  constructor(private readonly data: GroupTreeModel) {
    this.unsubscribe = data.onDidChange((node) => this.onDidChangeTreeDataEmitter.fire(node));
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    return toTreeItem(node);
  }

  getChildren(node?: TreeNode): Promise<TreeNode[]> {
    return this.data.children(node);
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return this.data.parent(node);
  }

  dispose(): void {
    this.unsubscribe();
    this.onDidChangeTreeDataEmitter.dispose();
  }
}
