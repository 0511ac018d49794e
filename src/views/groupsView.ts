/**
 * Creates the "Consumer Groups" tree view and its refresh policy: manual refreshes, pushes from sources,
 * and the `kafkaGroupLens.refreshIntervalSeconds` poll, which runs only while the view is visible.
 */
import * as vscode from 'vscode';
import { GroupStatusBar } from './groupStatusBar';
import { GroupHealthTracker } from './groupHealthTracker';
import { affectsGroupHealth, readGroupHealthSettings } from './groupHealthSettings';
import { GroupArrangement, type ArrangementStore } from './groupArrangement';
import { ExponentialBackoff, SOURCE_RETRY_BACKOFF } from './exponentialBackoff';
import { GroupTreeModel, type LoadCounts } from './groupTreeModel';
import { GroupTreeProvider } from './groupTreeProvider';
import type { LoadRetriesOptions } from './loadRetries';
import { RefreshScheduler, realTimers, type SchedulerTimers } from './refreshScheduler';
import type { TreeSources } from './treeSources';
import { errorMessage } from '../protocol/errors';
import type { GroupSummary } from '../model/types';
import type { GroupNode } from './treeNodes';
import { CONTEXT_KEYS, SETTINGS, VIEWS } from '../constants';

export interface GroupsView extends vscode.Disposable {
  /** Reloads every cluster now, with progress shown on the view. */
  refreshNow(): Thenable<void>;
  /** The tree's data provider, exposed to the extension-host tests through activate()'s return value. */
  readonly provider: GroupTreeProvider;
  /** Reloads one cluster now (retry of a failed load, or after a simulator command). */
  refreshSource(sourceId: string): Thenable<void>;
  /** Loads of a cluster finished so far, for the extension-host tests. */
  loadCounts(sourceId: string): LoadCounts;
  /** Every group's lag samples and health, taken at each load. */
  readonly health: GroupHealthTracker;
  /** The filter and sort of the view, kept per workspace. */
  readonly arrangement: GroupArrangement;
  /** Every loaded cluster's groups, unfiltered (for Find Group…). */
  loadedGroups(): LoadedClusterGroups[];
  /** Selects and shows a group's row; false when it is not listed (unloaded cluster, filtered out, gone). */
  revealGroup(sourceId: string, groupId: string): Promise<boolean>;
  /** The status bar item of the selected cluster. */
  readonly statusBar: GroupStatusBar;
}

export interface LoadedClusterGroups {
  sourceId: string;
  label: string;
  groups: readonly GroupSummary[];
}

/** The arrangement's store when no workspace state is given (tests of the refresh policy): kept in memory. */
function memoryStore(): ArrangementStore {
  const values = new Map<string, unknown>();
  return {
    get: <T>(key: string) => values.get(key) as T | undefined,
    update: (key, value) => {
      values.set(key, value);
      return Promise.resolve();
    },
  };
}

/** Reads the interval setting; a bad value falls back to the default with a log line rather than breaking the view. */
function readIntervalSeconds(log: vscode.LogOutputChannel): number {
  const value = vscode.workspace.getConfiguration().get<number>(SETTINGS.refreshIntervalSeconds, 5);
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    log.warn(`${SETTINGS.refreshIntervalSeconds} must be 0 (off) or a positive number; using 5`);
    return 5;
  }
  return value;
}

/** Timers and clock of the automatic refreshes and retries; injectable so tests drive time by hand. */
export interface GroupsViewClock {
  timers: SchedulerTimers;
  now: () => number;
  random?: () => number;
}

