/**
 * Each group type's rows, from GroupDetail fixtures shaped as src/kafka/groupTypes* build them on a real
 * 4.4 cluster: a KIP-848 group mid-reconciliation, a share group with start offsets and configs, a
 * streams group with tasks and a topology, and describes the broker refused.
 */
import { strict as assert } from 'assert';
import { groupChildren, memberChildren, reconciliation } from '../../../src/views/groupChildren';
import { describeNode } from '../../../src/views/groupTreeRows';
import { memberLabel } from '../../../src/views/rowFormat';
import { nodeIds, type GroupNode, type InfoNode, type MemberNode, type PartitionNode, type TopicNode, type TreeNode } from '../../../src/views/treeNodes';
import type { ConsumerGroupMemberInfo, GroupDetail, Member, StreamsGroupMemberInfo, TopicPartition } from '../../../src/model/types';
import { groupDetail, member, offsets, summaryOf } from './fakeSource';

const tp = (topic: string, partition: number): TopicPartition => ({ topic, partition });

function groupRow(detail: GroupDetail): GroupNode {
  return { kind: 'group', id: nodeIds.group('k', detail.groupId), sourceId: 'k', sourceKind: 'kafka', summary: summaryOf(detail) };
}

function children(detail: GroupDetail): TreeNode[] {
  return groupChildren({ sourceId: 'k', sourceKind: 'kafka', detail, consumers: [] });
}

function membersOf(nodes: TreeNode[]): MemberNode[] {
  return nodes.filter((n): n is MemberNode => n.kind === 'member');
}

/** A KIP-848 group at group epoch 7: m-1 caught up, m-2 at epoch 5 still giving up orders-1 and waiting for payments-0. */
function consumerGroup(): GroupDetail {
  const cgMember = (memberId: string, epoch: number, assignment: TopicPartition[], target: TopicPartition[]): ConsumerGroupMemberInfo => ({
    memberId,
    instanceId: null,
    rackId: 'rack-a',
    clientId: 'payments-app',
    clientHost: '/10.0.0.1',
    memberEpoch: epoch,
    subscribedTopicNames: ['orders', 'payments'],
    subscribedTopicRegex: null,
    assignment,
    targetAssignment: target,
    partitionsToRevoke: assignment.filter((a) => !target.some((t) => t.topic === a.topic && t.partition === a.partition)),
    partitionsAwaited: target.filter((t) => !assignment.some((a) => t.topic === a.topic && t.partition === a.partition)),
    reconciling: epoch !== 7,
    memberType: 'consumer',
  });
  const infoMembers = [
    cgMember('Xy3kQ9aLTn2-abcdefghij', 7, [tp('orders', 0)], [tp('orders', 0)]),
    cgMember('Pq8rS1bMUo4-klmnopqrst', 5, [tp('orders', 1), tp('orders', 2)], [tp('orders', 2), tp('payments', 0)]),
  ];
  const members: Member[] = infoMembers.map((m) => ({
    memberId: m.memberId,
    groupInstanceId: m.instanceId,
    clientId: m.clientId,
    clientHost: m.clientHost,
    subscription: m.subscribedTopicNames,
    assignment: m.assignment,
    targetAssignment: m.targetAssignment,
    memberEpoch: m.memberEpoch,
    rackId: m.rackId,
  }));
  return groupDetail('payments', {
    groupType: 'consumer',
    protocolType: 'consumer',
    state: 'Reconciling',
    assignor: 'uniform',
    generation: 7,
    members,
    offsets: [offsets('orders', 0, 10, 15), offsets('orders', 1, 20, 50), offsets('orders', 2, 5, 5), offsets('payments', 0, 0, 3)],
    consumerGroup: {
      groupEpoch: 7,
      assignmentEpoch: 7,
      assignmentPending: false,
      assignorName: 'uniform',
      subscribedTopicNames: ['orders', 'payments'],
      subscribedTopicRegexes: [],
      members: infoMembers,
      migration: null,
    },
  });
}

