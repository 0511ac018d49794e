// What the real-cluster reader needs of the record-batch module: framing that survives cut and
// corrupt answers, records of consecutive, compressed, compacted and control batches, and bounds on
// every count and length (moved here with src/kafka/recordBatches.ts, which this module replaced).
import { strict as assert } from 'node:assert';
import { decodeRecordBatches, readBatchFrames, scanBatchFrames } from '../../../src/protocol/recordBatch';
import { concat, i16, i32, i64 } from '../timeline/kafkaBytes';
import { controlKey, recordBatch, varint, withCrc } from './recordBatchBytes';

const text = (s: string): Uint8Array => new TextEncoder().encode(s);
const str = (bytes: Uint8Array | null): string | null => (bytes === null ? null : Buffer.from(bytes).toString());

describe('protocol: record batch frames and records, as a Fetch answer carries them', () => {
  it('reads the records of consecutive batches with their offsets, timestamps, keys and values', () => {
    const bytes = concat(
      recordBatch({ baseOffset: 10, firstTimestamp: 5000, records: [{ offsetDelta: 0, key: text('k0'), value: text('v0') }, { offsetDelta: 1, timestampDelta: 7, key: text('k1'), value: null }] }),
      recordBatch({ baseOffset: 12, records: [{ offsetDelta: 0, key: null, value: text('v2') }] }),
    );
    const batches = decodeRecordBatches(bytes);
    assert.deepEqual(batches.map((b) => [b.baseOffset, b.lastOffset, b.control]), [[10n, 11n, false], [12n, 12n, false]]);
    assert.deepEqual(batches[0].records.map((r) => [r.offset, r.timestamp, str(r.key), str(r.value)]), [
      [10n, 5000n, 'k0', 'v0'],
      [11n, 5007n, 'k1', null],
    ]);
    assert.equal(batches[1].records[0].key, null);
  });

  it('decompresses gzip batches', () => {
    const bytes = recordBatch({ baseOffset: 0, gzip: true, records: [0, 1, 2].map((i) => ({ offsetDelta: i, key: text(`k${i}`), value: text(`v${i}`) })) });
    const [batch] = decodeRecordBatches(bytes);
    assert.deepEqual(batch.records.map((r) => `${r.offset}:${str(r.value)}`), ['0:v0', '1:v1', '2:v2']);
  });

  it('keeps the extent of control batches and of batches compaction emptied', () => {
    const bytes = concat(
      recordBatch({ baseOffset: 0, lastOffsetDelta: 4, records: [] }),
      recordBatch({ baseOffset: 5, control: true, records: [{ offsetDelta: 0, key: controlKey(1), value: concat(i16(0), i32(0)) }] }),
      recordBatch({ baseOffset: 6, lastOffsetDelta: 3, records: [{ offsetDelta: 1, key: text('kept'), value: text('v') }] }),
    );
    const batches = decodeRecordBatches(bytes);
    assert.deepEqual(batches.map((b) => [b.baseOffset, b.lastOffset, b.control, b.records.length]), [[0n, 4n, false, 0], [5n, 5n, true, 1], [6n, 9n, false, 1]]);
    assert.equal(batches[2].records[0].offset, 7n);
  });

  it('leaves out a batch the response cut short', () => {
    const whole = recordBatch({ baseOffset: 0, records: [{ offsetDelta: 0, key: text('a'), value: text('b') }] });
    const next = recordBatch({ baseOffset: 1, records: [{ offsetDelta: 0, key: text('c'), value: text('d') }] });
    for (const cut of [1, 11, 20, next.byteLength - 1]) {
      const batches = decodeRecordBatches(concat(whole, next.subarray(0, cut)));
      assert.deepEqual(batches.map((b) => b.baseOffset), [0n], `cut after ${cut} bytes`);
    }
    assert.deepEqual(decodeRecordBatches(new Uint8Array(0)), []);
  });

  it('refuses legacy message sets and impossible batch lengths', () => {
    const legacy = Buffer.from(recordBatch({ baseOffset: 3, records: [{ offsetDelta: 0, key: null, value: text('x') }] }));
    legacy.writeInt8(1, 16);
    assert.throws(() => decodeRecordBatches(legacy), /offset 3: message format v1 is not supported/);
    assert.throws(() => decodeRecordBatches(concat(i64(8), i32(20), new Uint8Array(20))), /offset 8: length 20 is shorter than a batch header/);
  });

  it('names the batch whose records do not decode', () => {
    const bytes = Buffer.from(recordBatch({ baseOffset: 4, gzip: true, records: [{ offsetDelta: 0, key: null, value: text('x') }] }));
    bytes.fill(0xff, 61); // garbage instead of the gzip stream
    assert.throws(() => decodeRecordBatches(withCrc(bytes)), /record batch at offset 4: /);
  });

  it('refuses a header count larger than the bytes left instead of reading it (100,000 headers in a 75-byte batch)', () => {
    const batch = Buffer.from(recordBatch({ baseOffset: 7, records: [{ offsetDelta: 0, key: null, value: null }] }));
    // The record ends with its header count (varint 0); claim 100,000 headers instead.
    const hugeCount = varint(100_000);
    const fields = concat(Uint8Array.of(0), varint(0), varint(0), varint(5), text('key-5'), varint(-1), hugeCount);
    const record = concat(varint(fields.byteLength), fields);
    const header = batch.subarray(8 + 4, 61);
    const body = concat(header, record);
    const bytes = withCrc(Buffer.from(concat(i64(7), i32(body.byteLength), body)));
    assert.equal(bytes.length, 75);
    assert.throws(() => decodeRecordBatches(bytes), /record batch at offset 7, record 0: 100000 headers cannot fit in the 0 bytes left/);
  });

  it('refuses record counts and lengths larger than the bytes left, and a wrong CRC', () => {
    const bytes = Buffer.from(recordBatch({ baseOffset: 2, records: [{ offsetDelta: 0, key: text('k'), value: text('v') }] }));
    const count = Buffer.from(bytes);
    count.writeInt32BE(1_000_000_000, 57);
    assert.throws(() => decodeRecordBatches(withCrc(count)), /record batch at offset 2: 1000000000 records cannot fit/);
    const keyLength = Buffer.from(bytes);
    keyLength[61 + 4] = varint(63)[0]; // the key's length: 63 bytes, with 4 left in the record
    assert.throws(() => decodeRecordBatches(withCrc(keyLength)), /record batch at offset 2, record 0: Truncated input: record key needs 63 bytes at offset \d+, only 4 left/);
    assert.throws(() => decodeRecordBatches(keyLength.fill(0, 17, 21)), /record batch at offset 2: CRC \d+ does not match the stored 0/);
  });

  it('stops framing at a negative last offset delta, and keeps offsets beyond 2^53 exact (as bigint)', () => {
    const good = recordBatch({ baseOffset: 0, records: [{ offsetDelta: 0, key: null, value: text('a') }] });
    const bad = Buffer.from(recordBatch({ baseOffset: 1, records: [{ offsetDelta: 0, key: null, value: text('b') }] }));
    bad.writeInt32BE(-3, 23);
    const scan = scanBatchFrames(concat(good, bad));
    assert.deepEqual(scan.frames.map((f) => f.header.baseOffset), [0n]);
    assert.deepEqual(scan.broken, { baseOffset: 1n, reason: 'record batch at offset 1: last offset delta -3 is negative' });
    assert.throws(() => readBatchFrames(bad), /last offset delta -3 is negative/);

    const huge = Buffer.from(good);
    huge.writeBigInt64BE(2n ** 53n + 1n, 0);
    assert.equal(readBatchFrames(huge)[0].header.lastOffset, 2n ** 53n + 1n);
  });

  it('reads a timestamp of log-append time from the batch', () => {
    const bytes = Buffer.from(recordBatch({ baseOffset: 0, firstTimestamp: 1000, records: [{ offsetDelta: 0, timestampDelta: 5, key: null, value: text('v') }] }));
    bytes.writeInt16BE(0x08, 21);
    bytes.writeBigInt64BE(4242n, 35);
    const [batch] = decodeRecordBatches(withCrc(bytes));
    assert.equal(batch.records[0].timestamp, 4242n);
  });
});
