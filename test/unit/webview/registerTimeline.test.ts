/**
 * The timeline's panel serializer under the `vscode` stub: a panel left open before a window
 * reload comes back showing the same group once its cluster is registered again, and a panel that
 * cannot come back is closed with a reason, never left blank.
 */
import { strict as assert } from 'assert';
import type { ClusterSource } from '../../../src/model/clusterSource';
import { SourceRegistry } from '../../../src/sources/sourceRegistry';
import { FakeSource, groupDetail, member } from '../views/fakeSource';
import { installFreshVscodeStub, StubHost, Uri, type WebviewSerializer } from '../views/vscodeStub';

interface RegisterModule {
  registerTimelineCommands(
    context: { subscriptions: Array<{ dispose(): unknown }>; extensionUri: Uri },
    sources: { get(id: string): ClusterSource | undefined; waitFor(id: string, timeoutMs: number): Promise<ClusterSource | undefined> },
    log: unknown,
  ): void;
}

const VIEW_TYPE = 'kafkaGroupLens.timeline';

describe('webview/registerTimeline: restoring panels after a reload', () => {
  let host: StubHost;
  let uninstall: () => void;
  let registry: SourceRegistry;
  let serializer: WebviewSerializer;
  const opened: Array<{ dispose(): void }> = [];
  const restoredPanel = (title: string): { dispose(): void } => {
    const panel = host.makeWebviewPanel(VIEW_TYPE, title, {});
    opened.push(panel);
    return panel;
  };
  const context = { subscriptions: [] as Array<{ dispose(): unknown }>, extensionUri: Uri.file('/ext') };
  const logged: string[] = [];
  const log = { info: () => undefined, warn: (m: string) => logged.push(m), error: (m: string) => logged.push(m), debug: () => undefined, trace: () => undefined };

  // One stub for the suite: the modules under test bind `vscode` when they are loaded, so they are
  // loaded afresh here (an earlier suite may hold copies bound to its own stub) and dropped after.
  before(() => {
    host = new StubHost();
    uninstall = installFreshVscodeStub(host);
    registry = new SourceRegistry();
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after the stub is installed
    const { registerTimelineCommands } = require('../../../src/webview/registerTimeline') as RegisterModule;
    registerTimelineCommands(
      context,
      // A short wait: the extension waits 15 s for clusters that register late.
      { get: (id) => registry.get(id)?.source, waitFor: async (id) => (await registry.waitFor(id, 200))?.source },
      log,
    );
    const registered = host.webviewSerializers.get(VIEW_TYPE);
    assert.ok(registered, 'a serializer for the timeline view type');
    serializer = registered;
  });

  beforeEach(() => {
    logged.length = 0;
    host.webviewPanels.length = 0;
    host.warningMessages.length = 0;
  });

  afterEach(() => {
    // Stops the restored panels' polling.
    for (const panel of opened.splice(0)) {
      panel.dispose();
    }
  });

  after(() => {
    for (const disposable of context.subscriptions.splice(0)) {
      disposable.dispose();
    }
    uninstall();
  });

  it('waits for a cluster that registers after the restore starts, then shows the same group', async () => {
    const restored = restoredPanel('Rebalances: orders');
    const pending = serializer.deserializeWebviewPanel(restored, { sourceId: 'prod', groupId: 'orders', view: { start: 0, end: 10 } });
    const source = new FakeSource('prod', 'Production', 'kafka').put(groupDetail('orders', { members: [member('m-1')] }));
    registry.add({ source });
    await pending;
    const [panel] = host.webviewPanels;
    assert.equal(panel.disposed, false);
    assert.equal(panel.options.enableScripts, true, 'scripts are enabled again on the restored panel');
    assert.match(panel.html, /Content-Security-Policy/);
    panel.receive({ type: 'ready' });
    const snapshot = await waitForPosted(panel.posted, 'snapshot');
    assert.equal(snapshot.sourceId, 'prod');
    assert.equal(snapshot.groupId, 'orders');
    assert.equal(snapshot.clusterLabel, 'Production');
  });

  it('closes a panel whose cluster is gone, and says so', async () => {
    const restored = restoredPanel('Rebalances: orders');
    await serializer.deserializeWebviewPanel(restored, { sourceId: 'removed', groupId: 'orders' });
    assert.equal(host.webviewPanels[0].disposed, true);
    assert.match(host.warningMessages[0], /timeline of group orders was closed: its cluster is no longer configured/);
    assert.match(logged.join('\n'), /cluster removed is no longer configured/);
  });

  it('closes a panel whose saved state names no group', async () => {
    for (const state of [undefined, null, { groupId: 'orders' }, { sourceId: 1, groupId: 'orders' }, 'orders']) {
      const restored = restoredPanel('Rebalances');
      await serializer.deserializeWebviewPanel(restored, state);
    }
    assert.ok(host.webviewPanels.every((panel) => panel.disposed));
    assert.equal(logged.length, 5);
  });
});

async function waitForPosted(posted: unknown[], type: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 100; i++) {
    const found = posted.find((m): m is Record<string, unknown> => typeof m === 'object' && m !== null && (m as { type?: unknown }).type === type);
    if (found) {
      return found;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`the panel posted no ${type} message; it posted ${JSON.stringify(posted)}`);
}
