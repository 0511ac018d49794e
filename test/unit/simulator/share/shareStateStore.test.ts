/** The share coordinator's state: PersisterStateBatchCombiner's merge and ShareCoordinatorShard's checks, from the Java. */
import assert from 'node:assert/strict';
import { type KafkaApiError } from '../../../../src/simulator/common/errors';
import { combineStateBatches, ShareStateStore, SNAPSHOT_UPDATE_RECORDS_PER_SNAPSHOT } from '../../../../src/simulator/share/shareStateStore';

const batch = (firstOffset: number, lastOffset: number, deliveryState: number, deliveryCount: number) => ({ firstOffset, lastOffset, deliveryState, deliveryCount });

describe('ShareStateStore (ShareCoordinatorShard)', () => {
  it('merges overlapping batches with the higher delivery count winning, then the higher state, and coalesces equal neighbours', () => {
    // 0-9 acquired once (1), then 3-5 acknowledged (2) at the same count: the higher state wins there.
    assert.deepEqual(combineStateBatches([batch(0, 9, 1, 1)], [batch(3, 5, 2, 1)], 0), [batch(0, 2, 1, 1), batch(3, 5, 2, 1), batch(6, 9, 1, 1)]);
    // A released batch (AVAILABLE, 0) redelivered: its count 2 outranks the stored ACQUIRED at count 1 whatever the state.
    assert.deepEqual(combineStateBatches([batch(0, 4, 1, 1)], [batch(2, 4, 0, 2)], 0), [batch(0, 1, 1, 1), batch(2, 4, 0, 2)]);
    // Neighbours that end up equal become one batch; what is below the start offset goes, and a batch across it is cut.
    assert.deepEqual(combineStateBatches([batch(0, 3, 2, 1), batch(4, 7, 2, 1)], [batch(8, 9, 2, 1)], 2), [batch(2, 9, 2, 1)]);
    assert.deepEqual(combineStateBatches([batch(0, 3, 2, 1)], [], 4), []);
  });

  it('refuses reads and writes of a partition with no state, and writes with an older state or leader epoch', () => {
    const store = new ShareStateStore();
    assert.throws(() => store.readState('g', 't', 0, 0), (e: KafkaApiError) => e.errorName === 'INVALID_REQUEST' && e.message === 'Read operation on uninitialized share partition not allowed.');
    assert.throws(() => store.writeState('g', 't', 0, { stateEpoch: 0, leaderEpoch: 0, startOffset: 0, deliveryCompleteCount: 0, stateBatches: [] }), (e: KafkaApiError) => e.message === 'Write operation on uninitialized share partition not allowed.');
    store.initializeState('g', 't', 0, 3, -1);
    assert.deepEqual(store.readState('g', 't', 0, 2), { stateEpoch: 3, startOffset: -1, stateBatches: [] });
    assert.throws(() => store.readState('g', 't', 0, 1), (e: KafkaApiError) => e.errorName === 'FENCED_LEADER_EPOCH');
    assert.throws(() => store.writeState('g', 't', 0, { stateEpoch: 2, leaderEpoch: 2, startOffset: 0, deliveryCompleteCount: 0, stateBatches: [] }), (e: KafkaApiError) => e.errorName === 'FENCED_STATE_EPOCH');
    assert.throws(() => store.initializeState('g', 't', 0, 2, 0), (e: KafkaApiError) => e.errorName === 'FENCED_STATE_EPOCH');
    assert.deepEqual(store.summary('g', 't', 1), { startOffset: -1, deliveryCompleteCount: -1, leaderEpoch: 0, stateEpoch: 0 });
  });

  it('moves the start offset only forward, keeps the delivery-complete count of a write that is behind, and snapshots every so many updates', () => {
    const store = new ShareStateStore();
    store.initializeState('g', 't', 0, 0, 10);
    const write = (startOffset: number, deliveryCompleteCount: number) => store.writeState('g', 't', 0, { stateEpoch: 0, leaderEpoch: 0, startOffset, deliveryCompleteCount, stateBatches: [batch(startOffset, startOffset, 2, 1)] });
    assert.equal(write(12, 1), 'ShareUpdate');
    assert.deepEqual([store.summary('g', 't', 0).startOffset, store.summary('g', 't', 0).deliveryCompleteCount], [12, 1]);
    write(11, 5);
    assert.deepEqual([store.summary('g', 't', 0).startOffset, store.summary('g', 't', 0).deliveryCompleteCount], [12, 1]);
    write(12, 0);
    assert.equal(store.summary('g', 't', 0).deliveryCompleteCount, 1, 'at the same start offset the larger count stays');
    const kinds = Array.from({ length: SNAPSHOT_UPDATE_RECORDS_PER_SNAPSHOT }, () => write(12, 1));
    assert.equal(kinds.filter((kind) => kind === 'ShareSnapshot').length, 1);
    assert.equal(kinds.lastIndexOf('ShareSnapshot'), SNAPSHOT_UPDATE_RECORDS_PER_SNAPSHOT - 3);
    assert.equal(store.get('g', 't', 0)?.snapshotEpoch, 1);
  });
});
