/**
 * The reset preview page in headless chromium, served with the extension's real HTML shell (so its
 * Content-Security-Policy is enforced), the page bundled from src/reset/page/ as esbuild.js does it and
 * media/resetPreview.css: the plan renders as text (hostile
 * ids included), the buttons post their actions, a stale plan's changes show with Re-plan, busy and results
 * states show, no CSP violation. Leaves screenshots in test/artifacts/reset-preview{,-changed}.png.
 * Run: npx mocha --config test/webview/.mocharc.json
 */
import { strict as assert } from 'node:assert';
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { resetPreviewHtml } from '../../src/reset/resetPreviewHtml';
import type { PreviewHostMessage, PreviewWebviewMessage } from '../../src/reset/resetPreviewProtocol';
import { bundlePage, ROOT } from './bundle';
import { countBecomes, eventually, textBecomes } from './eventually';
import { applyTheme, CHROMIUM_PATH } from './timelinePage';

const HOSTILE = 'billing <img src=x onerror="window.__xss=1"><script>window.__xss=2</script>';
const WARNING = 'New offset (5000) is higher than latest offset for topic partition legacy-events-1. Value will be set to 1000';

async function serve(): Promise<{ server: Server; origin: string }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const files: Record<string, [string, string]> = {
    '/': ['text/html', resetPreviewHtml({ cspSource: origin, scriptUri: `${origin}/resetPreview.js`, styleUri: `${origin}/resetPreview.css`, nonce: 'dGVzdC1ub25jZQ==' })],
    '/resetPreview.js': ['text/javascript', await bundlePage('src/reset/page/main.ts')],
    '/resetPreview.css': ['text/css', readFileSync(join(ROOT, 'media', 'resetPreview.css'), 'utf8')],
  };
  server.on('request', (request, response) => {
    const file = files[request.url ?? ''];
    if (!file) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': `${file[0]}; charset=utf-8` }).end(file[1]);
  });
  return { server, origin };
}

