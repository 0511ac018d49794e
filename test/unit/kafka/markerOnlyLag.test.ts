import { strict as assert } from 'node:assert';
import { markerCandidates, MAX_CHECKED_LAG, onlyMarkersBetween } from '../../../src/kafka/markerOnlyLag';
import type { PartitionOffsets } from '../../../src/model/types';
import { readBatchFrames } from '../../../src/protocol/recordBatch';
import { concat, i16, i32 } from '../timeline/kafkaBytes';
import { controlKey, recordBatch } from '../protocol/recordBatchBytes';

const marker = (offset: number): Uint8Array => recordBatch({ baseOffset: offset, control: true, records: [{ offsetDelta: 0, key: controlKey(1), value: concat(i16(0), i32(0)) }] });
const data = (offset: number, count: number): Uint8Array =>
  recordBatch({ baseOffset: offset, records: Array.from({ length: count }, (_, i) => ({ offsetDelta: i, key: null, value: new TextEncoder().encode(`v${i}`) })) });
const frames = (...batches: Uint8Array[]) => readBatchFrames(Buffer.from(concat(...batches)));

function row(committedOffset: number | null, logEndOffset: number | null, lastStableOffset: number | null = logEndOffset): PartitionOffsets {
  return { topic: 't', partition: 0, committedOffset, logStartOffset: 0, logEndOffset, lastStableOffset, lag: null, ownerMemberId: null };
}

describe('kafka/markerOnlyLag', () => {
  it('sees markers only when every batch up to the end is a control batch', () => {
    // 0..4 data, COMMIT at 5, 6..8 data (aborted or not), ABORT at 9.
    const log = frames(data(0, 5), marker(5), data(6, 3), marker(9));
    assert.equal(onlyMarkersBetween(log, 5, 6), true);
    assert.equal(onlyMarkersBetween(log, 9, 10), true);
    assert.equal(onlyMarkersBetween(log, 5, 10), false, 'records between the markers');
    assert.equal(onlyMarkersBetween(log, 3, 6), false, 'a data batch holding the committed offset');
    assert.equal(onlyMarkersBetween(frames(marker(5), marker(6)), 5, 7), true, 'two markers in a row');
    assert.equal(onlyMarkersBetween(frames(marker(5)), 5, 7), undefined, 'the answer stops before the end');
    assert.equal(onlyMarkersBetween(frames(marker(5), marker(9)), 5, 10), true, 'offsets compaction removed hold nothing');
  });

  it('reads the header of a batch the broker cut short, and leaves out a cut header', () => {
    const whole = Buffer.from(concat(marker(5), data(6, 50)));
    const cut = readBatchFrames(whole.subarray(0, whole.length - 20));
    assert.deepEqual(cut.map((f) => [f.header.baseOffset, f.header.lastOffset, f.header.control, f.complete]), [[5n, 5n, true, true], [6n, 55n, false, false]]);
    assert.equal(onlyMarkersBetween(cut, 5, 8), false, 'the cut batch says it holds records');
    const headerCut = readBatchFrames(Buffer.from(concat(marker(5))).subarray(0, 40));
    assert.deepEqual(headerCut, []);
  });

  it('checks only committed partitions a little behind the end they are read to', () => {
    const rows = [row(5, 6), row(null, 6), row(6, 6), row(0, MAX_CHECKED_LAG), row(0, MAX_CHECKED_LAG + 1), row(5, 9, 6)];
    assert.deepEqual(markerCandidates(rows, false).map((r) => [r.committedOffset, r.logEndOffset]), [[5, 6], [0, MAX_CHECKED_LAG], [5, 9]]);
    // read_committed stops at the LSO: 5 → LSO 6 is the candidate, whatever the high watermark.
    assert.deepEqual(markerCandidates(rows, true).map((r) => [r.committedOffset, r.lastStableOffset]), [[5, 6], [0, MAX_CHECKED_LAG], [5, 6]]);
  });
});
