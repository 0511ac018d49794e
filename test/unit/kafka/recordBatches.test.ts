import { strict as assert } from 'node:assert';
import { decodeRecordBatches } from '../../../src/kafka/recordBatches';
import { concat, i16, i32, i64 } from '../timeline/kafkaBytes';
import { controlKey, recordBatch } from './recordBatchBytes';

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
});
