import { strict as assert } from 'node:assert';
import { timelineHtml } from '../../../src/webview/timelineHtml';
import { createNonce } from '../../../src/webview/webviewShell';

const parts = {
  cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
  scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview/main.js',
  styleUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/media/timeline.css',
  nonce: 'abc123+/=',
};

describe('webview/timelineHtml', () => {
  it('sets a strict CSP: nothing by default, the script by nonce, styles and fonts from the extension', () => {
    const html = timelineHtml(parts);
    const csp = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)?.[1];
    assert.equal(
      csp,
      "default-src 'none'; script-src 'nonce-abc123+/='; style-src https://file+.vscode-resource.vscode-cdn.net; font-src https://file+.vscode-resource.vscode-cdn.net; img-src https://file+.vscode-resource.vscode-cdn.net",
    );
    assert.match(html, /<script nonce="abc123\+\/=" src="https:\/\/file\+\.vscode-resource\.vscode-cdn\.net\/ext\/dist\/webview\/main\.js"><\/script>/);
    assert.match(html, /<link rel="stylesheet" href="https:\/\/file\+\.vscode-resource\.vscode-cdn\.net\/ext\/media\/timeline\.css">/);
    assert.equal((html.match(/<script/g) ?? []).length, 1);
    assert.doesNotMatch(html, /unsafe-inline|unsafe-eval|style=/);
  });

  it('refuses values that could break out of an attribute', () => {
    assert.throws(() => timelineHtml({ ...parts, scriptUri: 'x" onload="alert(1)' }), /scriptUri contains characters/);
  });

  it('makes unguessable nonces', () => {
    const a = createNonce();
    assert.equal(Buffer.from(a, 'base64').length, 16);
    assert.notEqual(a, createNonce());
  });
});
