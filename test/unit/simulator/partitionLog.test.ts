import { strict as assert } from 'node:assert';
import { PartitionLog } from '../../../src/simulator/partitionLog';

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
});
