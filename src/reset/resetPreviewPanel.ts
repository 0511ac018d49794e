/**
 * The reset preview panel: shows the plan, and hands its buttons to the command that opened it. Only the
 * writes (Execute) and Re-plan take the panel's busy flag: Copy and Export may wait on a dialog or a
 * notification the user never answers, and must not block Execute meanwhile. An Execute that cannot run
 * says why in the page's status line.
 */
import * as vscode from 'vscode';
import { resetPreviewHtml } from './resetPreviewHtml';
import { createNonce } from '../webview/webviewShell';
import {
  isPreviewWebviewMessage,
  type ChangedData,
  type PreviewAction,
  type PreviewData,
  type PreviewHostMessage,
  type ResultRowData,
} from './resetPreviewProtocol';
import { errorMessage } from '../protocol/errors';

export const RESET_PREVIEW_VIEW_TYPE = 'kafkaGroupLens.resetPreview';
/** The page's bundle in dist/webview/, built by esbuild.js from src/reset/page/main.ts. */
export const RESET_PREVIEW_BUNDLE = 'resetPreview.js';

export type ExecuteAnswer =
  | { kind: 'results'; summary: string; rows: ResultRowData[] }
  /** Nothing was written: the group changed since the preview. */
  | { kind: 'changed'; changed: ChangedData };

export interface ResetPreviewHandlers {
  /** Runs the reset; undefined when the user cancelled it. */
  execute(): Promise<ExecuteAnswer | undefined>;
  /** Plans the same reset again from the group as it is now. */
  replan(): Promise<{ ok: true; preview: PreviewData } | { ok: false; error: string }>;
  exportCsv(): Promise<void>;
  copyCli(mode: 'dry-run' | 'execute'): Promise<void>;
}

/** Where the plan stands: Execute runs only a current plan, once. */
type PlanState = 'current' | 'changed' | 'executed';

export function openResetPreview(extensionUri: vscode.Uri, initial: PreviewData, handlers: ResetPreviewHandlers, log: vscode.LogOutputChannel): vscode.WebviewPanel {
  const bundles = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
  const media = vscode.Uri.joinPath(extensionUri, 'media');
  const panel = vscode.window.createWebviewPanel(RESET_PREVIEW_VIEW_TYPE, `Reset Offsets: ${initial.groupId}`, vscode.ViewColumn.Active, {
    enableScripts: true,
    localResourceRoots: [bundles, media],
    retainContextWhenHidden: true,
  });
  const webview = panel.webview;
  webview.html = resetPreviewHtml({
    cspSource: webview.cspSource,
    scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(bundles, RESET_PREVIEW_BUNDLE)).toString(),
    styleUri: webview.asWebviewUri(vscode.Uri.joinPath(media, 'resetPreview.css')).toString(),
    nonce: createNonce(),
  });
  const post = (message: PreviewHostMessage): void => {
    void webview.postMessage(message).then(undefined, (e: unknown) => log.warn(`Reset preview: ${errorMessage(e)}`));
  };
  let data = initial;
  let plan: PlanState = 'current';
  /** What holds the busy flag ("committing the new offsets"), undefined when nothing does. */
  let busyWith: string | undefined;

  const fail = (action: PreviewAction, e: unknown): void => {
    log.error(`Reset preview ${action} failed:`, e instanceof Error ? e : errorMessage(e));
    post({ type: 'status', text: `Failed: ${errorMessage(e)}`, busy: busyWith !== undefined });
    void vscode.window.showErrorMessage(`Reset Offsets failed: ${errorMessage(e)}`);
  };

  /** Why `action` cannot run now, or undefined when it can. */
  const refusal = (action: 'execute' | 'replan'): string | undefined => {
    if (busyWith) {
      return `Still ${busyWith}; ${action === 'execute' ? 'Execute' : 'Re-plan'} is possible when that is done.`;
    }
    if (plan === 'executed') {
      return 'This preview has been executed. Run Reset Offsets… again for another reset.';
    }
    if (action === 'execute' && plan === 'changed') {
      return 'The group changed since this preview: Re-plan, check the new offsets, then Execute.';
    }
    return undefined;
  };

  /** Runs `work` holding the busy flag, then shows its answer with the flag released. */
  const exclusive = async <T>(action: 'execute' | 'replan', what: string, work: () => Promise<T>, show: (answer: T) => void): Promise<void> => {
    const reason = refusal(action);
    if (reason) {
      post({ type: 'status', text: reason, busy: busyWith !== undefined });
      return;
    }
    busyWith = what;
    post({ type: 'status', text: `${what[0].toUpperCase()}${what.slice(1)}…`, busy: true });
    let answer: T;
    try {
      answer = await work();
    } catch (e) {
      busyWith = undefined;
      fail(action, e);
      return;
    }
    busyWith = undefined;
    show(answer);
  };

  const execute = () =>
    exclusive('execute', 'committing the new offsets', () => handlers.execute(), (answer) => {
      if (!answer) {
        post({ type: 'status', text: 'Not executed.', busy: false });
      } else if (answer.kind === 'changed') {
        plan = 'changed';
        post({ type: 'changed', changed: answer.changed });
        post({ type: 'status', text: 'Not executed.', busy: false });
      } else {
        plan = 'executed';
        post({ type: 'results', summary: answer.summary, rows: answer.rows });
        post({ type: 'status', text: answer.summary, busy: false });
      }
    });

  const replan = () =>
    exclusive('replan', 'planning again', () => handlers.replan(), (next) => {
      if (!next.ok) {
        post({ type: 'status', text: `Re-plan failed: ${next.error}`, busy: false });
        return;
      }
      data = next.preview;
      plan = 'current';
      post({ type: 'preview', preview: data });
      post({ type: 'status', text: 'Planned again from the group as it is now: check the new offsets, then Execute.', busy: false });
    });

  /** Copy and Export: no busy flag, whatever they wait for. */
  const sideAction = async (action: PreviewAction, work: () => Promise<void>): Promise<void> => {
    try {
      await work();
    } catch (e) {
      fail(action, e);
    }
  };

  const run = (action: PreviewAction): Promise<void> => {
    switch (action) {
      case 'cancel':
        panel.dispose();
        return Promise.resolve();
      case 'execute':
        return execute();
      case 'replan':
        return replan();
      case 'exportCsv':
        return sideAction(action, () => handlers.exportCsv());
      case 'copyDryRun':
      case 'copyExecute':
        return sideAction(action, () => handlers.copyCli(action === 'copyExecute' ? 'execute' : 'dry-run'));
    }
  };

  const subscription = panel.webview.onDidReceiveMessage((message: unknown) => {
    if (!isPreviewWebviewMessage(message)) {
      log.warn('Reset preview: ignored a malformed message from the page');
      return;
    }
    switch (message.type) {
      case 'ready':
        post({ type: 'preview', preview: data });
        break;
      case 'action':
        void run(message.action);
        break;
      case 'reportError':
        log.error(`Reset preview page: ${message.message}`);
        break;
    }
  });
  panel.onDidDispose(() => subscription.dispose());
  return panel;
}
