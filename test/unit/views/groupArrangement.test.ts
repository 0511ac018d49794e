/**
 * Filter, sort and Find Group… end to end over the real simulator (demo scenario, virtual time): the commands ask
 * through the vscode stub, the view lists the rows the filter keeps in the chosen order, says so in its message,
 * keeps the choice in workspace state and reveals the row a Find Group… pick names.
 */
import { strict as assert } from 'assert';
import type { LogOutputChannel } from 'vscode';
import { buildScenario } from '../../../src/simulator/scenarios/runScenario';
import { DEMO_SCENARIO } from '../../../src/simulator/scenarios/demo';
import { SimSource } from '../../../src/simulator/editor/simSource';
import { SourceRegistry } from '../../../src/sources/sourceRegistry';
import { ARRANGEMENT_KEYS } from '../../../src/views/groupArrangement';
import type { GroupsView } from '../../../src/views/groupsView';
import type { ClusterNode, GroupNode, TreeNode } from '../../../src/views/treeNodes';
import { FakeMemento, installFreshVscodeStub, StubHost, type FakeTreeView } from './vscodeStub';

type GroupsViewModule = typeof import('../../../src/views/groupsView');
type QueryCommandsModule = typeof import('../../../src/commands/groupQueryCommands');

describe('views: filter, sort and Find Group over the simulator', () => {
  let host: StubHost;
  let uninstall: () => void;
  let views: GroupsViewModule;
  let commands: QueryCommandsModule;
  let log: LogOutputChannel;
  let registry: SourceRegistry;
  let state: FakeMemento;
  let view: GroupsView;
  let treeView: FakeTreeView;
  let disposables: Array<{ dispose(): unknown }>;

  before(() => {
    host = new StubHost();
    host.config.set('kafkaGroupLens.refreshIntervalSeconds', 0);
    uninstall = installFreshVscodeStub(host);
    /* eslint-disable @typescript-eslint/no-require-imports -- loaded after the stub is installed */
    views = require('../../../src/views/groupsView') as GroupsViewModule;
    commands = require('../../../src/commands/groupQueryCommands') as QueryCommandsModule;
    log = (require('vscode') as typeof import('vscode')).window.createOutputChannel('test', { log: true });
    /* eslint-enable @typescript-eslint/no-require-imports */
  });

  after(() => uninstall());

  function open(): void {
    host.views.length = 0;
    view = views.createGroupsView(registry, log, undefined, state);
    treeView = host.views[0];
    disposables = [view, ...commands.registerGroupQueryCommands(view, log)];
  }

  beforeEach(() => {
    registry = new SourceRegistry();
    const { simulation } = buildScenario(DEMO_SCENARIO, { startTime: 0 });
    const simulator = new SimSource(simulation, { id: 'simulator' });
    simulator.advance(60_000);
    registry.add({ source: simulator, control: simulator.control });
    state = new FakeMemento();
    host.answers.length = 0;
    host.infoMessages.length = 0;
    open();
  });

  afterEach(async () => {
    disposables.forEach((d) => d.dispose());
    await registry.disposeAll();
  });

  const run = (id: string, ...answers: string[]): Promise<unknown> => {
    host.answers.push(...answers);
    return Promise.resolve(host.commands.get(id)?.());
  };

  async function cluster(): Promise<ClusterNode> {
    const [row] = (await treeView.treeDataProvider.getChildren()) as ClusterNode[];
    for (let i = 0; i < 100 && row.state.status !== 'loaded'; i++) {
      await treeView.treeDataProvider.getChildren(row);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.equal(row.state.status, 'loaded');
    return row;
  }

  async function rows(): Promise<string[]> {
    const children = (await treeView.treeDataProvider.getChildren(await cluster())) as TreeNode[];
    return children.map((n) => (n.kind === 'group' ? n.summary.groupId : n.kind === 'message' ? `(${n.text})` : n.kind));
  }

  const ALL = ['<b>weird</b>&group', 'billing-archive', 'inventory-sync', 'orders-processor', 'payments-audit'];

  it('lists every group by name until a filter or sort is chosen, with no message', async () => {
    assert.deepEqual(await rows(), ALL);
    assert.equal(treeView.message, undefined);
    assert.equal(host.contextKeys.get('kafkaGroupLens.groupFilterActive'), false);
  });

  const filters: Array<[string, string[]]> = [
    ['*-*', ['billing-archive', 'inventory-sync', 'orders-processor', 'payments-audit']],
    ['pay*', ['payments-audit']],
    ['PROCESS', ['orders-processor']],
    ['"<b>"', ['<b>weird</b>&group']],
    ['state:stable', ['<b>weird</b>&group', 'orders-processor', 'payments-audit']],
    ['state:rebalancing', ['inventory-sync']],
    ['state:empty,preparingrebalance', ['billing-archive', 'inventory-sync']],
    ['type:simple', ['billing-archive']],
    ['type:classic has:members', ['<b>weird</b>&group', 'inventory-sync', 'orders-processor', 'payments-audit']],
    ['no:members', ['billing-archive']],
    ['has:lag', ALL],
    ['no:lag', []],
    // Every group is OK while its first samples are collected; none is stalled yet.
    ['health:ok', ALL],
    ['health:stalled,stopped', []],
  ];
  for (const [text, expected] of filters) {
    it(`filters "${text}"`, async () => {
      await cluster();
      await run('kafkaGroupLens.filterGroups', text);
      assert.deepEqual(await rows(), expected.length ? expected : ['(No groups match the filter (5 hidden))']);
      assert.match(treeView.message ?? '', new RegExp(`^Filter: .*\\(${expected.length} of 5 groups\\)$`));
      assert.equal(host.contextKeys.get('kafkaGroupLens.groupFilterActive'), true);
    });
  }

  it('clears the filter in one command, and an empty filter clears it too', async () => {
    await cluster();
    await run('kafkaGroupLens.filterGroups', 'pay*');
    await run('kafkaGroupLens.clearGroupFilter');
    assert.deepEqual(await rows(), ALL);
    assert.equal(treeView.message, undefined);
    assert.equal(host.contextKeys.get('kafkaGroupLens.groupFilterActive'), false);
    await run('kafkaGroupLens.filterGroups', 'pay*');
    await run('kafkaGroupLens.filterGroups', '  ');
    assert.deepEqual(await rows(), ALL);
    assert.equal(state.get(ARRANGEMENT_KEYS.filter), undefined);
  });

  const sorts: Array<[string[], string[]]> = [
    [['Total lag'], ['billing-archive', 'orders-processor', 'inventory-sync', '<b>weird</b>&group', 'payments-audit']],
    [['Total lag', 'Total lag'], ['payments-audit', '<b>weird</b>&group', 'inventory-sync', 'orders-processor', 'billing-archive']],
    [['Member count'], ['orders-processor', 'payments-audit', '<b>weird</b>&group', 'inventory-sync', 'billing-archive']],
    [['State'], ['<b>weird</b>&group', 'orders-processor', 'payments-audit', 'inventory-sync', 'billing-archive']],
    [['Name'], [...ALL].reverse()],
    // The oldest unconsumed record first: billing-archive has read nothing since the start; <b>weird</b>&group's
    // lagging partition was produced to this instant (0 ms).
    [['Lag in time'], ['billing-archive', 'orders-processor', 'inventory-sync', 'payments-audit', '<b>weird</b>&group']],
  ];
  for (const [picks, expected] of sorts) {
    it(`sorts by ${picks.join(', then ')}`, async () => {
      await cluster();
      for (const pick of picks) {
        await run('kafkaGroupLens.sortGroups', pick);
      }
      assert.deepEqual(await rows(), expected);
    });
  }

  it('keeps the filter and the sort per workspace: a new view shows the same rows', async () => {
    await cluster();
    await run('kafkaGroupLens.filterGroups', 'has:members');
    await run('kafkaGroupLens.sortGroups', 'Total lag');
    const before = await rows();
    disposables.forEach((d) => d.dispose());
    open();
    assert.deepEqual(await rows(), before);
    assert.equal(state.get(ARRANGEMENT_KEYS.filter), 'has:members');
    assert.deepEqual(state.get(ARRANGEMENT_KEYS.sort), { key: 'totalLag', descending: true });
  });

  it('drops a saved filter that no longer parses, saying so in the log', async () => {
    await state.update(ARRANGEMENT_KEYS.filter, 'colour:blue');
    disposables.forEach((d) => d.dispose());
    open();
    assert.deepEqual(await rows(), ALL);
  });

  it('shows the cluster on the status bar and reveals its worst group on a click', async () => {
    await cluster();
    await run('kafkaGroupLens.filterGroups', 'pay*');
    const item = host.statusBarItems.at(-1);
    assert.ok(item?.visible);
    assert.match(item.text, /^\$\((pass|warning)\) \d+\/5 not OK · behind 1m$/);
    await run('kafkaGroupLens.revealWorstGroup');
    assert.equal((treeView.revealed.at(-1) as GroupNode).summary.groupId, 'billing-archive', 'the group furthest behind');
    assert.equal(treeView.message, undefined, 'the filter that hid it is cleared');
  });

  it('Find Group… reveals the picked row, clearing a filter that hides it', async () => {
    await cluster();
    await run('kafkaGroupLens.findGroup', 'inventory-sync');
    const revealed = treeView.revealed.at(-1) as GroupNode;
    assert.equal(revealed.summary.groupId, 'inventory-sync');
    await run('kafkaGroupLens.filterGroups', 'pay*');
    await run('kafkaGroupLens.findGroup', 'orders-processor');
    assert.equal((treeView.revealed.at(-1) as GroupNode).summary.groupId, 'orders-processor');
    assert.equal(treeView.message, undefined, 'the filter that hid it is cleared');
    assert.match(host.infoMessages.at(-1) ?? '', /hid "orders-processor"/);
  });
});
