/**
 * What every webview page of the extension shares: a nonce, the Content-Security-Policy (nothing
 * loads unless listed; scripts only by nonce; styles and fonts only from the extension), and a
 * check that the values put into the page's attributes cannot break out of them.
 */
import { randomBytes } from 'node:crypto';

/** 128 random bits, base64: a nonce the page cannot guess. */
export function createNonce(): string {
  return randomBytes(16).toString('base64');
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return ["default-src 'none'", `script-src 'nonce-${nonce}'`, `style-src ${cspSource}`, `font-src ${cspSource}`, `img-src ${cspSource}`].join('; ');
}

/**
 * Throws when a value meant for an HTML attribute holds a quote, angle bracket or space. The values
 * come from VS Code (asWebviewUri) and crypto, never from users; this keeps it that way.
 */
export function assertAttributeSafe(page: string, values: Record<string, string>): void {
  for (const [name, value] of Object.entries(values)) {
    if (/["'<>\s]/.test(value)) {
      throw new Error(`${page} webview: ${name} contains characters not allowed in an attribute: ${value}`);
    }
  }
}

/** What a page needs from the host: `webview.cspSource`, the `asWebviewUri` strings of its script and stylesheet, a nonce. */
export interface WebviewPageParts {
  cspSource: string;
  scriptUri: string;
  styleUri: string;
  nonce: string;
}

/**
 * A whole page: the CSP, the one stylesheet, the static body and the one script, loaded by nonce.
 * `body` is the page's own markup, never data: data arrives as messages and is set as text.
 */
export function webviewPage(page: string, title: string, { cspSource, scriptUri, styleUri, nonce }: WebviewPageParts, body: string): string {
  assertAttributeSafe(page, { scriptUri, styleUri, nonce });
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(cspSource, nonce)}">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
  <link rel="stylesheet" href="${styleUri}">
  <title>${title}</title>
</head>
<body>
${body}
  <script nonce="${nonce}" src="${scriptUri}"></script>
</body>
</html>
`;
}
