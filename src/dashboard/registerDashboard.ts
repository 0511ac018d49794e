/**
 * Registers Open Group Dashboard, invoked from a group of the tree (items whose contextValue starts with `kgl:group:`):
 * the dashboard draws the lag samples the tree's health tracker keeps, with the source's rebalances as markers.
 */
import * as vscode from 'vscode';
import { COMMANDS } from '../constants';
import type { ClusterSource } from '../model/clusterSource';
import type { GroupSeries } from '../health/lagSamples';
import { timelineTargetOf } from '../webview/timelineTarget';
import { DashboardPanel } from './dashboardPanel';
import { dashboardSnapshot } from './dashboardSeries';

export interface DashboardSources {
  /** The cluster's source now, undefined once it is removed. */
  source(clusterId: string): ClusterSource | undefined;
  /** The samples the tree took of the group (`GroupHealthTracker.series`). */
  series(clusterId: string, groupId: string): GroupSeries | undefined;
}

export function registerDashboardCommand(extensionUri: vscode.Uri, sources: DashboardSources, log: vscode.LogOutputChannel): vscode.Disposable {
  return vscode.commands.registerCommand(COMMANDS.openDashboard, (arg: unknown) => {
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
    DashboardPanel.show(extensionUri, clusterId, groupId, () => {
      const source = sources.source(clusterId);
      // The samples are taken at wall-clock times: a source on virtual time (a simulation stepped by hand) has no markers to place on them.
      const rebalances = source?.timeBase === 'virtual' ? [] : (source?.rebalanceEvents?.(groupId) ?? []);
      return dashboardSnapshot(groupId, source?.label ?? clusterId, sources.series(clusterId, groupId), rebalances);
    }, log);
  });
}
