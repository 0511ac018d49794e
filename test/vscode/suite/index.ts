/** Entry point @vscode/test-electron loads in the extension host: runs the bundled mocha suites. */
import Mocha from 'mocha';

export async function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', color: true, timeout: 60_000, forbidPending: true });
  // The test files are bundled into this file, so they register through mocha's globals instead of by path.
  mocha.suite.emit('pre-require', globalThis, 'extension.test.ts', mocha);
  await import('./extension.test');
  mocha.suite.emit('pre-require', globalThis, 'languageModelTools.test.ts', mocha);
  await import('./languageModelTools.test');
  await new Promise<void>((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} extension-host test(s) failed`)) : resolve()));
  });
}
