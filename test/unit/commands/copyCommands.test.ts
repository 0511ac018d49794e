/** Copy Group Id, Member Id, Offsets (CSV and as the CLI prints them) and Partition Offsets over the simulator. */
import { strict as assert } from 'assert';
import type { LogOutputChannel } from 'vscode';
import { buildScenario } from '../../../src/simulator/scenarios/runScenario';
import { DEMO_SCENARIO } from '../../../src/simulator/scenarios/demo';
import { SimSource } from '../../../src/simulator/editor/simSource';
import { SourceRegistry } from '../../../src/sources/sourceRegistry';
import { parseResetCsv } from '../../../src/offsets/csv';
import { offsetsAsDescribed } from '../../../src/commands/copyFormats';
import type { TreeNode } from '../../../src/views/treeNodes';
import { groupDetail, member } from '../views/fakeSource';
import { installVscodeStub, StubHost } from '../views/vscodeStub';

type CopyModule = typeof import('../../../src/commands/copyCommands');

describe('commands/copyCommands (vscode stub, simulator)', () => {
  let host: StubHost;
  let uninstall: () => void;
  let registry: SourceRegistry;
  let simulator: SimSource;
  let disposables: Array<{ dispose(): unknown }>;

  // Only the modules that bind `vscode` are loaded afresh: clearing every src module (installFreshVscodeStub) would
  // give later suites copies of the sources other than the ones their files imported.
  const bound = ['../../../src/commands/copyCommands', '../../../src/commands/commandRunner'].map((m) => require.resolve(m));
  const forget = (): void => bound.forEach((id) => delete require.cache[id]);

  before(() => {
    host = new StubHost();
    forget();
    uninstall = installVscodeStub(host);
    /* eslint-disable @typescript-eslint/no-require-imports -- loaded after the stub is installed */
    const { registerCopyCommands } = require('../../../src/commands/copyCommands') as CopyModule;
    const log: LogOutputChannel = (require('vscode') as typeof import('vscode')).window.createOutputChannel('test', { log: true });
    /* eslint-enable @typescript-eslint/no-require-imports */
    registry = new SourceRegistry();
    const { simulation } = buildScenario(DEMO_SCENARIO, { startTime: 0 });
    simulator = new SimSource(simulation, { id: 'simulator' });
    simulator.advance(60_000);
    registry.add({ source: simulator, control: simulator.control });
    disposables = registerCopyCommands(registry, log);
  });

  after(async () => {
    disposables.forEach((d) => d.dispose());
    await registry.disposeAll();
    uninstall();
    forget();
  });

  const run = (id: string, node: TreeNode, ...answers: string[]): Promise<unknown> => {
    host.answers.push(...answers);
    return Promise.resolve(host.commands.get(id)?.(node));
  };

  async function groupRow(groupId: string): Promise<TreeNode> {
    const summary = (await simulator.listGroups()).find((g) => g.groupId === groupId);
    assert.ok(summary);
    return { kind: 'group', id: `g/${groupId}`, sourceId: 'simulator', sourceKind: 'simulator', summary };
  }

  it('copies the group id and a member id', async () => {
    await run('kafkaGroupLens.copyGroupId', await groupRow('<b>weird</b>&group'));
    assert.equal(host.clipboard.at(-1), '<b>weird</b>&group');
    const detail = await simulator.describeGroup('orders-processor');
    const [first] = detail.members;
    await run('kafkaGroupLens.copyMemberId', { kind: 'member', id: 'm', sourceId: 'simulator', sourceKind: 'simulator', groupId: 'orders-processor', member: first, partitions: [] });
    assert.equal(host.clipboard.at(-1), first.memberId);
  });

  it('copies the committed offsets as the CSV --from-file reads, which parses back to them', async () => {
    await run('kafkaGroupLens.copyOffsets', await groupRow('billing-archive'), 'As CSV');
    const parsed = parseResetCsv(host.clipboard.at(-1) ?? '');
    assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
    const detail = await simulator.describeGroup('billing-archive');
    assert.deepEqual(
      parsed.rows.map((r) => `${r.topic}-${r.partition}=${r.offset}`).sort(),
      detail.offsets.filter((o) => o.committedOffset !== null).map((o) => `${o.topic}-${o.partition}=${o.committedOffset}`).sort(),
    );
  });

  it('copies the offsets as kafka-consumer-groups.sh --describe prints them', async () => {
    await run('kafkaGroupLens.copyOffsets', await groupRow('orders-processor'), 'As the CLI prints them');
    const lines = (host.clipboard.at(-1) ?? '').split('\n');
    assert.equal(lines[0], '', 'the CLI starts the table with a blank line');
    assert.match(lines[1], /^GROUP\s+TOPIC\s+PARTITION\s+CURRENT-OFFSET\s+LOG-END-OFFSET\s+LAG\s+CONSUMER-ID\s+HOST\s+CLIENT-ID$/);
    assert.match(lines[2], /^orders-processor\s+orders\s+0\s+\d+\s+\d+\s+\d+\s+\S+\s+\S+\s+\S+$/);
  });

  it('pads the --describe columns to 15 or the longest value, and prints "-" for what is missing', () => {
    const detail = groupDetail('g', { members: [member('consumer-1-0123456789abcdef', { clientId: 'c1', clientHost: '/10.0.0.1', assignment: [{ topic: 't', partition: 0 }] })] });
    detail.offsets = [
      { topic: 't', partition: 0, committedOffset: 5, logStartOffset: 0, logEndOffset: 9, lag: 4, ownerMemberId: 'consumer-1-0123456789abcdef' },
      { topic: 't', partition: 1, committedOffset: null, logStartOffset: 0, logEndOffset: 3, lag: null, ownerMemberId: null },
    ];
    const printed = offsetsAsDescribed(detail).split('\n');
    assert.equal(printed[2], `${'g'.padEnd(15)} ${'t'.padEnd(15)} ${'0'.padEnd(10)} ${'5'.padEnd(15)} ${'9'.padEnd(15)} ${'4'.padEnd(15)} consumer-1-0123456789abcdef ${'/10.0.0.1'.padEnd(15)} c1`);
    assert.equal(printed[3], `${'g'.padEnd(15)} ${'t'.padEnd(15)} ${'1'.padEnd(10)} ${'-'.padEnd(15)} ${'3'.padEnd(15)} ${'-'.padEnd(15)} ${'-'.padEnd(27)} ${'-'.padEnd(15)} -`);
  });

  it('copies a partition row', async () => {
    await run('kafkaGroupLens.copyPartitionOffsets', { kind: 'partition', id: 'p', role: 'assigned', offsets: { topic: 'orders', partition: 3, committedOffset: 120, logStartOffset: 0, logEndOffset: 150, lag: 30 } });
    assert.equal(host.clipboard.at(-1), 'orders-3: committed 120, log end 150, lag 30');
  });
});
