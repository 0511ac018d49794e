/**
 * Runs the timeline webview outside VS Code for the browser test and the benchmark: bundles
 * src/webview/app/main.ts as esbuild.js does (bundle.ts), serves it with media/timeline.css from a loopback
 * HTTP server inside a page that fakes `acquireVsCodeApi` and sets VS Code's dark theme
 * variables, and opens it in headless Debian chromium through playwright-core.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { HostToWebviewMessage, WebviewToHostMessage } from '../../src/webview/timelineProtocol';
import { bundlePage, ROOT } from './bundle';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/** A representative subset of VS Code's "Dark Modern" theme, as the workbench sets it on the webview's <html>. */
const DARK_THEME: Record<string, string> = {
  '--vscode-font-family': 'system-ui, "Segoe UI", Ubuntu, "Droid Sans", sans-serif',
  '--vscode-font-size': '13px',
  '--vscode-editor-background': '#1f1f1f',
  '--vscode-foreground': '#cccccc',
  '--vscode-descriptionForeground': '#9d9d9d',
  '--vscode-panel-border': '#2b2b2b',
  '--vscode-widget-border': '#313131',
  '--vscode-sideBar-background': '#181818',
  '--vscode-list-hoverBackground': '#2a2d2e',
  '--vscode-focusBorder': '#0078d4',
  '--vscode-button-background': '#0078d4',
  '--vscode-button-foreground': '#ffffff',
  '--vscode-button-hoverBackground': '#026ec1',
  '--vscode-button-secondaryBackground': '#313131',
  '--vscode-button-secondaryForeground': '#cccccc',
  '--vscode-button-secondaryHoverBackground': '#3c3c3c',
  '--vscode-button-border': '#ffffff12',
  '--vscode-badge-background': '#616161',
  '--vscode-badge-foreground': '#f8f8f8',
  '--vscode-textLink-foreground': '#4daafc',
  '--vscode-textLink-activeForeground': '#4daafc',
  '--vscode-charts-red': '#f14c4c',
  '--vscode-charts-orange': '#d18616',
  '--vscode-charts-yellow': '#cca700',
  '--vscode-charts-green': '#89d185',
  '--vscode-charts-blue': '#3794ff',
  '--vscode-charts-purple': '#b180d7',
  '--vscode-inputValidation-errorBackground': '#5a1d1d',
  '--vscode-inputValidation-errorBorder': '#be1100',
};

/** VS Code's "Light Modern" values for the same variables. */
const LIGHT_THEME: Record<string, string> = {
  ...DARK_THEME,
  '--vscode-editor-background': '#ffffff',
  '--vscode-foreground': '#3b3b3b',
  '--vscode-descriptionForeground': '#3b3b3b',
  '--vscode-panel-border': '#e5e5e5',
  '--vscode-widget-border': '#e5e5e5',
  '--vscode-sideBar-background': '#f8f8f8',
  '--vscode-list-hoverBackground': '#f2f2f2',
  '--vscode-focusBorder': '#005fb8',
  '--vscode-button-background': '#005fb8',
  '--vscode-button-hoverBackground': '#0258a8',
  '--vscode-button-secondaryBackground': '#e5e5e5',
  '--vscode-button-secondaryForeground': '#3b3b3b',
  '--vscode-button-secondaryHoverBackground': '#cccccc',
  '--vscode-badge-background': '#cccccc',
  '--vscode-badge-foreground': '#3b3b3b',
  '--vscode-textLink-foreground': '#005fb8',
  '--vscode-textLink-activeForeground': '#005fb8',
  '--vscode-charts-red': '#e51400',
  '--vscode-charts-orange': '#d18616',
  '--vscode-charts-yellow': '#bf8803',
  '--vscode-charts-green': '#388a34',
  '--vscode-charts-blue': '#1a85ff',
  '--vscode-charts-purple': '#652d90',
};

