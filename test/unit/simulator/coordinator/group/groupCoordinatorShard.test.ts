import { strict as assert } from 'node:assert';
import type { KafkaErrorCode } from '../../../../../src/simulator/common/errors';
import { commit, harness, joinDynamic, state, sync } from '../../harness';

const RETENTION = { offsetsRetentionMs: 60000, offsetsRetentionCheckIntervalMs: 10000 };

describe('GroupCoordinatorShard', () => {
  describe('DeleteGroups', () => {
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
  });

  describe('offset expiry (cleanupGroupMetadata)', () => {
    it('expires a simple group\'s offsets by commit time, then deletes the group', () => {
      const h = harness({ coordinator: RETENTION });
      commit(h.sim, { generationId: -1 });
      h.sim.advance(59999);
      assert.equal(h.sim.coordinator.group('g')?.committed('t', 0)?.offset, 5);
      h.sim.advance(1);
      assert.equal(h.sim.coordinator.group('g'), undefined);
      const dead = h.of('state-changed').at(-1);
      assert.equal(dead?.stateAfter, 'Dead');
      assert.equal(dead?.cause, 'every offset expired and the group is empty');
    });

    it('expires only unsubscribed topics of a Stable group, and counts an Empty group\'s retention from when it became Empty', () => {
      const h = harness({ coordinator: RETENTION });
      const a = joinDynamic(h.sim, 'A', { sessionTimeoutMs: 1800000 });
      h.sim.advance(3000);
      sync(h.sim, a.memberId, 1);
      h.sim.advance(0);
      assert.equal(state(h.sim), 'Stable');
      commit(h.sim, { generationId: 1, memberId: a.memberId });
      commit(h.sim, { generationId: 1, memberId: a.memberId, topic: 'u' });
      h.sim.advance(70000 - 3000);
      const group = h.sim.coordinator.group('g')!;
      assert.equal(group.committed('u', 0), undefined, 'u is not subscribed: expired 60 s after its commit');
      assert.equal(group.committed('t', 0)?.offset, 5, 't is subscribed by the Stable group');
      h.sim.coordinator.leaveGroup({ groupId: 'g', members: [{ memberId: a.memberId, groupInstanceId: null }] }, () => undefined);
      h.sim.advance(0);
      assert.equal(state(h.sim), 'Empty');
      h.sim.advance(59999);
      assert.equal(group.committed('t', 0)?.offset, 5, 'retention counts from Empty (70 s), not from the commit (3 s)');
      h.sim.advance(1);
      assert.equal(h.sim.coordinator.group('g'), undefined);
    });

    it('keeps an empty group while an open transaction holds offsets for it', () => {
      const h = harness({ coordinator: RETENTION });
      const codes: KafkaErrorCode[] = [];
      h.sim.coordinator.txnOffsetCommit(
        { groupId: 'g', generationId: -1, memberId: '', groupInstanceId: null, transactionalId: 'tx', producerId: 7, topics: [{ name: 't', partitions: [{ partition: 0, offset: 3 }] }] },
        (r) => codes.push(r.topics[0].partitions[0].errorCode),
      );
      h.sim.advance(120000);
      assert.deepEqual(codes, ['NONE']);
      assert.equal(state(h.sim), 'Empty', 'the pending offsets keep the group');
      h.sim.coordinator.completeTransaction('g', 7, 'ABORT');
      h.sim.advance(10000);
      assert.equal(h.sim.coordinator.group('g'), undefined);
    });
  });
});
