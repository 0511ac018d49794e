/**
 * The reset preview page (bundled by esbuild.js into dist/webview/resetPreview.js): wires the buttons
 * and the panel's messages, reports what goes wrong to the panel, and says it is ready for the plan.
 */
import type { PreviewWebviewMessage } from '../resetPreviewProtocol';
import { wireButtons } from './buttons';
import { hostMessageHandler } from './messages';

interface VsCodeApi {
  postMessage(message: PreviewWebviewMessage): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

function start(): void {
  const vscode = acquireVsCodeApi();
  const report = (message: string): void => vscode.postMessage({ type: 'reportError', message });
  wireButtons((action) => vscode.postMessage({ type: 'action', action }));
  const receive = hostMessageHandler(report);
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    try {
      receive(event.data);
    } catch (error) {
      report(error instanceof Error ? (error.stack ?? error.message) : String(error));
    }
  });
  window.addEventListener('error', (event) => report(String(event.message)));
  vscode.postMessage({ type: 'ready' });
}

start();
