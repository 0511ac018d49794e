import { strict as assert } from 'node:assert';
import type { ClassicGroup } from '../../../../../../src/simulator/coordinator/group/classic/classicGroup';
import { commit, harness, joinDynamic, state, sync } from '../../../harness';

function groupOf(h: ReturnType<typeof harness>): ClassicGroup {
  const group = h.sim.coordinator.group('g');
  assert.ok(group);
  return group;
}

describe('ClassicGroup', () => {
  describe('validateOffsetCommit (ClassicGroup.validateOffsetCommit)', () => {
    it('lets generation -1 commit to an Empty group, and a transactional commit without member fields to any group', () => {
      const h = harness();
      commit(h.sim, { generationId: -1 });
      h.sim.advance(0);
      const group = groupOf(h);
      assert.equal(group.validateOffsetCommit('', null, -1, false), 'NONE');
      const a = joinDynamic(h.sim, 'A');
      h.sim.advance(3000);
      assert.equal(group.state, 'CompletingRebalance');
      assert.equal(group.validateOffsetCommit('', null, -1, false), 'UNKNOWN_MEMBER_ID');
      assert.equal(group.validateOffsetCommit('', null, -1, true), 'NONE');
      assert.equal(group.validateOffsetCommit(a.memberId, null, 1, false), 'REBALANCE_IN_PROGRESS');
      assert.equal(group.validateOffsetCommit(a.memberId, null, 1, true), 'NONE', 'CompletingRebalance does not block a transactional commit');
      assert.equal(group.validateOffsetCommit(a.memberId, null, 0, true), 'ILLEGAL_GENERATION');
      assert.equal(group.validateOffsetCommit('stranger', null, 1, true), 'UNKNOWN_MEMBER_ID');
      assert.equal(group.validateOffsetCommit(a.memberId, 'no-such-instance', 1, true), 'UNKNOWN_MEMBER_ID');
    });
  });

  describe('validateOffsetDelete and validateDeleteGroup', () => {
    it('allows both on an Empty group, only OffsetDelete on an active consumer group', () => {
      const h = harness();
      commit(h.sim, { generationId: -1 });
      h.sim.advance(0);
      const group = groupOf(h);
      assert.equal(group.validateOffsetDelete(), 'NONE');
      assert.equal(group.validateDeleteGroup(), 'NONE');
      joinDynamic(h.sim, 'A');
      assert.equal(state(h.sim), 'PreparingRebalance');
      assert.equal(group.validateOffsetDelete(), 'NONE', 'a consumer group checks the topics instead');
      assert.equal(group.validateDeleteGroup(), 'NON_EMPTY_GROUP');
    });

    it('refuses OffsetDelete on an active group of another protocol type', () => {
      const h = harness();
      joinDynamic(h.sim, 'A', { protocolType: 'connect' });
      const group = groupOf(h);
      assert.equal(group.protocolType, 'connect');
      assert.equal(group.validateOffsetDelete(), 'NON_EMPTY_GROUP');
    });
  });

  describe('offsetExpirationCondition', () => {
    it('expires nothing while the group rebalances, and only unsubscribed topics while Stable', () => {
      const h = harness();
      const a = joinDynamic(h.sim, 'A');
      const group = groupOf(h);
      assert.equal(group.offsetExpirationCondition(), null);
      h.sim.advance(3000);
      sync(h.sim, a.memberId, 1);
      h.sim.advance(0);
      const stable = group.offsetExpirationCondition();
      assert.ok(stable);
      assert.equal(stable.appliesTo('t'), false);
      assert.equal(stable.appliesTo('u'), true);
      assert.equal(stable.baseTimestamp({ offset: 1, leaderEpoch: -1, metadata: '', commitTimestamp: 1234 }), 1234);
    });
  });
});
