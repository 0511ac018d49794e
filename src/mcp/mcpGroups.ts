/**
 * The registered clusters' groups as the tools read them, loaded the way the Consumer Groups view loads them:
 * the tree's model (GroupTreeModel: two-phase loads, the last good snapshot kept, exponential backoff and no
 * automatic retry after a failed login) with the health tracker's lag samples, reloaded on the refresh interval
 * and on a source's change push. There is no view to hide, so the interval always runs.
 */
import type { TreeClusterGroups } from '../agent/agentTools';
import { errorMessage } from '../protocol/errors';
import type { SourceRegistry } from '../sources/sourceRegistry';
import { GroupHealthTracker } from '../views/groupHealthTracker';
import { GroupTreeModel } from '../views/groupTreeModel';
import { RefreshScheduler } from '../views/refreshScheduler';
import type { StderrLog } from './stderrLog';

export class McpGroups {
  private readonly model: GroupTreeModel;
  private readonly scheduler: RefreshScheduler;

  constructor(registry: SourceRegistry, log: StderrLog, refreshSeconds: number) {
    const health = new GroupHealthTracker(Date.now);
    this.scheduler = new RefreshScheduler((_reason, sourceIds) => {
      const loads = sourceIds ? sourceIds.map((id) => this.model.refresh(id)) : [this.model.refresh()];
      Promise.all(loads).catch((e: unknown) => log.error(`Refresh failed: ${errorMessage(e)}`));
    });
    this.model = new GroupTreeModel(registry, {
      onSourceChanged: (sourceId) => this.scheduler.requestSourceChange(sourceId),
      onRetryDue: (sourceId) => this.scheduler.requestSourceChange(sourceId),
      logError: (message) => log.error(message),
      loadGroups: (source) => health.load(source),
      summarizeDetails: (source, details) => health.evaluateDetails(source.id, details),
    });
    this.scheduler.setIntervalSeconds(refreshSeconds);
    this.scheduler.setVisible(true);
    this.model.refresh().catch((e: unknown) => log.error(`First load failed: ${errorMessage(e)}`));
  }

  loadedGroups(): TreeClusterGroups[] {
    return this.model.roots().flatMap((c) => (c.state.status === 'loaded' ? [{ sourceId: c.sourceId, label: c.label, groups: c.state.groups }] : []));
  }

  /** The error of a cluster whose last load failed (it is retried with backoff, or after a failed login not at all). */
  loadFailure(sourceId: string): string | undefined {
    const state = this.model.roots().find((c) => c.sourceId === sourceId)?.state;
    return state?.status === 'error' ? state.message : undefined;
  }

  /** After a write: reloads that cluster at once, as the view does after a command. */
  refreshSource(sourceId: string): Promise<void> {
    return this.model.refresh(sourceId, true);
  }

  /**
   * Resolves when every cluster's first load has ended (loaded or failed), or after `timeoutMs`: a tool
   * called just after the start answers from loaded groups rather than "not loaded yet".
   */
  settled(timeoutMs: number): Promise<void> {
    const done = (): boolean => this.model.roots().every((c) => c.state.status === 'loaded' || c.state.status === 'error');
    if (done()) {
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const finish = (): void => {
        clearTimeout(timer);
        unsubscribe();
        resolve();
      };
      const timer = setTimeout(finish, timeoutMs);
      const unsubscribe = this.model.onDidChange(() => {
        if (done()) {
          finish();
        }
      });
    });
  }

  dispose(): void {
    this.scheduler.dispose();
    this.model.dispose();
  }
}
