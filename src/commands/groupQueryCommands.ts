/**
 * Finding and ordering groups: Filter Groups… (the filter language in an input box), Clear Filter, Sort Groups…
 * and Find Group… (a quick pick over every loaded cluster's groups that reveals the row). The choice itself lives
 * in the view's GroupArrangement; these only ask.
 */
import * as vscode from 'vscode';
import type { GroupsView } from '../views/groupsView';
import { defaultSortFor, formatGroupFilter, GROUP_SORT_KEYS, GROUP_SORT_LABELS, groupMatcher, parseGroupFilter, type GroupSortKey } from '../views/groupQuery';
import { COMMANDS } from '../constants';
import { registerReportingCommand } from './commandRunner';

export type GroupQueryView = Pick<GroupsView, 'arrangement' | 'loadedGroups' | 'revealGroup' | 'statusBar'>;

const FILTER_PROMPT =
  'Words all match: a glob (payments-*) or part of the id, state:stable,empty|rebalancing, type:classic|consumer|share|streams, '
  + 'health:ok|warning|stalled|stopped|rewind|error, has:lag, no:lag, has:members, no:members. Empty clears the filter.';

async function askFilter(view: GroupQueryView): Promise<void> {
  const text = await vscode.window.showInputBox({
    title: 'Filter Consumer Groups',
    prompt: FILTER_PROMPT,
    value: formatGroupFilter(view.arrangement.filter),
    placeHolder: 'payments-* has:lag',
    validateInput: (value) => {
      const parsed = parseGroupFilter(value);
      return parsed.ok ? undefined : parsed.error;
    },
  });
  if (text === undefined) {
    return;
  }
  const parsed = parseGroupFilter(text);
  if (parsed.ok) {
    await view.arrangement.setFilter(parsed.filter);
  }
}

interface SortItem extends vscode.QuickPickItem {
  key: GroupSortKey;
}

async function askSort(view: GroupQueryView): Promise<void> {
  const current = view.arrangement.sort;
  const items: SortItem[] = GROUP_SORT_KEYS.map((key) => {
    const next = key === current.key ? !current.descending : defaultSortFor(key).descending;
    return {
      key,
      label: GROUP_SORT_LABELS[key],
      description: key === current.key ? `current (${current.descending ? 'descending' : 'ascending'}); pick to reverse` : next ? 'descending' : 'ascending',
    };
  });
  const picked = await vscode.window.showQuickPick(items, { title: 'Sort Consumer Groups By' });
  if (!picked) {
    return;
  }
  // Picking the current key reverses it; another key starts in its natural direction (largest lag first).
  await view.arrangement.setSort(picked.key === current.key ? { key: current.key, descending: !current.descending } : defaultSortFor(picked.key));
}

/** A group the user picked from every loaded cluster's groups, and whether the view's filter hides its row. */
export interface PickedGroup {
  sourceId: string;
  groupId: string;
  hidden: boolean;
}

interface GroupItem extends vscode.QuickPickItem, PickedGroup {}

/**
 * A quick pick over every loaded cluster's groups (the filter only marks the ones it hides); undefined when
 * the user dismissed it or nothing is loaded yet (then it says so).
 */
export async function pickLoadedGroup(view: Pick<GroupQueryView, 'arrangement' | 'loadedGroups'>, title: string): Promise<PickedGroup | undefined> {
  const clusters = view.loadedGroups();
  const shown = groupMatcher(view.arrangement.filter);
  const items: GroupItem[] = clusters.flatMap((cluster) =>
    cluster.groups.map((group) => {
      const hidden = view.arrangement.filterActive && !shown(group);
      return {
        label: group.groupId,
        description: `${cluster.label} · ${group.state}${group.totalLag === null ? '' : ` · lag ${group.totalLag}`}${hidden ? ' · hidden by the filter' : ''}`,
        sourceId: cluster.sourceId,
        groupId: group.groupId,
        hidden,
      };
    }));
  if (items.length === 0) {
    void vscode.window.showInformationMessage('No consumer groups are loaded yet: expand a cluster or refresh the view.');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(items, { title, matchOnDescription: true, placeHolder: 'Group id' });
  return picked && { sourceId: picked.sourceId, groupId: picked.groupId, hidden: picked.hidden };
}

async function findGroup(view: GroupQueryView): Promise<void> {
  const picked = await pickLoadedGroup(view, 'Find Consumer Group');
  if (!picked) {
    return;
  }
  if (picked.hidden) {
    // The row is not listed while the filter hides it: clear the filter rather than fail to show it.
    await view.arrangement.clearFilter();
    void vscode.window.showInformationMessage(`The filter hid "${picked.groupId}" and was cleared.`);
  }
  if (!(await view.revealGroup(picked.sourceId, picked.groupId))) {
    void vscode.window.showWarningMessage(`Group "${picked.groupId}" is no longer listed; refresh the view.`);
  }
}

/** The status bar's click: the worst group of its cluster, shown even when the filter hid it. */
async function revealWorst(view: GroupQueryView): Promise<void> {
  const worst = view.statusBar.worst;
  if (!worst) {
    return;
  }
  if (!(await view.revealGroup(worst.sourceId, worst.groupId)) && view.arrangement.filterActive) {
    await view.arrangement.clearFilter();
    await view.revealGroup(worst.sourceId, worst.groupId);
  }
}

export function registerGroupQueryCommands(view: GroupQueryView, log: vscode.LogOutputChannel): vscode.Disposable[] {
  return [
    registerReportingCommand(COMMANDS.filterGroups, 'Filter Groups', log, () => askFilter(view)),
    registerReportingCommand(COMMANDS.clearGroupFilter, 'Clear Filter', log, () => view.arrangement.clearFilter()),
    registerReportingCommand(COMMANDS.sortGroups, 'Sort Groups', log, () => askSort(view)),
    registerReportingCommand(COMMANDS.findGroup, 'Find Group', log, () => findGroup(view)),
    registerReportingCommand(COMMANDS.revealWorstGroup, 'Show the Worst Group', log, () => revealWorst(view)),
  ];
}
