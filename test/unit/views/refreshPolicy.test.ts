/**
 * The tree's refresh policy end to end (createGroupsView over the vscode stub, the real simulator and fake
 * real clusters), with one hand-driven clock for the scheduler, the retries and the simulator's pacing:
 * a source's push reloads that source only; failed clusters are retried with backoff, and never on their
 * own after a rejected login. The figures in the test names are the acceptance bounds of issue 15.
 */
import { strict as assert } from 'assert';
import type { LogOutputChannel } from 'vscode';
import { ExponentialBackoff } from '../../../src/views/exponentialBackoff';
import { buildScenario } from '../../../src/simulator/scenarios/runScenario';
import { DEMO_SCENARIO } from '../../../src/simulator/scenarios/demo';
import { SimSource } from '../../../src/simulator/editor/simSource';
import { SourceRegistry } from '../../../src/sources/sourceRegistry';
import type { ClusterNode, TreeNode } from '../../../src/views/treeNodes';
import type { GroupsView, GroupsViewClock } from '../../../src/views/groupsView';
import { FakeSource, groupDetail } from './fakeSource';
import { ManualTimers } from './manualTimers';
import { installFreshVscodeStub, StubHost, type FakeTreeView } from './vscodeStub';

type GroupsViewModule = typeof import('../../../src/views/groupsView');

const SECOND = 1000;
const MINUTE = 60 * SECOND;

function failure(message: string, kind: string): Error {
  return Object.assign(new Error(message), { kind });
}

function listGroupsCalls(source: FakeSource): number {
  return source.calls.filter((c) => c === 'listGroups').length;
}

