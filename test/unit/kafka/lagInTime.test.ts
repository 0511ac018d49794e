import { strict as assert } from 'node:assert';
import { fillLagInTime, lagInTimeCandidates, lagInTimeFetchOffset, type LagInTimeReads } from '../../../src/kafka/lagInTime';
import type { PartitionOffsets } from '../../../src/model/types';
import { concat, i16, i32 } from '../timeline/kafkaBytes';
import { controlKey, recordBatch } from '../protocol/recordBatchBytes';

const T0 = 1_700_000_000_000;
const NOW = T0 + 60_000;
/** Records `offset`.. with timestamps T0 + 1000 × offset. */
const data = (offset: number, count: number): Uint8Array =>
  recordBatch({ baseOffset: offset, firstTimestamp: T0 + 1000 * offset, records: Array.from({ length: count }, (_, i) => ({ offsetDelta: i, timestampDelta: 1000 * i, key: null, value: Uint8Array.of(i) })) });
const marker = (offset: number): Uint8Array => recordBatch({ baseOffset: offset, control: true, records: [{ offsetDelta: 0, key: controlKey(1), value: concat(i16(0), i32(0)) }] });

function row(partition: number, committedOffset: number | null, logEndOffset: number | null, logStartOffset = 0): PartitionOffsets {
  return { topic: 't', partition, committedOffset, logStartOffset, logEndOffset, lag: null, ownerMemberId: null };
}

/** Reads that answer from `log` (bytes per partition, asked at the offset given) and remember what was asked. */
function reads(log: ReadonlyMap<number, Uint8Array>): LagInTimeReads & { asked: Array<[number, number]>; logged: string[] } {
  const asked: Array<[number, number]> = [];
  const logged: string[] = [];
  return {
    asked,
    logged,
    now: NOW,
    bytesAt: (r, offset) => {
      asked.push([r.partition, offset]);
      return log.get(r.partition);
    },
    debug: (message) => logged.push(message),
  };
}

describe('kafka/lagInTime', () => {
  it('reads only committed partitions behind the high watermark, at the log start when retention passed the commit', () => {
    const rows = [row(0, 3, 10), row(1, 10, 10), row(2, null, 10), row(3, -1, 10), row(4, 2, null), row(5, 2, 10, 5)];
    assert.deepEqual(lagInTimeCandidates(rows).map((r) => r.partition), [0, 5]);
    assert.equal(lagInTimeFetchOffset(rows[0]), 3);
    assert.equal(lagInTimeFetchOffset(rows[5]), 5);
  });

  it('is now minus the timestamp of the record at the committed offset, and the group max is the largest', () => {
    const rows = [row(0, 3, 10), row(1, 8, 10), row(2, 10, 10)];
    const r = reads(new Map([[0, data(0, 10)], [1, concat(data(5, 3), data(8, 2))]]));
    assert.equal(fillLagInTime(rows, r), NOW - (T0 + 3000));
    assert.deepEqual(rows.map((x) => x.lagInTimeMs), [NOW - (T0 + 3000), NOW - (T0 + 8000), 0]);
    assert.deepEqual(r.asked, [[0, 3], [1, 8]]);
  });

  it('skips transaction markers at the committed offset to the first data record', () => {
    const rows = [row(0, 5, 9)];
    assert.equal(fillLagInTime(rows, reads(new Map([[0, concat(marker(5), data(6, 3))]]))), NOW - (T0 + 6000));
  });

  it('leaves the figure unset when nothing was read or the bytes cannot be decoded, without failing', () => {
    const rows = [row(0, 3, 10), row(1, 3, 10)];
    const broken = data(0, 10).slice();
    broken[broken.length - 1] ^= 0xff; // the CRC no longer matches
    const r = reads(new Map([[1, broken]]));
    assert.equal(fillLagInTime(rows, r), null);
    assert.deepEqual(rows.map((x) => x.lagInTimeMs), [undefined, undefined]);
    assert.match(r.logged.join('\n'), /Lag in time of t-1: .*CRC/);
  });

  it('gives the span of produced time from the newest record (ListOffsets MAX_TIMESTAMP), unknown without it', () => {
    const rows = [row(0, 3, 10), row(1, 3, 10), row(2, 10, 10)];
    const r = reads(new Map([[0, data(0, 10)], [1, data(0, 10)]]));
    const newest = new Map([[0, { offset: 9, timestamp: T0 + 9000 }]]);
    fillLagInTime(rows, { ...r, newestOf: (x) => newest.get(x.partition) });
    assert.deepEqual(rows.map((x) => x.lagInTimeSpanMs), [6000, undefined, 0]);
    assert.deepEqual(rows.map((x) => x.lagInTimeApproximate), [undefined, undefined, undefined]);
  });

  it('keeps why the figures are approximate: markers at the commit, newest timestamp before the oldest unconsumed', () => {
    const rows = [row(0, 5, 9)];
    const r = reads(new Map([[0, concat(marker(5), data(6, 3))]]));
    fillLagInTime(rows, { ...r, newestOf: () => ({ offset: 8, timestamp: T0 + 1000 }) });
    assert.equal(rows[0].lagInTimeSpanMs, 0);
    assert.deepEqual(rows[0].lagInTimeApproximate, ['transaction-markers', 'client-timestamps']);
  });

  it('says nothing about a group with no committed lagging partition, and 0 for one fully consumed', () => {
    assert.equal(fillLagInTime([row(0, null, 10)], reads(new Map())), undefined);
    const consumed = [row(0, 10, 10)];
    assert.equal(fillLagInTime(consumed, reads(new Map())), 0);
  });
});
