import { strict as assert } from 'node:assert';
import { isPreviewHostMessage, isPreviewWebviewMessage, type PreviewData, type PreviewHostMessage } from '../../../src/reset/resetPreviewProtocol';

const PREVIEW: PreviewData = {
  groupId: 'billing',
  cluster: 'Simulator (demo)',
  groupState: 'Empty',
  scenario: '--to-earliest',
  scope: '--all-topics',
  rows: [{ topic: 'orders', partition: 0, current: '-', next: '0', difference: '', warning: '' }],
  warnings: [],
};

describe('reset/resetPreviewProtocol', () => {
  it('accepts the page messages and nothing else', () => {
    const good: unknown[] = [
      { type: 'ready' },
      ...['execute', 'cancel', 'exportCsv', 'copyDryRun', 'copyExecute', 'replan'].map((action) => ({ type: 'action', action })),
      { type: 'reportError', message: 'ignored a malformed message from the extension' },
    ];
    for (const message of good) {
      assert.equal(isPreviewWebviewMessage(message), true, JSON.stringify(message));
    }
    const bad: unknown[] = [
      null,
      'execute',
      {},
      [],
      { type: 'action' },
      { type: 'action', action: 'delete' },
      { type: 'action', action: 'execute', rows: [] },
      { type: 'ready', extra: 1 },
      { type: 'preview' },
      { type: 'reportError' },
      { type: 'reportError', message: 42 },
    ];
    for (const message of bad) {
      assert.equal(isPreviewWebviewMessage(message), false, JSON.stringify(message));
    }
  });

  it('accepts the panel messages and nothing else', () => {
    const good: PreviewHostMessage[] = [
      { type: 'preview', preview: PREVIEW },
      { type: 'status', text: 'Committing the new offsets…', busy: true },
      { type: 'results', summary: 'done', rows: [{ topic: 'orders', partition: 0, ok: true, status: 'committed 0' }] },
      { type: 'changed', changed: { summary: 'changed', lines: ['orders-0: previewed 0, now 5'] } },
    ];
    for (const message of good) {
      assert.equal(isPreviewHostMessage(message), true, JSON.stringify(message));
    }
    const row = PREVIEW.rows[0];
    const bad: unknown[] = [
      undefined,
      { type: 'preview' },
      { type: 'preview', preview: { ...PREVIEW, groupId: 7 } },
      { type: 'preview', preview: { ...PREVIEW, warnings: [1] } },
      { type: 'preview', preview: { ...PREVIEW, rows: [{ ...row, partition: '0' }] } },
      { type: 'preview', preview: { ...PREVIEW, rows: [{ ...row, partition: -1 }] } },
      { type: 'preview', preview: { ...PREVIEW, rows: [{ ...row, next: 5 }] } },
      { type: 'status', text: 'x' },
      { type: 'status', text: 'x', busy: 'yes' },
      { type: 'results', summary: 'done', rows: [{ topic: 'orders', partition: 0, status: 'committed 0' }] },
      { type: 'results', summary: 'done' },
      { type: 'changed', changed: { summary: 'changed', lines: 'orders-0' } },
      { type: 'changed' },
      { type: 'action', action: 'execute' },
    ];
    for (const message of bad) {
      assert.equal(isPreviewHostMessage(message), false, JSON.stringify(message));
    }
  });
});
