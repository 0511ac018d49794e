import { strict as assert } from 'node:assert';
import { encodeEvents } from '../../../src/webview/eventColumns';
import { isHostToWebviewMessage, isWebviewToHostMessage } from '../../../src/webview/timelineProtocol';

describe('webview/timelineProtocol', () => {
  it('accepts well-formed webview messages and nothing else', () => {
    assert.ok(isWebviewToHostMessage({ type: 'ready' }));
    assert.ok(isWebviewToHostMessage({ type: 'export' }));
    assert.ok(isWebviewToHostMessage({ type: 'reportError', message: 'x' }));
    for (const bad of [null, 'ready', {}, { type: 'reportError' }, { type: 'exec', command: 'rm' }]) {
      assert.equal(isWebviewToHostMessage(bad), false, JSON.stringify(bad));
    }
  });

  it('accepts well-formed host messages and nothing else', () => {
    assert.ok(isHostToWebviewMessage({ type: 'snapshot', sourceId: 's', groupId: 'g', clusterLabel: 'c', timeBase: 'virtual', origin: 'o', events: encodeEvents([]) }));
    assert.ok(isHostToWebviewMessage({ type: 'append', dropFromStart: 0, events: [] }));
    assert.ok(isHostToWebviewMessage({ type: 'error', message: 'boom' }));
    for (const bad of [
      undefined,
      { type: 'snapshot', sourceId: 's', groupId: 'g', clusterLabel: 'c', timeBase: 'lunar', origin: 'o', events: [] },
      { type: 'snapshot', sourceId: 's', groupId: 'g', clusterLabel: 'c', timeBase: 'epoch', origin: 'o', events: 'many' },
      { type: 'snapshot', groupId: 'g', clusterLabel: 'c', timeBase: 'epoch', origin: 'o', events: encodeEvents([]) },
      // Raw event objects are not what a snapshot carries.
      { type: 'snapshot', sourceId: 's', groupId: 'g', clusterLabel: 'c', timeBase: 'epoch', origin: 'o', events: [] },
      { type: 'snapshot', sourceId: 's', groupId: 'g', clusterLabel: 'c', timeBase: 'epoch', origin: 'o', events: { ...encodeEvents([]), time: [] } },
      { type: 'append', dropFromStart: -1, events: [] },
      { type: 'error' },
    ]) {
      assert.equal(isHostToWebviewMessage(bad), false, JSON.stringify(bad));
    }
  });
});
