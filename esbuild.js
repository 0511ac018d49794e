// Builds one bundle for the extension host and one for each webview page.
const esbuild = require('esbuild');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** Prints errors in the form VS Code's $esbuild-watch problem matcher reads. */
const problemMatcher = {
  name: 'problem-matcher',
  setup(build) {
    build.onStart(() => console.log('[watch] build started'));
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) {
          console.error(`    ${location.file}:${location.line}:${location.column}:`);
        }
      }
      console.log('[watch] build finished');
    });
  },
};

const common = { bundle: true, minify: production, sourcemap: !production, logLevel: 'silent', plugins: [problemMatcher] };

/** One browser bundle per webview page: its entry and the file its panel loads with asWebviewUri. */
const webviewPages = [
  { entry: 'src/webview/app/main.ts', outfile: 'dist/webview/main.js' },
  { entry: 'src/reset/page/main.ts', outfile: 'dist/webview/resetPreview.js' },
  // Its stylesheet, imported by the page, comes out beside it as dist/webview/dashboard.css.
  { entry: 'src/dashboard/page/main.ts', outfile: 'dist/webview/dashboard.js' },
];

const targets = [
  { ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'] },
  ...webviewPages.map(({ entry, outfile }) => ({ ...common, entryPoints: [entry], outfile, platform: 'browser', format: 'iife', target: 'es2022' })),
];

async function main() {
  const contexts = await Promise.all(targets.map((t) => esbuild.context(t)));
  if (watch) {
    await Promise.all(contexts.map((c) => c.watch()));
    return;
  }
  try {
    for (const c of contexts) {
      const result = await c.rebuild();
      if (result.errors.length) {
        process.exitCode = 1;
      }
    }
  } finally {
    await Promise.all(contexts.map((c) => c.dispose()));
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
