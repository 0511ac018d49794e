import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resetPreviewHtml } from '../../../src/reset/resetPreviewHtml';

const parts = {
  cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
  scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview/resetPreview.js',
  styleUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/media/resetPreview.css',
  nonce: 'n0nce+/=',
};

describe('reset/resetPreviewHtml', () => {
  it('sets a strict CSP and loads only its own script (by nonce) and stylesheet', () => {
    const html = resetPreviewHtml(parts);
    const csp = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)?.[1] ?? '';
    assert.match(csp, /^default-src 'none'; script-src 'nonce-n0nce\+\/='; style-src https:\/\/file\+\.vscode-resource\.vscode-cdn\.net;/);
    assert.equal((html.match(/<script/g) ?? []).length, 1);
    assert.ok(html.includes(`<script nonce="n0nce+/=" src="${parts.scriptUri}"></script>`));
    assert.ok(html.includes(`<link rel="stylesheet" href="${parts.styleUri}">`));
    assert.doesNotMatch(html, /unsafe-inline|unsafe-eval|style=|\son[a-z]+=/);
  });

  it('has a button for every action the page script can send', () => {
    const html = resetPreviewHtml(parts);
    const actions = [...html.matchAll(/data-action="([a-zA-Z]+)"/g)].map((m) => m[1]);
    assert.deepEqual(actions, ['execute', 'cancel', 'exportCsv', 'copyDryRun', 'copyExecute', 'replan']);
  });

  it('refuses values that could break out of an attribute', () => {
    assert.throws(() => resetPreviewHtml({ ...parts, styleUri: 'x" onload="alert(1)' }), /styleUri contains characters/);
  });

  it('ships a page script that writes text only, never markup', () => {
    const pageDir = join(__dirname, '../../../src/reset/page');
    const sources = readdirSync(pageDir).filter((name) => name.endsWith('.ts'));
    assert.ok(sources.length > 0);
    const script = sources.map((name) => readFileSync(join(pageDir, name), 'utf8')).join('\n');
    assert.doesNotMatch(script, /innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/);
    assert.match(script, /textContent/);
  });
});
