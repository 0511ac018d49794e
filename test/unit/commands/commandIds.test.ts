/**
 * package.json's contributions against the code: every command registered is contributed and the other
 * way round, and the context-menu `when` clauses select the rows the commands are meant for, evaluated
 * against the contextValues the tree model really produces.
 */
import { strict as assert } from 'assert';
import { readFileSync } from 'fs';
import { join } from 'path';
import { COMMANDS, SIMULATOR_ACTIVE_CONTEXT } from '../../../src/commands/commandIds';
import { describeNode } from '../../../src/views/groupTreeModel';
import { nodeIds, type TreeNode } from '../../../src/views/treeNodes';
import type { SimulatedConsumerInfo } from '../../../src/simulator/control';
import { BUILT_IN_SCENARIO_NAMES } from '../../../src/simulator/simSource';
import { groupDetail, member, summaryOf } from '../views/fakeSource';

interface MenuEntry {
  command: string;
  when?: string;
  group?: string;
}
interface Manifest {
  contributes: {
    commands: Array<{ command: string; title: string; category?: string; icon?: string }>;
    menus: Record<string, MenuEntry[]>;
    views: Record<string, Array<{ id: string }>>;
    viewsContainers: { activitybar: Array<{ id: string; icon: string }> };
    configuration: { properties: Record<string, { default: unknown; enum?: unknown[] }> };
  };
}

const manifest = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as Manifest;
const VIEW = 'kafkaGroupLens.groups';

/** Evaluates the subset of when-clause syntax the manifest uses: `a && b`, `view == x`, `viewItem =~ /re/`. */
function whenMatches(when: string, context: { view: string; viewItem: string }): boolean {
  return when.split('&&').every((raw) => {
    const term = raw.trim();
    const equals = /^view == (\S+)$/.exec(term);
    if (equals) {
      return context.view === equals[1];
    }
    const regex = /^viewItem =~ \/(.+)\/$/.exec(term);
    if (regex) {
      return new RegExp(regex[1]).test(context.viewItem);
    }
    throw new Error(`Unhandled when term "${term}"`);
  });
}

const ownCommands = new Set<string>(Object.values(COMMANDS));

/** The view and simulator commands a row's context menu offers (other features' entries are theirs to test). */
function contextCommands(node: TreeNode): string[] {
  const viewItem = describeNode(node).contextValue;
  const entries = manifest.contributes.menus['view/item/context'].filter(
    (e) => ownCommands.has(e.command) && whenMatches(e.when ?? '', { view: VIEW, viewItem }),
  );
  return [...new Set(entries.map((e) => e.command))].sort();
}

function memberRow(kind: 'simulator' | 'kafka', instanceId: string | null, status?: SimulatedConsumerInfo['status']): TreeNode {
  const m = member('m-1', { groupInstanceId: instanceId });
  return {
    kind: 'member',
    id: nodeIds.member('s', 'g', 'm-1'),
    sourceId: 's',
    sourceKind: kind,
    groupId: 'g',
    member: m,
    partitions: [],
    consumer: status ? { handle: 'h', groupId: 'g', clientId: 'c', groupInstanceId: instanceId, memberId: 'm-1', status } : undefined,
  };
}

const sorted = (...ids: string[]): string[] => [...ids].sort();

/** The offset and group-administration commands every group row offers, on both kinds of cluster. */
const GROUP_ADMIN = [
  COMMANDS.resetOffsets,
  COMMANDS.importResetPlan,
  COMMANDS.undoLastReset,
  COMMANDS.deleteOffsets,
  COMMANDS.deleteGroup,
  COMMANDS.removeStaticMembers,
];

