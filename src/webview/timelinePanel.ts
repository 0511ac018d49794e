/**
 * One rebalance-timeline panel per group. The host keeps the events (from the source's event log,
 * or inferred from DescribeGroups polls when the source keeps none) and the webview only renders
 * them. Following the live-chart pattern: the panel listens to the source only while visible,
 * sends a full snapshot whenever the webview (re)loads and says `ready`, then appends deltas.
 */
import * as vscode from 'vscode';
import { WEBVIEW_PANELS } from '../constants';
import type { ClusterSource, Unsubscribe } from '../model/clusterSource';
import type { RebalanceEvent } from '../model/types';
import { mergeByTime } from '../timeline/lsoHoldObserver';
import { LSO_CHECK_INTERVAL_MS, LsoHoldWatch } from './lsoHoldWatch';
import { SnapshotObserver } from '../timeline/snapshotObserver';
import { encodeEvents } from './eventColumns';
import { eventDelta } from './eventDelta';
import { isWebviewToHostMessage, type HostToWebviewMessage, type TimeBase } from './timelineProtocol';
import { timelineHtml } from './timelineHtml';
import { createNonce } from './webviewShell';
import { exportFileName } from './timelineTarget';
import { errorMessage } from '../protocol/errors';

/** How often a source without an event log is polled while the panel is visible. */
const POLL_INTERVAL_MS = 5000;
/** Change notifications arrive in bursts (one per simulator tick); coalesce them. */
const PUSH_DEBOUNCE_MS = 100;

function panelKey(sourceId: string, groupId: string): string {
  return JSON.stringify([sourceId, groupId]);
}

function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return {
    enableScripts: true,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(extensionUri, 'media')],
  };
}

export class TimelinePanel implements vscode.Disposable {
  private static readonly open = new Map<string, TimelinePanel>();

