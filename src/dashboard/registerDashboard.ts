/**
 * Registers Open Group Dashboard, invoked from a group of the tree (items whose contextValue starts with `kgl:group:`):
 * the dashboard draws the lag samples the tree's health tracker keeps, with the source's rebalances as markers.
 */
import * as vscode from 'vscode';
import { COMMANDS } from '../constants';
import type { ClusterSource } from '../model/clusterSource';
import type { GroupSeries } from '../health/lagSamples';
import { timelineTargetOf } from '../webview/timelineTarget';
import { DASHBOARD_VIEW_TYPE, DashboardPanel } from './dashboardPanel';
import { isDashboardPanelState, type DashboardSnapshot } from './dashboardProtocol';
import { dashboardSnapshot } from './dashboardSeries';

export interface DashboardSources {
  /** The cluster's source now, undefined once it is removed. */
  source(clusterId: string): ClusterSource | undefined;
  /** The cluster's source once registered (after a reload the sources come up after the panels), undefined after `timeoutMs`. */
  waitFor(clusterId: string, timeoutMs: number): Promise<ClusterSource | undefined>;
  /** The samples the tree took of the group (`GroupHealthTracker.series`). */
  series(clusterId: string, groupId: string): GroupSeries | undefined;
}

/** How long a dashboard reopened after a reload waits for its cluster to register. */
const RESTORE_WAIT_MS = 15_000;

export function registerDashboardCommand(extensionUri: vscode.Uri, sources: DashboardSources, log: vscode.LogOutputChannel): vscode.Disposable {
  const snapshotOf = (clusterId: string, groupId: string) => (): DashboardSnapshot => {
    const source = sources.source(clusterId);
    // The samples are taken at wall-clock times: a source on virtual time (a simulation stepped by hand) has no markers to place on them.
    const rebalances = source?.timeBase === 'virtual' ? [] : (source?.rebalanceEvents?.(groupId) ?? []);
    return dashboardSnapshot(groupId, source?.label ?? clusterId, sources.series(clusterId, groupId), rebalances);
  };
  const serializer = vscode.window.registerWebviewPanelSerializer(DASHBOARD_VIEW_TYPE, {
    deserializeWebviewPanel: async (panel: vscode.WebviewPanel, state: unknown) => {
      if (!isDashboardPanelState(state)) {
        log.warn('Dashboard: a panel from before the reload had no group to show; closed it');
        panel.dispose();
        return;
      }
      if (!(await sources.waitFor(state.sourceId, RESTORE_WAIT_MS))) {
        log.warn(`Dashboard ${state.groupId}: cluster ${state.sourceId} is no longer configured; closed its panel`);
        panel.dispose();
        void vscode.window.showWarningMessage(`The dashboard of group ${state.groupId} was closed: its cluster is no longer configured.`);
        return;
      }
      DashboardPanel.restore(panel, extensionUri, state.sourceId, state.groupId, snapshotOf(state.sourceId, state.groupId), log);
    },
  });
  const command = vscode.commands.registerCommand(COMMANDS.openDashboard, (arg: unknown) => {
    const target = timelineTargetOf(arg);
    if (!target) {
      void vscode.window.showErrorMessage('Open the group dashboard from a consumer group in the Kafka Group Lens view.');
      return;
    }
    const { clusterId, groupId } = target;
    if (!sources.source(clusterId)) {
      void vscode.window.showErrorMessage(`The cluster of group ${groupId} is no longer configured.`);
      return;
    }
    DashboardPanel.show(extensionUri, clusterId, groupId, snapshotOf(clusterId, groupId), log);
  });
  return vscode.Disposable.from(command, serializer);
}
