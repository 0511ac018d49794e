import { strict as assert } from 'node:assert';
import { classicMembers, lastStableLag, offsetRows, partitionKey, toGroupState, toGroupType, toSummary, totalLag, type PartitionEnds } from '../../../src/kafka/groupDetailMapper';
import type { Member } from '../../../src/model/types';
import type { DescribedGroup } from '../../../src/kafka/requests/groupRequests';
import { WireWriter } from '../protocol/wire';

const member = (memberId: string, assignment: Array<[string, number]>): Member => ({
  memberId,
  groupInstanceId: null,
  clientId: 'c',
  clientHost: '/h',
  subscription: [],
  assignment: assignment.map(([topic, partition]) => ({ topic, partition })),
});

const ends = (entries: Array<[string, number, PartitionEnds]>) => new Map(entries.map(([topic, partition, e]) => [partitionKey({ topic, partition }), e]));
const end = (logStartOffset: number, highWatermark: number, lastStableOffset = highWatermark): PartitionEnds => ({ logStartOffset, highWatermark, lastStableOffset });
const commit = (topic: string, partition: number, offset: number) => ({ topic, partition, offset, metadata: '', errorCode: 0 });

describe('kafka/groupDetailMapper', () => {
  it('maps state names and group types', () => {
    assert.equal(toGroupState('Stable'), 'Stable');
    assert.equal(toGroupState('assigning'), 'Assigning');
    assert.equal(toGroupState(''), 'Unknown');
    assert.equal(toGroupType('consumer', 'consumer'), 'consumer');
    assert.equal(toGroupType('classic', 'consumer'), 'classic');
    assert.equal(toGroupType(null, ''), 'simple');
    assert.equal(toGroupType('share', 'share'), 'unknown');
  });

  describe('offsetRows', () => {
    it('orders rows like kafka-consumer-groups.sh and computes lag from the high watermark', () => {
      const members = [member('small', [['t', 2]]), member('big', [['u', 0], ['t', 1], ['t', 0]]), member('idle', [])];
      const rows = offsetRows(members, [commit('t', 0, 4), commit('t', 2, 10), commit('old', 0, 3), commit('t', 1, -1)], ends([
        ['t', 0, end(0, 10, 8)],
        ['t', 1, end(2, 5)],
        ['t', 2, end(0, 9)],
        ['old', 0, end(0, 3)],
      ]));
      assert.deepEqual(
        rows.map((r) => [r.topic, r.partition, r.committedOffset, r.logEndOffset, r.lag, r.ownerMemberId]),
        [
          ['t', 0, 4, 10, 6, 'big'],
          ['t', 1, null, 5, null, 'big'],
          ['u', 0, null, null, null, 'big'],
          ['t', 2, 10, 9, -1, 'small'],
          ['old', 0, 3, 3, 0, null],
        ],
      );
      assert.equal(rows[0].lastStableOffset, 8);
      assert.equal(rows[1].logStartOffset, 2);
      assert.equal(totalLag(rows), 5);
    });

    it('adds the lag to the last stable offset only for read_committed groups', () => {
      const commits = [commit('t', 0, 4), commit('t', 1, 9), commit('t', 2, 2)];
      const partitionEnds = ends([
        ['t', 0, end(0, 10, 7)],
        ['t', 1, end(0, 10, 7)],
        ['t', 2, { logStartOffset: 0, highWatermark: 5, lastStableOffset: null }],
      ]);
      const committed = offsetRows([], commits, partitionEnds, 'read_committed');
      assert.deepEqual(
        committed.map((r) => [r.partition, r.lag, r.lastStableOffset, r.lastStableLag]),
        [
          [0, 6, 7, 3],
          [1, 1, 7, 0],
          [2, 3, null, null],
        ],
      );
      for (const rows of [offsetRows([], commits, partitionEnds, 'read_uncommitted'), offsetRows([], commits, partitionEnds)]) {
        assert.deepEqual(rows.map((r) => 'lastStableLag' in r), [false, false, false]);
      }
    });

    it('computes the read_committed lag as LSO - committed, floored at 0, null when unknown', () => {
      assert.equal(lastStableLag(4, 7), 3);
      assert.equal(lastStableLag(9, 7), 0);
      assert.equal(lastStableLag(null, 7), null);
      assert.equal(lastStableLag(4, null), null);
    });

    it('keeps commit metadata and reports no lag when nothing is known', () => {
      const rows = offsetRows([], [{ ...commit('t', 0, 1), metadata: 'why' }], new Map());
      assert.equal(rows[0].commitMetadata, 'why');
      assert.equal(rows[0].lag, null);
      assert.equal(totalLag(rows), null);
      assert.equal(totalLag([]), null);
    });
  });

  describe('classicMembers', () => {
    const subscriptionV2 = (topics: string[], generation: number) =>
      new WireWriter().int16(2).array(topics, (w, t) => w.string(t)).bytes(null).array([], () => undefined).int32(generation).toBuffer();
    const assignment = (topic: string, partitions: number[]) =>
      new WireWriter().int16(0).array([topic], (w, t) => w.string(t).array(partitions, (x, p) => x.int32(p))).bytes(null).toBuffer();
    const group = (protocolType: string, members: DescribedGroup['members']): DescribedGroup => ({
      errorCode: 0, errorMessage: null, groupId: 'g', groupState: 'Stable', protocolType, protocolData: 'range', members,
    });

    it('decodes consumer-protocol members, and takes no generation from their subscriptions (it lags the group\'s)', () => {
      const result = classicMembers(group('consumer', [
        { memberId: 'a', groupInstanceId: 'i-a', clientId: 'c', clientHost: '/h', memberMetadata: subscriptionV2(['t'], 4), memberAssignment: assignment('t', [0, 1]) },
        { memberId: 'b', groupInstanceId: null, clientId: 'c', clientHost: '/h', memberMetadata: subscriptionV2(['t'], 5), memberAssignment: Buffer.alloc(0) },
      ]));
      assert.ok(!('generation' in result));
      assert.deepEqual(result.decodeErrors, []);
      assert.deepEqual(result.members[0], { memberId: 'a', groupInstanceId: 'i-a', clientId: 'c', clientHost: '/h', subscription: ['t'], assignment: [{ topic: 't', partition: 0 }, { topic: 't', partition: 1 }] });
      assert.deepEqual(result.members[1].assignment, []);
    });

    it('leaves other protocol types undecoded and reports undecodable bytes per member', () => {
      const connect = classicMembers(group('connect', [{ memberId: 'w', groupInstanceId: null, clientId: 'c', clientHost: '/h', memberMetadata: Buffer.from('zz'), memberAssignment: Buffer.from('zz') }]));
      assert.deepEqual([connect.members[0].subscription, connect.members[0].assignment, connect.decodeErrors], [[], [], []]);
      const broken = classicMembers(group('consumer', [{ memberId: 'x', groupInstanceId: null, clientId: 'c', clientHost: '/h', memberMetadata: Buffer.from('0000', 'hex'), memberAssignment: Buffer.alloc(0) }]));
      assert.equal(broken.decodeErrors.length, 1);
      assert.match(broken.decodeErrors[0], /^member x: consumer subscription v0: Truncated input: an int32 needs 4 bytes/);
    });
  });

  it('drops detail fields for summaries', () => {
    const summary = toSummary({
      groupId: 'g', state: 'Empty', protocolType: 'consumer', groupType: 'classic', assignor: '', generation: -1, coordinator: null, memberCount: 0, totalLag: 3,
      leaderId: null, members: [], offsets: [], isolationLevel: 'read_committed',
    });
    assert.deepEqual(Object.keys(summary).sort(), ['assignor', 'coordinator', 'generation', 'groupId', 'groupType', 'memberCount', 'protocolType', 'state', 'totalLag']);
  });
});
