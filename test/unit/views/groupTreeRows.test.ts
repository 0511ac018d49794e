import { strict as assert } from 'assert';
import { describeNode, formatClockTime, groupStateColor } from '../../../src/views/groupTreeRows';
import { formatCount } from '../../../src/views/rowFormat';
import { nodeIds, type ClusterNode, type GroupNode, type MemberNode, type TreeNode } from '../../../src/views/treeNodes';
import type { GroupState } from '../../../src/model/types';
import type { SimulatedConsumerInfo } from '../../../src/simulator/common/control';
import { groupDetail, member, offsets, summaryOf } from './fakeSource';

function groupNode(detailOverrides: Parameters<typeof groupDetail>[1], kind: GroupNode['sourceKind'] = 'simulator', groupId = 'orders'): GroupNode {
  return { kind: 'group', id: nodeIds.group('sim', groupId), sourceId: 'sim', sourceKind: kind, summary: summaryOf(groupDetail(groupId, detailOverrides)) };
}

function memberNode(overrides: Partial<MemberNode> = {}): MemberNode {
  const m = member('m-1', { clientId: 'orders-client', groupInstanceId: 'inst-1' });
  return {
    kind: 'member',
    id: nodeIds.member('sim', 'orders', m.memberId),
    sourceId: 'sim',
    sourceKind: 'simulator',
    groupId: 'orders',
    member: m,
    partitions: [],
    ...overrides,
  };
}

function consumer(status: SimulatedConsumerInfo['status'], groupInstanceId: string | null = 'inst-1'): SimulatedConsumerInfo {
  return { handle: 'h1', groupId: 'orders', clientId: 'orders-client', groupInstanceId, memberId: 'm-1', status };
}

