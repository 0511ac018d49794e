/**
 * An open rebalance timeline follows its cluster's source through a rebuild (a change of
 * `readCommittedGroups` or of the connection replaces the source object under the same id), and
 * closes with a message when the cluster is removed for good: it never keeps a disposed source.
 */
import { strict as assert } from 'assert';
import { SourceRegistry } from '../../../src/sources/sourceRegistry';
import { FakeSource, groupDetail, member } from '../views/fakeSource';
import { installFreshVscodeStub, StubHost, Uri, type FakeWebviewPanel } from '../views/vscodeStub';

type RegisterModule = typeof import('../../../src/webview/registerTimeline');

async function eventually(what: string, condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (condition()) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

function snapshots(panel: FakeWebviewPanel): Array<Record<string, unknown>> {
  return panel.posted.filter((m): m is Record<string, unknown> => (m as { type?: unknown }).type === 'snapshot');
}

function prodSource(): FakeSource {
  return new FakeSource('prod', 'Production', 'kafka').put(groupDetail('orders', { members: [member('m-1')] }));
}

describe('webview/TimelinePanel follows its source', () => {
  let host: StubHost;
  let uninstall: () => void;
  let registry: SourceRegistry;
  const context = { subscriptions: [] as Array<{ dispose(): unknown }>, extensionUri: Uri.file('/ext') };
  const log = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined, trace: () => undefined };

  /** The panel objects the extension created, to close them after each test. */
  const made: Array<{ dispose(): void }> = [];

  beforeEach(() => {
    host = new StubHost();
    const makePanel = host.makeWebviewPanel.bind(host);
    host.makeWebviewPanel = (...args: Parameters<StubHost['makeWebviewPanel']>) => {
      const panel = makePanel(...args);
      made.push(panel);
      return panel;
    };
    uninstall = installFreshVscodeStub(host);
    registry = new SourceRegistry();
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after the stub is installed
    const { registerTimelineCommands } = require('../../../src/webview/registerTimeline') as RegisterModule;
    registerTimelineCommands(
      context as never,
      {
        get: (id) => registry.get(id)?.source,
        // A short wait instead of the extension's 15 s.
        waitFor: async (id) => (await registry.waitFor(id, 200))?.source,
        onDidChangeSources: (listener) => registry.onDidChangeSources(listener),
      },
      log as never,
    );
  });

  afterEach(async () => {
    // Closing the panels stops their polling.
    for (const panel of made.splice(0)) {
      panel.dispose();
    }
    await registry.disposeAll();
    for (const disposable of context.subscriptions.splice(0)) {
      disposable.dispose();
    }
    uninstall();
  });

  async function openTimeline(): Promise<FakeWebviewPanel> {
    await host.commands.get('kafkaGroupLens.openTimeline')?.({ clusterId: 'prod', groupId: 'orders' });
    const [panel] = host.webviewPanels;
    panel.receive({ type: 'ready' });
    await eventually('the first snapshot', () => snapshots(panel).length === 1);
    return panel;
  }

  it('moves to the rebuilt source and stops listening to the disposed one', async () => {
    const old = prodSource();
    registry.add({ source: old });
    const panel = await openTimeline();
    assert.equal(old.listenerCount(), 1);

    // What manageKafkaSources does on a change of readCommittedGroups: remove, then add a new source.
    await registry.remove('prod');
    assert.ok(old.disposed);
    assert.equal(old.listenerCount(), 0, 'nothing listens to the disposed source');
    const rebuilt = prodSource();
    registry.add({ source: rebuilt });
    await eventually('a snapshot from the rebuilt source', () => snapshots(panel).length === 2);
    assert.ok(rebuilt.calls.includes('describeGroup:orders'));
    assert.equal(rebuilt.listenerCount(), 1);
    const oldCalls = old.calls.length;
    rebuilt.emitChange();
    await eventually('the rebuilt source to be read again', () => rebuilt.calls.filter((c) => c === 'describeGroup:orders').length >= 2);
    assert.equal(old.calls.length, oldCalls, 'the disposed source is never asked again');
    assert.equal(panel.disposed, false);
  });

  it('closes with a message when the cluster is removed for good', async () => {
    registry.add({ source: prodSource() });
    const panel = await openTimeline();
    await registry.remove('prod');
    await eventually('the panel to close', () => panel.disposed);
    assert.match(host.warningMessages.join('\n'), /rebalance timeline of group orders was closed: its cluster is no longer configured/);
  });
});
