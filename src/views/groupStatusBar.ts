/**
 * The status bar item of the selected cluster (the cluster of the selected row, else the first loaded one): how many
 * of its groups are not OK and the worst lag in time; a click reveals the worst group. The words are in clusterStatus.ts.
 */
import * as vscode from 'vscode';
import type { GroupSummary } from '../model/types';
import { clusterStatus } from './clusterStatus';
import { COMMANDS } from '../constants';

export interface StatusBarInputs {
  /** The loaded clusters, in display order. */
  clusters(): Array<{ sourceId: string; label: string; groups: readonly GroupSummary[] }>;
  /** The source of the selected row, when one is selected. */
  selectedSourceId(): string | undefined;
}

export class GroupStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 50);
  /** What a click reveals. */
  worst: { sourceId: string; groupId: string } | undefined;

  constructor(private readonly inputs: StatusBarInputs) {
    this.item.name = 'Kafka Group Lens';
    this.item.command = COMMANDS.revealWorstGroup;
    this.update();
  }

  update(): void {
    const clusters = this.inputs.clusters();
    const selected = this.inputs.selectedSourceId();
    const cluster = clusters.find((c) => c.sourceId === selected) ?? clusters[0];
    if (!cluster) {
      this.worst = undefined;
      this.item.hide();
      return;
    }
    const status = clusterStatus(cluster.label, cluster.groups);
    this.item.text = status.text;
    this.item.tooltip = status.tooltip;
    this.worst = status.worstGroupId === undefined ? undefined : { sourceId: cluster.sourceId, groupId: status.worstGroupId };
    this.item.show();
  }

  get text(): string {
    return this.item.text;
  }

  dispose(): void {
    this.item.dispose();
  }
}
