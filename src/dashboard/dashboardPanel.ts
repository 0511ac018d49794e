/**
 * One group dashboard panel per group (opening it again reveals it). The host computes the snapshot from the lag
 * samples the tree keeps and the group's rebalances, and sends it whenever the page says `ready` and, while the panel
 * is visible, whenever it changed (the samples change at each refresh of the tree; reading them is in-memory).
 */
import * as vscode from 'vscode';
import { WEBVIEW_PANELS } from '../constants';
import { errorMessage } from '../protocol/errors';
import { createNonce } from '../webview/webviewShell';
import { dashboardHtml } from './dashboardHtml';
import { isDashboardWebviewMessage, type DashboardHostMessage, type DashboardSnapshot } from './dashboardProtocol';

/**
 * Restored after a window reload by the serializer in registerDashboard.ts (the page keeps its group in its
 * state); the samples are in memory only, so a restored panel draws those taken since the reload.
 */
export const DASHBOARD_VIEW_TYPE = WEBVIEW_PANELS.dashboard;
/** The page's bundle and stylesheet in dist/webview/, built by esbuild.js from src/dashboard/page/main.ts. */
export const DASHBOARD_BUNDLE = 'dashboard.js';
export const DASHBOARD_STYLES = 'dashboard.css';
/** How often a visible panel looks for new samples: well under the tree's shortest refresh interval. */
const CHECK_INTERVAL_MS = 2000;

export class DashboardPanel implements vscode.Disposable {
  private static readonly open = new Map<string, DashboardPanel>();

  /** Reveals the group's panel, creating it when there is none. `snapshot` reads the group's samples now. */
  static show(extensionUri: vscode.Uri, sourceId: string, groupId: string, snapshot: () => DashboardSnapshot, log: vscode.LogOutputChannel): DashboardPanel {
    const key = JSON.stringify([sourceId, groupId]);
    const existing = DashboardPanel.open.get(key);
    if (existing) {
      existing.panel.reveal();
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(DASHBOARD_VIEW_TYPE, `Dashboard: ${groupId}`, vscode.ViewColumn.Active, DashboardPanel.options(extensionUri));
    return DashboardPanel.restore(panel, extensionUri, sourceId, groupId, snapshot, log);
  }

  /** Fills `panel` (a new one, or one VS Code reopened after a reload) with the group's dashboard. */
  static restore(
    panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    sourceId: string,
    groupId: string,
    snapshot: () => DashboardSnapshot,
    log: vscode.LogOutputChannel,
  ): DashboardPanel {
    const key = JSON.stringify([sourceId, groupId]);
    const bundles = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
    panel.webview.options = DashboardPanel.options(extensionUri);
    panel.title = `Dashboard: ${groupId}`;
    panel.webview.html = dashboardHtml({
      cspSource: panel.webview.cspSource,
      scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(bundles, DASHBOARD_BUNDLE)).toString(),
      styleUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(bundles, DASHBOARD_STYLES)).toString(),
      nonce: createNonce(),
    });
    const created = new DashboardPanel(panel, sourceId, groupId, snapshot, log);
    DashboardPanel.open.get(key)?.dispose();
    DashboardPanel.open.set(key, created);
    panel.onDidDispose(() => {
      if (DashboardPanel.open.get(key) === created) {
        DashboardPanel.open.delete(key);
      }
    });
    return created;
  }

  private static options(extensionUri: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
    return { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist', 'webview')] };
  }

  private readonly disposables: vscode.Disposable[] = [];
  private timer: ReturnType<typeof setInterval> | undefined;
  /** The last snapshot sent, serialized; undefined until the page is ready (again). */
  private sent: string | undefined;
  private disposed = false;

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    private readonly sourceId: string,
    private readonly groupId: string,
    private readonly snapshot: () => DashboardSnapshot,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      panel.onDidChangeViewState(() => {
        if (!panel.visible) {
          // A hidden webview is torn down; it reloads and says `ready` when shown again.
          this.stopChecking();
        }
      }),
      panel.webview.onDidReceiveMessage((message: unknown) => this.receive(message)),
    );
  }

  dispose(): void {
    if (this.disposed) {
      return;
    }
    this.disposed = true;
    this.stopChecking();
    for (const disposable of this.disposables.splice(0)) {
      disposable.dispose();
    }
    this.panel.dispose();
  }

  private receive(message: unknown): void {
    if (!isDashboardWebviewMessage(message)) {
      this.log.warn(`Dashboard ${this.groupId}: ignored a malformed message from the webview`);
      return;
    }
    if (message.type === 'reportError') {
      this.log.error(`Dashboard ${this.groupId} webview: ${message.message}`);
      return;
    }
    // The page (re)loaded: it has nothing, so it gets its group (kept for a reload), the snapshot, then every change while visible.
    const panelMessage: DashboardHostMessage = { type: 'panel', state: { sourceId: this.sourceId, groupId: this.groupId } };
    void this.panel.webview.postMessage(panelMessage).then(undefined, (e: unknown) => this.log.warn(`Dashboard ${this.groupId}: ${errorMessage(e)}`));
    this.stopChecking();
    this.sendIfChanged();
    this.timer = setInterval(() => this.sendIfChanged(), CHECK_INTERVAL_MS);
  }

  private sendIfChanged(): void {
    let snapshot: DashboardSnapshot;
    try {
      snapshot = this.snapshot();
    } catch (e) {
      this.log.error(`Dashboard ${this.groupId}: ${errorMessage(e)}`);
      return;
    }
    const serialized = JSON.stringify(snapshot);
    if (serialized === this.sent) {
      return;
    }
    this.sent = serialized;
    const message: DashboardHostMessage = { type: 'snapshot', snapshot };
    void this.panel.webview.postMessage(message).then(undefined, (e: unknown) => this.log.warn(`Dashboard ${this.groupId}: ${errorMessage(e)}`));
  }

  private stopChecking(): void {
    if (this.timer !== undefined) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
    this.sent = undefined;
  }
}
