import { strict as assert } from 'node:assert';
import type { KafkaErrorCode } from '../../../../../../src/simulator/common/errors';
import { harness, heartbeat, join, joinDynamic, protocols, state, sync } from '../../../harness';

describe('ClassicGroupJoin (JoinGroup)', () => {
  describe('JoinGroup', () => {
    it('answers a new dynamic member with MEMBER_ID_REQUIRED and adds it only when it rejoins with the id', () => {
      const h = harness();
      const first = join(h.sim, { clientId: 'A' });
      h.sim.advance(0);
      assert.equal(first.response?.errorCode, 'MEMBER_ID_REQUIRED');
      assert.match(first.response.memberId, /^A-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      assert.equal(h.of('member-joined').length, 0);
      join(h.sim, { clientId: 'A', memberId: first.response.memberId });
      const joined = h.of('member-joined');
      assert.equal(joined.length, 1);
      assert.equal(joined[0].memberId, first.response.memberId);
    });

    it('rejects invalid group ids and session timeouts', () => {
      const h = harness();
      const noGroup = join(h.sim, { groupId: '' });
      const shortSession = join(h.sim, { sessionTimeoutMs: 1000 });
      const unknownMember = join(h.sim, { memberId: 'ghost' });
      h.sim.advance(0);
      assert.equal(noGroup.response?.errorCode, 'INVALID_GROUP_ID');
      assert.equal(shortSession.response?.errorCode, 'INVALID_SESSION_TIMEOUT');
      assert.equal(unknownMember.response?.errorCode, 'UNKNOWN_MEMBER_ID');
    });

    it('refuses a member whose protocols no member supports', () => {
      const h = harness();
      joinDynamic(h.sim, 'A');
      const b = join(h.sim, { clientId: 'B', protocols: protocols(['roundrobin']) });
      h.sim.advance(0);
      assert.equal(b.response?.errorCode, 'INCONSISTENT_GROUP_PROTOCOL');
    });
  });

  describe('initial rebalance delay (spec 1.6)', () => {
    it('completes generation 1 at 6 s when A joins at 0 s and B at 1 s', () => {
      const h = harness();
      const a = joinDynamic(h.sim, 'A', { rebalanceTimeoutMs: 300000 });
      h.sim.advance(1000);
      const b = joinDynamic(h.sim, 'B', { rebalanceTimeoutMs: 300000 });
      h.sim.advance(4999 - 1000);
      assert.equal(state(h.sim), 'PreparingRebalance');
      h.sim.advance(1001);
      const completed = h.of('state-changed').find((e) => e.stateAfter === 'CompletingRebalance');
      assert.equal(completed?.time, 6000);
      assert.equal(completed?.generation, 1);
      assert.equal(a.pending.response?.generationId, 1);
      assert.equal(b.pending.response?.generationId, 1);
    });

    it('completes at 3 s when A joins alone', () => {
      const h = harness();
      joinDynamic(h.sim, 'A', { rebalanceTimeoutMs: 300000 });
      h.sim.advance(10000);
      const completed = h.of('state-changed').find((e) => e.stateAfter === 'CompletingRebalance');
      assert.equal(completed?.time, 3000);
    });
  });

  describe('static membership (KIP-345)', () => {
    function stableStaticGroup() {
      const h = harness();
      const s1 = join(h.sim, { clientId: 'S1', groupInstanceId: 'i-1' });
      const s2 = join(h.sim, { clientId: 'S2', groupInstanceId: 'i-2' });
      h.sim.advance(6000);
      const id1 = s1.response!.memberId;
      const id2 = s2.response!.memberId;
      assert.match(id1, /^i-1-/);
      sync(h.sim, id1, 1, [
        { memberId: id1, partitions: [{ topic: 't', partition: 0 }] },
        { memberId: id2, partitions: [{ topic: 't', partition: 1 }] },
      ], 'i-1');
      sync(h.sim, id2, 1, [], 'i-2');
      h.sim.advance(0);
      return { h, id1, id2 };
    }

    it('replaces a rejoining static leader without a rebalance and asks it to skip the assignment', () => {
      const { h, id1, id2 } = stableStaticGroup();
      const rejoin = join(h.sim, { clientId: 'S1', groupInstanceId: 'i-1' });
      h.sim.advance(0);
      const response = rejoin.response!;
      assert.equal(response.errorCode, 'NONE');
      assert.notEqual(response.memberId, id1);
      assert.equal(response.generationId, 1);
      assert.equal(response.skipAssignment, true);
      assert.equal(response.leader, response.memberId);
      assert.equal(h.of('rebalance-started').length, 1);
      assert.equal(h.of('static-rejoin').length, 1);
      const stored = sync(h.sim, response.memberId, 1, [], 'i-1');
      const fenced = heartbeat(h.sim, id1, 1, 'i-1');
      const other = heartbeat(h.sim, id2, 1, 'i-2');
      h.sim.advance(0);
      assert.deepEqual(stored.response?.assignment.partitions, [{ topic: 't', partition: 0 }]);
      assert.equal(fenced.response?.errorCode, 'FENCED_INSTANCE_ID');
      assert.equal(other.response?.errorCode, 'NONE');
    });

    it('removes a static member by instance id with memberId "" (admin removal) and rebalances', () => {
      const { h, id2 } = stableStaticGroup();
      let errors: KafkaErrorCode[] = [];
      h.sim.coordinator.leaveGroup(
        { groupId: 'g', members: [{ memberId: '', groupInstanceId: 'i-2', reason: 'member was removed by an admin' }, { memberId: '', groupInstanceId: 'nope', reason: 'x' }] },
        (r) => {
          errors = r.members.map((m) => m.errorCode);
        },
      );
      h.sim.advance(0);
      assert.deepEqual(errors, ['NONE', 'UNKNOWN_MEMBER_ID']);
      const left = h.of('member-left');
      assert.equal(left[0].memberId, id2);
      assert.equal(left[0].cause, 'member was removed by an admin');
      assert.equal(state(h.sim), 'PreparingRebalance');
    });
  });
});
