/**
 * The group dashboard's HTML shell: the shared strict CSP (the one script by nonce, styles from the extension) and no
 * data: the snapshot arrives as a message and is drawn with text nodes and SVG elements.
 */
import { webviewPage, type WebviewPageParts } from '../webview/webviewShell';

/** `asWebviewUri` of dist/webview/dashboard.js and dashboard.css, as strings, with the CSP source and nonce. */
export function dashboardHtml(parts: WebviewPageParts): string {
  return webviewPage('group dashboard', 'Group dashboard', parts, `  <header>
    <h1 id="title">Group dashboard</h1>
    <p id="subtitle"></p>
    <p class="legend"><span class="key lag">lag</span> <span class="key consumed">consumed/s</span> <span class="key produced">produced/s</span> <span class="key rebalance">rebalance</span></p>
  </header>
  <p id="empty" hidden>No lag samples for this group yet: the tree takes one at each refresh of its cluster (kept for the last hour).</p>
  <main id="topics"></main>`);
}
