/**
 * The group dashboard page in headless chromium, served with the extension's real HTML shell (so its CSP is
 * enforced), the page and its stylesheet bundled from src/dashboard/page/ as esbuild.js does it: a snapshot draws
 * three charts per topic with the rebalances as markers, a hostile group id shows as text, the empty state, a
 * malformed message is reported and draws nothing, no CSP violation. Leaves test/artifacts/group-dashboard.png.
 * Run: npx mocha --config test/webview/.mocharc.json
 */
import { strict as assert } from 'node:assert';
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { dashboardHtml } from '../../src/dashboard/dashboardHtml';
import type { DashboardHostMessage, DashboardSnapshot, DashboardWebviewMessage } from '../../src/dashboard/dashboardProtocol';
import { ROOT } from './bundle';
import { countBecomes, eventually, textBecomes } from './eventually';
import { applyTheme, CHROMIUM_PATH } from './timelinePage';

const HOSTILE = 'billing <img src=x onerror="window.__xss=1"><script>window.__xss=2</script>';
const T0 = 1_700_000_000_000;
const times = [0, 30, 60, 90, 120].map((s) => T0 + s * 1000);

const SNAPSHOT: DashboardSnapshot = {
  groupId: HOSTILE,
  cluster: 'Local <b>cluster</b>',
  times,
  topics: [
    { topic: 'audit', partitions: 1, lag: [0, 0, 3, 3, 0], maxLagInTimeMs: [null, null, 900, 1200, null], consumedPerSec: [null, 1, 0, 0.5, 1], producedPerSec: [null, 1, 0.1, 0.5, 0.9] },
    { topic: '<i>orders</i>', partitions: 3, lag: [90, 360, null, 200, 40], maxLagInTimeMs: [5000, 4000, null, 2500, 800], consumedPerSec: [null, 12, null, 20, 18], producedPerSec: [null, 21, null, 15, 12] },
  ],
  rebalances: [{ time: T0 + 45_000, label: 'rebalance-started: <u>member</u> joined' }, { time: T0 + 100_000, label: 'rebalance-completed' }],
};

/** The page's script and the stylesheet it imports, bundled in memory as esbuild.js bundles them into dist/webview/. */
async function bundleDashboard(): Promise<{ script: string; styles: string }> {
  const result = await esbuild.build({
    entryPoints: [join(ROOT, 'src', 'dashboard', 'page', 'main.ts')],
    bundle: true,
    write: false,
    outdir: join(ROOT, 'dist', 'webview'),
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    logLevel: 'silent',
  });
  const output = (extension: string): string => {
    const file = result.outputFiles.find((f) => f.path.endsWith(extension));
    assert.ok(file, `esbuild made no ${extension}`);
    return file.text;
  };
  return { script: output('.js'), styles: output('.css') };
}

