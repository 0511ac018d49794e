import { strict as assert } from 'node:assert';
import { DEFAULT_COORDINATOR_CONFIG } from '../../../../../src/simulator/coordinator/group/coordinatorConfig';
import { GroupEvents } from '../../../../../src/simulator/coordinator/group/groupEvents';
import { InMemoryTopicImage } from '../../../../../src/simulator/coordinator/group/modern/consumer';
import { GroupMetadataManager } from '../../../../../src/simulator/coordinator/group/groupMetadataManager';
import { describeSimGroup } from '../../../../../src/simulator/admin/groupDetailMapper';
import { SeededRandom } from '../../../../../src/simulator/common/random';
import { Simulation } from '../../../../../src/simulator/simulation';
import { harness, join, joinDynamic, state, sync } from '../../harness';

const A_PARTITIONS = [
  { topic: 't', partition: 0 },
  { topic: 't', partition: 1 },
];
const B_PARTITIONS = [
  { topic: 't', partition: 2 },
  { topic: 't', partition: 3 },
];

/** A group Stable in generation 1 with A owning t-0,1 and B owning t-2,3. */
function stableGroup(): { h: ReturnType<typeof harness>; a: string; b: string } {
  const h = harness();
  const a = joinDynamic(h.sim, 'A');
  const b = joinDynamic(h.sim, 'B');
  h.sim.advance(6000); // the initial delay, extended once by B's join
  sync(h.sim, a.memberId, 1, [
    { memberId: a.memberId, partitions: A_PARTITIONS },
    { memberId: b.memberId, partitions: B_PARTITIONS },
  ]);
  sync(h.sim, b.memberId, 1);
  h.sim.advance(0);
  assert.equal(state(h.sim), 'Stable');
  return { h, a: a.memberId, b: b.memberId };
}

describe('GroupMetadataManager', () => {
  function manager(): { sim: Simulation; groups: GroupMetadataManager } {
    const sim = new Simulation({ seed: 1 });
    return { sim, groups: new GroupMetadataManager(sim.clock, new SeededRandom(1), DEFAULT_COORDINATOR_CONFIG, new GroupEvents(sim.clock, sim.events), { metadataImage: new InMemoryTopicImage(), records: () => undefined }) };
  }

  describe('group lookups', () => {
    it('creates a classic group only when asked (getOrMaybeCreateClassicGroup)', () => {
      const { groups } = manager();
      assert.equal(groups.getOrMaybeCreateClassicGroup('g', false), 'GROUP_ID_NOT_FOUND');
      assert.equal(groups.group('g'), undefined, 'a refused lookup creates nothing');
      const created = groups.getOrMaybeCreateClassicGroup('g', true);
      assert.ok(typeof created !== 'string');
      assert.equal(created.type, 'classic');
      assert.equal(created.state, 'Empty');
      assert.equal(groups.getOrMaybeCreateClassicGroup('g', true), created, 'the same group, not a second one');
      assert.equal(groups.getOrMaybeCreateClassicGroup('g', false), created);
      assert.equal(groups.group('g'), created);
      assert.equal(groups.classicGroup('g'), created);
      assert.deepEqual(groups.groupIds(), ['g']);
    });

    it('lists each group with its type and state, and describes a missing group as Dead', () => {
      const { groups } = manager();
      groups.getOrMaybeCreateClassicGroup('g', true);
      assert.deepEqual(groups.listGroups({}).groups, [{ groupId: 'g', protocolType: '', groupState: 'Empty', groupType: 'classic' }]);
      assert.deepEqual(groups.listGroups({ statesFilter: ['Stable'] }).groups, []);
      assert.deepEqual(groups.describeGroup('missing'), { errorCode: 'NONE', groupId: 'missing', groupState: 'Dead', protocolType: '', protocolData: '', members: [] });
    });

    it('removes a deleted group from the map as it turns Dead', () => {
      const { sim, groups } = manager();
      const events: string[] = [];
      sim.events.subscribe((e) => events.push(`${e.kind}:${e.stateAfter}:${e.cause}`));
      groups.getOrMaybeCreateClassicGroup('g', true);
      assert.equal(groups.validateDeleteGroup('g'), 'NONE');
      assert.equal(groups.validateDeleteGroup('missing'), 'GROUP_ID_NOT_FOUND');
      groups.deleteGroup('g', 'because');
      assert.equal(groups.group('g'), undefined);
      assert.deepEqual(events, ['state-changed:Dead:because']);
    });
  });

  describe('DescribeGroups during a rebalance', () => {
    it('describes each member with its previous assignment and no metadata in PreparingRebalance and CompletingRebalance', () => {
      const { h, a, b } = stableGroup();
      const c = joinDynamic(h.sim, 'C');
      assert.equal(state(h.sim), 'PreparingRebalance');
      const preparing = h.sim.coordinator.describeGroupNow('g');
      assert.equal(preparing.protocolData, '', 'the selected protocol is only described when Stable');
      assert.deepEqual(
        preparing.members.map((m) => [m.memberId, m.metadata, m.assignment.partitions]),
        [
          [a, null, A_PARTITIONS],
          [b, null, B_PARTITIONS],
          [c.memberId, null, []],
        ],
      );

      join(h.sim, { clientId: 'A', memberId: a });
      join(h.sim, { clientId: 'B', memberId: b });
      h.sim.advance(0);
      assert.equal(state(h.sim), 'CompletingRebalance');
      const completing = h.sim.coordinator.describeGroupNow('g');
      assert.deepEqual(
        completing.members.map((m) => [m.memberId, m.metadata, m.assignment.partitions]),
        [
          [a, null, A_PARTITIONS],
          [b, null, B_PARTITIONS],
          [c.memberId, null, []],
        ],
        'the assignment of generation 1 until the leader syncs generation 2',
      );
    });

    it('describes no assignment once a rebalance interrupts CompletingRebalance (resetAndPropagateAssignmentWithError)', () => {
      const { h, a, b } = stableGroup();
      joinDynamic(h.sim, 'C');
      join(h.sim, { clientId: 'A', memberId: a });
      join(h.sim, { clientId: 'B', memberId: b });
      h.sim.advance(0);
      assert.equal(state(h.sim), 'CompletingRebalance');
      joinDynamic(h.sim, 'D');
      assert.equal(state(h.sim), 'PreparingRebalance');
      assert.deepEqual(
        h.sim.coordinator.describeGroupNow('g').members.map((m) => m.assignment.partitions),
        [[], [], [], []],
      );
    });

    it('lets the simulator source show the partitions still owned while the group rebalances', () => {
      const { h, a, b } = stableGroup();
      joinDynamic(h.sim, 'C');
      const detail = describeSimGroup(h.sim, 'g');
      assert.equal(detail.state, 'PreparingRebalance');
      assert.deepEqual(
        detail.members.map((m) => [m.memberId, m.assignment.map((tp) => tp.partition)]),
        [
          [a, [0, 1]],
          [b, [2, 3]],
          [detail.members[2].memberId, []],
        ],
      );
      assert.deepEqual(
        detail.offsets.filter((o) => o.topic === 't').map((o) => [o.partition, o.ownerMemberId]),
        [
          [0, a],
          [1, a],
          [2, b],
          [3, b],
        ],
      );
    });
  });
});
