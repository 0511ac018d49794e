import * as assert from 'assert';
import {
  computeLagInTime, describeLagInTime, maxLagInTime, pickNewestRecord, pickRecordAt, type LagInTimeInput, type PickedRecord,
} from '../../../src/health/lagInTime';
import { decodeRecordBatches, encodeControlBatch, encodeRecordBatch } from '../../../src/protocol/recordBatch';

const T = 1_700_000_000_000;

/** One data batch at `baseOffset`, with records at the given offset deltas and timestamps (ms after T). */
function dataBatch(baseOffset: number, records: Array<[offsetDelta: number, msAfterT: number]>, transactional = false): Uint8Array {
  return encodeRecordBatch({
    baseOffset: BigInt(baseOffset), baseTimestamp: BigInt(T),
    producerId: transactional ? 7n : undefined, transactional,
    records: records.map(([offsetDelta, ms]) => ({ offsetDelta, timestampDelta: BigInt(ms), value: Buffer.from('v') })),
  });
}

function marker(offset: number, msAfterT: number): Uint8Array {
  return encodeControlBatch({ offset: BigInt(offset), producerId: 7n, producerEpoch: 0, type: 'COMMIT', coordinatorEpoch: 0, timestamp: BigInt(T + msAfterT) });
}

/** What a Fetch returns: the batches concatenated, decoded with the one record-batch module. */
function fetched(...batches: Uint8Array[]): ReturnType<typeof decodeRecordBatches> {
  return decodeRecordBatches(Buffer.concat(batches));
}

describe('lagInTime: picking the record timestamp from a Fetch', () => {
  it('takes the record at the committed offset, inside a batch that starts before it', () => {
    const picked = pickRecordAt(fetched(dataBatch(100, [[0, 0], [1, 10], [2, 20], [3, 30]])), 102);
    assert.deepStrictEqual(picked, {
      record: { offset: 102, timestamp: T + 20, timestampType: 'CreateTime' },
      skippedMarkers: false, skippedMissing: false, nonMonotonic: false, nextOffset: 104,
    });
  });

  it('compaction: the record at the committed offset is gone, the next one is used', () => {
    const picked = pickRecordAt(fetched(dataBatch(100, [[0, 0], [4, 40], [7, 70]])), 102);
    assert.deepStrictEqual([picked.record?.offset, picked.record?.timestamp, picked.skippedMissing, picked.skippedMarkers], [104, T + 40, true, false]);
  });

  it('compaction across batches: the next batch starts after the committed offset', () => {
    const picked = pickRecordAt(fetched(dataBatch(100, [[0, 0], [1, 10]]), dataBatch(105, [[0, 50]])), 102);
    assert.deepStrictEqual([picked.record?.offset, picked.skippedMissing], [105, true]);
  });

  it('transaction markers at the committed offset are skipped, not counted as compaction', () => {
    const picked = pickRecordAt(fetched(dataBatch(100, [[0, 0], [1, 10]], true), marker(102, 15), dataBatch(103, [[0, 30]], true)), 102);
    assert.deepStrictEqual([picked.record?.offset, picked.record?.timestamp, picked.skippedMarkers, picked.skippedMissing], [103, T + 30, true, false]);
  });

  it('only markers read: no record, and where to fetch next', () => {
    const picked = pickRecordAt(fetched(marker(102, 15)), 102);
    assert.deepStrictEqual([picked.record, picked.skippedMarkers, picked.nextOffset], [null, true, 103]);
  });

  it('sees producer timestamps that go backwards', () => {
    assert.strictEqual(pickRecordAt(fetched(dataBatch(0, [[0, 50], [1, 10], [2, 60]])), 1).nonMonotonic, true);
  });

  it('reads LogAppendTime batches as the broker stamped them', () => {
    const [batch] = fetched(dataBatch(0, [[0, 0], [1, 10]]));
    const logAppend = { ...batch, logAppendTime: true, records: batch.records.map((r) => ({ ...r, timestamp: batch.maxTimestamp })) };
    assert.deepStrictEqual(pickRecordAt([logAppend], 0).record, { offset: 0, timestamp: T + 10, timestampType: 'LogAppendTime' });
  });

  it('the newest record is the last data record, markers skipped', () => {
    assert.deepStrictEqual(pickNewestRecord(fetched(dataBatch(10, [[0, 5], [1, 9]], true), marker(12, 20))),
      { offset: 11, timestamp: T + 9, timestampType: 'CreateTime' });
    assert.strictEqual(pickNewestRecord(fetched(marker(12, 20))), null);
  });
});