/** VS Code's "Dark High Contrast" values: black, white, and an orange contrast border. */
const HIGH_CONTRAST_THEME: Record<string, string> = {
  ...DARK_THEME,
  '--vscode-editor-background': '#000000',
  '--vscode-foreground': '#ffffff',
  '--vscode-descriptionForeground': '#ffffff',
  '--vscode-panel-border': '#6fc3df',
  '--vscode-sideBar-background': '#000000',
  '--vscode-list-hoverBackground': '#000000',
  '--vscode-focusBorder': '#f38518',
  '--vscode-contrastBorder': '#6fc3df',
  '--vscode-button-background': '#000000',
  '--vscode-button-border': '#6fc3df',
  '--vscode-button-secondaryBackground': '#000000',
  '--vscode-button-secondaryForeground': '#ffffff',
  '--vscode-badge-background': '#000000',
  '--vscode-badge-foreground': '#ffffff',
};

export const THEMES = { dark: ['vscode-dark', DARK_THEME], light: ['vscode-light', LIGHT_THEME], highContrast: ['vscode-high-contrast', HIGH_CONTRAST_THEME] } as const;

/** Switches the page's theme the way the workbench does: variables on <html>, a class on <body>. */
export async function applyTheme(page: Page, theme: keyof typeof THEMES): Promise<void> {
  const [bodyClass, vars] = THEMES[theme];
  await page.evaluate(
    ([cls, values]) => {
      for (const [name, value] of Object.entries(values)) {
        document.documentElement.style.setProperty(name, value);
      }
      document.body.className = cls;
    },
    [bodyClass, vars] as const,
  );
}

export interface TimelineHarness {
  browser: Browser;
  page: Page;
  /** Posts a host message into the page the way VS Code does (window message event). */
  send(message: HostToWebviewMessage): Promise<void>;
  /** Messages the page posted through the fake acquireVsCodeApi. */
  posted(): Promise<WebviewToHostMessage[]>;
  close(): Promise<void>;
}

function pageHtml(): string {
  const vars = Object.entries(DARK_THEME)
    .map(([name, value]) => `${name}: ${value};`)
    .join(' ');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8">
<link rel="stylesheet" href="/timeline.css">
<style>:root { ${vars} }</style>
<title>timeline test page</title></head>
<body class="vscode-dark">
<div id="app" class="kgl-app" aria-busy="true"></div>
<script>
  window.__posted = [];
  window.acquireVsCodeApi = () => ({
    postMessage: (m) => window.__posted.push(m),
    getState: () => window.__state,
    setState: (s) => { window.__state = s; },
  });
</script>
<script src="/main.js"></script>
</body></html>`;
}

async function serve(script: string): Promise<{ server: Server; url: string }> {
  const css = readFileSync(join(ROOT, 'media', 'timeline.css'), 'utf8');
  const files: Record<string, [string, string]> = {
    '/': ['text/html', pageHtml()],
    '/main.js': ['text/javascript', script],
    '/timeline.css': ['text/css', css],
  };
  const server = createServer((request, response) => {
    const file = files[request.url ?? ''];
    if (!file) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': `${file[0]}; charset=utf-8` }).end(file[1]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}

export async function openTimeline(viewport = { width: 1280, height: 720 }): Promise<TimelineHarness> {
  const script = await bundlePage('src/webview/app/main.ts');
  const { server, url } = await serve(script);
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = await browser.newPage({ viewport });
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(url);
  await page.waitForFunction(() => (window as unknown as { __posted: unknown[] }).__posted.length > 0);
  return {
    browser,
    page,
    send: async (message) => {
      await page.evaluate((m) => window.postMessage(m, '*'), message);
    },
    posted: () => page.evaluate(() => (window as unknown as { __posted: WebviewToHostMessage[] }).__posted),
    close: async () => {
      await browser.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (pageErrors.length > 0) {
        throw new Error(`page errors: ${pageErrors.join('; ')}`);
      }
    },
  };
}
