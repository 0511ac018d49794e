/**
 * The reset preview's HTML shell: strict CSP (the one script by nonce, styles from the extension's media),
 * and no data: the plan arrives as a message and is set as text.
 */
import { webviewPage, type WebviewPageParts } from '../webview/webviewShell';

/** `asWebviewUri` of dist/webview/resetPreview.js and media/resetPreview.css, as strings, with the CSP source and nonce. */
export type ResetPreviewHtmlParts = WebviewPageParts;

export function resetPreviewHtml(parts: ResetPreviewHtmlParts): string {
  return webviewPage('reset preview', 'Reset offsets preview', parts, `  <header>
    <h1 id="title">Reset offsets</h1>
    <dl id="summary"></dl>
  </header>
  <div class="actions" role="toolbar">
    <button id="execute" type="button" data-action="execute">Execute</button>
    <button id="cancel" type="button" class="secondary" data-action="cancel">Cancel</button>
    <button id="export" type="button" class="secondary" data-action="exportCsv">Export CSV…</button>
    <button id="copy-dry-run" type="button" class="secondary" data-action="copyDryRun">Copy CLI (dry run)</button>
    <button id="copy-execute" type="button" class="secondary" data-action="copyExecute">Copy CLI (execute)</button>
  </div>
  <p id="status" role="status" aria-live="polite"></p>
  <section id="changed" class="changed" hidden>
    <h2>The group changed since this preview</h2>
    <p id="changed-summary"></p>
    <ul id="changed-lines"></ul>
    <button id="replan" type="button" data-action="replan">Re-plan</button>
  </section>
  <ul id="warnings" class="warnings"></ul>
  <table id="plan">
    <thead><tr><th>Topic</th><th class="num">Partition</th><th class="num">Current</th><th class="num">New</th><th class="num">Difference</th><th>Warning</th></tr></thead>
    <tbody></tbody>
  </table>
  <section id="results" hidden>
    <h2>Results</h2>
    <p id="results-summary"></p>
    <table>
      <thead><tr><th>Topic</th><th class="num">Partition</th><th>Status</th></tr></thead>
      <tbody></tbody>
    </table>
  </section>`);
}
