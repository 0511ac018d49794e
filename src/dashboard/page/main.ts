/**
 * The group dashboard page (bundled by esbuild.js into dist/webview/dashboard.js, its stylesheet beside it): checks
 * each message from the panel before drawing it, reports what goes wrong to the panel, and says it is ready.
 */
import './dashboard.css';
import { isDashboardHostMessage, type DashboardWebviewMessage } from '../dashboardProtocol';
import { renderSnapshot } from './render';

interface VsCodeApi {
  postMessage(message: DashboardWebviewMessage): void;
  /** Kept by VS Code across reloads; the panel serializer reads it to reopen the same group. */
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

function start(): void {
  const vscode = acquireVsCodeApi();
  const report = (message: string): void => vscode.postMessage({ type: 'reportError', message });
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    if (!isDashboardHostMessage(event.data)) {
      report('ignored a malformed message from the extension');
      return;
    }
    if (event.data.type === 'panel') {
      vscode.setState(event.data.state);
      return;
    }
    try {
      renderSnapshot(event.data.snapshot);
    } catch (error) {
      report(error instanceof Error ? (error.stack ?? error.message) : String(error));
    }
  });
  window.addEventListener('error', (event) => report(String(event.message)));
  vscode.postMessage({ type: 'ready' });
}

start();
