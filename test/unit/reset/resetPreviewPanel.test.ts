/**
 * The reset preview panel under the `vscode` stub: it loads the page's bundle from dist/webview/ by
 * asWebviewUri, answers `ready` with the plan, logs what the page reports and ignores malformed messages.
 */
import { strict as assert } from 'node:assert';
import type { PreviewData } from '../../../src/reset/resetPreviewProtocol';
import { installFreshVscodeStub, StubHost, Uri } from '../views/vscodeStub';

type PanelModule = typeof import('../../../src/reset/resetPreviewPanel');

const PREVIEW: PreviewData = {
  groupId: 'billing',
  cluster: 'Simulator (demo)',
  groupState: 'Empty',
  scenario: '--to-earliest',
  scope: '--all-topics',
  rows: [{ topic: 'orders', partition: 0, current: '5', next: '0', difference: '-5', warning: '' }],
  warnings: [],
};

describe('reset/resetPreviewPanel (vscode stub)', () => {
  let host: StubHost;
  let uninstall: () => void;
  let openResetPreview: PanelModule['openResetPreview'];
  const warnings: string[] = [];
  const errors: string[] = [];
  const log = { info: () => undefined, warn: (line: string) => warnings.push(line), error: (line: string) => errors.push(line) } as unknown as import('vscode').LogOutputChannel;
  const handlers = {
    execute: () => Promise.resolve(undefined),
    replan: () => Promise.resolve({ ok: false as const, error: 'not here' }),
    exportCsv: () => Promise.resolve(),
    copyCli: () => Promise.resolve(),
  };

  beforeEach(() => {
    host = new StubHost();
    uninstall = installFreshVscodeStub(host);
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after the stub is installed
    ({ openResetPreview } = require('../../../src/reset/resetPreviewPanel') as PanelModule);
    warnings.length = 0;
    errors.length = 0;
  });

  afterEach(() => uninstall());

  it('loads the bundled page and stylesheet from the extension by nonce, and nothing else', () => {
    openResetPreview(Uri.file('/ext') as unknown as import('vscode').Uri, PREVIEW, handlers, log);
    const [panel] = host.webviewPanels;
    assert.deepEqual(panel.options.localResourceRoots?.map(String), ['file:///ext/dist/webview', 'file:///ext/media']);
    const nonce = /script-src 'nonce-([^']+)'/.exec(panel.html)?.[1];
    assert.ok(nonce && panel.html.includes(`<script nonce="${nonce}" src="file:///ext/dist/webview/resetPreview.js"></script>`));
    assert.ok(panel.html.includes('<link rel="stylesheet" href="file:///ext/media/resetPreview.css">'));
  });

  it('answers ready with the plan, logs what the page reports and ignores malformed messages', () => {
    openResetPreview(Uri.file('/ext') as unknown as import('vscode').Uri, PREVIEW, handlers, log);
    const [panel] = host.webviewPanels;
    panel.receive({ type: 'ready' });
    assert.deepEqual(panel.posted, [{ type: 'preview', preview: PREVIEW }]);
    panel.receive({ type: 'reportError', message: 'ignored a malformed message from the extension' });
    panel.receive({ type: 'action', action: 'rm -rf' });
    assert.deepEqual(errors, ['Reset preview page: ignored a malformed message from the extension']);
    assert.deepEqual(warnings, ['Reset preview: ignored a malformed message from the page']);
    assert.equal(panel.posted.length, 1);
  });
});
