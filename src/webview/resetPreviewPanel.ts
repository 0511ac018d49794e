/** The reset preview panel: shows the plan, and hands its buttons to the command that opened it. */
import * as vscode from 'vscode';
import { errorMessage } from '../views/groupTreeData';
import { resetPreviewHtml } from './resetPreviewHtml';
import { createNonce } from './webviewShell';
import { isPreviewWebviewMessage, type PreviewAction, type PreviewData, type PreviewHostMessage, type ResultRowData } from './resetPreviewProtocol';

export const RESET_PREVIEW_VIEW_TYPE = 'kafkaGroupLens.resetPreview';

export interface ResetPreviewHandlers {
  /** Runs the reset; resolves with what to show in the results table. */
  execute(): Promise<{ summary: string; rows: ResultRowData[] } | undefined>;
  exportCsv(): Promise<void>;
  copyCli(mode: 'dry-run' | 'execute'): Promise<void>;
}

export function openResetPreview(extensionUri: vscode.Uri, data: PreviewData, handlers: ResetPreviewHandlers, log: vscode.LogOutputChannel): vscode.WebviewPanel {
  const mediaRoot = vscode.Uri.joinPath(extensionUri, 'media', 'resetPreview');
  const panel = vscode.window.createWebviewPanel(RESET_PREVIEW_VIEW_TYPE, `Reset Offsets: ${data.groupId}`, vscode.ViewColumn.Active, {
    enableScripts: true,
    localResourceRoots: [mediaRoot],
    retainContextWhenHidden: true,
  });
  const webview = panel.webview;
  webview.html = resetPreviewHtml({
    cspSource: webview.cspSource,
    scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(mediaRoot, 'main.js')).toString(),
    styleUri: webview.asWebviewUri(vscode.Uri.joinPath(mediaRoot, 'preview.css')).toString(),
    nonce: createNonce(),
  });
  const post = (message: PreviewHostMessage): void => {
    void webview.postMessage(message).then(undefined, (e: unknown) => log.warn(`Reset preview: ${errorMessage(e)}`));
  };
  let executed = false;
  let busy = false;

  const run = async (action: PreviewAction): Promise<void> => {
    if (action === 'cancel') {
      panel.dispose();
      return;
    }
    if (busy || (action === 'execute' && executed)) {
      return;
    }
    busy = true;
    post({ type: 'status', text: action === 'execute' ? 'Committing the new offsets…' : '', busy: action === 'execute' });
    try {
      if (action === 'execute') {
        const results = await handlers.execute();
        if (results) {
          executed = true;
          post({ type: 'results', ...results });
        }
        post({ type: 'status', text: results ? results.summary : 'Not executed.', busy: false });
      } else if (action === 'exportCsv') {
        await handlers.exportCsv();
      } else {
        await handlers.copyCli(action === 'copyExecute' ? 'execute' : 'dry-run');
      }
    } catch (e) {
      log.error(`Reset preview ${action} failed:`, e instanceof Error ? e : errorMessage(e));
      post({ type: 'status', text: `Failed: ${errorMessage(e)}`, busy: false });
      void vscode.window.showErrorMessage(`Reset Offsets failed: ${errorMessage(e)}`);
    } finally {
      busy = false;
      if (action !== 'execute') {
        post({ type: 'status', text: '', busy: false });
      }
    }
  };

  const subscription = panel.webview.onDidReceiveMessage((message: unknown) => {
    if (!isPreviewWebviewMessage(message)) {
      log.warn('Reset preview: ignored a malformed message from the page');
      return;
    }
    if (message.type === 'ready') {
      post({ type: 'preview', preview: data });
    } else {
      void run(message.action);
    }
  });
  panel.onDidDispose(() => subscription.dispose());
  return panel;
}
