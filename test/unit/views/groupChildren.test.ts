import { strict as assert } from 'assert';
import { entryRows, groupChildren, memberChildren, partitionChildren } from '../../../src/views/groupChildren';
import { nodeIds, type MemberNode } from '../../../src/views/treeNodes';
import type { SimulatedConsumerInfo } from '../../../src/simulator/common/control';
import { groupDetail, member, offsets } from './fakeSource';

const tp = (topic: string, partition: number) => ({ topic, partition });

describe('views/groupChildren', () => {
  const detail = groupDetail('orders', {
    members: [
      member('m-2', { assignment: [tp('orders', 2), tp('orders', 0)] }),
      member('m-1', { assignment: [tp('payments', 0)] }),
    ],
    offsets: [
      offsets('orders', 0, 10, 20, 'm-2'),
      offsets('orders', 2, 5, 5, 'm-2'),
      offsets('orders', 1, 7, 9),
      offsets('archive', 0, null, 100),
    ],
  });

  it('lists members with their assigned partitions in topic-partition order, filling unknown offsets with nulls', () => {
    const children = groupChildren({ sourceId: 'sim', sourceKind: 'simulator', detail, consumers: [] });
    const members = children.filter((c): c is MemberNode => c.kind === 'member');
    assert.deepEqual(members.map((m) => m.member.memberId), ['m-2', 'm-1']);
    assert.deepEqual(members[0].partitions.map((p) => `${p.topic}-${p.partition}:${p.committedOffset}`), ['orders-0:10', 'orders-2:5']);
    assert.deepEqual(members[1].partitions, [
      { topic: 'payments', partition: 0, committedOffset: null, logStartOffset: null, logEndOffset: null, lag: null, ownerMemberId: 'm-1' },
    ]);
    assert.equal(members[0].id, nodeIds.member('sim', 'orders', 'm-2'));
  });

  it('puts committed partitions nobody owns under "unassigned", leaving out partitions with no commit', () => {
    const children = groupChildren({ sourceId: 'sim', sourceKind: 'simulator', detail, consumers: [] });
    const unassigned = children.find((c) => c.kind === 'unassigned');
    assert.ok(unassigned && unassigned.kind === 'unassigned');
    assert.deepEqual(unassigned.partitions.map((p) => `${p.topic}-${p.partition}`), ['orders-1']);
  });

  it('matches simulated consumers to members by member id and lists stopped ones that left', () => {
    const consumers: SimulatedConsumerInfo[] = [
      { handle: 'h1', groupId: 'orders', clientId: 'a', groupInstanceId: null, memberId: 'm-1', status: 'paused' },
      { handle: 'h2', groupId: 'orders', clientId: 'b', groupInstanceId: 'inst-2', memberId: null, status: 'stopped' },
      { handle: 'h3', groupId: 'orders', clientId: 'c', groupInstanceId: null, memberId: 'm-2', status: 'crashed' },
      { handle: 'h4', groupId: 'orders', clientId: 'd', groupInstanceId: null, memberId: 'gone', status: 'crashed' },
    ];
    const children = groupChildren({ sourceId: 'sim', sourceKind: 'simulator', detail, consumers });
    const members = children.filter((c): c is MemberNode => c.kind === 'member');
    assert.equal(members.find((m) => m.member.memberId === 'm-1')?.consumer?.handle, 'h1');
    assert.equal(members.find((m) => m.member.memberId === 'm-2')?.consumer?.handle, 'h3', 'a crashed member stays a member until it expires');
    const stopped = children.find((c) => c.kind === 'stoppedConsumers');
    assert.ok(stopped && stopped.kind === 'stoppedConsumers');
    assert.deepEqual(stopped.consumers.map((c) => c.handle), ['h2', 'h4']);
  });

  it('says so when a group has neither members nor commits', () => {
    const children = groupChildren({ sourceId: 'k', sourceKind: 'kafka', detail: groupDetail('idle'), consumers: [] });
    assert.equal(children.length, 1);
    assert.equal(children[0].kind, 'message');
  });

  it('builds partition ids from the parent id and raw keys', () => {
    const [row] = partitionChildren('parent', [offsets('a/b', 3, 1, 2)], 'unassigned', false, { sourceId: 'k', groupId: 'g' });
    assert.equal(row.id, 'parent/tp/a%2Fb/3');
  });

  it('names the group on every partition row, under a member, a topic or the unassigned node (for its commands)', () => {
    const detail = groupDetail('g', {
      members: [member('m-1', { assignment: [{ topic: 'a', partition: 0 }] }), member('m-2', { assignment: [{ topic: 'a', partition: 1 }, { topic: 'b', partition: 0 }] })],
      offsets: [offsets('a', 0, 1, 2, 'm-1'), offsets('a', 1, 1, 2, 'm-2'), offsets('b', 0, 1, 2, 'm-2'), offsets('c', 0, 1, 2)],
    });
    const children = groupChildren({ sourceId: 'k', sourceKind: 'kafka', detail, consumers: [] });
    const rows = children.flatMap((child) => {
      if (child.kind === 'member') {
        return memberChildren(child).flatMap((row) => (row.kind === 'topic' ? entryRows(row.id, row.entries, row.share, row.group) : [row]));
      }
      return child.kind === 'unassigned' ? partitionChildren(child.id, child.partitions, 'unassigned', false, child.group) : [];
    });
    assert.deepEqual(
      rows.map((row) => (row.kind === 'partition' ? `${row.offsets.topic}-${row.offsets.partition} ${row.group?.sourceId}/${row.group?.groupId}` : row.kind)),
      ['a-0 k/g', 'a-1 k/g', 'b-0 k/g', 'c-0 k/g'],
    );
  });
});
