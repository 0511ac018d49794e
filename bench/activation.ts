/**
 * `npm run bench -- activation`: the extension's activation time as a user reads it in Developer: Show
 * Running Extensions, for the production bundle that `npm run package` ships against the development
 * bundle (unminified, source maps) it replaced. Rounds alternate the two on fresh code-server profiles, so
 * the machine's load falls on both alike; each round opens the Consumer Groups view, which activates it.
 * Needs code-server (`npm run workbench:install`) and Debian's Chromium. KGL_BENCH_ROUNDS sets the rounds (3).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { chromium } from 'playwright-core';
import { WorkbenchDriver } from '../test/vscode/workbench/workbenchDriver';
import { readManifest } from '../test/vscode/contributions';

/* eslint-disable @typescript-eslint/no-require-imports -- the workbench scripts are CommonJS without types */
const { buildAndPackage } = require('../scripts/workbench/build') as { buildAndPackage(options: { production: boolean; out: string }): string };
const { ensureCodeServer } = require('../scripts/workbench/install') as { ensureCodeServer(): void };
const { startWorkbench } = require('../scripts/workbench/server') as {
  startWorkbench(options: { vsixPath: string }): Promise<{ workspaceUrl: string; stop(): Promise<void> }>;
};
const { chromiumPath, chromiumArgs } = require('../scripts/workbench/paths') as { chromiumPath: string; chromiumArgs: string[] };
/* eslint-enable @typescript-eslint/no-require-imports */

type Bundle = 'development' | 'production';

const rounds = Number(process.env.KGL_BENCH_ROUNDS ?? 3);
const manifest = readManifest() as ReturnType<typeof readManifest> & { displayName?: string; contributes?: { viewsContainers?: { activitybar?: { title: string }[] } } };
const containerTitle = manifest.contributes?.viewsContainers?.activitybar?.[0]?.title ?? 'Kafka Group Lens';

async function activationOnce(vsixPath: string): Promise<number> {
  const workbench = await startWorkbench({ vsixPath });
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  try {
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    const driver = new WorkbenchDriver(page, os.tmpdir());
    await driver.open(workbench.workspaceUrl);
    await driver.openViewContainer(containerTitle);
    return (await driver.activationTime(manifest.displayName ?? manifest.name, 60_000)).activationMs;
  } finally {
    await browser.close();
    await workbench.stop();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

async function main(): Promise<void> {
  if (!Number.isInteger(rounds) || rounds < 1) {
    throw new Error(`KGL_BENCH_ROUNDS must be a whole number of at least 1, not ${process.env.KGL_BENCH_ROUNDS}`);
  }
  ensureCodeServer();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kgl-activation-'));
  const vsix: Record<Bundle, string> = {
    development: buildAndPackage({ production: false, out: path.join(dir, 'development.vsix') }),
    // Built last, so dist/ is left holding the production bundle `npm run package` ships.
    production: buildAndPackage({ production: true, out: path.join(dir, 'production.vsix') }),
  };
  const sizeKb = (bundle: Bundle) => Math.round(fs.statSync(vsix[bundle]).size / 1024);
  const sizes: Record<Bundle, number> = { development: sizeKb('development'), production: sizeKb('production') };
  const times: Record<Bundle, number[]> = { development: [], production: [] };
  try {
    for (let round = 0; round < rounds; round++) {
      // Alternate which goes first, so a round's warm-up favours neither.
      const order: Bundle[] = round % 2 ? ['production', 'development'] : ['development', 'production'];
      for (const bundle of order) {
        times[bundle].push(await activationOnce(vsix[bundle]));
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  console.log(`activation (Show Running Extensions), ${rounds} rounds on ${os.cpus().length} CPUs, load ${os.loadavg()[0].toFixed(1)}:`);
  for (const bundle of ['development', 'production'] as const) {
    console.log(`  ${bundle.padEnd(12)} ${String(sizes[bundle]).padStart(5)} KB .vsix   median ${String(median(times[bundle])).padStart(5)} ms   runs ${times[bundle].join(', ')} ms`);
  }
  console.log(`  production / development: ${(median(times.production) / median(times.development)).toFixed(2)}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
