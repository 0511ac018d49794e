import { strict as assert } from 'node:assert';
import { PartitionLog } from '../../../../src/simulator/log/partitionLog';

describe('PartitionLog', () => {
  it('tracks offsets per batch and finds the first offset at or after a timestamp', () => {
    const log = new PartitionLog();
    assert.equal(log.append(10, 1000), 0);
    assert.equal(log.append(5, 1000), 10);
    assert.equal(log.append(1_000_000, 2000), 15);
    assert.equal(log.append(3, 3000), 1_000_015);
    assert.equal(log.highWatermark, 1_000_018);
    assert.equal(log.storedBatches, 3);
    assert.equal(log.offsetForTimestamp(0), 0);
    assert.equal(log.offsetForTimestamp(1000), 0);
    assert.equal(log.offsetForTimestamp(1001), 15);
    assert.equal(log.offsetForTimestamp(3000), 1_000_015);
    assert.equal(log.offsetForTimestamp(3001), null);
    assert.equal(log.latestTimestamp(), 3000);
  });

  it('moves the log start offset when retention deletes old batches', () => {
    const log = new PartitionLog();
    log.append(10, 1000);
    log.append(10, 2000);
    log.append(10, 3000);
    log.deleteBefore(2500);
    assert.equal(log.logStartOffset, 20);
    assert.equal(log.offsetForTimestamp(0), 20);
    log.deleteBefore(10000);
    assert.equal(log.logStartOffset, 30);
    assert.equal(log.highWatermark, 30);
    assert.throws(() => log.append(-1, 0), /non-negative integer/);
  });

  describe('transactions', () => {
    it('holds the last stable offset at the first offset of the earliest open transaction', () => {
      const log = new PartitionLog();
      log.append(5, 1000);
      assert.equal(log.lastStableOffset, 5);
      assert.equal(log.appendTransactional(1, 3, 1000), 5);
      log.append(2, 1000);
      assert.equal(log.appendTransactional(2, 4, 1000), 10);
      assert.equal(log.highWatermark, 14);
      assert.equal(log.lastStableOffset, 5);
      assert.equal(log.writeControlMarker(1, 'COMMIT', 1000), 14);
      assert.equal(log.highWatermark, 15);
      assert.equal(log.lastStableOffset, 10, 'producer 2 still holds its transaction open from offset 10');
      log.writeControlMarker(2, 'ABORT', 1000);
      assert.equal(log.lastStableOffset, 16);
      assert.equal(log.highWatermark, 16);
      assert.equal(log.abortedTransactions, 1);
    });

    it('reads committed data up to the LSO, skipping markers and aborted batches', () => {
      const log = new PartitionLog();
      log.appendTransactional(1, 3, 0); // 0-2 committed
      log.writeControlMarker(1, 'COMMIT', 0); // 3
      log.appendTransactional(1, 4, 0); // 4-7 aborted
      log.append(2, 0); // 8-9 plain, interleaved with the aborted transaction
      log.writeControlMarker(1, 'ABORT', 0); // 10
      log.appendTransactional(2, 5, 0); // 11-15 open
      assert.equal(log.lastStableOffset, 11);
      assert.deepEqual(log.read(0, 500, 'read_committed'), { records: 5, nextPosition: 11 });
      assert.deepEqual(log.read(0, 500, 'read_uncommitted'), { records: 14, nextPosition: 16 });
      assert.deepEqual(log.read(0, 3, 'read_committed'), { records: 3, nextPosition: 3 }, 'stops right after the last record');
      assert.deepEqual(log.read(3, 1, 'read_committed'), { records: 1, nextPosition: 9 }, 'skips the marker and the aborted batch');
      assert.deepEqual(log.read(9, 500, 'read_committed'), { records: 1, nextPosition: 11 });
      assert.equal(log.visibleRecords(10, Infinity, 'read_committed'), 0, 'only a marker is left below the LSO');
      assert.equal(log.visibleRecords(10, Infinity, 'read_uncommitted'), 5);
      assert.equal(log.visibleRecords(3, 10, 'read_uncommitted'), 6, 'markers at 3 and 10 excluded, the aborted batch included');
      assert.equal(log.visibleRecords(3, 4, 'read_uncommitted'), 0, 'a lone commit marker');
    });

    it('refuses a batch of no records, and writes a marker for a producer with none open (an admin abort before the coordinator\'s own)', () => {
      const log = new PartitionLog();
      assert.throws(() => log.appendTransactional(9, 0, 0), /positive integer/);
      log.appendTransactional(9, 2, 0);
      assert.equal(log.writeControlMarker(9, 'ABORT', 0), 2);
      assert.equal(log.writeControlMarker(9, 'COMMIT', 0), 3, 'the late marker takes an offset');
      assert.equal(log.lastStableOffset, 4);
      assert.equal(log.visibleRecords(0, 4, 'read_committed'), 0, 'the first marker aborted the batch; the second ended nothing');
    });

    it('forgets markers and aborted ranges that retention deleted', () => {
      const log = new PartitionLog();
      log.appendTransactional(1, 2, 1000);
      log.writeControlMarker(1, 'ABORT', 1000); // 2
      log.append(3, 2000); // 3-5
      log.deleteBefore(1500);
      assert.equal(log.logStartOffset, 3);
      assert.deepEqual(log.read(0, 500, 'read_committed'), { records: 3, nextPosition: 6 });
    });
  });
});
