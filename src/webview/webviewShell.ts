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
