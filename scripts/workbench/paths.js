// Where the workbench machinery keeps things; one place so install, server, start and tests agree.
const path = require('path');

const repoRoot = path.resolve(__dirname, '..', '..');
const codeServerVersion = '4.100.3';
/** The VS Code release that code-server version ships. */
const vscodeVersion = '1.100.3';
const cacheDir = path.join(repoRoot, '.cache', 'code-server');
const codeServerPackageDir = path.join(cacheDir, 'node_modules', 'code-server');

module.exports = {
  repoRoot,
  codeServerVersion,
  vscodeVersion,
  cacheDir,
  codeServerPackageDir,
  codeServerBin: path.join(codeServerPackageDir, 'out', 'node', 'entry.js'),
  vscodeDir: path.join(codeServerPackageDir, 'lib', 'vscode'),
  installMarker: path.join(cacheDir, '.install-complete'),
  vsixPath: path.join(repoRoot, 'dist', 'kafka-group-lens.vsix'),
  artifactsDir: path.join(repoRoot, 'test', 'artifacts'),
  chromiumPath: '/usr/bin/chromium',
  /** Debian's Chromium, headless, as root, offline: the flags the recipe found to work. */
  chromiumArgs: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
};
