/**
 * What the group-level commands (src/commands/ and src/reset/) act on: the group a tree row names with its
 * cluster's admin, the workspace-state key of the group's undo record, and how an admin outcome is reported.
 */
import * as vscode from 'vscode';
import type { GroupAdmin } from '../model/groupAdmin';
import type { ClusterSource } from '../model/clusterSource';
import type { SourceRegistry } from '../sources/sourceRegistry';
import type { GroupsView } from '../views/groupsView';
import type { TreeNode } from '../views/treeNodes';
import type { AdminOutcome } from './groupAdminFlows';

// The undo record's key lives with the record (vscode-free, for the agent tools too); the commands import it from here.
export { undoSnapshotKey } from '../offsets/undo';

export interface GroupTarget {
  sourceId: string;
  groupId: string;
  source: ClusterSource;
  admin: GroupAdmin;
}

/** A group named without a tree row: picked from a quick pick when a command runs from the palette or a link. */
export interface PickedGroupRef {
  kind: 'picked-group';
  sourceId: string;
  groupId: string;
}

/** The group a command was invoked on, with its cluster's admin (a group row, a member row, a partition row under a group, or a picked group). */
export function groupTarget(registry: SourceRegistry, node: TreeNode | PickedGroupRef | undefined, what: string): GroupTarget {
  const group = groupOfRow(node);
  if (!group) {
    throw new Error(`Run "${what}" on a consumer group in the Consumer Groups view`);
  }
  const entry = registry.require(group.sourceId);
  if (!entry.admin) {
    throw new Error(`Cluster "${entry.source.label}" cannot administer groups`);
  }
  return { ...group, source: entry.source, admin: entry.admin };
}

function groupOfRow(node: TreeNode | PickedGroupRef | undefined): { sourceId: string; groupId: string } | undefined {
  switch (node?.kind) {
    case 'picked-group':
      return { sourceId: node.sourceId, groupId: node.groupId };
    case 'group':
      return { sourceId: node.sourceId, groupId: node.summary.groupId };
    case 'member':
      return { sourceId: node.sourceId, groupId: node.groupId };
    case 'partition':
      return node.group;
    default:
      return undefined;
  }
}


/** Logs an admin outcome, shows it (a warning naming the first failures), and reloads the group's cluster. */
export async function reportAdminOutcome(log: vscode.LogOutputChannel, view: Pick<GroupsView, 'refreshSource'>, target: GroupTarget, outcome: AdminOutcome | undefined): Promise<void> {
  if (!outcome) {
    return;
  }
  log.info(`[${target.source.label}] ${outcome.summary}\n  ${outcome.lines.join('\n  ')}`);
  if (outcome.ok) {
    void vscode.window.showInformationMessage(outcome.summary);
  } else {
    const shown = outcome.lines.slice(0, 5).join('; ') + (outcome.lines.length > 5 ? `; … (${outcome.lines.length - 5} more in the output log)` : '');
    void vscode.window.showWarningMessage(`${outcome.summary}. ${shown}`);
  }
  await view.refreshSource(target.sourceId);
}
