import { strict as assert } from 'node:assert';
import { setup, transactionalLog } from '../../../consumerHarness';

describe('ConsumerOffsets', () => {
  it('consumes and auto-commits without per-record work', () => {
    const { sim, add } = setup();
    add({ autoOffsetReset: 'earliest' }, 'a');
    sim.startProducer({ topic: 'orders', recordsPerSecond: 600 });
    sim.advance(60000);
    const group = sim.coordinator.group('g')!;
    let committed = 0;
    for (let p = 0; p < 6; p++) {
      committed += group.committed('orders', p)?.offset ?? 0;
    }
    assert.ok(committed > 600 * 50, `committed ${committed}`);
  });

  it('refetches a committed offset that a transaction holds pending (UNSTABLE_OFFSET_COMMIT) until the marker', () => {
    const { sim, producer, add, position } = transactionalLog();
    producer.sendOffsetsToTransaction([{ topic: 'in', partition: 0, offset: 4 }], { groupId: 'g2', generationId: -1, memberId: '', groupInstanceId: null });
    add('g2', 'read_committed');
    sim.advance(10000);
    assert.equal(position('g2'), -1, 'no position while the offset is unstable');
    producer.commitTransaction();
    sim.advance(1000);
    assert.equal(sim.coordinator.group('g2')?.committed('in', 0)?.offset, 4, 'the COMMIT marker materialized the offset');
    assert.equal(position('g2'), 13, 'started from offset 4 and read on');
  });
});