describe('views/groupTreeRows', () => {
  describe('formatCount', () => {
    it('groups thousands and prints "-" for unknown values', () => {
      assert.equal(formatCount(1204), '1,204');
      assert.equal(formatCount(0), '0');
      assert.equal(formatCount(12_345_678), '12,345,678');
      assert.equal(formatCount(null), '-');
      assert.equal(formatCount(undefined), '-');
    });
  });

  describe('group rows', () => {
    it('shows state, member count and total lag in the description, the group id as label', () => {
      const d = describeNode(
        groupNode({
          members: [member('a'), member('b'), member('c')],
          offsets: [offsets('orders', 0, 0, 1000), offsets('orders', 1, 96, 300)],
        }),
      );
      assert.equal(d.label, 'orders');
      assert.equal(d.description, 'lag 1,204 · Stable · 3 members');
      assert.equal(d.contextValue, 'kgl:group:sim:classic:Stable:hasLag');
      assert.deepEqual(d.icon, { id: 'layers', color: 'testing.iconPassed' });
      assert.equal(d.collapsible, 'collapsed');
    });

    it('counts partitions with pending transactional offsets', () => {
      const d = describeNode(groupNode({ members: [member('a')], offsets: [offsets('orders', 0, 5, 5)], pendingTransactionalPartitions: 2 }));
      assert.equal(d.description, 'lag 0 · Stable · 1 member · 2 pending transactional offsets');
    });

    it('uses the singular for one member and "-" for unknown lag', () => {
      const d = describeNode(groupNode({ members: [member('a')], offsets: [offsets('orders', 0, null, 10)] }, 'kafka'));
      assert.equal(d.description, 'lag - · Stable · 1 member');
      assert.equal(d.contextValue, 'kgl:group:kafka:classic:Stable');
    });

    it('puts assignor, generation, coordinator, protocol and group type in the tooltip', () => {
      const d = describeNode(groupNode({ members: [member('a')], generation: 7, assignor: 'cooperative-sticky' }));
      const tooltip = d.tooltip ?? '';
      assert.match(tooltip, /Assignor: cooperative\\-sticky/);
      assert.match(tooltip, /Generation: 7/);
      assert.match(tooltip, /Coordinator: 1 broker\\-1\\:9092/);
      assert.match(tooltip, /Protocol type: consumer/);
      assert.match(tooltip, /Group type: classic/);
    });

    it('leaves the generation out of the tooltip when the source does not know it', () => {
      const d = describeNode(groupNode({ members: [member('a')], generation: undefined }, 'kafka'));
      assert.doesNotMatch(d.tooltip ?? '', /Generation/);
    });

    it('escapes markup in group ids so a tooltip cannot render HTML or markdown', () => {
      const d = describeNode(groupNode({}, 'simulator', '<b>x</b>&*y*'));
      assert.equal(d.label, '<b>x</b>&*y*', 'the label is plain text and stays as is');
      const tooltip = d.tooltip ?? '';
      assert.ok(tooltip.includes('\\<b\\>x\\<\\/b\\>\\&\\*y\\*'), tooltip);
      assert.ok(!/(^|[^\\])[<&*]/.test(tooltip.replace(/^\*\*|\*\*$/gm, '')), `unescaped markup in ${tooltip}`);
    });

    it('marks a group that failed to load with a warning and its error', () => {
      const d = describeNode(groupNode({ error: 'COORDINATOR_NOT_AVAILABLE', state: 'Unknown' }));
      assert.equal(d.description, 'error · COORDINATOR_NOT_AVAILABLE');
      assert.equal(d.contextValue, 'kgl:group:sim:classic:Unknown:error');
      assert.equal(d.icon.id, 'warning');
      assert.match(d.tooltip ?? '', /Error: COORDINATOR\\_NOT\\_AVAILABLE/);
    });

    it('gives every state a colour: stable green, rebalancing yellow, empty greyed, dead red, not ready orange', () => {
      const expected: Record<GroupState, string | undefined> = {
        Stable: 'testing.iconPassed',
        PreparingRebalance: 'charts.yellow',
        CompletingRebalance: 'charts.yellow',
        Assigning: 'charts.yellow',
        Reconciling: 'charts.yellow',
        Empty: 'disabledForeground',
        Dead: 'errorForeground',
        NotReady: 'charts.orange',
        Unknown: undefined,
      };
      for (const [state, color] of Object.entries(expected)) {
        assert.equal(groupStateColor(state as GroupState), color, state);
      }
    });
  });

  describe('member rows', () => {
    it('labels by client id and marks static members with their instance id and host', () => {
      const d = describeNode(memberNode({ consumer: consumer('running') }));
      assert.equal(d.label, 'orders-client · inst-1', 'a static member by client id and instance id');
      assert.equal(d.description, 'lag - · /127.0.0.1');
      assert.equal(d.contextValue, 'kgl:member:sim:static:running');
      assert.equal(d.icon.id, 'pinned');
      assert.equal(d.collapsible, 'none', 'no assigned partitions, nothing to expand');
    });

    it('falls back to the member id, shows the consumer status and composes dynamic contextValues', () => {
      const m = member('consumer-1-abc', { clientId: '', groupInstanceId: null, clientHost: '/10.0.0.2' });
      const d = describeNode(memberNode({ member: m, consumer: { ...consumer('crashed', null), memberId: m.memberId } }));
      assert.equal(d.label, 'consumer-1-abc');
      assert.equal(d.description, 'lag - · /10.0.0.2 · crashed');
      assert.equal(d.contextValue, 'kgl:member:sim:dynamic:crashed');
      assert.equal(d.icon.color, 'charts.yellow');
    });

    it('marks simulator members without a matching consumer, and omits the status for real clusters', () => {
      assert.equal(describeNode(memberNode()).contextValue, 'kgl:member:sim:static:unmatched');
      assert.equal(describeNode(memberNode({ sourceKind: 'kafka' })).contextValue, 'kgl:member:kafka:static');
    });

    it('lists member id, instance id, client id, host and subscription in the tooltip', () => {
      const m = member('m-1', { subscription: ['orders', 'payments'], groupInstanceId: null });
      const tooltip = describeNode(memberNode({ member: m })).tooltip ?? '';
      assert.match(tooltip, /Member id: m\\-1/);
      assert.match(tooltip, /Group instance id: \\- \\\(dynamic member\\\)/);
      assert.match(tooltip, /Client id: client\\-m\\-1/);
      assert.match(tooltip, /Host: \\\/127\\.0\\.0\\.1/);
      assert.match(tooltip, /Subscription: orders\\, payments/);
    });
  });

  describe('stopped consumer rows', () => {
    it('shows the status with the fatal error that stopped the consumer', () => {
      const d = describeNode({
        kind: 'consumer',
        id: 'x',
        sourceId: 'sim',
        consumer: { ...consumer('stopped'), memberId: null, error: 'FENCED_INSTANCE_ID' },
      });
      assert.equal(d.label, 'orders-client');
      assert.equal(d.description, 'static: inst-1 · stopped (FENCED_INSTANCE_ID)');
      assert.equal(d.contextValue, 'kgl:consumer:sim:static:stopped');
      assert.match(d.tooltip ?? '', /Status: stopped \\\(FENCED\\_INSTANCE\\_ID\\\)/);
    });
  });

  describe('partition rows', () => {
    it('labels topic-partition and describes committed, end and lag like the CLI', () => {
      const node: TreeNode = { kind: 'partition', id: 'x', offsets: offsets('orders', 3, 120, 150, 'm-1'), role: 'assigned' };
      const d = describeNode(node);
      assert.equal(d.label, 'orders-3');
      assert.equal(d.description, 'lag 30 · committed 120 · end 150');
      assert.equal(d.contextValue, 'kgl:partition:assigned:hasLag');
      assert.deepEqual(d.icon, { id: 'symbol-array' }, 'lag alone does not colour the row: it came and went on every push (issue 19)');
    });

    it('shows the lag against the LSO beside the lag against the HW for a read_committed group', () => {
      const row = { ...offsets('orders', 1, 152, 172, 'm-1'), lastStableOffset: 152, lastStableLag: 0, pendingTransactionalOffset: 160 };
      const d = describeNode({ kind: 'partition', id: 'x', offsets: row, role: 'assigned' });
      assert.equal(d.description, 'lag 20 · LSO lag 0 · committed 152 · end 172 · pending txn 160');
      assert.equal(d.contextValue, 'kgl:partition:assigned:lsoHeld', 'nothing is readable yet: not behind; an open transaction holds the LSO');
      assert.equal(d.icon.color, undefined);
      assert.ok(d.tooltip?.includes('Lag to last stable offset \\(read\\_committed\\): 0'), 'markdown-escaped tooltip field');
      assert.match(d.tooltip ?? '', /Pending transactional offset: 160/);
    });

    it('labels lag that is only a transaction marker instead of showing the partition as behind', () => {
      const row = { ...offsets('orders', 2, 4, 5, 'm-1'), markerOnlyLag: true };
      const d = describeNode({ kind: 'partition', id: 'x', offsets: row, role: 'assigned' });
      assert.equal(d.description, 'lag 1 (transaction marker only) · committed 4 · end 5');
      assert.equal(d.contextValue, 'kgl:partition:assigned');
      const committedRow = { ...offsets('orders', 2, 4, 9, 'm-1'), lastStableLag: 2, markerOnlyLag: true };
      assert.equal(describeNode({ kind: 'partition', id: 'y', offsets: committedRow, role: 'assigned' }).description, 'lag 5 · LSO lag 2 (transaction markers only) · committed 4 · end 9');
    });

    it('puts how far behind in time and the produced time still to consume in the tooltip, and why it is approximate', () => {
      const row = { ...offsets('orders', 4, 10, 30, 'm-1'), lagInTimeMs: 300_000, lagInTimeSpanMs: 120_000, lagInTimeApproximate: ['transaction-markers' as const] };
      const tooltip = describeNode({ kind: 'partition', id: 'x', offsets: row, role: 'assigned' }).tooltip ?? '';
      assert.match(tooltip, /Lag in time: 5m behind in time · 2m of produced time still to consume {2}\n/);
      assert.match(tooltip, /Approximate: transaction markers lie at the committed offset/);
      const ageOnly = describeNode({ kind: 'partition', id: 'y', offsets: { ...row, lagInTimeSpanMs: null, lagInTimeApproximate: undefined }, role: 'assigned' }).tooltip ?? '';
      assert.match(ageOnly, /Lag in time: 5m behind in time {2}\n/);
      assert.doesNotMatch(ageOnly, /Approximate/);
      assert.doesNotMatch(describeNode({ kind: 'partition', id: 'z', offsets: offsets('orders', 4, 10, 30), role: 'assigned' }).tooltip ?? '', /Lag in time/);
    });

    it('prints "-" for what is unknown', () => {
      const node: TreeNode = { kind: 'partition', id: 'x', offsets: offsets('orders', 0, null, null), role: 'unassigned' };
      const d = describeNode(node);
      assert.equal(d.description, 'lag - · committed - · end -');
      assert.equal(d.contextValue, 'kgl:partition:unassigned');
    });
  });

  describe('cluster rows', () => {
    const cluster = (state: ClusterNode['state']): ClusterNode => ({
      kind: 'cluster',
      id: nodeIds.cluster('sim'),
      sourceId: 'sim',
      sourceKind: 'simulator',
      label: 'Demo cluster',
      state,
    });

    it('describes a loaded cluster with broker and group counts', () => {
      const d = describeNode(
        cluster({ status: 'loaded', info: { clusterId: 'c', controllerId: 1, brokers: [{ nodeId: 1, host: 'h', port: 9092 }] }, groups: [] }),
      );
      assert.equal(d.description, 'simulator · 1 broker · 0 groups');
      assert.equal(d.contextValue, 'kgl:cluster:sim:loaded');
      assert.equal(d.collapsible, 'expanded');
    });

    it('shows a load error on the cluster row with an error contextValue (for the retry action)', () => {
      const d = describeNode(cluster({ status: 'error', message: 'ECONNREFUSED' }));
      assert.equal(d.contextValue, 'kgl:cluster:sim:error');
      assert.equal(d.icon.id, 'error');
      assert.match(d.tooltip ?? '', /ECONNREFUSED/);
    });

    it('shows when a failed cluster is retried next, as a clock time that stays true', () => {
      const at = new Date(2026, 11, 3, 9, 5, 7).getTime();
      const scheduled = describeNode(cluster({ status: 'error', message: 'Connection refused', nextRetry: { kind: 'scheduled', at } }));
      assert.equal(scheduled.description, 'simulator · Connection refused · retry at 09:05:07');
      assert.match(scheduled.tooltip ?? '', /automatic retry at 09\\:05\\:07/);
      const waiting = describeNode(cluster({ status: 'error', message: 'Authentication failed', nextRetry: { kind: 'user' } }));
      assert.equal(waiting.description, 'simulator · Authentication failed · no automatic retry');
      assert.match(waiting.tooltip ?? '', /only when you retry.*edit the connection/);
      assert.equal(formatClockTime(new Date(2026, 0, 1, 23, 59, 0).getTime()), '23:59:00');
    });
  });

  describe('message rows', () => {
    it('makes retryable error rows clickable with the retry command', () => {
      const d = describeNode({ kind: 'message', id: 'x', severity: 'error', text: 'Failed', retrySourceId: 'sim' });
      assert.deepEqual(d.command, { id: 'kafkaGroupLens.retry', title: 'Retry' });
      assert.equal(d.contextValue, 'kgl:message:error:retry');
      const info = describeNode({ kind: 'message', id: 'y', severity: 'loading', text: 'Loading…' });
      assert.equal(info.command, undefined);
      assert.equal(info.icon.id, 'loading~spin');
    });
  });
});
