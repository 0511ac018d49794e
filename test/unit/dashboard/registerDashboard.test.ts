/**
 * The group dashboard's panel serializer under the `vscode` stub: a dashboard left open before a window reload
 * comes back for the same group once its cluster is registered again (the page keeps its group in its state), and
 * one that cannot come back is closed with a reason, never left blank.
 */
import { strict as assert } from 'assert';
import type { DashboardSources } from '../../../src/dashboard/registerDashboard';
import { SourceRegistry } from '../../../src/sources/sourceRegistry';
import { FakeSource, groupDetail, member } from '../views/fakeSource';
import { installVscodeStub, StubHost, Uri, type WebviewSerializer } from '../views/vscodeStub';

interface RegisterModule {
  registerDashboardCommand(extensionUri: Uri, sources: DashboardSources, log: unknown): { dispose(): unknown };
}

const VIEW_TYPE = 'kafkaGroupLens.groupDashboard';

describe('dashboard/registerDashboard: restoring panels after a reload', () => {
  let host: StubHost;
  let uninstall: () => void;
  let registry: SourceRegistry;
  let serializer: WebviewSerializer;
  let registration: { dispose(): unknown };
  const opened: Array<{ dispose(): void }> = [];
  const restoredPanel = (title: string): { dispose(): void } => {
    const panel = host.makeWebviewPanel(VIEW_TYPE, title, {});
    opened.push(panel);
    return panel;
  };
  const logged: string[] = [];
  const log = { info: () => undefined, warn: (m: string) => logged.push(m), error: (m: string) => logged.push(m), debug: () => undefined, trace: () => undefined };

  let cachedBefore: Set<string>;

  before(() => {
    // The modules under test bind `vscode` when loaded: loaded here, under this stub, and dropped after, so that
    // neither this suite nor a later one holds copies bound to another stub.
    cachedBefore = new Set(Object.keys(require.cache));
    host = new StubHost();
    uninstall = installVscodeStub(host);
    registry = new SourceRegistry();
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after the stub is installed
    const { registerDashboardCommand } = require('../../../src/dashboard/registerDashboard') as RegisterModule;
    registration = registerDashboardCommand(
      Uri.file('/ext'),
      // A short wait: the extension waits 15 s for clusters that register late.
      { source: (id) => registry.get(id)?.source, waitFor: async (id) => (await registry.waitFor(id, 200))?.source, series: () => undefined },
      log,
    );
    const registered = host.webviewSerializers.get(VIEW_TYPE);
    assert.ok(registered, 'a serializer for the dashboard view type');
    serializer = registered;
  });

  beforeEach(() => {
    logged.length = 0;
    host.webviewPanels.length = 0;
    host.warningMessages.length = 0;
  });

  afterEach(() => {
    for (const panel of opened.splice(0)) {
      panel.dispose();
    }
  });

  after(() => {
    registration.dispose();
    uninstall();
    for (const id of Object.keys(require.cache)) {
      if (!cachedBefore.has(id)) {
        delete require.cache[id];
      }
    }
  });

  it('waits for a cluster that registers after the restore starts, then shows the same group and tells the page its group again', async () => {
    const restored = restoredPanel('Dashboard: orders');
    const pending = serializer.deserializeWebviewPanel(restored, { sourceId: 'prod', groupId: 'orders' });
    registry.add({ source: new FakeSource('prod', 'Production', 'kafka').put(groupDetail('orders', { members: [member('m-1')] })) });
    await pending;
    const [panel] = host.webviewPanels;
    assert.equal(panel.disposed, false);
    assert.equal(panel.options.enableScripts, true, 'scripts are enabled again on the restored panel');
    assert.match(panel.html, /Content-Security-Policy/);
    panel.receive({ type: 'ready' });
    assert.deepEqual(panel.posted[0], { type: 'panel', state: { sourceId: 'prod', groupId: 'orders' } }, 'the page keeps its group for the next reload');
    const snapshot = panel.posted.find((m): m is { type: 'snapshot'; snapshot: { groupId: string; cluster: string } } => (m as { type?: string }).type === 'snapshot');
    assert.deepEqual([snapshot?.snapshot.groupId, snapshot?.snapshot.cluster], ['orders', 'Production']);
  });

  it('closes a panel whose cluster is gone, and says so', async () => {
    await serializer.deserializeWebviewPanel(restoredPanel('Dashboard: orders'), { sourceId: 'removed', groupId: 'orders' });
    assert.equal(host.webviewPanels[0].disposed, true);
    assert.match(host.warningMessages[0], /dashboard of group orders was closed: its cluster is no longer configured/);
  });

  it('closes a panel whose saved state names no group', async () => {
    for (const state of [undefined, null, { groupId: 'orders' }, { sourceId: 1, groupId: 'orders' }, 'orders']) {
      await serializer.deserializeWebviewPanel(restoredPanel('Dashboard'), state);
    }
    assert.ok(host.webviewPanels.every((panel) => panel.disposed));
    assert.equal(logged.length, 5);
  });
});
