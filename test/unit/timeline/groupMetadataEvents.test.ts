import { strict as assert } from 'node:assert';
import { eventsFromGroupMetadataRecords, type TimedGroupMetadataRecord } from '../../../src/timeline/groupMetadataEvents';
import type { GroupMetadataMember, GroupMetadataValue } from '../../../src/timeline/groupMetadataRecord';
import { consumerAssignment, consumerSubscriptionV0 } from './kafkaBytes';

function member(memberId: string, partitions: number[], groupInstanceId: string | null = null): GroupMetadataMember {
  return {
    memberId,
    groupInstanceId,
    clientId: memberId.split('-')[0],
    clientHost: '/127.0.0.1',
    rebalanceTimeoutMs: 300000,
    sessionTimeoutMs: 45000,
    subscription: Buffer.from(consumerSubscriptionV0(['t'])),
    assignment: Buffer.from(consumerAssignment(partitions.length > 0 ? { t: partitions } : {})),
  };
}

function record(timestamp: number, generation: number, members: GroupMetadataMember[], stateTimestamp: number | null = null): TimedGroupMetadataRecord {
  const value: GroupMetadataValue = {
    version: 3,
    protocolType: 'consumer',
    generation,
    protocol: members.length > 0 ? 'range' : null,
    leader: members[0]?.memberId ?? null,
    currentStateTimestamp: stateTimestamp,
    members,
  };
  return { group: 'g', timestamp, value };
}

const tp = (partition: number): { topic: string; partition: number } => ({ topic: 't', partition });

describe('timeline/groupMetadataEvents', () => {
  it('yields one set of events per generation: joins, leaves, assignment changes and the settled state', () => {
    const events = eventsFromGroupMetadataRecords([
      record(1000, 1, [member('a-1', [0, 1, 2, 3])], 990),
      record(2000, 2, [member('a-1', [0, 1]), member('b-1', [2, 3])], 1950),
      record(3000, 3, [member('b-1', [0, 1, 2, 3])]),
      record(4000, 4, []),
    ]);
    assert.deepEqual(
      events.map((e) => [e.time, e.generation, e.kind, e.memberId ?? '', e.stateAfter ?? '']),
      [
        [990, 1, 'member-joined', 'a-1', ''],
        [990, 1, 'assignment-changed', '', ''],
        [1000, 1, 'state-changed', 'a-1', 'Stable'],
        [1950, 2, 'member-joined', 'b-1', ''],
        [1950, 2, 'assignment-changed', '', ''],
        [2000, 2, 'state-changed', 'a-1', 'Stable'],
        [3000, 3, 'member-left', 'a-1', ''],
        [3000, 3, 'assignment-changed', '', ''],
        [3000, 3, 'state-changed', 'b-1', 'Stable'],
        [4000, 4, 'member-left', 'b-1', ''],
        [4000, 4, 'assignment-changed', '', ''],
        [4000, 4, 'state-changed', '', 'Empty'],
      ],
    );
    const gen2 = events.filter((e) => e.generation === 2 && e.kind === 'assignment-changed')[0];
    assert.deepEqual(gen2.assignments, [
      { memberId: 'a-1', groupInstanceId: null, revoked: [tp(2), tp(3)], assigned: [] },
      { memberId: 'b-1', groupInstanceId: null, revoked: [], assigned: [tp(2), tp(3)] },
    ]);
    const gen3 = events.filter((e) => e.generation === 3 && e.kind === 'assignment-changed')[0];
    assert.deepEqual(gen3.assignments, [
      { memberId: 'b-1', groupInstanceId: null, revoked: [], assigned: [tp(0), tp(1)] },
      { memberId: 'a-1', groupInstanceId: null, revoked: [tp(0), tp(1)], assigned: [] },
    ]);
    assert.ok(events.every((e) => e.inferred === undefined && e.groupId === 'g'));
  });

  it('reports a static member replaced within a generation as a static rejoin, with no state change', () => {
    const events = eventsFromGroupMetadataRecords([
      record(1000, 5, [member('inst-old', [0], 'inst'), member('b-1', [1])]),
      record(1500, 5, [member('inst-new', [0], 'inst'), member('b-1', [1])], 900),
    ]);
    const later = events.filter((e) => e.time === 1500);
    assert.deepEqual(
      later.map((e) => [e.kind, e.memberId, e.groupInstanceId]),
      [['static-rejoin', 'inst-new', 'inst']],
    );
    assert.match(later[0].cause ?? '', /replacing member inst-old/);
  });

  it('takes the empty generation-0 record JoinGroup writes when it creates a group as no state change (a new group is Empty)', () => {
    const created: TimedGroupMetadataRecord = { group: 'g', timestamp: 500, value: { ...record(500, 0, []).value!, protocolType: '', currentStateTimestamp: 500 } };
    const events = eventsFromGroupMetadataRecords([created, record(1000, 1, [member('a-1', [0])], 990)]);
    assert.deepEqual(events.map((e) => [e.time, e.generation, e.kind, e.stateBefore ?? '', e.stateAfter ?? '']), [
      [990, 1, 'member-joined', '', ''],
      [990, 1, 'assignment-changed', '', ''],
      [1000, 1, 'state-changed', 'Empty', 'Stable'],
    ]);
  });

  it('emits nothing for a replayed identical record, and Dead for a tombstone', () => {
    const same = record(1000, 1, [member('a-1', [0])]);
    const events = eventsFromGroupMetadataRecords([same, { ...same, timestamp: 1100 }, { group: 'g', timestamp: 1200, value: null }]);
    assert.deepEqual(
      events.map((e) => [e.time, e.kind, e.stateBefore ?? '', e.stateAfter ?? '']),
      [
        [1000, 'member-joined', '', ''],
        [1000, 'assignment-changed', '', ''],
        [1000, 'state-changed', '', 'Stable'],
        [1200, 'state-changed', 'Stable', 'Dead'],
      ],
    );
  });

  it('keeps groups apart and leaves non-consumer assignments undecoded', () => {
    const connect: TimedGroupMetadataRecord = {
      group: 'connect-cluster',
      timestamp: 10,
      value: { ...record(10, 1, [member('w-1', [])]).value!, protocolType: 'connect' },
    };
    connect.value!.members[0].assignment = Buffer.from([0xde, 0xad]);
    const events = eventsFromGroupMetadataRecords([connect, record(20, 1, [member('a-1', [0])])]);
    assert.deepEqual(
      events.map((e) => [e.groupId, e.kind]),
      [
        ['connect-cluster', 'member-joined'],
        ['connect-cluster', 'state-changed'],
        ['g', 'member-joined'],
        ['g', 'assignment-changed'],
        ['g', 'state-changed'],
      ],
    );
  });

  it('names the group and member when a consumer assignment cannot be decoded', () => {
    const bad = record(10, 3, [member('a-1', [0])]);
    bad.value!.members[0].assignment = Buffer.from([0, 0, 0]);
    assert.throws(() => eventsFromGroupMetadataRecords([bad]), /group "g" generation 3 member a-1: consumer assignment/);
  });
});