describe('views/groupsView refresh policy (simulated time)', () => {
  let host: StubHost;
  let uninstall: () => void;
  let createGroupsView: GroupsViewModule['createGroupsView'];
  let log: LogOutputChannel;
  let timers: ManualTimers;
  let registry: SourceRegistry;
  let view: GroupsView | undefined;
  let treeView: FakeTreeView;
  /** The cluster rows' descriptions, in the order the tree rendered them. */
  let rendered: Map<string, string[]>;

  before(() => {
    host = new StubHost();
    host.config.set('kafkaGroupLens.refreshIntervalSeconds', 5);
    uninstall = installFreshVscodeStub(host);
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after the stub is installed
    ({ createGroupsView } = require('../../../src/views/groupsView') as GroupsViewModule);
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the stub's output channel
    log = (require('vscode') as typeof import('vscode')).window.createOutputChannel('test', { log: true });
  });

  after(() => uninstall());

  beforeEach(() => {
    timers = new ManualTimers();
    timers.time = new Date(2026, 11, 3, 10, 0, 0).getTime();
    registry = new SourceRegistry();
    rendered = new Map();
    host.views.length = 0;
  });

  afterEach(async () => {
    view?.dispose();
    view = undefined;
    await registry.disposeAll();
  });

  /** Creates the view and renders it as VS Code does: every reported node is asked for again. */
  async function openView(random?: () => number): Promise<void> {
    const clock: GroupsViewClock = { timers, now: timers.clock, random };
    view = createGroupsView(registry, log, clock);
    treeView = host.views[0];
    const provider = treeView.treeDataProvider;
    const render = async (node?: unknown): Promise<void> => {
      for (const child of (await provider.getChildren(node)) as TreeNode[]) {
        if (child.kind === 'cluster') {
          const descriptions = rendered.get(child.sourceId) ?? [];
          descriptions.push(String(provider.getTreeItem(child).description));
          rendered.set(child.sourceId, descriptions);
          await provider.getChildren(child);
        }
      }
    };
    provider.onDidChangeTreeData?.((node) => void render((node as TreeNode | undefined)?.kind === 'cluster' ? undefined : node));
    await render();
    await timers.run(0);
  }

  async function clusterRow(sourceId: string): Promise<ClusterNode> {
    const rows = (await treeView.treeDataProvider.getChildren()) as ClusterNode[];
    const row = rows.find((r) => r.sourceId === sourceId);
    assert.ok(row, `a row for ${sourceId}`);
    return row;
  }

  it('reloads a real cluster at the refresh interval only, while the simulator pushes its changes every second', async () => {
    const { simulation } = buildScenario(DEMO_SCENARIO, { startTime: timers.time });
    const simulator = new SimSource(simulation, { id: 'simulator', live: { speed: 1, timers }, notifyTimers: timers });
    let simulatorLoads = 0;
    // The view loads the simulator's groups with their details (for the lag samples).
    const countedListGroupDetails = simulator.listGroupDetails.bind(simulator);
    simulator.listGroupDetails = () => {
      simulatorLoads++;
      return countedListGroupDetails();
    };
    const prod = new FakeSource('prod', 'Production', 'kafka').put(groupDetail('orders'));
    registry.add({ source: simulator, control: simulator.control });
    registry.add({ source: prod });
    await openView();

    await timers.run(10 * MINUTE);
    // 120 interval refreshes in 10 minutes, plus the first load; before the fix every simulator push reloaded it too (~720).
    const prodLoads = listGroupsCalls(prod);
    assert.ok(prodLoads <= 121, `the real cluster was loaded ${prodLoads} times in 10 simulated minutes`);
    assert.ok(simulatorLoads >= 500, `the simulator's pushes still reload it (${simulatorLoads} loads)`);
    assert.ok(host.logLines.some((l) => l.level === 'trace' && l.message === 'Refreshing consumer groups (source-change: simulator)'));
  });

  it('asks for a rejected login at most once in 10 minutes without the user, and once more when the user retries', async () => {
    const prod = new FakeSource('prod', 'Production', 'kafka');
    prod.listError = failure('SASL SCRAM-SHA-512 authentication failed for user "alice"', 'authentication');
    registry.add({ source: prod });
    await openView();

    await timers.run(10 * MINUTE);
    assert.equal(listGroupsCalls(prod), 1, 'the first load only: no automatic retry of a rejected login');
    assert.deepEqual(rendered.get('prod')?.slice(-1), ['Kafka · SASL SCRAM-SHA-512 authentication failed for user "alice" · no automatic retry']);

    await view?.refreshSource('prod');
    assert.equal(listGroupsCalls(prod), 2, "the user's Retry tries once");
    await timers.run(10 * MINUTE);
    assert.equal(listGroupsCalls(prod), 2, 'and waits for the user again');

    prod.listError = failure('Not authorized to describe the cluster', 'authorization');
    await view?.refreshNow();
    await timers.run(10 * MINUTE);
    assert.equal(listGroupsCalls(prod), 3, 'an authorization failure waits for the user too');
  });

  it('retries an unreachable cluster with exponential backoff, keeps the error on the row meanwhile, and starts over after a success', async () => {
    const prod = new FakeSource('prod', 'Production', 'kafka').put(groupDetail('orders'));
    prod.listError = failure('Connection refused by 10.0.0.9:9092', 'unreachable');
    registry.add({ source: prod });
    await openView(() => 0.5); // no jitter: the delays are exactly 5 s, 10 s, 20 s …

    await timers.run(16 * MINUTE);
    const loads = listGroupsCalls(prod);
    // 0, 5, 15, 35, 75, 155, 315, 615, 915 s (plus the 0.5 s coalescing window each): 9 loads instead of ~1,000.
    assert.equal(loads, 9, `loads of an unreachable cluster in 16 simulated minutes: ${loads}`);
    const descriptions = rendered.get('prod') ?? [];
    const firstError = descriptions.findIndex((d) => d.includes('Connection refused'));
    assert.ok(firstError >= 0, descriptions.join('\n'));
    assert.deepEqual(
      descriptions.slice(firstError).filter((d) => d.includes('loading')),
      [],
      'automatic retries never replace the error with "loading…"',
    );
    assert.match(descriptions.at(-1) ?? '', /^Kafka · Connection refused by 10\.0\.0\.9:9092 · retry at \d\d:\d\d:\d\d$/);
    const row = await clusterRow('prod');
    assert.equal(row.state.status === 'error' && row.state.nextRetry?.kind, 'scheduled');

    prod.listError = undefined;
    await timers.run(5 * MINUTE);
    assert.equal((await clusterRow('prod')).state.status, 'loaded');
    const afterSuccess = listGroupsCalls(prod);
    prod.listError = failure('Connection refused by 10.0.0.9:9092', 'unreachable');
    await timers.run(5 * SECOND + 100);
    assert.equal(listGroupsCalls(prod), afterSuccess + 1, 'the interval load fails');
    await timers.run(5 * SECOND + 600);
    assert.equal(listGroupsCalls(prod), afterSuccess + 2, 'and the backoff starts over at 5 s');
  });

  it('spreads the retry delays by ±20 % and caps them at 5 minutes', () => {
    const low = new ExponentialBackoff(undefined, () => 0);
    const high = new ExponentialBackoff(undefined, () => 0.999999);
    assert.deepEqual([0, 1, 2, 3].map((n) => low.backoff(n)), [4000, 8000, 16000, 32000]);
    assert.deepEqual([0, 1, 2, 3].map((n) => high.backoff(n)), [5999, 11999, 23999, 47999]);
    assert.equal(high.backoff(20), 5 * MINUTE);
    assert.equal(low.backoff(20), 4 * MINUTE);
    assert.throws(() => new ExponentialBackoff({ initialIntervalMs: 0, multiplier: 2, maxIntervalMs: 1, jitter: 0.2 }), /Invalid backoff settings/);
  });
});
