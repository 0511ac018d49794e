import { strict as assert } from 'node:assert';
import { harness, heartbeat, join, joinDynamic, protocols, state, sync } from '../../../harness';

describe('ClassicRebalance (join and sync phases, timers, expiry)', () => {
  describe('state machine (spec 1.3)', () => {
    it('walks every legal transition and logs each one', () => {
      const h = harness();
      const a = joinDynamic(h.sim, 'A');
      h.sim.advance(3000);
      const gen1 = a.pending.response!;
      assert.equal(gen1.leader, a.memberId);
      // CompletingRebalance -> PreparingRebalance: a new member arrives before the leader syncs.
      const b = joinDynamic(h.sim, 'B');
      assert.equal(state(h.sim), 'PreparingRebalance');
      join(h.sim, { clientId: 'A', memberId: a.memberId });
      h.sim.advance(0);
      assert.equal(state(h.sim), 'CompletingRebalance');
      const gen2 = b.pending.response!;
      assert.equal(gen2.generationId, 2);
      sync(h.sim, a.memberId, 2, [
        { memberId: a.memberId, partitions: [{ topic: 't', partition: 0 }, { topic: 't', partition: 1 }] },
        { memberId: b.memberId, partitions: [{ topic: 't', partition: 2 }, { topic: 't', partition: 3 }] },
      ]);
      const bSync = sync(h.sim, b.memberId, 2);
      h.sim.advance(0);
      assert.equal(state(h.sim), 'Stable');
      assert.deepEqual(bSync.response?.assignment.partitions, [{ topic: 't', partition: 2 }, { topic: 't', partition: 3 }]);
      // Stable -> PreparingRebalance: any JoinGroup from the leader.
      join(h.sim, { clientId: 'A', memberId: a.memberId });
      const leaderRejoin = h.of('rebalance-started').at(-1);
      assert.equal(leaderRejoin?.cause, `Leader ${a.memberId} re-joining group during Stable; client reason: not provided`);
      // PreparingRebalance -> Empty: everyone leaves, the generation still increments.
      h.sim.coordinator.leaveGroup({ groupId: 'g', members: [{ memberId: a.memberId, groupInstanceId: null }, { memberId: b.memberId, groupInstanceId: null }] }, () => undefined);
      h.sim.advance(0);
      assert.equal(state(h.sim), 'Empty');
      assert.equal(h.sim.coordinator.group('g')?.generationId, 3);
      // Empty -> Dead: DeleteGroups.
      h.sim.coordinator.deleteGroups({ groupsNames: ['g'] }, () => undefined);
      assert.deepEqual(h.transitions(), [
        'Empty->PreparingRebalance',
        'PreparingRebalance->CompletingRebalance',
        'CompletingRebalance->PreparingRebalance',
        'PreparingRebalance->CompletingRebalance',
        'CompletingRebalance->Stable',
        'Stable->PreparingRebalance',
        'PreparingRebalance->Empty',
        'Empty->Dead',
      ]);
    });

    it('takes the last member leaving a Stable group to Empty through PreparingRebalance with generation + 1', () => {
      const h = harness();
      const a = joinDynamic(h.sim, 'A');
      h.sim.advance(3000);
      sync(h.sim, a.memberId, 1, [{ memberId: a.memberId, partitions: [] }]);
      h.sim.advance(0);
      h.sim.coordinator.leaveGroup({ groupId: 'g', members: [{ memberId: a.memberId, groupInstanceId: null, reason: 'the consumer is being closed' }] }, () => undefined);
      assert.deepEqual(h.transitions().slice(-2), ['Stable->PreparingRebalance', 'PreparingRebalance->Empty']);
      assert.equal(h.of('state-changed').at(-1)?.generation, 2);
      assert.equal(h.of('member-left')[0].cause, 'the consumer is being closed');
    });

    it('refuses an illegal transition', () => {
      const h = harness();
      joinDynamic(h.sim, 'A');
      const group = h.sim.coordinator.group('g')!;
      assert.throws(() => group.transitionTo('Stable', 0), /should be in one of CompletingRebalance before moving to Stable, but it is PreparingRebalance/);
    });
  });

  describe('leader', () => {
    it('makes the first joiner leader and passes leadership on in insertion order when it leaves', () => {
      const h = harness();
      const a = joinDynamic(h.sim, 'A');
      const b = joinDynamic(h.sim, 'B');
      const c = joinDynamic(h.sim, 'C');
      h.sim.advance(6000);
      assert.equal(c.pending.response?.leader, a.memberId);
      assert.equal(a.pending.response?.members.length, 3);
      assert.equal(b.pending.response?.members.length, 0);
      h.sim.coordinator.leaveGroup({ groupId: 'g', members: [{ memberId: a.memberId, groupInstanceId: null }] }, () => undefined);
      assert.equal(h.sim.coordinator.group('g')?.leaderId, b.memberId);
    });

    it('hands leadership to a member that rejoined when the leader did not', () => {
      const h = harness();
      const a = joinDynamic(h.sim, 'A', { rebalanceTimeoutMs: 20000, sessionTimeoutMs: 60000 });
      const b = joinDynamic(h.sim, 'B', { rebalanceTimeoutMs: 20000, sessionTimeoutMs: 60000 });
      h.sim.advance(6000);
      sync(h.sim, a.memberId, 1);
      sync(h.sim, b.memberId, 1);
      h.sim.advance(0);
      // B changes its protocols: rebalance; A never rejoins and is dropped at the rebalance timeout.
      const rejoin = join(h.sim, { clientId: 'B', memberId: b.memberId, protocols: protocols(['range'], ['t', 'u']), rebalanceTimeoutMs: 20000, sessionTimeoutMs: 60000 });
      for (let t = 0; t < 20000; t += 3000) {
        h.sim.advance(3000);
        heartbeat(h.sim, b.memberId, 1);
      }
      h.sim.advance(1000);
      assert.equal(rejoin.response?.leader, b.memberId);
      const dropped = h.of('member-expired');
      assert.equal(dropped.length, 1);
      assert.equal(dropped[0].memberId, a.memberId);
    });
  });

  describe('liveness', () => {
    it('expires a member that stops heartbeating after its session timeout', () => {
      const h = harness();
      const a = joinDynamic(h.sim, 'A');
      const b = joinDynamic(h.sim, 'B');
      h.sim.advance(6000);
      sync(h.sim, a.memberId, 1);
      sync(h.sim, b.memberId, 1);
      for (let i = 0; i < 5; i++) {
        h.sim.advance(3000);
        heartbeat(h.sim, a.memberId, 1);
      }
      h.sim.advance(9000);
      const expired = h.of('member-expired');
      assert.equal(expired.length, 1);
      assert.equal(expired[0].memberId, b.memberId);
      assert.equal(expired[0].time, 16000);
      assert.equal(expired[0].cause, `removing member ${b.memberId} on heartbeat expiration.`);
      assert.equal(h.of('rebalance-started').at(-1)?.cause, expired[0].cause);
    });

    it('expires a new member whose JoinGroup stays parked for the 5-minute new-member timeout', () => {
      const h = harness();
      const a = joinDynamic(h.sim, 'A', { rebalanceTimeoutMs: 600000 });
      h.sim.advance(3000);
      sync(h.sim, a.memberId, 1);
      h.sim.advance(0);
      const b = joinDynamic(h.sim, 'B', { rebalanceTimeoutMs: 600000 });
      const joinedAt = h.sim.now;
      // A keeps heartbeating (REBALANCE_IN_PROGRESS) but never rejoins, so the join phase cannot complete.
      for (let t = 0; t < 300000; t += 3000) {
        h.sim.advance(3000);
        heartbeat(h.sim, a.memberId, 1);
      }
      const expired = h.of('member-expired');
      assert.equal(expired.length, 1);
      assert.equal(expired[0].memberId, b.memberId);
      assert.equal(expired[0].time, joinedAt + 300000);
      assert.equal(b.pending.response?.errorCode, 'UNKNOWN_MEMBER_ID');
    });

    it('answers heartbeats by state and generation', () => {
      const h = harness();
      const a = joinDynamic(h.sim, 'A');
      h.sim.advance(0);
      const during = heartbeat(h.sim, a.memberId, 0);
      h.sim.advance(3000);
      const wrongGeneration = heartbeat(h.sim, a.memberId, 0);
      const ok = heartbeat(h.sim, a.memberId, 1);
      const stranger = heartbeat(h.sim, 'nobody', 1);
      h.sim.advance(0);
      assert.equal(during.response?.errorCode, 'REBALANCE_IN_PROGRESS');
      assert.equal(wrongGeneration.response?.errorCode, 'ILLEGAL_GENERATION');
      assert.equal(ok.response?.errorCode, 'NONE');
      assert.equal(stranger.response?.errorCode, 'UNKNOWN_MEMBER_ID');
    });

    it('drops dynamic members that miss the rebalance timeout and keeps static ones', () => {
      const h = harness();
      const a = joinDynamic(h.sim, 'A', { rebalanceTimeoutMs: 10000, sessionTimeoutMs: 60000 });
      const s = join(h.sim, { clientId: 'S', groupInstanceId: 'static-1', rebalanceTimeoutMs: 10000, sessionTimeoutMs: 60000 });
      const d = joinDynamic(h.sim, 'D', { rebalanceTimeoutMs: 10000, sessionTimeoutMs: 60000 });
      h.sim.advance(6000);
      const sId = s.response!.memberId;
      for (const id of [a.memberId, sId, d.memberId]) {
        sync(h.sim, id, 1, [], id === sId ? 'static-1' : null);
      }
      h.sim.advance(0);
      join(h.sim, { clientId: 'A', memberId: a.memberId, rebalanceTimeoutMs: 10000, sessionTimeoutMs: 60000 });
      h.sim.advance(10000);
      const group = h.sim.coordinator.group('g')!;
      assert.deepEqual([...group.members.keys()].sort(), [a.memberId, sId].sort());
      assert.equal(h.of('member-expired').map((e) => e.memberId).join(), d.memberId);
      assert.equal(group.generationId, 2);
    });

    it('removes members that do not send SyncGroup before the pending-sync timeout', () => {
      const h = harness();
      const a = joinDynamic(h.sim, 'A', { rebalanceTimeoutMs: 8000 });
      const b = joinDynamic(h.sim, 'B', { rebalanceTimeoutMs: 8000 });
      h.sim.advance(6000);
      sync(h.sim, a.memberId, 1, [{ memberId: a.memberId, partitions: [{ topic: 't', partition: 0 }] }]);
      h.sim.advance(8000);
      const expired = h.of('member-expired');
      assert.equal(expired.length, 1);
      assert.equal(expired[0].memberId, b.memberId);
      assert.equal(h.of('rebalance-started').at(-1)?.cause, `Removing [${b.memberId}] on pending sync request expiration`);
    });
  });
});
