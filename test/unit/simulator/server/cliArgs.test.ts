import assert from 'node:assert/strict';
import { parseServerArgs } from '../../../../src/simulator/server/cliArgs';

describe('simulator/server/cliArgs', () => {
  it('defaults to the demo scenario on port 9092 at speed 1', () => {
    assert.deepEqual(parseServerArgs([]), { port: 9092, scenario: 'demo', speed: 1 });
  });

  it('reads every option', () => {
    assert.deepEqual(parseServerArgs(['--scenario', 'x.json', '--port', '19092', '--speed', '2.5']), { port: 19092, scenario: 'x.json', speed: 2.5 });
  });

  it('rejects bad values and unknown options with a clear message', () => {
    assert.throws(() => parseServerArgs(['--port', '70000']), /--port must be an integer from 1 to 65535/);
    assert.throws(() => parseServerArgs(['--speed', '0']), /--speed must be a positive number/);
    assert.throws(() => parseServerArgs(['--port']), /--port needs a value/);
    assert.throws(() => parseServerArgs(['--verbose', 'yes']), /Unknown option "--verbose"/);
  });
});
