import { strict as assert } from 'node:assert';
import { isPreviewWebviewMessage } from '../../../src/reset/resetPreviewProtocol';

describe('reset/resetPreviewProtocol', () => {
  it('accepts the page messages and nothing else', () => {
    for (const good of [{ type: 'ready' }, ...['execute', 'cancel', 'exportCsv', 'copyDryRun', 'copyExecute', 'replan'].map((action) => ({ type: 'action', action }))]) {
      assert.equal(isPreviewWebviewMessage(good), true, JSON.stringify(good));
    }
    const bad: unknown[] = [
      null,
      'execute',
      {},
      { type: 'action' },
      { type: 'action', action: 'delete' },
      { type: 'action', action: 'execute', rows: [] },
      { type: 'ready', extra: 1 },
      { type: 'preview' },
    ];
    for (const message of bad) {
      assert.equal(isPreviewWebviewMessage(message), false, JSON.stringify(message));
    }
  });
});