export function createGroupsView(
  registry: TreeSources,
  log: vscode.LogOutputChannel,
  clock: GroupsViewClock = { timers: realTimers, now: Date.now },
  state: ArrangementStore = memoryStore(),
): GroupsView {
  const disposables: vscode.Disposable[] = [];
  const arrangement = new GroupArrangement(state, (message) => log.warn(message));
  const health = new GroupHealthTracker(clock.now, readGroupHealthSettings((message) => log.warn(message)));
  disposables.push({
    dispose: registry.onDidChangeSources(() => {
      const present = new Set(registry.list().map((e) => e.source.id));
      health.forgetSourcesNotIn(present);
    }),
  });
  const scheduler = new RefreshScheduler((reason, sourceIds) => {
    log.trace(`Refreshing consumer groups (${reason}${sourceIds ? `: ${sourceIds.join(', ')}` : ''})`);
    const loads = sourceIds ? sourceIds.map((id) => data.refresh(id)) : [data.refresh()];
    Promise.all(loads).catch((e: unknown) => log.error(`Refresh failed: ${errorMessage(e)}`));
  }, clock.timers);
  disposables.push({ dispose: () => scheduler.dispose() });
  const retries: LoadRetriesOptions = {
    timers: clock.timers,
    now: clock.now,
    backoff: clock.random ? new ExponentialBackoff(SOURCE_RETRY_BACKOFF, clock.random) : undefined,
  };
  const data = new GroupTreeModel(registry, {
    // A push reloads the source that pushed, and a due retry the source that failed; never the others.
    onSourceChanged: (sourceId) => scheduler.requestSourceChange(sourceId),
    onRetryDue: (sourceId) => scheduler.requestSourceChange(sourceId),
    logError: (message) => log.error(message),
    retries,
    arrangeGroups: (groups) => arrangement.arrange(groups),
    loadGroups: (source) => health.load(source),
    summarizeDetails: (source, details) => health.evaluateDetails(source.id, details),
  });
  disposables.push({ dispose: () => data.dispose() });

  const provider = new GroupTreeProvider(data);
  disposables.push(provider);
  const view = vscode.window.createTreeView(VIEWS.groups, { treeDataProvider: provider, showCollapseAll: true });
  disposables.push(view);

  const loadedGroups = (): LoadedClusterGroups[] =>
    data.roots().flatMap((cluster) =>
      cluster.state.status === 'loaded' ? [{ sourceId: cluster.sourceId, label: cluster.label, groups: cluster.state.groups }] : []);
  // The message says a filter hides rows (and how many); the context key shows the title bar's Clear Filter.
  const showFilterState = (): void => {
    view.message = arrangement.message(loadedGroups().map((c) => c.groups));
  };
  const showFilterContext = (): void => {
    void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.groupFilterActive, arrangement.filterActive);
  };
  showFilterState();
  showFilterContext();
  disposables.push({ dispose: data.onDidChange(showFilterState) });
  const statusBar = new GroupStatusBar({
    clusters: loadedGroups,
    selectedSourceId: () => {
      const selected = view.selection[0];
      return selected && 'sourceId' in selected ? selected.sourceId : undefined;
    },
  });
  disposables.push(statusBar);
  disposables.push({ dispose: data.onDidChange(() => statusBar.update()) });
  disposables.push(view.onDidChangeSelection(() => statusBar.update()));
  disposables.push({
    dispose: arrangement.onDidChange(() => {
      data.rearranged();
      showFilterState();
      showFilterContext();
    }),
  });

  scheduler.setIntervalSeconds(readIntervalSeconds(log));
  scheduler.setVisible(view.visible);
  disposables.push(view.onDidChangeVisibility((e) => scheduler.setVisible(e.visible)));
  disposables.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(SETTINGS.refreshIntervalSeconds)) {
        scheduler.setIntervalSeconds(readIntervalSeconds(log));
      }
      if (affectsGroupHealth(e)) {
        health.configure(readGroupHealthSettings((message) => log.warn(message)));
      }
    }),
  );

  const revealGroup = async (sourceId: string, groupId: string): Promise<boolean> => {
    const cluster = data.roots().find((c) => c.sourceId === sourceId);
    if (!cluster) {
      return false;
    }
    // Listing the cluster's rows registers the row's parent, which reveal() walks up.
    const row = (await data.children(cluster)).find((n): n is GroupNode => n.kind === 'group' && n.summary.groupId === groupId);
    if (!row) {
      return false;
    }
    await view.reveal(row, { select: true, focus: true, expand: false });
    return true;
  };

  return {
    statusBar,
    health,
    arrangement,
    loadedGroups,
    revealGroup,
    refreshNow: () => vscode.window.withProgress({ location: { viewId: VIEWS.groups } }, () => data.refresh(undefined, true)),
    provider,
    loadCounts: (sourceId) => data.loadCounts(sourceId),
    refreshSource: (sourceId) =>
      vscode.window.withProgress({ location: { viewId: VIEWS.groups } }, () => data.refresh(sourceId, true)),
    dispose: () => {
      for (const d of disposables.reverse()) {
        d.dispose();
      }
    },
  };
}
