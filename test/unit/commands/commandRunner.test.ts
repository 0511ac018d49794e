import { strict as assert } from 'assert';
import { installVscodeStub, StubHost } from '../views/vscodeStub';

type RunnerModule = typeof import('../../../src/commands/commandRunner');

describe('commands/commandRunner', () => {
  let host: StubHost;
  let uninstall: () => void;
  let runner: RunnerModule;
  // Taken when the suite runs, not when mocha loads the file (see exposeCommands.test.ts).
  let cachedBefore: Set<string>;

  before(() => {
    cachedBefore = new Set(Object.keys(require.cache));
    host = new StubHost();
    uninstall = installVscodeStub(host);
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after the stub is installed
    runner = require('../../../src/commands/commandRunner') as RunnerModule;
  });

  after(() => {
    uninstall();
    // Modules loaded against this stub must not leak into suites that install their own.
    for (const key of Object.keys(require.cache)) {
      if (!cachedBefore.has(key)) {
        delete require.cache[key];
      }
    }
  });

  it('passes the node it was given, and no other when it was given none', async () => {
    const received: unknown[] = [];
    const log = { error: () => undefined } as unknown as Parameters<RunnerModule['registerReportingCommand']>[2];
    const disposable = runner.registerReportingCommand('test.cmd', 'Test', log, (node?: unknown) => {
      received.push(node);
    });
    await host.commands.get('test.cmd')?.();
    await host.commands.get('test.cmd')?.('clicked-row');
    assert.deepEqual(received, [undefined, 'clicked-row']);
    disposable.dispose();
  });

  it('reports a failure as an error message naming the command', async () => {
    const logged: string[] = [];
    const log = { error: (m: string) => logged.push(m) } as unknown as Parameters<RunnerModule['registerReportingCommand']>[2];
    const disposable = runner.registerReportingCommand('test.fail', 'Do Thing', log, () => {
      throw new Error('no such group');
    });
    await host.commands.get('test.fail')?.();
    assert.equal(host.errorMessages.at(-1), 'Do Thing failed: no such group');
    assert.deepEqual(logged, ['Do Thing failed:']);
    disposable.dispose();
  });
});
