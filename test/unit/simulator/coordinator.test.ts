import { strict as assert } from 'node:assert';
import type { KafkaErrorCode } from '../../../src/simulator/errors';
import { commit, harness, heartbeat, join, joinDynamic, protocols, state, sync } from './harness';

describe('GroupCoordinator (classic protocol)', () => {
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

  describe('protocol selection', () => {
    function electedProtocol(lists: string[][]): string | null {
      const h = harness();
      const members = lists.map((names, i) => joinDynamic(h.sim, `C${i}`, { protocols: protocols(names) }));
      h.sim.advance(10000);
      return members[0].pending.response?.protocolName ?? null;
    }

    it('only counts protocols every member supports', () => {
      assert.equal(electedProtocol([['roundrobin', 'range'], ['range', 'roundrobin'], ['range']]), 'range');
    });

    it('elects the protocol with most first-choice votes', () => {
      assert.equal(electedProtocol([['roundrobin', 'range'], ['roundrobin', 'range'], ['range', 'roundrobin']]), 'roundrobin');
    });

    it('breaks a tie in favour of the protocol voted first (insertion order)', () => {
      assert.equal(electedProtocol([['roundrobin', 'range'], ['range', 'roundrobin']]), 'roundrobin');
      assert.equal(electedProtocol([['range', 'roundrobin'], ['roundrobin', 'range']]), 'range');
    });
  });

  describe('OffsetCommit validation (spec 1.11)', () => {
    it('creates a simple group for a generation -1 commit to a missing group', () => {
      const h = harness();
      const created = commit(h.sim, { generationId: -1 });
      const missing = commit(h.sim, { groupId: 'other', generationId: 3, memberId: 'm' });
      h.sim.advance(0);
      assert.equal(created.response, 'NONE');
      assert.equal(missing.response, 'GROUP_ID_NOT_FOUND');
      assert.equal(state(h.sim), 'Empty');
      assert.equal(h.sim.coordinator.group('g')?.protocolType, null);
      assert.equal(h.of('offsets-committed').length, 1);
    });

    it('applies the member, generation and state rules', () => {
      const h = harness();
      const a = joinDynamic(h.sim, 'A');
      h.sim.advance(3000);
      const completing = commit(h.sim, { generationId: 1, memberId: a.memberId });
      const adminOnActive = commit(h.sim, { generationId: -1 });
      const tooLarge = commit(h.sim, { generationId: 1, memberId: a.memberId, metadata: 'x'.repeat(4097) });
      sync(h.sim, a.memberId, 1);
      h.sim.advance(0);
      const stale = commit(h.sim, { generationId: 0, memberId: a.memberId });
      const stranger = commit(h.sim, { generationId: 1, memberId: 'stranger' });
      const unknownTopic = commit(h.sim, { generationId: 1, memberId: a.memberId, topic: 'missing' });
      const fine = commit(h.sim, { generationId: 1, memberId: a.memberId, metadata: 'y'.repeat(4096) });
      h.sim.advance(0);
      // PreparingRebalance (a new member arrived): the old generation can still commit.
      joinDynamic(h.sim, 'B');
      const duringPrepare = commit(h.sim, { generationId: 1, memberId: a.memberId, offset: 9 });
      h.sim.advance(0);
      assert.equal(completing.response, 'REBALANCE_IN_PROGRESS');
      assert.equal(adminOnActive.response, 'UNKNOWN_MEMBER_ID');
      assert.equal(tooLarge.response, 'REBALANCE_IN_PROGRESS');
      assert.equal(stale.response, 'ILLEGAL_GENERATION');
      assert.equal(stranger.response, 'UNKNOWN_MEMBER_ID');
      assert.equal(unknownTopic.response, 'UNKNOWN_TOPIC_OR_PARTITION');
      assert.equal(fine.response, 'NONE');
      assert.equal(duringPrepare.response, 'NONE');
      assert.equal(h.sim.coordinator.group('g')?.committed('t', 0)?.offset, 9);
    });

    it('refuses metadata longer than offset.metadata.max.bytes', () => {
      const h = harness();
      const tooLarge = commit(h.sim, { generationId: -1, metadata: 'x'.repeat(4097) });
      h.sim.advance(0);
      assert.equal(tooLarge.response, 'OFFSET_METADATA_TOO_LARGE');
    });

    it('fetches committed offsets and -1 for the rest', () => {
      const h = harness();
      commit(h.sim, { generationId: -1, offset: 42, metadata: 'm' });
      let fetched: Array<[number, number, string]> = [];
      h.sim.coordinator.offsetFetch({ groupId: 'g', topics: [{ name: 't', partitions: [0, 1] }] }, (r) => {
        fetched = r.topics[0].partitions.map((p) => [p.partition, p.committedOffset, p.metadata]);
      });
      h.sim.advance(0);
      assert.deepEqual(fetched, [[0, 42, 'm'], [1, -1, '']]);
    });
  });

  describe('DeleteGroups and OffsetDelete', () => {
    it('deletes only Empty groups', () => {
      const h = harness();
      commit(h.sim, { groupId: 'idle', generationId: -1 });
      const a = joinDynamic(h.sim, 'A');
      h.sim.advance(0);
      let results: Array<[string, KafkaErrorCode]> = [];
      h.sim.coordinator.deleteGroups({ groupsNames: ['idle', 'g', 'missing'] }, (r) => {
        results = r.results.map((x) => [x.groupId, x.errorCode]);
      });
      h.sim.advance(0);
      assert.deepEqual(results, [['idle', 'NONE'], ['g', 'NON_EMPTY_GROUP'], ['missing', 'GROUP_ID_NOT_FOUND']]);
      assert.equal(h.sim.coordinator.group('idle'), undefined);
      assert.equal(h.of('state-changed', 'idle').at(-1)?.stateAfter, 'Dead');
      assert.ok(a.memberId);
    });

    it('refuses to delete offsets of a subscribed topic', () => {
      const h = harness();
      const a = joinDynamic(h.sim, 'A');
      h.sim.advance(3000);
      sync(h.sim, a.memberId, 1);
      h.sim.advance(0);
      commit(h.sim, { generationId: 1, memberId: a.memberId });
      commit(h.sim, { generationId: 1, memberId: a.memberId, topic: 'u' });
      let codes: KafkaErrorCode[] = [];
      h.sim.coordinator.offsetDelete({ groupId: 'g', topics: [{ name: 't', partitions: [0] }, { name: 'u', partitions: [0] }] }, (r) => {
        codes = r.topics.map((t) => t.partitions[0].errorCode);
      });
      h.sim.advance(0);
      assert.deepEqual(codes, ['GROUP_SUBSCRIBED_TO_TOPIC', 'NONE']);
      assert.equal(h.sim.coordinator.group('g')?.committed('u', 0), undefined);
    });
  });
});
