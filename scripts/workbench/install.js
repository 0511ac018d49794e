// Installs code-server (VS Code 1.100.3 served to a browser) into .cache/code-server.
// code-server's own postinstall cannot run here (it downloads ripgrep and refuses to run as root
// without unsafe-perm), so this does its steps by hand, as /work/shared/recipes/vscode-workbench.md says.
// Idempotent: a marker file holding the version is written only when every step has succeeded.
const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const { ensureDebianPackages } = require('../debianPackages');
const { cacheDir, codeServerVersion, codeServerBin, vscodeDir, installMarker } = require('./paths');

/** What building code-server's VS Code needs: Kerberos headers for its native module, and `rg`. */
const buildPackages = ['libkrb5-dev', 'ripgrep'];

function log(message) {
  console.log(`[workbench:install] ${message}`);
}

/** Runs a command with inherited output; throws an error naming the step when it fails. */
function run(step, command, args, options = {}) {
  log(`${step}: ${command} ${args.join(' ')}${options.cwd ? `  (in ${options.cwd})` : ''}`);
  const result = spawnSync(command, args, { stdio: 'inherit', ...options, env: { ...process.env, ...options.env } });
  if (result.error) {
    throw new Error(`${step} could not start ${command}: ${result.error.message}`);
  }
  if (result.status !== 0) {
    throw new Error(`${step} failed: \`${command} ${args.join(' ')}\` exited with ${result.status ?? result.signal}`);
  }
}

/** Node's own headers let node-gyp build offline instead of downloading them. */
function nodeGypEnv() {
  const prefix = path.resolve(path.dirname(process.execPath), '..');
  if (!fs.existsSync(path.join(prefix, 'include', 'node', 'node.h'))) {
    throw new Error(`Node headers not found under ${prefix}/include/node; node-gyp would need to download them, which this machine cannot`);
  }
  return { npm_config_nodedir: prefix };
}

function nodeGypScript() {
  const candidates = [
    path.resolve(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
    path.resolve(path.dirname(fs.realpathSync(process.execPath)), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
  ];
  const found = candidates.find((candidate) => fs.existsSync(candidate));
  if (!found) {
    throw new Error(`node-gyp not found next to npm (looked in ${candidates.join(', ')})`);
  }
  return found;
}

/** Folders under node_modules holding a binding.gyp, i.e. the native modules VS Code needs built. */
function findNativeModules(nodeModulesDir) {
  const folders = [];
  for (const entry of fs.readdirSync(nodeModulesDir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) {
      continue;
    }
    const packageDirs = entry.name.startsWith('@')
      ? fs.readdirSync(path.join(nodeModulesDir, entry.name)).map((name) => path.join(nodeModulesDir, entry.name, name))
      : [path.join(nodeModulesDir, entry.name)];
    for (const dir of packageDirs) {
      if (fs.existsSync(path.join(dir, 'binding.gyp'))) {
        folders.push(dir);
      }
    }
  }
  return folders;
}

function installCodeServerPackage() {
  fs.mkdirSync(cacheDir, { recursive: true });
  // Without its own package.json npm would walk up and install into the repository's node_modules.
  const manifest = path.join(cacheDir, 'package.json');
  if (!fs.existsSync(manifest)) {
    fs.writeFileSync(manifest, JSON.stringify({ name: 'code-server-cache', private: true }, null, 2) + '\n');
  }
  run('code-server package', 'npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', `code-server@${codeServerVersion}`], { cwd: cacheDir });
}

function buildVsCodeDependencies(gypEnv) {
  run('argon2', 'npm', ['rebuild', 'argon2'], { cwd: cacheDir, env: gypEnv });
  run('VS Code dependencies', 'npm', ['install', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: vscodeDir });

  const rgTarget = path.join(vscodeDir, 'node_modules', '@vscode', 'ripgrep', 'bin', 'rg');
  log(`ripgrep: copying /usr/bin/rg to ${rgTarget}`);
  fs.mkdirSync(path.dirname(rgTarget), { recursive: true });
  fs.copyFileSync('/usr/bin/rg', rgTarget);
  fs.chmodSync(rgTarget, 0o755);

  const gyp = nodeGypScript();
  for (const dir of findNativeModules(path.join(vscodeDir, 'node_modules'))) {
    run(`native module ${path.relative(vscodeDir, dir)}`, process.execPath, [gyp, 'rebuild'], { cwd: dir, env: gypEnv });
  }

  const asarLink = path.join(vscodeDir, 'node_modules.asar');
  log('linking node_modules.asar -> node_modules');
  fs.rmSync(asarLink, { force: true, recursive: false });
  fs.symlinkSync('node_modules', asarLink);

  run('built-in extensions', 'npm', ['install', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: path.join(vscodeDir, 'extensions') });
}

function isInstalled() {
  return fs.existsSync(installMarker) && fs.readFileSync(installMarker, 'utf8').trim() === codeServerVersion && fs.existsSync(codeServerBin);
}

/** Makes sure code-server is installed; returns quickly when the marker says it already is. */
function ensureCodeServer() {
  if (isInstalled()) {
    log(`code-server ${codeServerVersion} already installed in ${cacheDir}`);
    return;
  }
  const started = Date.now();
  ensureDebianPackages('workbench:install', buildPackages);
  const gypEnv = nodeGypEnv();
  fs.rmSync(installMarker, { force: true });
  installCodeServerPackage();
  if (!fs.existsSync(codeServerBin)) {
    throw new Error(`code-server was installed but ${codeServerBin} is missing; the package layout changed`);
  }
  buildVsCodeDependencies(gypEnv);
  fs.writeFileSync(installMarker, codeServerVersion + '\n');
  log(`code-server ${codeServerVersion} installed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

module.exports = { ensureCodeServer, isInstalled };

if (require.main === module) {
  try {
    ensureCodeServer();
  } catch (error) {
    console.error(`[workbench:install] ERROR: ${error.message}`);
    process.exit(1);
  }
}
