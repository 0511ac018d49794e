import { strict as assert } from 'node:assert';
import type { GroupDetail, GroupState, Member } from '../../../src/model/types';
import { SnapshotObserver } from '../../../src/timeline/snapshotObserver';

function member(memberId: string, partitions: number[], groupInstanceId: string | null = null): Member {
  return {
    memberId,
    groupInstanceId,
    clientId: memberId.split('-')[0],
    clientHost: '/127.0.0.1',
    subscription: ['t'],
    assignment: partitions.map((partition) => ({ topic: 't', partition })),
  };
}

function snapshot(state: GroupState, generation: number, members: Member[]): GroupDetail {
  return {
    groupId: 'g',
    state,
    protocolType: 'consumer',
    groupType: 'classic',
    assignor: 'range',
    generation,
    coordinator: null,
    memberCount: members.length,
    totalLag: null,
    leaderId: members[0]?.memberId ?? null,
    members,
    offsets: [],
  };
}

type Row = [number, number, string, string, string];
const rows = (events: ReturnType<SnapshotObserver['observe']>): Row[] =>
  events.map((e) => [e.time, e.generation, e.kind, e.memberId ?? '', e.stateAfter ?? '']);

describe('timeline/SnapshotObserver', () => {
  it('infers joins, leaves, rebalances and assignment changes from a scripted sequence of polls', () => {
    const observer = new SnapshotObserver();
    const script: Array<[number, GroupDetail, Row[]]> = [
      [
        0,
        snapshot('Stable', 1, [member('a-1', [0, 1, 2, 3])]),
        [
          [0, 1, 'member-joined', 'a-1', ''],
          [0, 1, 'assignment-changed', '', ''],
          [0, 1, 'state-changed', '', 'Stable'],
        ],
      ],
      [1000, snapshot('Stable', 1, [member('a-1', [0, 1, 2, 3])]), []],
      [
        2000,
        snapshot('PreparingRebalance', 1, [member('a-1', []), member('b-1', [])]),
        [
          [2000, 1, 'rebalance-started', '', 'PreparingRebalance'],
          [2000, 1, 'member-joined', 'b-1', ''],
        ],
      ],
      [3000, snapshot('CompletingRebalance', 2, [member('a-1', []), member('b-1', [])]), [[3000, 2, 'state-changed', '', 'CompletingRebalance']]],
      [
        4000,
        snapshot('Stable', 2, [member('a-1', [0, 1]), member('b-1', [2, 3])]),
        [
          [4000, 2, 'assignment-changed', '', ''],
          [4000, 2, 'state-changed', '', 'Stable'],
        ],
      ],
      [
        5000,
        snapshot('Stable', 3, [member('b-1', [0, 1, 2, 3])]),
        [
          [5000, 3, 'rebalance-started', '', 'PreparingRebalance'],
          [5000, 3, 'member-left', 'a-1', ''],
          [5000, 3, 'assignment-changed', '', ''],
          [5000, 3, 'state-changed', '', 'Stable'],
        ],
      ],
    ];
    for (const [time, detail, expected] of script) {
      assert.deepEqual(rows(observer.observe(detail, time)), expected, `poll at ${time}`);
    }
    const all = observer.events('g');
    assert.equal(all.length, 12);
    assert.ok(all.every((e) => e.inferred === true));
    const gen2 = all.find((e) => e.time === 4000 && e.kind === 'assignment-changed');
    assert.deepEqual(gen2?.assignments, [
      { memberId: 'a-1', groupInstanceId: null, revoked: [{ topic: 't', partition: 2 }, { topic: 't', partition: 3 }], assigned: [] },
      { memberId: 'b-1', groupInstanceId: null, revoked: [], assigned: [{ topic: 't', partition: 2 }, { topic: 't', partition: 3 }] },
    ]);
    const between = all.find((e) => e.time === 5000 && e.kind === 'rebalance-started');
    assert.match(between?.cause ?? '', /generation went from 2 to 3 between polls/);
  });

  it('reports a static member that came back under a new member id as a static rejoin', () => {
    const observer = new SnapshotObserver();
    observer.observe(snapshot('Stable', 4, [member('inst-x1', [0], 'inst')]), 0);
    const events = observer.observe(snapshot('Stable', 4, [member('inst-x2', [0], 'inst')]), 100);
    assert.deepEqual(rows(events), [[100, 4, 'static-rejoin', 'inst-x2', '']]);
  });

  it('ignores snapshots that failed to load and forgets groups on request', () => {
    const observer = new SnapshotObserver();
    observer.observe(snapshot('Stable', 1, [member('a-1', [0])]), 0);
    assert.deepEqual(observer.observe({ ...snapshot('Unknown', 0, []), error: 'timeout' }, 10), []);
    assert.deepEqual(observer.observe(snapshot('Stable', 1, [member('a-1', [0])]), 20), []);
    observer.forget('g');
    assert.deepEqual(observer.events('g'), []);
    assert.equal(observer.observe(snapshot('Stable', 1, [member('a-1', [0])]), 30).length, 3);
  });
});
