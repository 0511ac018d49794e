/**
 * Bundles a webview page in memory the way esbuild.js does for dist/webview/ (browser, iife, es2022), so the
 * browser tests and the benchmark run the page's real code without a build step.
 */
import * as esbuild from 'esbuild';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');

/** `entry` relative to the repository root, e.g. src/reset/page/main.ts. */
export async function bundlePage(entry: string): Promise<string> {
  const result = await esbuild.build({
    entryPoints: [join(ROOT, entry)],
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    logLevel: 'silent',
  });
  return result.outputFiles[0].text;
}
