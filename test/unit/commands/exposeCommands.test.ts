import { strict as assert } from 'assert';
import { installVscodeStub, StubHost } from '../views/vscodeStub';

type ExposeModule = typeof import('../../../src/commands/exposeCommands');

describe('commands/exposeCommands validateBasePort', () => {
  let uninstall: () => void;
  let expose: ExposeModule;
  // Taken when the suite runs, not when mocha loads the file: modules other test files load statically
  // (the simulator's, which hold the classes `instanceof` checks) must stay cached for the suites after this one.
  let cachedBefore: Set<string>;

  before(() => {
    cachedBefore = new Set(Object.keys(require.cache));
    uninstall = installVscodeStub(new StubHost());
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after the stub is installed
    expose = require('../../../src/commands/exposeCommands') as ExposeModule;
  });

  after(() => {
    uninstall();
    for (const key of Object.keys(require.cache)) {
      if (!cachedBefore.has(key)) {
        delete require.cache[key];
      }
    }
  });

  it('accepts 0 and unprivileged ports that leave room for every broker', () => {
    assert.equal(expose.validateBasePort('0', 3), undefined);
    assert.equal(expose.validateBasePort(' 9092 ', 3), undefined);
    assert.equal(expose.validateBasePort('65533', 3), undefined);
  });

  it('rejects other text with a reason', () => {
    assert.equal(expose.validateBasePort('abc', 3), 'Give a port number (0 picks free ports)');
    assert.equal(expose.validateBasePort('-1', 3), 'Give a port number (0 picks free ports)');
    assert.equal(expose.validateBasePort('80', 3), 'The port must be 0 or between 1024 and 65533 (3 brokers take consecutive ports)');
    assert.equal(expose.validateBasePort('65534', 3), 'The port must be 0 or between 1024 and 65533 (3 brokers take consecutive ports)');
  });
});
