/**
 * What every workbench test file does around its tests: a headless Chromium on the code-server the runner
 * started (scripts/workbench/run-browser-tests.js passes its address), and a screenshot of each failed test.
 */
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { chromium, type Browser } from 'playwright-core';
import { WorkbenchDriver } from './workbenchDriver';

export interface WorkbenchSession {
  browser: Browser;
  driver: WorkbenchDriver;
}

/** Opens the workbench of KGL_WORKBENCH_URL in a new Chromium page. */
export async function openWorkbench(artifactsDir: string): Promise<WorkbenchSession> {
  const url = process.env.KGL_WORKBENCH_URL;
  assert.ok(url, 'KGL_WORKBENCH_URL is not set: run these tests through `node scripts/workbench/run-browser-tests.js`');
  const args = JSON.parse(process.env.KGL_CHROMIUM_ARGS ?? '[]') as string[];
  const browser = await chromium.launch({ executablePath: process.env.KGL_CHROMIUM ?? '/usr/bin/chromium', args });
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  const driver = new WorkbenchDriver(page, artifactsDir);
  await driver.open(url);
  return { browser, driver };
}

/** For an afterEach hook: a screenshot named after the failed test, `<prefix><title>.png`; true when the test failed. */
export async function screenshotIfFailed(test: Mocha.Test | undefined, driver: WorkbenchDriver | undefined, prefix: string): Promise<boolean> {
  if (test?.state !== 'failed' || !driver) {
    return false;
  }
  const slug = test.title.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
  await driver.screenshot(`${prefix}${slug}.png`).catch(() => undefined);
  return true;
}

/**
 * The profile's machine settings: kafkaGroupLens.clusters is machine-scoped, and in code-server's remote window
 * VS Code reads such a setting from the remote (Machine) settings.json only.
 */
export function machineSettingsFile(): string {
  const userDataDir = process.env.KGL_WORKBENCH_USER_DATA_DIR;
  assert.ok(userDataDir, 'KGL_WORKBENCH_USER_DATA_DIR is not set: run these tests through `node scripts/workbench/run-browser-tests.js`');
  return path.join(userDataDir, 'Machine', 'settings.json');
}

/** Puts back what the settings file held before a test changed it (undefined: there was none). */
export function restoreSettings(file: string, before: string | undefined): void {
  if (before === undefined) {
    fs.rmSync(file, { force: true });
  } else {
    fs.writeFileSync(file, before);
  }
}
