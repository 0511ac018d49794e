import { strict as assert } from 'node:assert';
import { PendingTransactionalOffsets, type PendingOffset } from '../../../../../src/simulator/coordinator/group/transactionalOffsets';

const value = (offset: number, recordOffset: number): PendingOffset => ({ offset, leaderEpoch: -1, metadata: '', commitTimestamp: 0, recordOffset });

describe('PendingTransactionalOffsets', () => {
  it('keeps offsets per group and producer until the marker takes them', () => {
    const pending = new PendingTransactionalOffsets();
    pending.add('g', 1, 't', 0, value(10, 0));
    pending.add('g', 2, 't', 1, value(20, 1));
    pending.add('h', 1, 't', 0, value(30, 2));
    assert.ok(pending.isPending('g', 't', 0));
    assert.ok(pending.isPending('g', 't', 1));
    assert.equal(pending.isPending('g', 't', 2), false);
    assert.deepEqual(pending.take('g', 1, 'ABORT'), { staged: 1, materialized: [] }, 'ABORT discards');
    assert.equal(pending.isPending('g', 't', 0), false);
    assert.deepEqual(pending.take('g', 2, 'COMMIT').materialized.map((p) => [p.topic, p.partition, p.producerId, p.value.offset]), [['t', 1, 2, 20]]);
    assert.equal(pending.hasGroup('g'), false);
    assert.deepEqual(pending.take('g', 2, 'COMMIT'), { staged: 0, materialized: [] }, 'a second marker finds nothing');
    assert.deepEqual(pending.list('h').map((p) => p.value.offset), [30]);
    pending.deleteGroup('h');
    assert.equal(pending.hasGroup('h'), false);
  });
});
