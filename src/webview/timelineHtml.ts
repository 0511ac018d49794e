/**
 * The timeline webview's HTML shell: a strict Content-Security-Policy (nothing loads unless listed;
 * the one script runs by nonce; styles and fonts only from the extension's own resources) and no
 * data at all: the group id and events arrive later as messages and are set as text.
 */
import { assertAttributeSafe, contentSecurityPolicy } from './webviewShell';

/** Re-exported for pages that import it from here (resetPreviewHtml); new code imports webviewShell. */
export { createNonce } from './webviewShell';

export interface TimelineHtmlParts {
  /** `webview.cspSource`. */
  cspSource: string;
  /** `asWebviewUri` of dist/webview/main.js and media/timeline.css, as strings. */
  scriptUri: string;
  styleUri: string;
  nonce: string;
}

export function timelineHtml({ cspSource, scriptUri, styleUri, nonce }: TimelineHtmlParts): string {
  assertAttributeSafe('timeline', { scriptUri, styleUri, nonce });
  const csp = contentSecurityPolicy(cspSource, nonce);
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${csp}">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
  <link rel="stylesheet" href="${styleUri}">
  <title>Rebalance timeline</title>
</head>
<body>
  <div id="app" class="kgl-app" aria-busy="true"></div>
  <script nonce="${nonce}" src="${scriptUri}"></script>
</body>
</html>
`;
}
