// Makes sure of the Debian packages a test command runs with, so that every command works on a machine
// that never ran another one before it. As root the missing ones are installed with apt-get (the CI
// machine); otherwise the command stops at once and prints the exact line to run, rather than failing
// minutes later inside a test.
// Usage from npm scripts: node scripts/debianPackages.js --for <command> <package>...
'use strict';

const { spawnSync } = require('child_process');
const fs = require('fs');

/**
 * What each package gives the tests, and how to tell it is usable where dpkg is not the package manager
 * (a developer's macOS or Fedora machine): a file that must exist, or a command that must run.
 */
const packages = {
  chromium: { why: 'headless Chromium for the webview and workbench tests', file: '/usr/bin/chromium' },
  kcat: { why: 'the librdkafka client driven against the simulator\'s server', command: ['kcat', '-V'] },
  ripgrep: { why: 'the `rg` binary code-server\'s VS Code searches with', file: '/usr/bin/rg' },
  'libkrb5-dev': { why: 'the Kerberos headers code-server\'s native `kerberos` module builds against', file: '/usr/include/gssapi/gssapi.h' },
};

function isRoot() {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/** Whether dpkg is the package manager here; probed once, since every package's check asks. */
let dpkgPresent;
function hasDpkg() {
  if (dpkgPresent === undefined) {
    const probe = spawnSync('dpkg-query', ['--version'], { stdio: 'ignore' });
    dpkgPresent = !probe.error && probe.status === 0;
  }
  return dpkgPresent;
}

function isDpkgInstalled(name) {
  const result = spawnSync('dpkg-query', ['-W', '-f=${Status}', name], { encoding: 'utf8' });
  return result.status === 0 && result.stdout.includes('install ok installed');
}

/** Whether what the package provides is usable, whoever installed it. */
function providesWhatIsNeeded(name) {
  const { file, command } = packages[name];
  if (file) {
    return fs.existsSync(file);
  }
  const probe = spawnSync(command[0], command.slice(1), { stdio: 'ignore' });
  return !probe.error && probe.status === 0;
}

function isPresent(name) {
  return hasDpkg() ? isDpkgInstalled(name) && providesWhatIsNeeded(name) : providesWhatIsNeeded(name);
}

function aptGet(args) {
  const result = spawnSync('apt-get', ['-o', 'DPkg::Lock::Timeout=600', ...args], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (result.error || result.status !== 0) {
    throw new Error(`\`apt-get ${args.join(' ')}\` failed (${result.error ? result.error.message : `exit ${result.status ?? result.signal}`})`);
  }
}

/**
 * Installs (as root) or demands (otherwise) the named packages; throws an Error whose message says
 * exactly what to run. `forCommand` names the npm command in the messages.
 */
function ensureDebianPackages(forCommand, names) {
  for (const name of names) {
    if (!packages[name]) {
      throw new Error(`${forCommand}: unknown package ${name}; known: ${Object.keys(packages).join(', ')}`);
    }
  }
  const missing = names.filter((name) => !isPresent(name));
  if (missing.length === 0) {
    return;
  }
  const installLine = `apt-get update && apt-get install -y ${missing.join(' ')}`;
  const reasons = missing.map((name) => `  ${name}: ${packages[name].why}`).join('\n');
  if (!isRoot() || !hasDpkg()) {
    throw new Error(`${forCommand} needs Debian packages that are missing:\n${reasons}\nInstall them as root and run again:\n  sudo sh -c '${installLine}'`);
  }
  console.log(`[${forCommand}] installing missing Debian packages: ${missing.join(', ')}`);
  aptGet(['update']);
  aptGet(['install', '-y', ...missing]);
  const stillMissing = missing.filter((name) => !isPresent(name));
  if (stillMissing.length > 0) {
    throw new Error(`${forCommand}: apt-get installed ${stillMissing.join(', ')} but ${stillMissing.map((name) => packages[name].file ?? packages[name].command.join(' ')).join(', ')} is still not usable`);
  }
}

module.exports = { ensureDebianPackages };

if (require.main === module) {
  const args = process.argv.slice(2);
  const forIndex = args.indexOf('--for');
  const forCommand = forIndex >= 0 ? args[forIndex + 1] : 'debianPackages';
  const names = args.filter((_, index) => forIndex < 0 || (index !== forIndex && index !== forIndex + 1));
  try {
    ensureDebianPackages(forCommand, names);
  } catch (error) {
    console.error(`[${forCommand}] ERROR: ${error.message}`);
    process.exit(1);
  }
}