describe('lagInTime: age and span', () => {
  const exact = (offset: number, ms: number): PickedRecord =>
    ({ record: { offset, timestamp: T + ms, timestampType: 'CreateTime' }, skippedMarkers: false, skippedMissing: false, nonMonotonic: false, nextOffset: offset + 1 });
  const base: LagInTimeInput = {
    now: T + 60_000, committedOffset: 100, logStartOffset: 0, logEndOffset: 150,
    firstUnconsumed: exact(100, 0), newest: { offset: 149, timestamp: T + 45_000, timestampType: 'CreateTime' },
  };

  it('ages the record at the committed offset and spans to the newest', () => {
    assert.deepStrictEqual(computeLagInTime(base), { ageMs: 60_000, spanMs: 45_000, approximate: [], timestampType: 'CreateTime' });
  });

  it('is 0 with no lag, and unknown without a committed offset, log end or fetch', () => {
    assert.deepStrictEqual(computeLagInTime({ ...base, committedOffset: 150 }), { ageMs: 0, spanMs: 0, approximate: [], timestampType: null });
    assert.strictEqual(computeLagInTime({ ...base, committedOffset: null }).ageMs, null);
    assert.strictEqual(computeLagInTime({ ...base, logEndOffset: null }).ageMs, null);
    assert.strictEqual(computeLagInTime({ ...base, firstUnconsumed: null }).ageMs, null);
  });

  it('from real batches: compacted and transaction-marker cases say so', () => {
    const compacted = pickRecordAt(fetched(dataBatch(100, [[0, 0], [4, 40_000]])), 102);
    assert.deepStrictEqual(computeLagInTime({ ...base, committedOffset: 102, firstUnconsumed: compacted }),
      { ageMs: 20_000, spanMs: 5_000, approximate: ['compaction'], timestampType: 'CreateTime' });
    const afterMarker = pickRecordAt(fetched(marker(100, 1_000), dataBatch(101, [[0, 30_000]], true)), 100);
    assert.deepStrictEqual(computeLagInTime({ ...base, firstUnconsumed: afterMarker }),
      { ageMs: 30_000, spanMs: 15_000, approximate: ['transaction-markers'], timestampType: 'CreateTime' });
  });

  it('only markers up to the log end is nothing to consume; short of it, unknown', () => {
    const onlyMarker = pickRecordAt(fetched(marker(149, 1_000)), 149);
    assert.deepStrictEqual(computeLagInTime({ ...base, committedOffset: 149, firstUnconsumed: onlyMarker }),
      { ageMs: 0, spanMs: 0, approximate: ['transaction-markers'], timestampType: null });
    assert.strictEqual(computeLagInTime({ ...base, committedOffset: 100, firstUnconsumed: pickRecordAt(fetched(marker(100, 0)), 100) }).ageMs, null);
  });

  it('retention: committed below the log start is a lower bound', () => {
    const result = computeLagInTime({ ...base, committedOffset: 40, logStartOffset: 100 });
    assert.deepStrictEqual([result.ageMs, result.approximate], [60_000, ['retention']]);
  });

  it('client timestamps: backwards or in the future clamp to 0 and say so', () => {
    const future = computeLagInTime({ ...base, firstUnconsumed: exact(100, 90_000) });
    assert.deepStrictEqual([future.ageMs, future.spanMs, future.approximate], [0, 0, ['client-timestamps']]);
    const backwards = computeLagInTime({ ...base, firstUnconsumed: { ...exact(100, 0), nonMonotonic: true } });
    assert.deepStrictEqual(backwards.approximate, ['client-timestamps']);
  });

  it('a record without a timestamp leaves the age unknown', () => {
    const none: PickedRecord = { ...exact(100, 0), record: { offset: 100, timestamp: null, timestampType: 'CreateTime' } };
    assert.strictEqual(computeLagInTime({ ...base, firstUnconsumed: none }).ageMs, null);
  });

  it('describes itself for a tooltip', () => {
    assert.deepStrictEqual(describeLagInTime(computeLagInTime({ ...base, committedOffset: 40, logStartOffset: 100 })), [
      'oldest unconsumed record is 1m old', '45s of produced time left to consume', 'timestamps: CreateTime (set by the producer)',
      'approximate: the committed offset is below the log start: unread records were deleted, so the real age is larger',
    ]);
    assert.deepStrictEqual(describeLagInTime(computeLagInTime({ ...base, committedOffset: 150 })), ['nothing to consume']);
    assert.deepStrictEqual(describeLagInTime(computeLagInTime({ ...base, firstUnconsumed: null })), ['lag in time unknown']);
  });

  it('takes a group maximum over known partitions', () => {
    assert.strictEqual(maxLagInTime([{ lagInTimeMs: 5 }, { lagInTimeMs: null }, {}, { lagInTimeMs: 90 }]), 90);
    assert.strictEqual(maxLagInTime([{}, { lagInTimeMs: null }]), null);
  });
});
