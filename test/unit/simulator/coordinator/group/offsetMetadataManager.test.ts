import { strict as assert } from 'node:assert';
import type { KafkaErrorCode } from '../../../../../src/simulator/common/errors';
import { commit, harness, joinDynamic, state, sync } from '../../harness';

describe('OffsetMetadataManager', () => {
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

  describe('OffsetDelete', () => {
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