function shareGroup(): GroupDetail {
  const shareOffsets = (topic: string, partition: number, start: number | null, end: number, lag: number | null) => ({
    ...offsets(topic, partition, start, end),
    lag,
  });
  return groupDetail('jobs', {
    groupType: 'share',
    protocolType: 'share',
    state: 'Stable',
    assignor: 'simple',
    members: [
      member('s-1', { clientId: 'worker', assignment: [tp('jobs', 0), tp('jobs', 1)], memberEpoch: 3 }),
      member('s-2', { clientId: 'worker', assignment: [tp('jobs', 0), tp('jobs', 1)], memberEpoch: 3 }),
    ],
    offsets: [shareOffsets('jobs', 0, 100, 130, 30), shareOffsets('jobs', 1, null, 0, null), shareOffsets('old', 0, 7, 7, 0)],
    shareGroup: {
      groupEpoch: 3,
      assignmentEpoch: 3,
      assignorName: 'simple',
      partitions: [],
      configs: {
        autoOffsetReset: 'earliest',
        recordLockDurationMs: 30000,
        deliveryCountLimit: 5,
        deadLetterTopic: null,
        all: { 'share.auto.offset.reset': 'earliest', 'share.isolation.level': 'read_uncommitted' },
      },
    },
  });
}

function streamsGroup(): GroupDetail {
  const streamsMember: StreamsGroupMemberInfo = {
    memberId: 'st-1',
    memberEpoch: 4,
    instanceId: null,
    rackId: null,
    clientId: 'wordcount-StreamThread-1',
    clientHost: '/10.0.0.9',
    topologyEpoch: 0,
    processId: '6f1c2a7e-0000-4000-8000-000000000001',
    userEndpoint: { host: 'app-1', port: 8080 },
    clientTags: { zone: 'eu-1' },
    assignment: { active: [{ subtopologyId: '0', partitions: [0, 1] }], standby: [{ subtopologyId: '1', partitions: [0] }], warmup: [] },
    targetAssignment: { active: [{ subtopologyId: '0', partitions: [0, 1] }], standby: [{ subtopologyId: '1', partitions: [0] }], warmup: [] },
    isClassic: false,
  };
  return groupDetail('wordcount', {
    groupType: 'streams',
    protocolType: 'streams',
    state: 'NotReady',
    members: [member('st-1', { clientId: streamsMember.clientId, clientHost: streamsMember.clientHost, assignment: [tp('words', 0), tp('words', 1)], targetAssignment: [tp('words', 0), tp('words', 1)], memberEpoch: 4 })],
    offsets: [offsets('words', 0, 1, 4), offsets('words', 1, 2, 2)],
    streamsGroup: {
      groupEpoch: 4,
      assignmentEpoch: 4,
      assignorName: 'sticky',
      topology: {
        epoch: 0,
        subtopologies: [
          { subtopologyId: '0', sourceTopics: ['words'], repartitionSinkTopics: ['wordcount-counts-repartition'], repartitionSourceTopics: [], stateChangelogTopics: [] },
          { subtopologyId: '1', sourceTopics: [], repartitionSinkTopics: [], repartitionSourceTopics: ['wordcount-counts-repartition'], stateChangelogTopics: ['wordcount-counts-changelog'] },
        ],
      },
      members: [streamsMember],
    },
  });
}

