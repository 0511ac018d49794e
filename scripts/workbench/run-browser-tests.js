// Runs test/vscode/**/*.browser.test.ts against a real VS Code workbench: builds and packages the extension,
// makes sure code-server is installed, starts it with the .vsix, runs mocha, and stops the server whatever
// the outcome. Exit code: mocha's (non-zero on any failure), or 1 when the setup itself fails.
// KGL_WORKBENCH_TESTS=<glob> runs only the matching files (e.g. test/vscode/workbenchKafka.browser.test.ts).
// --doc-images (`npm run docs:images`): the tests also save the README's and the walkthrough's pictures into media/.
const { spawn } = require('child_process');
const fs = require('fs');
const path = require('path');
const { buildAndPackage, packageScriptedAgent, scriptedAgentId } = require('./build');
const { ensureCodeServer } = require('./install');
const { ensureDebianPackages } = require('../debianPackages');
const { repoRoot, vsixPath, artifactsDir, chromiumPath, chromiumArgs } = require('./paths');
const { startWorkbench, logTail } = require('./server');

function log(message) {
  console.log(`[workbench:test] ${message}`);
}

const defaultTests = 'test/vscode/**/*.browser.test.ts';
/** The Kafka release the tests that start a real broker (workbenchKafka) run against. */
const workbenchKafkaVersion = '4.4.0';

function runMocha(env) {
  const mocha = require.resolve('mocha/bin/mocha.js', { paths: [repoRoot] });
  const args = [mocha, '--no-config', '--require', 'tsx/cjs', '--extension', 'ts', '--timeout', '180000', '--forbid-pending', process.env.KGL_WORKBENCH_TESTS || defaultTests];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: repoRoot, stdio: 'inherit', env: { ...process.env, ...env } });
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function main() {
  const started = Date.now();
  // Chromium drives the workbench; code-server's build packages are ensured by ensureCodeServer.
  ensureDebianPackages('test:workbench', ['chromium']);
  buildAndPackage();
  const scriptedAgentVsix = packageScriptedAgent();
  ensureCodeServer();
  fs.mkdirSync(artifactsDir, { recursive: true });
  // Failure pictures of an earlier run would pass for this run's.
  for (const stale of fs.readdirSync(artifactsDir).filter((name) => /^failure-.*\.png$/.test(name))) {
    fs.rmSync(path.join(artifactsDir, stale));
  }

  log('starting code-server with the extension installed');
  // The scripted agent stands in for a language model, so a tool's confirmation can be shown in the chat.
  const workbench = await startWorkbench({
    vsixPath,
    extraVsixPaths: [scriptedAgentVsix],
    extraArgs: ['--enable-proposed-api', scriptedAgentId],
    keepProfile: process.env.KGL_KEEP_PROFILE === '1',
  });
  log(`workbench at ${workbench.workspaceUrl}`);
  const stopOnSignal = () => void workbench.stop().then(() => process.exit(130));
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);

  let exitCode;
  try {
    exitCode = await runMocha({
      KGL_WORKBENCH_URL: workbench.workspaceUrl,
      // Where the profile's settings live, for tests that add a cluster as a person does in settings.json.
      KGL_WORKBENCH_USER_DATA_DIR: workbench.profile.userDataDir,
      KGL_ARTIFACTS_DIR: artifactsDir,
      KGL_CHROMIUM: chromiumPath,
      KGL_CHROMIUM_ARGS: JSON.stringify(chromiumArgs),
      KAFKA_VERSION: workbenchKafkaVersion,
      ...(process.argv.includes('--doc-images') ? { KGL_DOC_IMAGES_DIR: path.join(repoRoot, 'media') } : {}),
    });
    if (exitCode !== 0) {
      log(`tests failed; last lines of the code-server log:\n${logTail(workbench.profile.logFile)}`);
    }
  } finally {
    await workbench.stop();
  }
  log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s; screenshots in ${artifactsDir}`);
  return exitCode;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`[workbench:test] ERROR: ${error.message}`);
    process.exit(1);
  },
);
