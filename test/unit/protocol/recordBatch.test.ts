import * as assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { crc32c } from '../../../src/protocol/crc32c';
import { ProtocolError } from '../../../src/protocol/errors';
import {
  Compression, decodeRecordBatch, decodeRecordBatches, encodeControlBatch, encodeRecordBatch, readBatchFrames, readControlMarker,
  summarizeProducedBatches,
} from '../../../src/protocol/recordBatch';

const text = (value: string): Uint8Array => new Uint8Array(Buffer.from(value, 'utf8'));

describe('protocol: record batches (magic 2)', () => {
  it('CRC32C matches the check value and the test vectors of RFC 3720 (B.4)', () => {
    assert.equal(crc32c(Buffer.from('123456789')), 0xe3069283);
    assert.equal(crc32c(Buffer.alloc(32, 0)), 0x8a9136aa);
    assert.equal(crc32c(Buffer.alloc(32, 0xff)), 0x62a8ab43);
    assert.equal(crc32c(Buffer.from(Array.from({ length: 32 }, (_, i) => i))), 0x46dd794e);
  });

  it('reads back keys, values, headers, offsets and timestamps, and the client\'s frame reader agrees', () => {
    const batch = encodeRecordBatch({
      baseOffset: 2n ** 40n, baseTimestamp: 1_000n, producerId: 99n, producerEpoch: 3, baseSequence: 5, transactional: true,
      records: [
        { key: text('k'), value: text('v'), headers: [{ key: 'trace', value: text('x') }, { key: 'empty', value: null }] },
        { key: null, value: null, timestampDelta: 250n },
      ],
    });
    const [read] = decodeRecordBatches(batch);
    assert.equal(read.transactional, true);
    assert.equal(read.producerId, 99n);
    assert.equal(read.maxTimestamp, 1_250n);
    assert.deepEqual(read.records.map((r) => [r.offset, r.timestamp]), [[2n ** 40n, 1_000n], [2n ** 40n + 1n, 1_250n]]);
    assert.deepEqual(read.records[0].headers, [{ key: 'trace', value: text('x') }, { key: 'empty', value: null }]);
    assert.equal(read.records[1].key, null);
    const [frame] = readBatchFrames(batch);
    assert.equal(frame.header.lastOffset, 2n ** 40n + 1n);
  });

  it('reads a control batch\'s marker', () => {
    const [batch] = decodeRecordBatches(encodeControlBatch({ offset: 3n, producerId: 1n, producerEpoch: 2, type: 'ABORT', coordinatorEpoch: 9, timestamp: 0n }));
    assert.equal(batch.control, true);
    assert.deepEqual(readControlMarker(batch.records[0]), { type: 'ABORT', coordinatorEpoch: 9 });
  });

  it('reads gzip batches, and asks for a decompressor for the others', () => {
    const plain = encodeRecordBatch({ baseOffset: 0n, baseTimestamp: 0n, records: [{ value: text('hello') }, { value: text('world') }] });
    const compressed = Buffer.concat([Buffer.from(plain.subarray(0, 61)), gzipSync(plain.subarray(61))]);
    compressed.writeInt32BE(compressed.length - 12, 8);
    compressed.writeInt16BE(Compression.gzip, 21);
    compressed.writeUInt32BE(crc32c(compressed, 21), 17);
    assert.deepEqual(decodeRecordBatch(compressed).records.map((r) => Buffer.from(r.value ?? []).toString()), ['hello', 'world']);
    compressed.writeInt16BE(Compression.zstd, 21);
    compressed.writeUInt32BE(crc32c(compressed, 21), 17);
    assert.throws(() => decodeRecordBatch(compressed), /compression 4 needs a decompressor/);
  });

  it('refuses a wrong CRC, a record count beyond the bytes, an old magic, and keeps a batch cut at the end out', () => {
    const batch = Buffer.from(encodeRecordBatch({ baseOffset: 0n, baseTimestamp: 0n, records: [{ value: text('a') }] }));
    const corrupt = Buffer.from(batch);
    corrupt[corrupt.length - 2] ^= 0xff;
    assert.throws(() => decodeRecordBatch(corrupt), /CRC \d+ does not match/);
    const counted = Buffer.from(batch);
    counted.writeInt32BE(0x7fffffff, 57);
    counted.writeUInt32BE(crc32c(counted, 21), 17);
    assert.throws(() => decodeRecordBatch(counted), /2147483647 records cannot fit/);
    const old = Buffer.from(batch);
    old[16] = 1;
    assert.throws(() => readBatchFrames(old), /message format v1 is not supported/);
    const two = Buffer.concat([batch, batch.subarray(0, batch.length - 3)]);
    assert.deepEqual(readBatchFrames(two).map((f) => f.complete), [true, false]);
    assert.equal(decodeRecordBatches(two).length, 1);
    assert.throws(() => summarizeProducedBatches(two), ProtocolError);
    assert.deepEqual(summarizeProducedBatches(batch), { records: 1, transactional: null });
  });
});
