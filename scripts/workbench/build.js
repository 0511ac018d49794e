// Builds the production extension bundles and packages them as dist/kafka-group-lens.vsix, as `npm run package` does.
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

/**
 * Bundles with esbuild and packages with vsce; returns the .vsix path. `production: false` packages the
 * development bundle instead (unminified, with source maps), for `npm run bench -- activation` to compare.
 */
function buildAndPackage({ production = true, out = vsixPath } = {}) {
  for (const required of [path.join('src', 'extension.ts'), '.vscodeignore']) {
    if (!fs.existsSync(path.join(repoRoot, required))) {
      throw new Error(`${required} is missing: without it there is no extension to package (or vsce would pack the whole tree)`);
    }
  }
  const started = Date.now();
  // The production bundle (minified, no source maps): what `npm run package` ships, so what `npm start` and
  // the workbench tests install is what a Marketplace user gets.
  const esbuildArgs = production ? ['esbuild.js', '--production'] : ['esbuild.js'];
  log(`bundling: node ${esbuildArgs.join(' ')}`);
  run('esbuild', esbuildArgs);
  log(`packaging: vsce package -> ${path.relative(repoRoot, out)}`);
  const vsce = require.resolve('@vscode/vsce/vsce', { paths: [repoRoot] });
  // --allow-missing-repository: the project has no public repository yet, and a placeholder URL would be worse.
  // --no-rewrite-relative-links: with no repository there is no base URL; the README's images ship in the .vsix.
  run('vsce package', [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links', '--out', out]);
  log(`built and packaged in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return out;
}

/** The workbench tests' stand-in for a language model (test/vscode/scriptedAgent), packaged beside the extension. */
const scriptedAgentDir = path.join(repoRoot, 'test', 'vscode', 'scriptedAgent');
const scriptedAgentVsix = path.join(repoRoot, 'dist', 'kgl-scripted-agent.vsix');
/** Its id, for code-server's --enable-proposed-api (it uses the proposed chat participant and model APIs). */
const scriptedAgentId = 'kgl-test.kgl-scripted-agent';

function packageScriptedAgent() {
  const vsce = require.resolve('@vscode/vsce/vsce', { paths: [repoRoot] });
  const result = spawnSync(process.execPath, [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', scriptedAgentVsix], {
    cwd: scriptedAgentDir,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (result.status !== 0) {
    throw new Error(`packaging the scripted agent failed (exit ${result.status ?? result.signal})`);
  }
  return scriptedAgentVsix;
}

module.exports = { buildAndPackage, packageScriptedAgent, scriptedAgentId };

if (require.main === module) {
  try {
    buildAndPackage();
  } catch (error) {
    console.error(`[workbench:build] ERROR: ${error.message}`);
    process.exit(1);
  }
}
