/**
 * package.json's context-menu `when` clauses select the rows the commands are meant for, evaluated against the
 * contextValues the tree really produces (the ids themselves are checked in test/unit/constants.test.ts).
 */
import { strict as assert } from 'assert';
import { readFileSync } from 'fs';
import { join } from 'path';
import { COMMANDS, VIEWS } from '../../../src/constants';
import { describeNode } from '../../../src/views/groupTreeRows';
import { nodeIds, type TreeNode } from '../../../src/views/treeNodes';
import type { SimulatedConsumerInfo } from '../../../src/simulator/common/control';
import { groupDetail, member, summaryOf } from './fakeSource';

interface MenuEntry {
  command: string;
  when?: string;
  group?: string;
}
interface Manifest {
  contributes: { menus: Record<string, MenuEntry[]> };
}

const manifest = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as Manifest;
const VIEW = VIEWS.groups;

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

/** The commands a row's context menu offers. */
function contextCommands(node: TreeNode): string[] {
  const viewItem = describeNode(node).contextValue;
  const entries = manifest.contributes.menus['view/item/context'].filter(
    (e) => whenMatches(e.when ?? '', { view: VIEW, viewItem }),
  );
  return [...new Set(entries.map((e) => e.command))].sort();
}

/** Copy Member Id is on every member row; the checks below are about the other commands. */
function memberCommands(node: TreeNode): string[] {
  const offered = contextCommands(node);
  assert.ok(offered.includes(COMMANDS.copyMemberId), 'Copy Member Id on every member row');
  return offered.filter((id) => id !== COMMANDS.copyMemberId);
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

/** The timeline, offset and group-administration commands every group row offers, on both kinds of cluster. */
const GROUP_COMMANDS = [
  COMMANDS.openTimeline,
  COMMANDS.openDashboard,
  COMMANDS.resetOffsets,
  COMMANDS.importResetPlan,
  COMMANDS.undoLastReset,
  COMMANDS.deleteOffsets,
  COMMANDS.deleteGroup,
  COMMANDS.removeStaticMembers,
  COMMANDS.copyGroupId,
  COMMANDS.copyOffsets,
];

describe('views: context menus against the rows the tree builds', () => {
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
    const transactionCommands = [COMMANDS.findHangingTransactions, COMMANDS.abortTransaction];
    assert.deepEqual(contextCommands(cluster('simulator', 'loaded')), sorted(...simCommands, ...transactionCommands));
    const connectionCommands = [COMMANDS.editCluster, COMMANDS.removeCluster, COMMANDS.testCluster];
    assert.deepEqual(contextCommands(cluster('kafka', 'loaded')), sorted(...connectionCommands, ...transactionCommands));
    assert.deepEqual(contextCommands(cluster('kafka', 'error')), sorted(COMMANDS.retry, ...connectionCommands));
    assert.deepEqual(contextCommands(cluster('simulator', 'error')), sorted(COMMANDS.retry, ...simCommands));
  });

  it('offers "Add Consumer…" on simulator groups in every state, never on real clusters', () => {
    for (const state of ['Stable', 'Empty', 'PreparingRebalance', 'Dead'] as const) {
      const group: TreeNode = { kind: 'group', id: 'g', sourceId: 's', sourceKind: 'simulator', summary: summaryOf(groupDetail('g', { state })) };
      assert.deepEqual(contextCommands(group), sorted(COMMANDS.addConsumer, ...GROUP_COMMANDS), state);
    }
    const kafkaGroup: TreeNode = { kind: 'group', id: 'g', sourceId: 's', sourceKind: 'kafka', summary: summaryOf(groupDetail('g')) };
    assert.deepEqual(contextCommands(kafkaGroup), sorted(...GROUP_COMMANDS));
  });

  it('offers reset, undo, delete and member removal on groups of both kinds in every state, errors and lag included', () => {
    for (const sourceKind of ['simulator', 'kafka'] as const) {
      for (const state of ['Stable', 'Empty', 'CompletingRebalance', 'Dead'] as const) {
        for (const extra of [{}, { error: 'boom' }, { totalLag: 5 }]) {
          const summary = { ...summaryOf(groupDetail('g', { state })), ...extra };
          const group: TreeNode = { kind: 'group', id: 'g', sourceId: 's', sourceKind, summary };
          const offered = contextCommands(group).filter((id) => id !== COMMANDS.addConsumer);
          assert.deepEqual(offered, sorted(...GROUP_COMMANDS), `${sourceKind} ${describeNode(group).contextValue}`);
        }
      }
    }
  });

  it('offers member actions by membership and consumer status', () => {
    const live = [COMMANDS.stopConsumer, COMMANDS.crashConsumer, COMMANDS.pausePolling];
    assert.deepEqual(memberCommands(memberRow('simulator', null, 'running')), sorted(...live));
    assert.deepEqual(memberCommands(memberRow('simulator', null, 'paused')), sorted(...live));
    assert.deepEqual(memberCommands(memberRow('simulator', 'inst-1', 'running')), sorted(...live, COMMANDS.restartConsumer, COMMANDS.removeStaticMember));
    assert.deepEqual(memberCommands(memberRow('simulator', null, 'crashed')), [COMMANDS.restartConsumer]);
    assert.deepEqual(memberCommands(memberRow('simulator', 'inst-1', 'stopped')), sorted(COMMANDS.restartConsumer, COMMANDS.removeStaticMember));
    assert.deepEqual(memberCommands(memberRow('simulator', null)), [], 'no consumer matched: nothing to act on');
    assert.deepEqual(memberCommands(memberRow('simulator', 'inst-1')), sorted(COMMANDS.restartConsumer, COMMANDS.removeStaticMember), 'the admin removal needs no simulated consumer');
    assert.deepEqual(memberCommands(memberRow('kafka', 'inst-1')), [COMMANDS.removeStaticMember]);
    assert.deepEqual(memberCommands(memberRow('kafka', null)), [], 'dynamic members cannot be removed by instance id');
  });

  it('offers Restart on stopped consumers, Copy and Reset on partitions (share-partitions too), Abort Transaction where the LSO is held, and nothing on messages', () => {
    const stopped: TreeNode = {
      kind: 'consumer',
      id: 'x',
      sourceId: 's',
      consumer: { handle: 'h', groupId: 'g', clientId: 'c', groupInstanceId: null, memberId: null, status: 'stopped' },
    };
    assert.deepEqual(contextCommands(stopped), [COMMANDS.restartConsumer]);
    const partition: TreeNode = { kind: 'partition', id: 'p', role: 'assigned', offsets: { topic: 't', partition: 0, committedOffset: 1, logStartOffset: 0, logEndOffset: 2, lag: 1 } };
    assert.deepEqual(contextCommands(partition), sorted(COMMANDS.copyPartitionOffsets, COMMANDS.resetPartitionOffsets));
    const lagging: TreeNode = { ...partition, role: 'unassigned', offsets: { ...partition.offsets, lag: 5 } };
    assert.deepEqual(contextCommands(lagging), sorted(COMMANDS.copyPartitionOffsets, COMMANDS.resetPartitionOffsets));
    // kafka-share-groups.sh takes topic:partition too.
    assert.deepEqual(contextCommands({ ...partition, share: true }), sorted(COMMANDS.copyPartitionOffsets, COMMANDS.resetPartitionOffsets));
    // An open transaction holds the LSO below the high watermark: it can be aborted from the row.
    const held: TreeNode = { ...partition, offsets: { ...partition.offsets, lastStableOffset: 1, logEndOffset: 4 } };
    assert.deepEqual(contextCommands(held), sorted(COMMANDS.abortTransaction, COMMANDS.copyPartitionOffsets, COMMANDS.resetPartitionOffsets));
    assert.deepEqual(contextCommands({ ...held, offsets: { ...held.offsets, lastStableOffset: 4 } }), sorted(COMMANDS.copyPartitionOffsets, COMMANDS.resetPartitionOffsets), 'LSO at the HW');
    assert.deepEqual(contextCommands({ kind: 'message', id: 'm', severity: 'error', text: 'x', retrySourceId: 's' }), []);
  });

  it('offers Find Hanging and Abort on the Transactions row, and Abort on an open transaction only', () => {
    assert.deepEqual(contextCommands({ kind: 'transactions', id: 't', sourceId: 's' }), sorted(COMMANDS.abortTransaction, COMMANDS.findHangingTransactions));
    const transaction = (state: 'Ongoing' | 'CompleteCommit'): TreeNode => ({ kind: 'transaction', id: 'x', sourceId: 's', readAt: 0, listing: { transactionalId: 'tx', coordinatorId: 1, producerId: 4, state } });
    assert.deepEqual(contextCommands(transaction('Ongoing')), [COMMANDS.abortTransaction]);
    assert.deepEqual(contextCommands(transaction('CompleteCommit')), []);
  });
});
