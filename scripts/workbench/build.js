// Builds the extension bundles and packages them as dist/kafka-group-lens.vsix.
const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const { repoRoot, vsixPath } = require('./paths');

function log(message) {
  console.log(`[workbench:build] ${message}`);
}

function run(step, args) {
  const result = spawnSync(process.execPath, args, { cwd: repoRoot, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.error || result.status !== 0) {
    throw new Error(`${step} failed (exit ${result.status ?? result.signal}): node ${args.join(' ')}`);
  }
}

/** Bundles with esbuild and packages with vsce; returns the .vsix path. */
function buildAndPackage() {
  for (const required of [path.join('src', 'extension.ts'), '.vscodeignore']) {
    if (!fs.existsSync(path.join(repoRoot, required))) {
      throw new Error(`${required} is missing: without it there is no extension to package (or vsce would pack the whole tree)`);
    }
  }
  const started = Date.now();
  log('bundling: node esbuild.js');
  run('esbuild', ['esbuild.js']);
  log(`packaging: vsce package -> ${path.relative(repoRoot, vsixPath)}`);
  const vsce = require.resolve('@vscode/vsce/vsce', { paths: [repoRoot] });
  // --skip-license: a missing LICENSE must not stop a local build at vsce's interactive prompt.
  // --no-rewrite-relative-links: the README's relative links need no public base URL in a local package.
  run('vsce package', [vsce, 'package', '--no-dependencies', '--skip-license', '--no-rewrite-relative-links', '--out', vsixPath]);
  log(`built and packaged in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return vsixPath;
}

module.exports = { buildAndPackage };

if (require.main === module) {
  try {
    buildAndPackage();
  } catch (error) {
    console.error(`[workbench:build] ERROR: ${error.message}`);
    process.exit(1);
  }
}
