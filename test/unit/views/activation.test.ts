/**
 * Activates the extension against the `vscode` stub and the real simulator: the wiring (commands, view,
 * log channel, settings) and the simulator commands' effect on the tree. The simulator runs paced at
 * speed 1000, so conditions are awaited (`waitFor`), never timed.
 */
import { strict as assert } from 'assert';
import { readFileSync } from 'fs';
import { Kafka, logLevel } from 'kafkajs';
import { connect } from 'net';
import { join } from 'path';
import type { TreeNode } from '../../../src/views/treeNodes';
import { FakeSecretStorage, installVscodeStub, StubHost, type FakeTreeView, type MarkdownString, type TreeItem } from './vscodeStub';

interface ExtensionModule {
  activate(context: { subscriptions: Array<{ dispose(): unknown }>; secrets: FakeSecretStorage }): void;
  deactivate(): Promise<void>;
}

const manifest = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as {
  contributes: { commands: Array<{ command: string }>; languageModelTools: Array<{ name: string }> };
};

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Re-checks a condition between event-loop turns until it holds; fails naming what never happened. */
async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, attempts = 300): Promise<T> {
  for (let i = 0; i < attempts; i++) {
    const value = await probe();
    if (value !== undefined) {
      return value;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

describe('extension activation (vscode stub, real simulator)', function () {
  this.timeout(60000);
  let host: StubHost;
  let uninstall: () => void;
  let extension: ExtensionModule;
  const context = { subscriptions: [] as Array<{ dispose(): unknown }>, secrets: new FakeSecretStorage() };
  let view: FakeTreeView;

  const children = async (node?: TreeNode): Promise<TreeNode[]> => (await view.treeDataProvider.getChildren(node)) as TreeNode[];
  const item = (node: TreeNode): TreeItem => view.treeDataProvider.getTreeItem(node);
  const run = (command: string, ...args: unknown[]): Promise<unknown> => Promise.resolve(host.commands.get(command)?.(...args));
  const cluster = async (): Promise<TreeNode> => waitFor('the simulator cluster row', async () => (await children())[0]);
  const groupRow = (groupId: string) =>
    waitFor(`group ${groupId}`, async () => (await children(await cluster())).find((n) => n.kind === 'group' && n.summary.groupId === groupId));

  before(() => {
    host = new StubHost();
    host.config.set('kafkaGroupLens.simulator.enabled', false);
    host.config.set('kafkaGroupLens.refreshIntervalSeconds', 0);
    uninstall = installVscodeStub(host);
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after the stub is installed
    extension = require('../../../src/extension') as ExtensionModule;
    extension.activate(context);
    view = host.views[0];
  });

  after(async () => {
    await extension.deactivate();
    for (const disposable of context.subscriptions) {
      disposable.dispose();
    }
    uninstall();
  });

  it('registers every contributed command, the view and a log output channel, all disposable', async () => {
    assert.deepEqual([...host.commands.keys()].sort(), manifest.contributes.commands.map((c) => c.command).sort());
    assert.deepEqual(host.views.map((v) => v.id), ['kafkaGroupLens.groups']);
    assert.deepEqual([...host.languageModelTools.keys()].sort(), manifest.contributes.languageModelTools.map((t) => t.name).sort());
    assert.deepEqual(host.outputChannels, [{ name: 'Kafka Group Lens', log: true }]);
    assert.ok(context.subscriptions.length >= host.commands.size + 2);
    await waitFor('the simulator context key', () => (host.contextKeys.has('kafkaGroupLens.simulatorActive') ? true : undefined));
    assert.equal(host.contextKeys.get('kafkaGroupLens.simulatorActive'), false);
    assert.deepEqual(await children(), [], 'no source: the welcome view shows');
  });

  it('starts the demo simulator when the setting turns on and shows its groups, escaping markup', async () => {
    host.setConfig('kafkaGroupLens.simulator.speed', 1000);
    host.setConfig('kafkaGroupLens.simulator.enabled', true);
    const clusterRow = await cluster();
    assert.equal(item(clusterRow).label, 'Simulator (demo)');
    assert.equal(host.contextKeys.get('kafkaGroupLens.simulatorActive'), true);
    // The agent's cluster tools (their `when` clause) are offered once a cluster is registered.
    assert.equal(host.contextKeys.get('kafkaGroupLens.hasClusters'), true);

    const weird = await groupRow('<b>weird</b>&group');
    const weirdItem = item(weird);
    assert.equal(weirdItem.label, '<b>weird</b>&group');
    const tooltip = weirdItem.tooltip as MarkdownString;
    assert.ok(tooltip.value.includes('\\<b\\>weird\\<\\/b\\>\\&group'), tooltip.value);
    assert.equal(tooltip.supportHtml, false);
    assert.equal(tooltip.isTrusted, false);

    const orders = await groupRow('orders-processor');
    assert.match(item(orders).contextValue ?? '', /^kgl:group:sim:/);
    const members = await waitFor('members of orders-processor', async () => {
      const rows = (await children(orders)).filter((n) => n.kind === 'member');
      return rows.length ? rows : undefined;
    });
    assert.match(item(members[0]).contextValue ?? '', /^kgl:member:sim:dynamic:/);
  });

  it('creates a topic and a consumer group from the cluster row', async () => {
    const clusterRow = await cluster();
    host.answers.push('audit-log', '3');
    await run('kafkaGroupLens.sim.createTopic', clusterRow);
    host.answers.push('lens-test', ['audit-log'], 'range', '2');
    await run('kafkaGroupLens.sim.addConsumerGroup', clusterRow);
    assert.deepEqual(host.errorMessages, []);

    const group = await groupRow('lens-test');
    const members = await waitFor('two members holding audit-log', async () => {
      const rows = (await children(group)).filter((n) => n.kind === 'member');
      const assigned = rows.flatMap((r) => (r.kind === 'member' ? r.partitions : []));
      return rows.length === 2 && assigned.length === 3 ? rows : undefined;
    });
    const partitions = await children(members[0]);
    assert.ok(partitions.length > 0);
    assert.match(String(item(partitions[0]).label), /^audit-log-\d$/);
    assert.match(String(item(partitions[0]).description), /^lag .+ · committed .+ · end .+$/);
  });

  it('crashes a member and restarts it from the stopped consumers row', async () => {
    const group = await groupRow('lens-test');
    const member = await waitFor('a running lens-test member', async () =>
      (await children(group)).find((n) => n.kind === 'member' && n.consumer?.status === 'running'),
    );
    await run('kafkaGroupLens.sim.crashConsumer', member);
    assert.deepEqual(host.errorMessages, []);
    const stopped = await waitFor('the crashed consumer under "Stopped consumers"', async () => {
      const folder = (await children(await groupRow('lens-test'))).find((n) => n.kind === 'stoppedConsumers');
      return folder ? (await children(folder))[0] : undefined;
    });
    assert.equal(item(stopped).contextValue, 'kgl:consumer:sim:dynamic:crashed');
    await run('kafkaGroupLens.sim.restartConsumer', stopped);
    assert.deepEqual(host.errorMessages, []);
    assert.ok(host.logLines.some((l) => l.level === 'info' && /Restarted/.test(l.message)));
  });

  it('reports a command failure as an error message and in the log', async () => {
    await run('kafkaGroupLens.sim.pausePolling', { kind: 'message', id: 'm', severity: 'info', text: 'x' });
    assert.equal(host.errorMessages.length, 1);
    assert.match(host.errorMessages[0], /^Pause Polling failed: This command needs a member/);
    assert.ok(host.logLines.some((l) => l.level === 'error' && /Pause Polling failed/.test(l.message)));
    host.errorMessages.length = 0;
  });

  it('restarts the simulator with the exactly-once scenario, and falls back to the demo for an unknown name', async () => {
    host.setConfig('kafkaGroupLens.simulator.scenario', 'exactly-once');
    await waitFor('the exactly-once cluster row', async () => ((await children()).some((n) => item(n).label === 'Simulator (exactly-once)') ? true : undefined));
    await groupRow('ledger');
    await groupRow('payments-enricher');
    host.setConfig('kafkaGroupLens.simulator.scenario', 'nonsense');
    await waitFor('the demo cluster row again', async () => ((await children()).some((n) => item(n).label === 'Simulator (demo)') ? true : undefined));
    assert.ok(host.logLines.some((l) => l.level === 'warn' && l.message === 'kafkaGroupLens.simulator.scenario must be one of demo, exactly-once, protocols, streams, transactions, got "nonsense"; using demo'));
    await groupRow('orders-processor');
    host.setConfig('kafkaGroupLens.simulator.scenario', 'demo');
  });

  it('exposes the live simulator over the Kafka protocol, where a real kafkajs admin sees its groups', async () => {
    const simulatorRow = await cluster();
    host.answers.push('0');
    await run('kafkaGroupLens.sim.exposeOnPort', simulatorRow);
    assert.deepEqual(host.errorMessages, []);
    const served = host.infoMessages.at(-1) ?? '';
    const bootstrap = /served at (\S+):/.exec(served)?.[1];
    assert.ok(bootstrap, served);
    const admin = new Kafka({ clientId: 'activation-test', brokers: bootstrap.split(','), logLevel: logLevel.NOTHING }).admin();
    try {
      await admin.connect();
      const { groups } = await admin.listGroups();
      assert.ok(groups.some((g) => g.groupId === 'orders-processor'), JSON.stringify(groups));
    } finally {
      await admin.disconnect();
    }
    // A second expose is refused before it asks anything.
    await run('kafkaGroupLens.sim.exposeOnPort', simulatorRow);
    assert.match(host.errorMessages.at(-1) ?? '', /is already served at 127\.0\.0\.1:\d+/);
    host.errorMessages.length = 0;
    await run('kafkaGroupLens.sim.stopExposing', simulatorRow);
    assert.deepEqual(host.errorMessages, []);
    const port = Number(bootstrap.split(',')[0].split(':')[1]);
    await assert.rejects(
      new Promise<void>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.destroy();
          resolve();
        });
        socket.on('error', reject);
      }),
      /ECONNREFUSED/,
    );
  });

  it('stops the simulator live when the setting turns off', async () => {
    host.setConfig('kafkaGroupLens.simulator.enabled', false);
    await waitFor('the cluster row to go', async () => ((await children()).length === 0 ? true : undefined));
    await waitFor('the context key to clear', () => (host.contextKeys.get('kafkaGroupLens.simulatorActive') === false ? true : undefined));
    await waitFor('no cluster for the agent\'s tools', () => (host.contextKeys.get('kafkaGroupLens.hasClusters') === false ? true : undefined));
    await turn();
  });

  it('adds a real cluster through "Add Cluster…", keeps its password out of the settings, and shows why it cannot connect', async () => {
    // Port 1 on loopback: nothing listens there, so the connection is refused at once.
    host.answers.push('Unreachable', '127.0.0.1:1', 'Plaintext', 'SASL PLAIN', 'alice', 'pa55word');
    await run('kafkaGroupLens.addCluster');
    assert.deepEqual(host.errorMessages, []);
    const stored = host.config.get('kafkaGroupLens.clusters');
    assert.deepEqual(stored, [{ id: 'unreachable', name: 'Unreachable', bootstrapServers: ['127.0.0.1:1'], sasl: { mechanism: 'plain', username: 'alice' } }]);
    assert.equal(JSON.stringify(stored).includes('pa55word'), false);
    assert.deepEqual(JSON.parse(context.secrets.values.get('kafkaGroupLens.connection.unreachable') ?? '{}'), {
      servers: ['127.0.0.1:1'],
      secrets: { password: 'pa55word' },
    });
    const row = await waitFor('the cluster row in error', async () => {
      const node = (await children()).find((n) => n.kind === 'cluster' && n.sourceId === 'unreachable');
      if (!node) {
        return undefined;
      }
      await children(node); // expanding the row is what loads it
      return item(node).contextValue === 'kgl:cluster:kafka:error' ? node : undefined;
    });
    assert.match(String(item(row).description ?? ''), /127\.0\.0\.1:1.*refused|refused.*127\.0\.0\.1:1/i);
    assert.equal(host.logLines.some((l) => l.message.includes('pa55word')), false, 'the password never reaches the log');
  });

  it('rebuilds the cluster sources when kafkaGroupLens.readCommittedGroups changes, and warns about a bad value', async () => {
    const starts = () => host.logLines.filter((l) => l.level === 'info' && l.message.startsWith('Cluster "Unreachable" added')).length;
    const before = starts();
    host.setConfig('kafkaGroupLens.readCommittedGroups', ['payments-*']);
    await waitFor('the source rebuilt for the new isolation levels', () => (starts() === before + 1 ? true : undefined));
    host.setConfig('kafkaGroupLens.readCommittedGroups', ['payments-*', 7]);
    const warning = await waitFor('a warning about the bad entry', () => host.warningMessages.find((m) => m.includes('readCommittedGroups')));
    assert.match(warning, /kafkaGroupLens\.readCommittedGroups is ignored: entry 2 must be a non-empty group id or pattern, got 7/);
    await waitFor('the source rebuilt with no read_committed groups', () => (starts() === before + 2 ? true : undefined));
    assert.ok((await children()).some((n) => n.kind === 'cluster' && n.sourceId === 'unreachable'), 'the cluster stays in the tree');
    host.warningMessages.length = 0;
    host.setConfig('kafkaGroupLens.readCommittedGroups', []);
  });

  it('removes the cluster and its secrets after a confirmation', async () => {
    const row = (await children()).find((n) => n.kind === 'cluster' && n.sourceId === 'unreachable');
    host.answers.push('Remove');
    await run('kafkaGroupLens.removeCluster', row);
    assert.deepEqual(host.errorMessages, []);
    assert.deepEqual(host.config.get('kafkaGroupLens.clusters'), []);
    assert.equal(context.secrets.values.has('kafkaGroupLens.connection.unreachable'), false);
    await waitFor('the cluster row to go', async () => ((await children()).some((n) => n.kind === 'cluster' && n.sourceId === 'unreachable') ? undefined : true));
  });
});
