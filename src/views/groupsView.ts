/**
 * Creates the "Consumer Groups" tree view and its refresh policy: manual refreshes, pushes from sources,
 * and the `kafkaGroupLens.refreshIntervalSeconds` poll, which runs only while the view is visible.
 */
import * as vscode from 'vscode';
import { ExponentialBackoff, SOURCE_RETRY_BACKOFF } from './exponentialBackoff';
import { GroupTreeModel, type LoadCounts } from './groupTreeModel';
import { GroupTreeProvider } from './groupTreeProvider';
import type { LoadRetriesOptions } from './loadRetries';
import { RefreshScheduler, realTimers, type SchedulerTimers } from './refreshScheduler';
import type { TreeSources } from './treeSources';
import { errorMessage } from '../protocol/errors';
import { SETTINGS, VIEWS } from '../constants';

export interface GroupsView extends vscode.Disposable {
  /** Reloads every cluster now, with progress shown on the view. */
  refreshNow(): Thenable<void>;
  /** The tree's data provider, exposed to the extension-host tests through activate()'s return value. */
  readonly provider: GroupTreeProvider;
  /** Reloads one cluster now (retry of a failed load, or after a simulator command). */
  refreshSource(sourceId: string): Thenable<void>;
  /** Loads of a cluster finished so far, for the extension-host tests. */
  loadCounts(sourceId: string): LoadCounts;
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
): GroupsView {
  const disposables: vscode.Disposable[] = [];
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
  });
  disposables.push({ dispose: () => data.dispose() });

  const provider = new GroupTreeProvider(data);
  disposables.push(provider);
  const view = vscode.window.createTreeView(VIEWS.groups, { treeDataProvider: provider, showCollapseAll: true });
  disposables.push(view);

  scheduler.setIntervalSeconds(readIntervalSeconds(log));
  scheduler.setVisible(view.visible);
  disposables.push(view.onDidChangeVisibility((e) => scheduler.setVisible(e.visible)));
  disposables.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(SETTINGS.refreshIntervalSeconds)) {
        scheduler.setIntervalSeconds(readIntervalSeconds(log));
      }
    }),
  );

  return {
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