  /** Reveals the group's panel, creating it when there is none. */
  static show(extensionUri: vscode.Uri, source: ClusterSource, groupId: string, log: vscode.LogOutputChannel): TimelinePanel {
    const existing = TimelinePanel.open.get(panelKey(source.id, groupId));
    if (existing) {
      existing.panel.reveal();
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(WEBVIEW_PANELS.timeline, `Rebalances: ${groupId}`, vscode.ViewColumn.Active, webviewOptions(extensionUri));
    return TimelinePanel.adopt(panel, extensionUri, source, groupId, log);
  }

  /** Takes over a panel VS Code restored after a reload (see the serializer in registerTimeline.ts). */
  static restore(panel: vscode.WebviewPanel, extensionUri: vscode.Uri, source: ClusterSource, groupId: string, log: vscode.LogOutputChannel): TimelinePanel {
    const existing = TimelinePanel.open.get(panelKey(source.id, groupId));
    if (existing) {
      // One panel per group: the group's panel is already open (opened again before this restore).
      panel.dispose();
      return existing;
    }
    panel.webview.options = webviewOptions(extensionUri);
    return TimelinePanel.adopt(panel, extensionUri, source, groupId, log);
  }

  private static adopt(panel: vscode.WebviewPanel, extensionUri: vscode.Uri, source: ClusterSource, groupId: string, log: vscode.LogOutputChannel): TimelinePanel {
    const key = panelKey(source.id, groupId);
    const created = new TimelinePanel(panel, extensionUri, source, groupId, log);
    TimelinePanel.open.set(key, created);
    panel.onDidDispose(() => TimelinePanel.open.delete(key));
    return created;
  }

  /**
   * The registered sources changed: a panel whose source was rebuilt (same id, new object, e.g. after a
   * change of `readCommittedGroups` or of the connection) moves to the new source; one whose source was
   * removed stops listening to it and waits for it to come back (`waitFor`), else closes with a message.
   * A panel never keeps a disposed source, which would open new connections and stop updating.
   */
  static followSources(current: (sourceId: string) => ClusterSource | undefined, waitFor: (sourceId: string) => Promise<ClusterSource | undefined>): void {
    for (const panel of [...TimelinePanel.open.values()]) {
      const registered = current(panel.source.id);
      if (registered === panel.source) {
        continue;
      }
      if (registered) {
        panel.attach(registered);
      } else {
        panel.awaitSource(waitFor);
      }
    }
  }

  private readonly disposables: vscode.Disposable[] = [];
  /** Set when the source keeps no event log, or cannot keep this group's: the events are inferred from polls instead. */
  private observer: SnapshotObserver | undefined;
  /** Open transactions holding the LSO of the group's partitions, from its snapshots. */
  private lsoHolds: LsoHoldWatch;
  private lsoTimer: ReturnType<typeof setInterval> | undefined;
  /** Why the source's own history is unavailable, once it said so. */
  private historyUnavailable: string | undefined;
  private stopHistory: Unsubscribe | undefined;
  private ready = false;
  private sent: RebalanceEvent[] = [];
  private stopListening: Unsubscribe | undefined;
  private pollTimer: ReturnType<typeof setInterval> | undefined;
  private pushTimer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;
  /** The source was removed: nothing is watched until it is registered again. */
  private detached = false;

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    private source: ClusterSource,
    private readonly groupId: string,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.observer = source.rebalanceEvents ? undefined : new SnapshotObserver();
    this.lsoHolds = this.newLsoHoldWatch();
    const webview = panel.webview;
    webview.html = timelineHtml({
      cspSource: webview.cspSource,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview', 'main.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'timeline.css')).toString(),
      nonce: createNonce(),
    });
    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      panel.onDidChangeViewState(() => this.visibilityChanged()),
      webview.onDidReceiveMessage((message: unknown) => this.receive(message)),
    );
  }

  dispose(): void {
    if (this.disposed) {
      return;
    }
    this.disposed = true;
    this.stopWatching();
    for (const disposable of this.disposables.splice(0)) {
      disposable.dispose();
    }
    this.panel.dispose();
  }

  private receive(message: unknown): void {
    if (!isWebviewToHostMessage(message)) {
      this.log.warn(`Timeline ${this.groupId}: ignored a malformed message from the webview`);
      return;
    }
    switch (message.type) {
      case 'ready':
        // The webview (re)loaded: it has nothing, so it gets everything.
        this.ready = true;
        this.sent = [];
        this.startWatching();
        void this.refresh(true);
        break;
      case 'export':
        void this.exportEvents();
        break;
      case 'reportError':
        this.log.error(`Timeline ${this.groupId} webview: ${message.message}`);
        break;
    }
  }

  private visibilityChanged(): void {
    if (!this.panel.visible) {
      // A hidden webview is torn down; it reloads and says `ready` when shown again.
      this.ready = false;
      this.stopWatching();
    }
  }

  /** Shows the group from `source` from now on (a rebuilt source with the same id). */
  private attach(source: ClusterSource): void {
    if (this.disposed) {
      return;
    }
    this.stopWatching();
    this.detached = false;
    this.source = source;
    this.observer = source.rebalanceEvents ? undefined : new SnapshotObserver();
    this.lsoHolds = this.newLsoHoldWatch();
    this.historyUnavailable = undefined;
    this.log.info(`Timeline ${this.groupId}: its cluster was reconnected; following the new connection`);
    if (this.ready) {
      this.startWatching();
      void this.refresh(true);
    }
  }

  private awaitSource(waitFor: (sourceId: string) => Promise<ClusterSource | undefined>): void {
    if (this.disposed || this.detached) {
      return;
    }
    this.detached = true;
    this.stopWatching();
    const sourceId = this.source.id;
    void waitFor(sourceId).then((next) => {
      if (this.disposed || !this.detached) {
        return; // closed meanwhile, or already attached to the new source
      }
      if (next) {
        this.attach(next);
        return;
      }
      this.log.warn(`Timeline ${this.groupId}: cluster ${sourceId} was removed; closed its panel`);
      void vscode.window.showWarningMessage(`The rebalance timeline of group ${this.groupId} was closed: its cluster is no longer configured.`);
      this.dispose();
    });
  }

  private startWatching(): void {
    this.stopWatching();
    if (this.detached) {
      return;
    }
    if (!this.observer && this.source.watchRebalances) {
      this.stopHistory = this.source.watchRebalances(this.groupId, (reason) => this.fallBackToPolling(reason));
    }
    if (this.source.onDidChange) {
      this.stopListening = this.source.onDidChange(() => this.schedulePush());
    }
    if (this.observer) {
      this.pollTimer = setInterval(() => void this.refresh(false), POLL_INTERVAL_MS);
    } else {
      // An event log says nothing of transactions holding the LSO: the group is read for them as well.
      this.lsoTimer = setInterval(() => void this.refresh(false), LSO_CHECK_INTERVAL_MS);
    }
  }

  private stopWatching(): void {
    this.stopHistory?.();
    this.stopHistory = undefined;
    this.stopListening?.();
    this.stopListening = undefined;
    clearInterval(this.pollTimer);
    this.pollTimer = undefined;
    clearInterval(this.lsoTimer);
    this.lsoTimer = undefined;
    clearTimeout(this.pushTimer);
    this.pushTimer = undefined;
  }

  /** The source cannot keep this group's history (e.g. the user may not read `__consumer_offsets`): poll instead, and say so. */
  private fallBackToPolling(reason: string): void {
    if (this.disposed || this.observer) {
      return;
    }
    this.log.warn(`Timeline ${this.groupId}: ${reason}; inferring its events from DescribeGroups polls instead`);
    this.observer = new SnapshotObserver();
    this.lsoHolds = this.newLsoHoldWatch();
    this.historyUnavailable = reason;
    if (this.ready) {
      this.startWatching();
      void this.refresh(true);
    }
  }

  private schedulePush(): void {
    if (this.pushTimer === undefined) {
      this.pushTimer = setTimeout(() => {
        this.pushTimer = undefined;
        void this.refresh(false);
      }, PUSH_DEBOUNCE_MS);
    }
  }

  private async refresh(fullSnapshot: boolean): Promise<void> {
    if (this.detached) {
      return; // its source is gone; attach() refreshes once a new one is registered
    }
    let events: RebalanceEvent[];
    try {
      events = await this.currentEvents();
    } catch (error) {
      const message = `Could not load events of group ${this.groupId}: ${errorMessage(error)}`;
      this.log.error(message);
      this.post({ type: 'error', message });
      return;
    }
    if (this.disposed || !this.ready) {
      return;
    }
    const delta = fullSnapshot ? { kind: 'snapshot' as const } : eventDelta(this.sent, events);
    if (delta.kind === 'unchanged') {
      return;
    }
    this.sent = events;
    if (delta.kind === 'append') {
      this.post({ type: 'append', dropFromStart: delta.dropFromStart, events: delta.events });
      return;
    }
    this.post({
      type: 'snapshot',
      sourceId: this.source.id,
      groupId: this.groupId,
      clusterLabel: this.source.label,
      timeBase: this.timeBase(),
      origin: this.observer
        ? `inferred from DescribeGroups every ${POLL_INTERVAL_MS / 1000} s while this panel is open${this.historyUnavailable ? ` (the cluster's own history is unavailable: ${this.historyUnavailable})` : ''}`
        : this.source.kind === 'simulator'
          ? 'simulator event log'
          : this.source.watchRebalances
            ? 'group-metadata records of __consumer_offsets (one entry per generation)'
            : 'cluster event log',
      events: encodeEvents(events),
    });
  }

  private async currentEvents(): Promise<RebalanceEvent[]> {
    if (!this.observer) {
      const events = this.source.rebalanceEvents?.(this.groupId) ?? [];
      await this.lsoHolds.check(this.source);
      return mergeByTime(events, this.lsoHolds.events());
    }
    const detail = await this.source.describeGroup(this.groupId);
    if (detail.error !== undefined) {
      throw new Error(detail.error);
    }
    const now = Date.now();
    this.observer.observe(detail, now);
    this.lsoHolds.observer.observe(detail, now);
    return mergeByTime(this.observer.events(this.groupId), this.lsoHolds.events());
  }

  private newLsoHoldWatch(): LsoHoldWatch {
    return new LsoHoldWatch(this.groupId, (message) => this.log.warn(message));
  }

  private timeBase(): TimeBase {
    return this.source.timeBase === 'virtual' && !this.observer ? 'virtual' : 'epoch';
  }

  private post(message: HostToWebviewMessage): void {
    void this.panel.webview.postMessage(message).then(undefined, (error: unknown) => {
      this.log.warn(`Timeline ${this.groupId}: could not post ${message.type}: ${String(error)}`);
    });
  }

  private async exportEvents(): Promise<void> {
    const events = this.sent;
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const target = await vscode.window.showSaveDialog({
      title: `Export rebalance events of ${this.groupId}`,
      defaultUri: folder ? vscode.Uri.joinPath(folder, exportFileName(this.groupId)) : undefined,
      filters: { JSON: ['json'] },
      saveLabel: 'Export',
    });
    if (!target) {
      return;
    }
    const document = {
      groupId: this.groupId,
      cluster: this.source.label,
      timeBase: this.timeBase(),
      exportedAt: new Date().toISOString(),
      events,
    };
    try {
      await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(`${JSON.stringify(document, null, 2)}\n`));
      this.log.info(`Exported ${events.length} rebalance events of ${this.groupId} to ${target.fsPath}`);
      void vscode.window.showInformationMessage(`Exported ${events.length} rebalance events to ${target.fsPath}.`);
    } catch (error) {
      const message = `Could not export the events of ${this.groupId}: ${errorMessage(error)}`;
      this.log.error(message);
      void vscode.window.showErrorMessage(message);
    }
  }
}

