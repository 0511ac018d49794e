/**
 * Registers the command that opens a group's rebalance timeline, and the serializer that brings
 * open timelines back after a window reload. The command is invoked from the groups tree (menu on
 * items whose contextValue starts with `kgl:group:`) and receives the group node, or from the palette
 * or a walkthrough link with no argument, and then asks for the group.
 */
import * as vscode from 'vscode';
import { COMMANDS, WEBVIEW_PANELS } from '../constants';
import type { ClusterSource } from '../model/clusterSource';
import { isTimelinePanelState } from './timelineProtocol';
import { TimelinePanel } from './timelinePanel';
import { timelineTargetOf } from './timelineTarget';

export type { TimelineGroupNodeArg, TimelineTarget } from './timelineTarget';

/** How long a panel waits for its cluster to be registered again (after a window reload, or a rebuild of the source). */
const RESTORE_WAIT_MS = 15_000;

export interface TimelineSources {
  /** The source now, for the command. */
  get(clusterId: string): ClusterSource | undefined;
  /** The source once registered (real clusters register asynchronously at startup), or undefined after `timeoutMs`. */
  waitFor(clusterId: string, timeoutMs: number): Promise<ClusterSource | undefined>;
  /** Fires when sources are added or removed, so open panels follow a rebuilt source or close. */
  onDidChangeSources?(listener: () => void): () => void;
  /** Asks for a group when the command runs with no tree row (the command palette, a walkthrough link). */
  pickGroup?(title: string): Promise<{ sourceId: string; groupId: string } | undefined>;
}

export function registerTimelineCommands(context: vscode.ExtensionContext, sources: TimelineSources, log: vscode.LogOutputChannel): void {
  const stopFollowing = sources.onDidChangeSources?.(() =>
    TimelinePanel.followSources(
      (id) => sources.get(id),
      (id) => sources.waitFor(id, RESTORE_WAIT_MS),
    ),
  );
  context.subscriptions.push(
    { dispose: () => stopFollowing?.() },
    vscode.commands.registerCommand(COMMANDS.openTimeline, async (arg: unknown) => {
      let target = timelineTargetOf(arg);
      if (!target && arg === undefined && sources.pickGroup) {
        // From the palette or a walkthrough link there is no row: ask which group; a dismissed pick does nothing.
        const picked = await sources.pickGroup('Open Rebalance Timeline of Consumer Group');
        if (!picked) {
          return;
        }
        target = { clusterId: picked.sourceId, groupId: picked.groupId };
      }
      if (!target) {
        void vscode.window.showErrorMessage('Open the rebalance timeline from a consumer group in the Kafka Group Lens view.');
        return;
      }
      const source = sources.get(target.clusterId);
      if (!source) {
        log.warn(`Open timeline: no cluster ${target.clusterId}`);
        void vscode.window.showErrorMessage(`The cluster of group ${target.groupId} is no longer configured.`);
        return;
      }
      TimelinePanel.show(context.extensionUri, source, target.groupId, log);
    }),
    // Panels left open come back after a window reload, showing the same group (and window of time).
    vscode.window.registerWebviewPanelSerializer(WEBVIEW_PANELS.timeline, {
      deserializeWebviewPanel: async (panel: vscode.WebviewPanel, state: unknown) => {
        if (!isTimelinePanelState(state)) {
          log.warn('Timeline: a panel from before the reload had no group to show; closed it');
          panel.dispose();
          return;
        }
        const source = await sources.waitFor(state.sourceId, RESTORE_WAIT_MS);
        if (!source) {
          log.warn(`Timeline ${state.groupId}: cluster ${state.sourceId} is no longer configured; closed its panel`);
          panel.dispose();
          void vscode.window.showWarningMessage(`The rebalance timeline of group ${state.groupId} was closed: its cluster is no longer configured.`);
          return;
        }
        TimelinePanel.restore(panel, context.extensionUri, source, state.groupId, log);
      },
    }),
  );
}