async function serve(): Promise<{ server: Server; origin: string }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { script, styles } = await bundleDashboard();
  const files: Record<string, [string, string]> = {
    '/': ['text/html', dashboardHtml({ cspSource: origin, scriptUri: `${origin}/dashboard.js`, styleUri: `${origin}/dashboard.css`, nonce: 'dGVzdC1ub25jZQ==' })],
    '/dashboard.js': ['text/javascript', script],
    '/dashboard.css': ['text/css', styles],
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

describe('group dashboard webview (chromium)', function () {
  this.timeout(60000);
  let server: Server;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  const send = (message: DashboardHostMessage) => page.evaluate((m) => window.postMessage(m, '*'), message);
  const posted = () => page.evaluate(() => (window as unknown as { __posted: DashboardWebviewMessage[] }).__posted);

  before(async () => {
    const served = await serve();
    server = served.server;
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
    page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (/Content Security Policy|Refused/.test(message.text())) {
        problems.push(message.text());
      }
    });
    // VS Code injects acquireVsCodeApi before the page's scripts; a string, so tsx adds no helper the page lacks.
    await page.addInitScript(`
      window.__posted = [];
      window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__posted.push(m), getState: () => undefined, setState: () => undefined });
    `);
    await page.goto(`${served.origin}/`);
    await applyTheme(page, 'dark');
    await eventually('the page to say ready', posted, (messages) => messages.length > 0);
  });

  after(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => server?.close(() => resolve()));
  });

  it('says ready, then draws three charts per topic with the rebalances as markers, all text as text', async () => {
    assert.deepEqual(await posted(), [{ type: 'ready' }]);
    await send({ type: 'snapshot', snapshot: SNAPSHOT });
    await textBecomes(page.locator('#title'), `Dashboard of ${HOSTILE}`);
    assert.equal(await page.locator('#subtitle').textContent(), 'Local <b>cluster</b> · 5 samples · 2 rebalances');
    assert.deepEqual(await page.locator('section.topic h2').allTextContents(), ['audit (1 partition)', '<i>orders</i> (3 partitions)']);
    assert.deepEqual(await page.locator('section.topic').first().locator('figcaption').allTextContents(), [
      'Lag (messages)',
      'Lag in time (largest partition)',
      'Consumption vs production (offsets/s)',
    ]);
    assert.equal(await page.locator('figure.chart svg').count(), 6);
    assert.equal(await page.locator('path.series.consumed').count(), 2);
    assert.equal(await page.locator('path.series.produced').count(), 2);
    assert.equal(await page.locator('line.rebalance-marker').count(), 2 * 6, 'two markers on every chart');
    assert.match((await page.locator('line.rebalance-marker title').first().textContent()) ?? '', /rebalance-started: <u>member<\/u> joined$/);
    // An unknown value breaks the line: the orders lag path has two segments.
    const ordersLag = await page.locator('section.topic').nth(1).locator('path.series.lag').first().getAttribute('d');
    assert.equal(ordersLag?.match(/M/g)?.length, 2, ordersLag ?? '');
    // Markers sit on the shared time axis: the same x on every chart, between the first and last sample.
    const xs = await page.locator('line.rebalance-marker').evaluateAll((lines) => lines.map((l) => Number(l.getAttribute('x1'))));
    assert.equal(new Set(xs).size, 2);
    for (const tag of ['img', 'b', 'i', 'u', 'script:not([src])']) {
      assert.equal(await page.locator(tag).count(), 0, `no <${tag}> from the data`);
    }
    assert.equal(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss), undefined);
    assert.equal(await page.locator('path.series.lag').first().evaluate((p) => getComputedStyle(p).stroke), 'rgb(55, 148, 255)', 'lag uses --vscode-charts-blue');
    assert.equal(await page.locator('#empty').isVisible(), false);
    mkdirSync(join(ROOT, 'test', 'artifacts'), { recursive: true });
    await page.screenshot({ path: join(ROOT, 'test', 'artifacts', 'group-dashboard.png'), fullPage: true });
  });

  it('reports a malformed message to the panel and draws nothing of it', async () => {
    const before = (await posted()).length;
    await page.evaluate(() => window.postMessage({ type: 'snapshot', snapshot: { groupId: 'half', times: [1], topics: [{ topic: 'x', lag: 'lots' }], rebalances: [] } }, '*'));
    await eventually('the report', async () => (await posted()).slice(before), (messages) => messages.length > 0);
    assert.deepEqual((await posted()).slice(before), [{ type: 'reportError', message: 'ignored a malformed message from the extension' }]);
    assert.equal(await page.locator('#title').textContent(), `Dashboard of ${HOSTILE}`);
    assert.equal(await page.locator('figure.chart').count(), 6);
  });

  it('shows the empty state when no samples are held yet', async () => {
    await send({ type: 'snapshot', snapshot: { groupId: 'fresh', cluster: 'Local', times: [], topics: [], rebalances: [] } });
    await textBecomes(page.locator('#title'), 'Dashboard of fresh');
    await countBecomes(page.locator('figure.chart'), (n) => n === 0, 'no charts');
    assert.equal(await page.locator('#empty').isVisible(), true);
  });

  it('ran without page errors or CSP violations', () => {
    assert.deepEqual(problems, []);
  });
});