describe('commands/commandIds against package.json', () => {
  it('contributes every view and simulator command, each with the category and an icon', () => {
    // Other features contribute commands too; test/unit/views/activation.test.ts checks that every
    // contributed command is registered at activation.
    const contributed = new Map(manifest.contributes.commands.map((c) => [c.command, c]));
    for (const id of Object.values(COMMANDS)) {
      const c = contributed.get(id);
      assert.ok(c, `${id} is not contributed`);
      assert.equal(c.category, 'Kafka Group Lens', id);
      assert.match(c.icon ?? '', /^\$\([a-z-]+\)$/, id);
    }
  });

  it('only names contributed commands in menus', () => {
    const known = new Set(manifest.contributes.commands.map((c) => c.command));
    for (const [menu, entries] of Object.entries(manifest.contributes.menus)) {
      for (const entry of entries) {
        assert.ok(known.has(entry.command), `${menu} names unknown ${entry.command}`);
      }
    }
  });

  it('puts the view in its own activity-bar container with an icon, and refresh on the view toolbar', () => {
    const [container] = manifest.contributes.viewsContainers.activitybar;
    assert.match(container.icon, /^media\/.+\.svg$/);
    assert.deepEqual(manifest.contributes.views[container.id].map((v) => v.id), [VIEW]);
    assert.deepEqual(manifest.contributes.menus['view/title'], [
      { command: COMMANDS.refresh, when: `view == ${VIEW}`, group: 'navigation@1' },
      { command: COMMANDS.addCluster, when: `view == ${VIEW}`, group: 'navigation@0' },
    ]);
  });

  it('offers the simulator commands on simulator clusters and the connection commands on real ones', () => {
    const cluster = (kind: 'simulator' | 'kafka', status: 'loaded' | 'error'): TreeNode => ({
      kind: 'cluster',
      id: 'c',
      sourceId: 's',
      sourceKind: kind,
      label: 'x',
      state: status === 'error' ? { status, message: 'boom' } : { status, info: { clusterId: 'c', controllerId: 1, brokers: [] }, groups: [] },
    });
    const simCommands = [COMMANDS.addConsumerGroup, COMMANDS.createTopic, COMMANDS.produceRecords, COMMANDS.stopProducer, COMMANDS.exposeSimulator, COMMANDS.stopExposingSimulator];
    assert.deepEqual(contextCommands(cluster('simulator', 'loaded')), sorted(...simCommands));
    const connectionCommands = [COMMANDS.editCluster, COMMANDS.removeCluster, COMMANDS.testCluster];
    assert.deepEqual(contextCommands(cluster('kafka', 'loaded')), sorted(...connectionCommands));
    assert.deepEqual(contextCommands(cluster('kafka', 'error')), sorted(COMMANDS.retry, ...connectionCommands));
    assert.deepEqual(contextCommands(cluster('simulator', 'error')), sorted(COMMANDS.retry, ...simCommands));
  });

  it('offers "Add Consumer…" on simulator groups in every state, never on real clusters', () => {
    for (const state of ['Stable', 'Empty', 'PreparingRebalance', 'Dead'] as const) {
      const group: TreeNode = { kind: 'group', id: 'g', sourceId: 's', sourceKind: 'simulator', summary: summaryOf(groupDetail('g', { state })) };
      assert.deepEqual(contextCommands(group), sorted(COMMANDS.addConsumer, ...GROUP_ADMIN), state);
    }
    const kafkaGroup: TreeNode = { kind: 'group', id: 'g', sourceId: 's', sourceKind: 'kafka', summary: summaryOf(groupDetail('g')) };
    assert.deepEqual(contextCommands(kafkaGroup), sorted(...GROUP_ADMIN));
  });

  it('offers reset, undo, delete and member removal on groups of both kinds in every state, errors and lag included', () => {
    for (const sourceKind of ['simulator', 'kafka'] as const) {
      for (const state of ['Stable', 'Empty', 'CompletingRebalance', 'Dead'] as const) {
        for (const extra of [{}, { error: 'boom' }, { totalLag: 5 }]) {
          const summary = { ...summaryOf(groupDetail('g', { state })), ...extra };
          const group: TreeNode = { kind: 'group', id: 'g', sourceId: 's', sourceKind, summary };
          const offered = contextCommands(group).filter((id) => id !== COMMANDS.addConsumer);
          assert.deepEqual(offered, sorted(...GROUP_ADMIN), `${sourceKind} ${describeNode(group).contextValue}`);
        }
      }
    }
  });

  it('offers member actions by membership and consumer status', () => {
    const live = [COMMANDS.stopConsumer, COMMANDS.crashConsumer, COMMANDS.pausePolling];
    assert.deepEqual(contextCommands(memberRow('simulator', null, 'running')), sorted(...live));
    assert.deepEqual(contextCommands(memberRow('simulator', null, 'paused')), sorted(...live));
    assert.deepEqual(contextCommands(memberRow('simulator', 'inst-1', 'running')), sorted(...live, COMMANDS.restartConsumer, COMMANDS.removeStaticMember));
    assert.deepEqual(contextCommands(memberRow('simulator', null, 'crashed')), [COMMANDS.restartConsumer]);
    assert.deepEqual(contextCommands(memberRow('simulator', 'inst-1', 'stopped')), sorted(COMMANDS.restartConsumer, COMMANDS.removeStaticMember));
    assert.deepEqual(contextCommands(memberRow('simulator', null)), [], 'no consumer matched: nothing to act on');
    assert.deepEqual(contextCommands(memberRow('simulator', 'inst-1')), sorted(COMMANDS.restartConsumer, COMMANDS.removeStaticMember), 'the admin removal needs no simulated consumer');
    assert.deepEqual(contextCommands(memberRow('kafka', 'inst-1')), [COMMANDS.removeStaticMember]);
    assert.deepEqual(contextCommands(memberRow('kafka', null)), [], 'dynamic members cannot be removed by instance id');
  });

  it('offers Restart on stopped consumers and nothing on partitions or messages', () => {
    const stopped: TreeNode = {
      kind: 'consumer',
      id: 'x',
      sourceId: 's',
      consumer: { handle: 'h', groupId: 'g', clientId: 'c', groupInstanceId: null, memberId: null, status: 'stopped' },
    };
    assert.deepEqual(contextCommands(stopped), [COMMANDS.restartConsumer]);
    const partition: TreeNode = { kind: 'partition', id: 'p', assigned: true, offsets: { topic: 't', partition: 0, committedOffset: 1, logStartOffset: 0, logEndOffset: 2, lag: 1 } };
    assert.deepEqual(contextCommands(partition), []);
    assert.deepEqual(contextCommands({ kind: 'message', id: 'm', severity: 'error', text: 'x', retrySourceId: 's' }), []);
  });

  it('hides node-only commands from the palette and shows cluster-level ones while a simulator runs', () => {
    const palette = new Map(manifest.contributes.menus.commandPalette.map((e) => [e.command, e.when]));
    for (const id of [COMMANDS.retry, COMMANDS.addConsumer, COMMANDS.stopConsumer, COMMANDS.crashConsumer, COMMANDS.pausePolling, COMMANDS.restartConsumer, ...GROUP_ADMIN, COMMANDS.removeStaticMember]) {
      assert.equal(palette.get(id), 'false', id);
    }
    for (const id of [COMMANDS.addConsumerGroup, COMMANDS.createTopic, COMMANDS.produceRecords, COMMANDS.stopProducer]) {
      assert.equal(palette.get(id), SIMULATOR_ACTIVE_CONTEXT, id);
    }
    assert.equal(palette.has(COMMANDS.refresh), false, 'refresh stays in the palette');
  });

  it('declares the settings with their defaults', () => {
    const props = manifest.contributes.configuration.properties;
    assert.equal(props['kafkaGroupLens.refreshIntervalSeconds'].default, 5);
    assert.equal(props['kafkaGroupLens.simulator.enabled'].default, true);
    assert.equal(props['kafkaGroupLens.simulator.speed'].default, 1);
    assert.deepEqual(props['kafkaGroupLens.readCommittedGroups'].default, []);
    assert.equal(props['kafkaGroupLens.simulator.scenario'].default, 'demo');
    assert.deepEqual(props['kafkaGroupLens.simulator.scenario'].enum, BUILT_IN_SCENARIO_NAMES, 'the setting offers exactly the built-in scenarios');
  });
});
