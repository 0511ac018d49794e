// Runs a bundled extension-host test suite inside code-server's VS Code, for machines with no desktop VS Code.
// The browser workbench takes extensionDevelopmentPath and extensionTestsPath from its `payload` query
// parameter; the suite then runs in the server's Node extension host, its console reaches the page through
// window.codeAutomationLog, and its result through window.codeAutomationExit(code).
// Usage: node scripts/workbench/run-host-tests.js <suite bundle .js>. Exit code: the suite's (0 = all passed).
const fs = require('fs');
const path = require('path');
const { setTimeout, clearTimeout } = require('timers');
const { format, stripVTControlCharacters } = require('util');
const { ensureCodeServer } = require('./install');
const { ensureDebianPackages } = require('../debianPackages');
const { repoRoot, chromiumPath, chromiumArgs } = require('./paths');
const { startWorkbench, logTail } = require('./server');

const suiteTimeoutMs = 10 * 60_000;

function log(message) {
  console.log(`[test:vscode] ${message}`);
}

/** Start-up lines of the workbench itself, which share the automation log with the suite's output. */
const workbenchChatter = /^(Resolving connection token|Resolved connection token|Creating a socket|Ignoring fetching additional builtin|Updating additional builtin|\[Service Worker\]|ChatSessionStore)/;

function printAutomationLog(level, args) {
  if (level !== 'info' && level !== 'error') {
    return;
  }
  const text = stripVTControlCharacters(format(...args));
  if (text.trim() && !workbenchChatter.test(text)) {
    console.log(text);
  }
}

async function runSuite(suitePath) {
  const { chromium } = require('playwright-core');
  // The suite's page runs in headless Chromium; code-server's build packages are ensured by ensureCodeServer.
  ensureDebianPackages('test:vscode', ['chromium']);
  ensureCodeServer();
  const workbench = await startWorkbench({});
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  try {
    if (process.env.KGL_HOST_TEST_SETTINGS) {
      // Machine-scoped settings (kafkaGroupLens.clusters) are read from the remote Machine settings only.
      const machineSettings = path.join(workbench.profile.userDataDir, 'Machine', 'settings.json');
      fs.mkdirSync(path.dirname(machineSettings), { recursive: true });
      fs.writeFileSync(machineSettings, JSON.stringify(JSON.parse(process.env.KGL_HOST_TEST_SETTINGS), null, 2) + '\n');
    }
    const page = await browser.newPage();
    let timer;
    const finished = new Promise((resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`the suite did not finish within ${suiteTimeoutMs / 60_000} minutes`)), suiteTimeoutMs);
      void page.exposeFunction('codeAutomationExit', (code) => resolve(code));
    });
    await page.exposeFunction('codeAutomationLog', printAutomationLog);

    const remote = (file) => `vscode-remote://127.0.0.1:${workbench.port}${file}`;
    const payload = JSON.stringify([
      ['extensionDevelopmentPath', remote(repoRoot)],
      ['extensionTestsPath', remote(suitePath)],
    ]);
    log(`running ${path.relative(repoRoot, suitePath)} in code-server's extension host`);
    await page.goto(`${workbench.workspaceUrl}&payload=${encodeURIComponent(payload)}`);
    try {
      const code = await finished;
      if (code !== 0) {
        log(`suite failed (exit ${code}); last lines of the code-server log:\n${logTail(workbench.profile.logFile)}`);
      }
      return code;
    } finally {
      clearTimeout(timer);
    }
  } finally {
    await browser.close();
    await workbench.stop();
  }
}

if (require.main === module) {
  const suitePath = process.argv[2] && path.resolve(process.argv[2]);
  if (!suitePath || !fs.existsSync(suitePath)) {
    console.error(`[test:vscode] ERROR: give the bundled suite to run (got ${process.argv[2] ?? 'nothing'})`);
    process.exit(1);
  }
  runSuite(suitePath).then(
    (code) => process.exit(code),
    (error) => {
      console.error(`[test:vscode] ERROR: ${error.message}`);
      process.exit(1);
    },
  );
}

module.exports = { runSuite };