describe('views: each group type\'s rows', () => {
  describe('group rows', () => {
    it('shows the type as its own icon, coloured by the state, and in the description and contextValue', () => {
      const expected: Array<[GroupDetail, string, string, string]> = [
        [consumerGroup(), 'symbol-event', 'lag 38 · Reconciling · 2 members · consumer', 'kgl:group:kafka:consumer:Reconciling:hasLag'],
        [shareGroup(), 'inbox', 'lag 30 · Stable · 2 members · share', 'kgl:group:kafka:share:Stable:hasLag'],
        [streamsGroup(), 'type-hierarchy', 'lag 3 · NotReady · 1 member · streams', 'kgl:group:kafka:streams:NotReady:hasLag'],
        [groupDetail('legacy', { groupType: 'simple', protocolType: '', offsets: [offsets('t', 0, 1, 1)] }), 'bookmark', 'lag 0 · Empty · 0 members · simple', 'kgl:group:kafka:simple:Empty'],
      ];
      for (const [detail, icon, description, contextValue] of expected) {
        const d = describeNode(groupRow(detail));
        assert.equal(d.icon.id, icon, detail.groupId);
        assert.equal(d.description, description);
        assert.equal(d.contextValue, contextValue);
      }
      assert.equal(describeNode(groupRow(streamsGroup())).icon.color, 'charts.orange', 'NotReady: internal topics missing');
    });

    it('shows a refused describe as an error, not as a Dead group', () => {
      const refused = groupDetail('secret', { groupType: 'share', state: 'Unknown', error: 'share group: GROUP_AUTHORIZATION_FAILED: Not authorized' });
      const d = describeNode(groupRow(refused));
      assert.equal(d.description, 'error · share group: GROUP_AUTHORIZATION_FAILED: Not authorized · share');
      assert.equal(d.contextValue, 'kgl:group:kafka:share:Unknown:error');
      assert.deepEqual(d.icon, { id: 'warning', color: 'problemsWarningIcon.foreground' });
      assert.doesNotMatch(d.description ?? '', /Dead/);
    });
  });

  describe('KIP-848 consumer groups', () => {
    it('puts the group epoch, assignment epoch and assignor on an info row, "pending" when they differ', () => {
      const detail = consumerGroup();
      const [info] = children(detail) as InfoNode[];
      assert.equal(info.kind, 'info');
      assert.equal(describeNode(info).description, 'epoch 7 · uniform');
      const pending = { ...detail, consumerGroup: { ...detail.consumerGroup!, groupEpoch: 8, assignmentPending: true, migration: { classicMembers: 1, consumerMembers: 1 } } };
      const d = describeNode(children(pending)[0]);
      assert.equal(d.description, 'epoch 8 · assignment 7 (pending) · uniform · migrating: 1 classic');
      assert.match(d.tooltip ?? '', /Subscribed topics: orders\\, payments/);
      assert.equal(d.contextValue, 'kgl:info:consumer');
    });

    it('names members by client id and short member id, and says "epoch 5 of 7" of one behind', () => {
      const [caughtUp, behind] = membersOf(children(consumerGroup()));
      assert.equal(describeNode(caughtUp).label, 'payments-app · Xy3kQ9aL', 'two members with one client id read apart');
      assert.equal(describeNode(behind).label, 'payments-app · Pq8rS1bM');
      assert.equal(describeNode(caughtUp).description, 'lag 5 · epoch 7 · /10.0.0.1');
      assert.equal(describeNode(behind).description, 'lag 30 · epoch 5 of 7 · 1 to revoke · 1 awaited · /10.0.0.1');
      assert.equal(describeNode(behind).icon.id, 'sync', 'a reconciling member is not shown as idle or unassigned');
      assert.match(describeNode(behind).tooltip ?? '', /Rack: rack\\-a/);
    });

    it('shows partitions still to revoke and still awaited under the member, by topic, never under "Unassigned"', () => {
      const nodes = children(consumerGroup());
      assert.ok(!nodes.some((n) => n.kind === 'unassigned'), 'payments-0 is awaited by a member, not unassigned');
      const behind = membersOf(nodes)[1];
      const topics = memberChildren(behind) as TopicNode[];
      assert.deepEqual(topics.map((t) => t.topic), ['orders', 'payments'], 'two topics: one row each');
      assert.equal(describeNode(topics[0]).description, 'lag 30 · 2 partitions · 1 reconciling');
      const orders = topics[0].entries.map((e) => `${e.offsets.partition}:${e.role}`);
      assert.deepEqual(orders, ['1:revoking', '2:assigned']);
      const [awaited] = topics[1].entries;
      assert.equal(awaited.role, 'awaited');
      const row: PartitionNode = { kind: 'partition', id: 'x', offsets: awaited.offsets, role: 'awaited' };
      assert.equal(describeNode(row).description, 'awaited · lag 3 · committed 0 · end 3');
      assert.equal(describeNode(row).contextValue, 'kgl:partition:awaited:hasLag');
    });

    it('keeps one topic\'s partitions directly under the member', () => {
      const [caughtUp] = membersOf(children(consumerGroup()));
      assert.deepEqual(memberChildren(caughtUp).map((n) => n.kind), ['partition']);
    });

    it('splits a member\'s assignment against its target', () => {
      const m = member('m', { assignment: [tp('a', 1), tp('a', 0)], targetAssignment: [tp('a', 0), tp('b', 0)] });
      assert.deepEqual(reconciliation(m), { kept: [tp('a', 0)], revoking: [tp('a', 1)], awaited: [tp('b', 0)] });
      assert.deepEqual(reconciliation(member('c', { assignment: [tp('a', 0)] })), { kept: [tp('a', 0)], revoking: [], awaited: [] }, 'classic: no target');
    });
  });

  describe('share groups', () => {
    it('shows start offset and lag per share-partition and the configs on an info row', () => {
      const nodes = children(shareGroup());
      const info = nodes[0] as InfoNode;
      const d = describeNode(info);
      assert.equal(d.description, 'epoch 3 · reset earliest · lock 30,000 ms');
      assert.match(d.tooltip ?? '', /share\\.delivery\\.count\\.limit: 5/);
      assert.match(d.tooltip ?? '', /share\\.isolation\\.level: read\\_uncommitted/, 'every config the broker gave');
      const [first] = membersOf(nodes);
      const rows = memberChildren(first) as PartitionNode[];
      assert.equal(describeNode(rows[0]).description, 'lag 30 · start 100 · end 130');
      assert.equal(describeNode(rows[1]).description, 'lag - · start - · end 0', 'no state yet');
      assert.equal(describeNode(rows[0]).contextValue, 'kgl:partition:assigned:share:hasLag');
      const unassigned = nodes.find((n) => n.kind === 'unassigned');
      assert.ok(unassigned);
      assert.equal(describeNode(unassigned).label, 'Share-partitions without members');
    });

    it('says when the configs could not be read', () => {
      const detail = shareGroup();
      detail.shareGroup = { ...detail.shareGroup!, configs: { ...detail.shareGroup!.configs, all: null, configsError: 'CLUSTER_AUTHORIZATION_FAILED' } };
      const d = describeNode(children(detail)[0]);
      assert.equal(d.description, 'epoch 3 · configs: error');
      assert.match(d.tooltip ?? '', /Configs error: CLUSTER\\_AUTHORIZATION\\_FAILED/);
    });
  });

  describe('streams groups', () => {
    it('shows members with tasks and process id, and the topology with a row per subtopology', () => {
      const nodes = children(streamsGroup());
      const topology = nodes[0] as InfoNode;
      assert.equal(describeNode(topology).description, 'epoch 4 · 2 subtopologies');
      assert.deepEqual(topology.children.map((c) => describeNode(c).label), ['Subtopology 0', 'Subtopology 1']);
      assert.equal(describeNode(topology.children[0]).description, 'sources words · repartition wordcount-counts-repartition');
      assert.match(describeNode(topology.children[1]).tooltip ?? '', /State changelog topics: wordcount\\-counts\\-changelog/);
      const [m] = membersOf(nodes);
      const d = describeNode(m);
      assert.equal(d.description, 'lag 3 · epoch 4 · 2 active, 1 standby · /10.0.0.9');
      assert.match(d.tooltip ?? '', /Process id: 6f1c2a7e/);
      assert.match(d.tooltip ?? '', /Standby tasks: 1\\_0/);
      assert.match(d.tooltip ?? '', /Client tags: zone\\=eu\\-1/);
    });
  });

  describe('member labels', () => {
    it('name a static member by its instance id, a dynamic one by client id and the first block of its member id', () => {
      assert.equal(memberLabel({ memberId: 'app-1-2f1d9c4e-77aa-4bcd', clientId: 'app-1', groupInstanceId: null }), 'app-1 · 2f1d9c4e');
      assert.equal(memberLabel({ memberId: 'short', clientId: 'app', groupInstanceId: null }), 'app · short');
      assert.equal(memberLabel({ memberId: 'x', clientId: 'app', groupInstanceId: 'pod-3' }), 'app · pod-3');
      assert.equal(memberLabel({ memberId: 'x', clientId: '', groupInstanceId: 'pod-3' }), 'pod-3');
      assert.equal(memberLabel({ memberId: 'bare-member-id', clientId: '', groupInstanceId: null }), 'bare-member-id');
    });
  });
});
