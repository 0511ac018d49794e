import { strict as assert } from 'node:assert';
import { TransactionIndex } from '../../../../src/simulator/log/transactionIndex';

describe('TransactionIndex', () => {
  it('keeps aborted batches of interleaved transactions in offset order', () => {
    const index = new TransactionIndex();
    index.recordBatch(1, 0, 2); // producer 1: 0-1
    index.recordBatch(2, 2, 4); // producer 2: 2-3
    index.recordBatch(1, 4, 6); // producer 1: 4-5
    assert.equal(index.firstUnstableOffset(), 0);
    index.recordMarker({ producerId: 2, producerEpoch: 0, result: 'ABORT' }, 6);
    assert.equal(index.firstUnstableOffset(), 0, 'producer 1 is still open');
    index.recordMarker({ producerId: 1, producerEpoch: 0, result: 'ABORT' }, 7);
    assert.equal(index.firstUnstableOffset(), null);
    assert.equal(index.abortedTransactions, 2);
    assert.deepEqual(index.read(0, 8, 100, 'read_committed'), { records: 0, nextPosition: 8 });
    assert.deepEqual(index.read(0, 8, 100, 'read_uncommitted'), { records: 6, nextPosition: 8 });
    assert.deepEqual(index.read(0, 8, 3, 'read_uncommitted'), { records: 3, nextPosition: 3 });
  });

  it('drops ranges below a new log start, and writes a marker for a producer with none open that ends nothing', () => {
    const index = new TransactionIndex();
    index.recordBatch(1, 0, 3);
    index.recordMarker({ producerId: 1, producerEpoch: 0, result: 'COMMIT' }, 3);
    index.truncateBefore(4);
    assert.deepEqual(index.read(4, 6, 10, 'read_committed'), { records: 2, nextPosition: 6 });
    index.recordMarker({ producerId: 1, producerEpoch: 0, result: 'ABORT' }, 6);
    assert.equal(index.abortedTransactions, 0, 'an abort marker with no open transaction aborts nothing');
    assert.deepEqual(index.markerAt(6), { producerId: 1, producerEpoch: 0, result: 'ABORT' });
    assert.deepEqual(index.read(4, 7, 10, 'read_committed'), { records: 2, nextPosition: 7 }, 'the marker is skipped, the records before it stay visible');
  });
});
