/**
 * Registers the command that opens a group's rebalance timeline. Invoked from the groups tree
 * (menu on items whose contextValue starts with `kgl:group:`), it receives the group node.
 */
import * as vscode from 'vscode';
import type { ClusterSource } from '../model/clusterSource';
import { TimelinePanel } from './timelinePanel';
import { timelineTargetOf } from './timelineTarget';

export const OPEN_TIMELINE_COMMAND = 'kafkaGroupLens.openTimeline';

export type { TimelineGroupNodeArg, TimelineTarget } from './timelineTarget';

export function registerTimelineCommands(
  context: vscode.ExtensionContext,
  resolveSource: (clusterId: string) => ClusterSource | undefined,
  log: vscode.LogOutputChannel,
): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(OPEN_TIMELINE_COMMAND, (arg: unknown) => {
      const target = timelineTargetOf(arg);
      if (!target) {
        void vscode.window.showErrorMessage('Open the rebalance timeline from a consumer group in the Kafka Group Lens view.');
        return;
      }
      const source = resolveSource(target.clusterId);
      if (!source) {
        log.warn(`Open timeline: no cluster ${target.clusterId}`);
        void vscode.window.showErrorMessage(`The cluster of group ${target.groupId} is no longer configured.`);
        return;
      }
      TimelinePanel.show(context.extensionUri, source, target.groupId, log);
    }),
  );
}
