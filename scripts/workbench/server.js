// Starts a code-server workbench on 127.0.0.1 with a throw-away profile and the extension's .vsix
// installed, and stops it again. Used by `npm start` and by the browser tests.
const { spawn, spawnSync } = require('child_process');
const fs = require('fs');
const http = require('http');
const net = require('net');
const os = require('os');
const path = require('path');
const { setTimeout, clearTimeout } = require('timers');
const { codeServerBin } = require('./paths');
const { isInstalled } = require('./install');

const host = '127.0.0.1';

/** Settings that keep the workbench quiet and offline: no trust prompt, no telemetry, no update checks. */
const baseUserSettings = {
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'chat.commandCenter.enabled': false,
};

/** Resolves with a free loopback port chosen by the OS. */
function findFreePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Resolves true when nothing listens on host:port. */
function isPortFree(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

function parsePort(value, source) {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`${source} must be a port number between 1 and 65535, got "${value}"`);
  }
  return port;
}

function codeServerArgs(profile) {
  return [
    codeServerBin,
    '--config', path.join(profile.root, 'config.yaml'),
    '--user-data-dir', profile.userDataDir,
    '--extensions-dir', profile.extensionsDir,
  ];
}

/** Environment that keeps code-server's own files (config, logs, heartbeat) inside the temp profile. */
function codeServerEnv(profile) {
  const env = { ...process.env, XDG_CONFIG_HOME: path.join(profile.root, 'xdg-config'), XDG_DATA_HOME: path.join(profile.root, 'xdg-data') };
  delete env.PASSWORD; // --auth none; a password in the environment would only confuse the log
  delete env.PORT; // code-server lets $PORT override --bind-addr's port
  env.EXTENSIONS_GALLERY = '{}'; // no marketplace: the workbench never tries to reach open-vsx.org
  return env;
}

function createProfile(settings) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kgl-workbench-'));
  const profile = {
    root,
    userDataDir: path.join(root, 'user-data'),
    extensionsDir: path.join(root, 'extensions'),
    logFile: path.join(root, 'code-server.log'),
  };
  fs.mkdirSync(path.join(profile.userDataDir, 'User'), { recursive: true });
  fs.mkdirSync(profile.extensionsDir, { recursive: true });
  fs.writeFileSync(path.join(profile.userDataDir, 'User', 'settings.json'), JSON.stringify({ ...baseUserSettings, ...settings }, null, 2) + '\n');
  return profile;
}

function installExtension(profile, vsixPath) {
  if (!fs.existsSync(vsixPath)) {
    throw new Error(`extension package ${vsixPath} not found; build it first (npm run package)`);
  }
  const result = spawnSync(process.execPath, [...codeServerArgs(profile), '--install-extension', vsixPath], {
    encoding: 'utf8',
    env: codeServerEnv(profile),
    timeout: 120_000,
  });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim();
  if (result.error || result.status !== 0 || /failed/i.test(output)) {
    throw new Error(`installing ${path.basename(vsixPath)} into code-server failed (exit ${result.status}): ${result.error?.message ?? output}`);
  }
}

/** Resolves once GET /healthz answers 200; rejects after timeoutMs or when the server exits first. */
function waitForHttp(port, child, logFile, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    let exited = false;
    const onExit = (code, signal) => {
      exited = true;
      reject(new Error(`code-server exited (${code ?? signal}) before answering HTTP; log:\n${tail(logFile)}`));
    };
    child.once('exit', onExit);
    const attempt = () => {
      if (exited) {
        return;
      }
      const request = http.get({ host, port, path: '/healthz', timeout: 2000 }, (response) => {
        response.resume();
        if (response.statusCode === 200) {
          child.off('exit', onExit);
          resolve();
        } else {
          retry();
        }
      });
      request.on('timeout', () => request.destroy());
      request.on('error', retry);
    };
    const retry = () => {
      if (exited) {
        return;
      }
      if (Date.now() > deadline) {
        child.off('exit', onExit);
        reject(new Error(`code-server did not answer on http://${host}:${port} within ${timeoutMs / 1000} s; log:\n${tail(logFile)}`));
        return;
      }
      setTimeout(attempt, 250);
    };
    attempt();
  });
}

function tail(file, lines = 30) {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** Sends a signal to the server's whole process group (it spawns the extension host and file watchers). */
function signalGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch (error) {
    if (error.code !== 'ESRCH') {
      throw error;
    }
  }
}

function stopProcess(child, graceMs = 5000) {
  if (child.exitCode !== null || child.signalCode !== null) {
    signalGroup(child, 'SIGKILL'); // children may outlive the main process
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const killTimer = setTimeout(() => signalGroup(child, 'SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(killTimer);
      signalGroup(child, 'SIGKILL');
      resolve();
    });
    signalGroup(child, 'SIGTERM');
  });
}

/**
 * Starts code-server with a fresh profile and the given .vsix installed.
 * options: vsixPath (the extension to install; omit it when the page loads the extension under development),
 * folder (workspace to open), port (else a free one), settings (extra user settings),
 * keepProfile (leave the temp folder for inspection), startTimeoutMs, extraVsixPaths (more extensions to install),
 * extraArgs (more code-server arguments, e.g. --enable-proposed-api <id>).
 * Returns { port, url, folder, workspaceUrl, profile, exited (resolves with { code, signal }), stop() }.
 */
async function startWorkbench(options) {
  if (!isInstalled()) {
    throw new Error('code-server is not installed; run `node scripts/workbench/install.js` first');
  }
  const port = options.port ?? (await findFreePort());
  if (!(await isPortFree(port))) {
    throw new Error(`port ${port} on ${host} is already in use`);
  }
  const profile = createProfile(options.settings ?? {});
  // Without a folder of its own the workbench opens an empty workspace inside the temp profile.
  const folder = path.resolve(options.folder ?? path.join(profile.root, 'workspace'));
  fs.mkdirSync(folder, { recursive: true });
  if (options.vsixPath || options.extraVsixPaths) {
    try {
      for (const vsix of [options.vsixPath, ...(options.extraVsixPaths ?? [])].filter(Boolean)) {
        installExtension(profile, vsix);
      }
    } catch (error) {
      fs.rmSync(profile.root, { recursive: true, force: true });
      throw error;
    }
  }

  const logStream = fs.openSync(profile.logFile, 'a');
  const child = spawn(
    process.execPath,
    [...codeServerArgs(profile), '--auth', 'none', '--bind-addr', `${host}:${port}`, '--disable-telemetry', '--disable-update-check',
      '--disable-workspace-trust', '--disable-getting-started-override', '--ignore-last-opened', ...(options.extraArgs ?? []), folder],
    { detached: true, stdio: ['ignore', logStream, logStream], env: codeServerEnv(profile) },
  );
  fs.closeSync(logStream);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

  let stopped = false;
  const stop = async () => {
    if (stopped) {
      return;
    }
    stopped = true;
    await stopProcess(child);
    if (!options.keepProfile) {
      fs.rmSync(profile.root, { recursive: true, force: true });
    }
  };
  try {
    await waitForHttp(port, child, profile.logFile, options.startTimeoutMs ?? 60_000);
  } catch (error) {
    await stop();
    throw error;
  }
  const url = `http://${host}:${port}/`;
  return { port, url, folder, workspaceUrl: `${url}?folder=${encodeURIComponent(folder)}`, profile, exited, stop };
}

module.exports = { startWorkbench, findFreePort, isPortFree, parsePort, logTail: tail, host };
