/**
 * The timeline webview's HTML shell: a strict Content-Security-Policy (nothing loads unless listed;
 * the one script runs by nonce; styles and fonts only from the extension's own resources) and no
 * data at all: the group id and events arrive later as messages and are set as text.
 */
import { webviewPage, type WebviewPageParts } from './webviewShell';

/** `asWebviewUri` of dist/webview/main.js and media/timeline.css, as strings, with the CSP source and nonce. */
export type TimelineHtmlParts = WebviewPageParts;

export function timelineHtml(parts: TimelineHtmlParts): string {
  return webviewPage('timeline', 'Rebalance timeline', parts, '  <div id="app" class="kgl-app" aria-busy="true"></div>');
}
