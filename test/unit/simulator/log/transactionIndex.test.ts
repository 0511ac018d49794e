import { strict as assert } from 'node:assert';
import { TransactionIndex } from '../../../../src/simulator/log/transactionIndex';

describe('TransactionIndex', () => {
  it('keeps aborted batches of interleaved transactions in offset order', () => {
    const index = new TransactionIndex();
    index.recordBatch(1, 0, 2); // producer 1: 0-1
    index.recordBatch(2, 2, 4); // producer 2: 2-3
    index.recordBatch(1, 4, 6); // producer 1: 4-5
    assert.equal(index.firstUnstableOffset(), 0);
    index.recordMarker(2, 'ABORT', 6);
    assert.equal(index.firstUnstableOffset(), 0, 'producer 1 is still open');
    index.recordMarker(1, 'ABORT', 7);
    assert.equal(index.firstUnstableOffset(), null);
    assert.equal(index.abortedTransactions, 2);
    assert.deepEqual(index.read(0, 8, 100, 'read_committed'), { records: 0, nextPosition: 8 });
    assert.deepEqual(index.read(0, 8, 100, 'read_uncommitted'), { records: 6, nextPosition: 8 });
    assert.deepEqual(index.read(0, 8, 3, 'read_uncommitted'), { records: 3, nextPosition: 3 });
  });

  it('drops ranges below a new log start and refuses a marker without a transaction', () => {
    const index = new TransactionIndex();
    index.recordBatch(1, 0, 3);
    index.recordMarker(1, 'COMMIT', 3);
    index.truncateBefore(4);
    assert.deepEqual(index.read(4, 6, 10, 'read_committed'), { records: 2, nextPosition: 6 });
    assert.throws(() => index.recordMarker(1, 'COMMIT', 6), /Producer 1 has no open transaction on this partition/);
  });
});
