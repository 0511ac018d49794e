import { strict as assert } from 'node:assert';
import { transactionalLog } from '../../../consumerHarness';

describe('OwnedPartitions (fetch)', () => {
  it('stops a read_committed consumer at the LSO and moves it past markers and aborted batches', () => {
    const { sim, producer, add, position } = transactionalLog();
    add('committed', 'read_committed');
    add('uncommitted', 'read_uncommitted');
    sim.advance(10000);
    assert.equal(sim.cluster.partition('in', 0)!.lastStableOffset, 10);
    assert.equal(position('committed'), 10, 'waits at the first offset of the open transaction');
    assert.equal(position('uncommitted'), 12);
    producer.commitTransaction();
    sim.advance(1000);
    assert.equal(position('committed'), 13, 'read the two records, then skipped the COMMIT marker');
    assert.equal(position('uncommitted'), 13);
    sim.advance(5000);
    assert.equal(sim.coordinator.group('committed')?.committed('in', 0)?.offset, 13, 'auto-commit stores the position past the marker');
  });
});
