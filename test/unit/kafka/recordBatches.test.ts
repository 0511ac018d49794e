import { strict as assert } from 'node:assert';
import { decodeRecordBatches, readBatchFrames, scanBatchFrames } from '../../../src/kafka/recordBatches';
import { concat, i16, i32, i64 } from '../timeline/kafkaBytes';
import { controlKey, recordBatch, varint } from './recordBatchBytes';

const text = (s: string): Uint8Array => new TextEncoder().encode(s);
const buffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes);

describe('kafka/recordBatches', () => {
  it('reads the records of consecutive batches with their offsets, timestamps, keys and values', async () => {
    const bytes = concat(
      recordBatch({ baseOffset: 10, firstTimestamp: 5000, records: [{ offsetDelta: 0, key: text('k0'), value: text('v0') }, { offsetDelta: 1, timestampDelta: 7, key: text('k1'), value: null }] }),
      recordBatch({ baseOffset: 12, records: [{ offsetDelta: 0, key: null, value: text('v2') }] }),
    );
    const batches = await decodeRecordBatches(buffer(bytes));
    assert.deepEqual(batches.map((b) => [b.baseOffset, b.lastOffset, b.control]), [[10, 11, false], [12, 12, false]]);
    assert.deepEqual(batches[0].records.map((r) => [r.offset, r.timestamp, r.key?.toString(), r.value?.toString() ?? null]), [
      [10, 5000, 'k0', 'v0'],
      [11, 5007, 'k1', null],
    ]);
    assert.equal(batches[1].records[0].key, null);
  });

  it('decompresses gzip batches', async () => {
    const bytes = recordBatch({ baseOffset: 0, gzip: true, records: [0, 1, 2].map((i) => ({ offsetDelta: i, key: text(`k${i}`), value: text(`v${i}`) })) });
    const [batch] = await decodeRecordBatches(buffer(bytes));
    assert.deepEqual(batch.records.map((r) => `${r.offset}:${r.value?.toString()}`), ['0:v0', '1:v1', '2:v2']);
  });

  it('keeps the extent of control batches and of batches compaction emptied, without their records', async () => {
    const bytes = concat(
      recordBatch({ baseOffset: 0, lastOffsetDelta: 4, records: [] }),
      recordBatch({ baseOffset: 5, control: true, records: [{ offsetDelta: 0, key: controlKey(1), value: concat(i16(0), i32(0)) }] }),
      recordBatch({ baseOffset: 6, lastOffsetDelta: 3, records: [{ offsetDelta: 1, key: text('kept'), value: text('v') }] }),
    );
    const batches = await decodeRecordBatches(buffer(bytes));
    assert.deepEqual(batches.map((b) => [b.baseOffset, b.lastOffset, b.control, b.records.length]), [[0, 4, false, 0], [5, 5, true, 0], [6, 9, false, 1]]);
    assert.equal(batches[2].records[0].offset, 7);
  });

  it('leaves out a batch the response cut short', async () => {
    const whole = recordBatch({ baseOffset: 0, records: [{ offsetDelta: 0, key: text('a'), value: text('b') }] });
    const next = recordBatch({ baseOffset: 1, records: [{ offsetDelta: 0, key: text('c'), value: text('d') }] });
    for (const cut of [1, 11, 20, next.byteLength - 1]) {
      const batches = await decodeRecordBatches(buffer(concat(whole, next.subarray(0, cut))));
      assert.deepEqual(batches.map((b) => b.baseOffset), [0], `cut after ${cut} bytes`);
    }
    assert.deepEqual(await decodeRecordBatches(Buffer.alloc(0)), []);
  });

  it('refuses legacy message sets and impossible batch lengths', async () => {
    const legacy = Buffer.from(recordBatch({ baseOffset: 3, records: [{ offsetDelta: 0, key: null, value: text('x') }] }));
    legacy.writeInt8(1, 16);
    await assert.rejects(decodeRecordBatches(legacy), /offset 3: message format v1 is not supported/);
    await assert.rejects(decodeRecordBatches(buffer(concat(i64(8), i32(20), new Uint8Array(20)))), /offset 8: length 20 is shorter than a batch header/);
  });

  it('names the batch whose records do not decode', async () => {
    const bytes = Buffer.from(recordBatch({ baseOffset: 4, gzip: true, records: [{ offsetDelta: 0, key: null, value: text('x') }] }));
    bytes.fill(0xff, 61); // garbage instead of the gzip stream
    await assert.rejects(decodeRecordBatches(bytes), /record batch at offset 4: /);
  });

  it('refuses a header count larger than the bytes left instead of reading it (100,000 headers in a 75-byte batch)', async () => {
    const batch = Buffer.from(recordBatch({ baseOffset: 7, records: [{ offsetDelta: 0, key: null, value: null }] }));
    // The record ends with its header count (varint 0); claim 100,000 headers instead.
    const hugeCount = varint(100_000);
    const fields = concat(Uint8Array.of(0), varint(0), varint(0), varint(5), text('key-5'), varint(-1), hugeCount);
    const record = concat(varint(fields.byteLength), fields);
    const header = batch.subarray(8 + 4, 61);
    const body = concat(header, record);
    const bytes = Buffer.from(concat(i64(7), i32(body.byteLength), body));
    assert.equal(bytes.length, 75);
    await assert.rejects(decodeRecordBatches(bytes), /record batch at offset 7, record 0: 100000 headers cannot fit in the 0 bytes left/);
  });

  it('refuses record counts and lengths larger than the bytes left', async () => {
    const bytes = Buffer.from(recordBatch({ baseOffset: 2, records: [{ offsetDelta: 0, key: text('k'), value: text('v') }] }));
    const count = Buffer.from(bytes);
    count.writeInt32BE(1_000_000_000, 57);
    await assert.rejects(decodeRecordBatches(count), /record batch at offset 2: 1000000000 records cannot fit/);
    const keyLength = Buffer.from(bytes);
    keyLength[61 + 4] = varint(63)[0]; // the key's length: 63 bytes, with 4 left in the record
    await assert.rejects(decodeRecordBatches(keyLength), /record batch at offset 2, record 0: 63 bytes cannot fit in the 4 bytes left/);
  });

  it('stops framing at a negative last offset delta, and refuses offsets beyond 2^53 instead of rounding them', () => {
    const good = recordBatch({ baseOffset: 0, records: [{ offsetDelta: 0, key: null, value: text('a') }] });
    const bad = Buffer.from(recordBatch({ baseOffset: 1, records: [{ offsetDelta: 0, key: null, value: text('b') }] }));
    bad.writeInt32BE(-3, 23);
    const scan = scanBatchFrames(Buffer.from(concat(good, bad)));
    assert.deepEqual(scan.frames.map((f) => f.baseOffset), [0]);
    assert.deepEqual(scan.broken, { baseOffset: 1, reason: 'record batch at offset 1: last offset delta -3 is negative' });
    assert.throws(() => readBatchFrames(bad), /last offset delta -3 is negative/);

    const huge = Buffer.from(good);
    huge.writeBigInt64BE(2n ** 53n + 1n, 0);
    assert.throws(() => readBatchFrames(huge), /offset 9007199254740993 is beyond 2\^53/);
  });

  it('reads a timestamp of log-append time from the batch', async () => {
    const bytes = Buffer.from(recordBatch({ baseOffset: 0, firstTimestamp: 1000, records: [{ offsetDelta: 0, timestampDelta: 5, key: null, value: text('v') }] }));
    bytes.writeInt16BE(0x08, 21);
    bytes.writeBigInt64BE(4242n, 35);
    const [batch] = await decodeRecordBatches(bytes);
    assert.equal(batch.records[0].timestamp, 4242);
  });
});
