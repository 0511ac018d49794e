// `npm start`: opens VS Code with the extension and its live simulator.
// With a desktop `code` on the PATH it launches that with --extensionDevelopmentPath; otherwise (or with
// `npm start -- --browser`) it serves the real VS Code workbench through code-server on 127.0.0.1 and
// stays in the foreground until Ctrl-C.
const { spawnSync } = require('child_process');
const { buildAndPackage } = require('./workbench/build');
const { ensureCodeServer } = require('./workbench/install');
const { repoRoot, vsixPath, vscodeVersion } = require('./workbench/paths');
const { startWorkbench, isPortFree, parsePort, logTail, host } = require('./workbench/server');

const defaultPort = 8080;

function log(message) {
  console.log(`[start] ${message}`);
}

function hasDesktopCode() {
  const result = spawnSync('code', ['--version'], { encoding: 'utf8', timeout: 30_000 });
  return !result.error && result.status === 0;
}

function runDesktop() {
  log('desktop VS Code found: building and launching it with the extension under development');
  const build = spawnSync(process.execPath, ['esbuild.js'], { cwd: repoRoot, stdio: 'inherit' });
  if (build.status !== 0) {
    throw new Error('the esbuild bundle failed');
  }
  const launch = spawnSync('code', [`--extensionDevelopmentPath=${repoRoot}`, repoRoot], { stdio: 'inherit' });
  if (launch.status !== 0) {
    throw new Error(`\`code --extensionDevelopmentPath\` exited with ${launch.status ?? launch.signal}`);
  }
}

/** PORT from the environment must be usable as given; the default falls back to any free port. */
async function choosePort() {
  if (process.env.PORT) {
    const port = parsePort(process.env.PORT, 'PORT');
    if (!(await isPortFree(port))) {
      throw new Error(`PORT ${port} on ${host} is already in use`);
    }
    return port;
  }
  if (await isPortFree(defaultPort)) {
    return defaultPort;
  }
  log(`port ${defaultPort} is taken; using a free one`);
  return undefined;
}

async function runBrowser() {
  const port = await choosePort();
  buildAndPackage();
  ensureCodeServer();
  const workbench = await startWorkbench({ vsixPath, folder: repoRoot, port });

  let stopping = false;
  const shutdown = async (signal) => {
    if (stopping) {
      return;
    }
    stopping = true;
    log(`${signal}: stopping the workbench`);
    await workbench.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  console.log('');
  console.log(`  Kafka Group Lens is running in VS Code ${vscodeVersion} (code-server) with the simulator on.`);
  console.log(`  Open: ${workbench.workspaceUrl}`);
  console.log(`  (bound to ${host} only; server log: ${workbench.profile.logFile})`);
  console.log('  Press Ctrl-C to stop.');
  console.log('');

  const { code, signal } = await workbench.exited;
  if (!stopping) {
    const lastLines = logTail(workbench.profile.logFile);
    await workbench.stop();
    throw new Error(`code-server stopped unexpectedly (${code ?? signal}); its log ended with:\n${lastLines}`);
  }
}

async function main() {
  if (!process.argv.includes('--browser') && hasDesktopCode()) {
    runDesktop();
    return;
  }
  await runBrowser();
}

main().catch((error) => {
  console.error(`[start] ERROR: ${error.message}`);
  process.exit(1);
});