describe('reset preview webview (chromium)', function () {
  this.timeout(60000);
  let server: Server;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  const send = (message: PreviewHostMessage) => page.evaluate((m) => window.postMessage(m, '*'), message);
  const posted = () => page.evaluate(() => (window as unknown as { __posted: PreviewWebviewMessage[] }).__posted);

  before(async () => {
    const served = await serve();
    server = served.server;
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
    page = await browser.newPage({ viewport: { width: 1100, height: 640 } });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (/Content Security Policy|Refused/.test(message.text())) {
        problems.push(message.text());
      }
    });
    // VS Code injects acquireVsCodeApi before the page's scripts; an init script is not subject to the page CSP either.
    // A string, not a function: tsx would wrap a function's inner functions in a helper the page does not have.
    await page.addInitScript(`
      window.__posted = [];
      window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__posted.push(m), getState: () => undefined, setState: () => undefined });
    `);
    await page.goto(`${served.origin}/`);
    await applyTheme(page, 'dark');
    await page.waitForFunction(() => (window as unknown as { __posted: unknown[] }).__posted.length > 0, undefined, { timeout: 5000 }).catch((e: unknown) => {
      throw new Error(`${String(e)}; page problems: ${problems.join(" | ")}`);
    });
  });

  after(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => server?.close(() => resolve()));
  });

  it('says ready, then renders the summary and the plan as text', async () => {
    assert.deepEqual(await posted(), [{ type: 'ready' }]);
    await send({
      type: 'preview',
      preview: {
        groupId: HOSTILE,
        cluster: 'Simulator (demo)',
        groupState: 'Empty',
        scenario: '--to-offset 5000',
        scope: '--all-topics',
        rows: [
          { topic: 'legacy-events', partition: 0, current: '700', next: '1000', difference: '+300', warning: '' },
          { topic: 'legacy-events', partition: 1, current: '1000', next: '1000', difference: '0', warning: WARNING },
          { topic: 'legacy-events', partition: 2, current: '-', next: '1000', difference: '', warning: '' },
        ],
        warnings: [WARNING],
      },
    });
    // The page handles a posted message in a later task: wait for it, then read what it drew with it.
    await textBecomes(page.locator('#title'), `Reset offsets of ${HOSTILE}`);
    assert.deepEqual(await page.locator('#summary dd').allTextContents(), ['Simulator (demo)', HOSTILE, 'Empty', '--to-offset 5000', '--all-topics', '3']);
    const cells = await page.locator('#plan tbody tr').evaluateAll((rows) => rows.map((r) => Array.from(r.children, (c) => c.textContent)));
    assert.deepEqual(cells, [
      ['legacy-events', '0', '700', '1000', '+300', ''],
      ['legacy-events', '1', '1000', '1000', '0', WARNING],
      ['legacy-events', '2', '-', '1000', '', ''],
    ]);
    assert.deepEqual(await page.locator('#warnings li').allTextContents(), [WARNING]);
    assert.equal(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss), undefined);
    assert.equal(await page.locator('img').count(), 0);
    assert.equal(await page.locator('#plan tbody tr:first-child td:nth-child(5)').evaluate((td) => getComputedStyle(td).color), 'rgb(55, 148, 255)', 'a forward move uses --vscode-charts-blue');
  });

  it('posts one action per button', async () => {
    for (const id of ['#copy-dry-run', '#copy-execute', '#export', '#execute', '#cancel']) {
      await page.click(id);
    }
    assert.deepEqual((await posted()).slice(1), ['copyDryRun', 'copyExecute', 'exportCsv', 'execute', 'cancel'].map((action) => ({ type: 'action', action })));
  });

  it('shows what changed since the preview as text, keeps Execute off until a new plan arrives, and Re-plan posts its action', async () => {
    assert.equal(await page.locator('#changed').isVisible(), false);
    const summary = `Not executed: ${HOSTILE} changed since this preview. Re-plan to see what the reset would commit now.`;
    await send({ type: 'changed', changed: { summary, lines: ['state: previewed Empty, now Dead', 'legacy-events-0: previewed 700, now 0'] } });
    await send({ type: 'status', text: 'Not executed.', busy: false });
    await textBecomes(page.locator('#status'), 'Not executed.');
    assert.equal(await page.locator('#changed').isVisible(), true);
    assert.equal(await page.locator('#changed-summary').textContent(), summary);
    assert.deepEqual(await page.locator('#changed-lines li').allTextContents(), ['state: previewed Empty, now Dead', 'legacy-events-0: previewed 700, now 0']);
    assert.equal(await page.locator('img').count(), 0);
    assert.equal(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss), undefined);
    assert.equal(await page.locator('#execute').isDisabled(), true, 'a stale plan cannot be executed');
    assert.equal(await page.locator('#copy-execute').isDisabled(), false);
    mkdirSync(join(ROOT, 'test', 'artifacts'), { recursive: true });
    await page.screenshot({ path: join(ROOT, 'test', 'artifacts', 'reset-preview-changed.png'), fullPage: true });

    const before = (await posted()).length;
    await page.click('#replan');
    assert.deepEqual((await posted()).slice(before), [{ type: 'action', action: 'replan' }]);
    await send({
      type: 'preview',
      preview: {
        groupId: HOSTILE,
        cluster: 'Simulator (demo)',
        groupState: 'Empty',
        scenario: '--shift-by -100',
        scope: '--all-topics',
        rows: [{ topic: 'legacy-events', partition: 0, current: '0', next: '0', difference: '0', warning: '' }],
        warnings: [],
      },
    });
    const planned = 'Planned again from the group as it is now: check the new offsets, then Execute.';
    await send({ type: 'status', text: planned, busy: false });
    await textBecomes(page.locator('#status'), planned);
    assert.equal(await page.locator('#changed').isVisible(), false);
    assert.deepEqual(await page.locator('#plan tbody tr').evaluateAll((rows) => rows.map((r) => Array.from(r.children, (c) => c.textContent))), [
      ['legacy-events', '0', '0', '0', '0', ''],
    ]);
    assert.equal(await page.locator('#execute').isDisabled(), false, 'the new plan can be executed');
  });

  it('disables the buttons while busy, then shows the results and keeps Execute off', async () => {
    await send({ type: 'status', text: 'Committing the new offsets…', busy: true });
    await textBecomes(page.locator('#status'), 'Committing the new offsets…');
    await countBecomes(page.locator('button[data-action]:disabled'), (n) => n === 6, 'all six buttons disabled (Re-plan included)');
    await send({
      type: 'results',
      summary: '2 of 3 partition(s) were not reset.',
      rows: [
        { topic: 'legacy-events', partition: 0, ok: true, status: 'committed 1000' },
        { topic: 'legacy-events', partition: 1, ok: false, status: 'UNKNOWN_MEMBER_ID' },
        { topic: 'legacy-events', partition: 2, ok: false, status: 'UNKNOWN_MEMBER_ID' },
      ],
    });
    await send({ type: 'status', text: '2 of 3 partition(s) were not reset.', busy: false });
    // Messages are handled in order: once the last one shows, the results before it are in.
    await textBecomes(page.locator('#status'), '2 of 3 partition(s) were not reset.');
    await eventually('Export enabled again', () => page.locator('#export').isDisabled(), (disabled) => !disabled);
    assert.equal(await page.locator('#results').isVisible(), true);
    assert.deepEqual(await page.locator('#results tbody td:nth-child(3)').allTextContents(), ['committed 1000', 'UNKNOWN_MEMBER_ID', 'UNKNOWN_MEMBER_ID']);
    assert.equal(await page.locator('#execute').isDisabled(), true, 'a reset runs once per preview');
    assert.equal(await page.locator('#export').isDisabled(), false);
    mkdirSync(join(ROOT, 'test', 'artifacts'), { recursive: true });
    await page.screenshot({ path: join(ROOT, 'test', 'artifacts', 'reset-preview.png'), fullPage: true });
  });

  it('reports a malformed message to the panel and draws nothing of it', async () => {
    const before = (await posted()).length;
    const rows = await page.locator('#plan tbody tr').count();
    await page.evaluate(() => window.postMessage({ type: 'preview', preview: { groupId: 'half a plan', rows: 'many' } }, '*'));
    await eventually('the report', async () => (await posted()).slice(before), (messages) => messages.length > 0);
    assert.deepEqual((await posted()).slice(before), [{ type: 'reportError', message: 'ignored a malformed message from the extension' }]);
    assert.equal(await page.locator('#plan tbody tr').count(), rows);
    assert.notEqual(await page.locator('#title').textContent(), 'Reset offsets of half a plan');
  });

  it('ran without page errors or CSP violations', () => {
    assert.deepEqual(problems, []);
  });
});
