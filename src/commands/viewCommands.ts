/** Commands of the view itself: refresh everything, retry one cluster whose load failed. */
import type * as vscode from 'vscode';
import type { GroupsView } from '../views/groupsView';
import type { TreeNode } from '../views/treeNodes';
import { COMMANDS } from '../constants';
import { registerReportingCommand } from './commandRunner';

export function registerViewCommands(view: GroupsView, log: vscode.LogOutputChannel): vscode.Disposable[] {
  return [
    registerReportingCommand(COMMANDS.refresh, 'Refresh', log, () => view.refreshNow()),
    registerReportingCommand(COMMANDS.retry, 'Retry', log, (node?: TreeNode) => {
      // Error rows carry the source to retry; a cluster row (inline action) is its own source.
      const sourceId = node?.kind === 'message' ? node.retrySourceId : node?.kind === 'cluster' ? node.sourceId : undefined;
      return sourceId === undefined ? view.refreshNow() : view.refreshSource(sourceId);
    }),
  ];
}
