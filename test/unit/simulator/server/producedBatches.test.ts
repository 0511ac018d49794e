import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { crc32c } from '../../../../src/protocol/crc32c';
import { CORRUPT_MESSAGE, INVALID_RECORD, readProducedBatches, RejectedBatches, UNSUPPORTED_COMPRESSION_TYPE } from '../../../../src/simulator/server/producedBatches';
import { encodeRecordBatch } from '../../../../src/protocol/recordBatch';

/** A batch of `n` records at offsets 0..n-1, as a producer sends it. */
function batchOf(n: number): Buffer {
  return Buffer.from(
    encodeRecordBatch({ baseOffset: 0n, baseTimestamp: 1_700_000_000_000n, records: Array.from({ length: n }, (_, offset) => ({ value: Buffer.from(`v${offset}`) })) }),
  );
}

/** Sets the CRC again after a header edit, so only the edit is wrong. */
function recrc(batch: Buffer): Buffer {
  batch.writeUInt32BE(crc32c(batch.subarray(21)), 17);
  return batch;
}

function rejection(bytes: Buffer): { code: number; message: string } {
  try {
    readProducedBatches(bytes);
  } catch (error) {
    assert.ok(error instanceof RejectedBatches, `a RejectedBatches, got ${String(error)}`);
    return { code: error.errorCode, message: error.message };
  }
  assert.fail('the batches were accepted');
}

describe('simulator/server/producedBatches', () => {
  it('counts the records of well-formed batches, several per partition', () => {
    assert.deepEqual(readProducedBatches(Buffer.concat([batchOf(1), batchOf(2)])), { records: 3, timestamps: [1_700_000_000_000, 1_700_000_000_000, 1_700_000_000_000], producer: null, transactional: false });
    assert.deepEqual(readProducedBatches(Buffer.alloc(0)), { records: 0, timestamps: [], producer: null, transactional: false });
  });

  it('refuses a record count the records do not bear out (an empty batch claiming 2^31 - 1 records)', () => {
    const header = batchOf(1).subarray(0, 61);
    const empty = Buffer.from(header);
    empty.writeInt32BE(49, 8); // batch length: the header only
    empty.writeInt32BE(2 ** 31 - 1, 57);
    empty.writeInt32BE(2 ** 31 - 2, 23); // last offset delta consistent with the claimed count
    const result = rejection(recrc(empty));
    assert.equal(result.code, INVALID_RECORD);
    assert.match(result.message, /declares 2147483647 record\(s\) but holds 0/);
  });

  it('refuses a count or last offset delta that disagrees with the records', () => {
    const more = batchOf(2);
    more.writeInt32BE(1, 57);
    more.writeInt32BE(0, 23);
    assert.equal(rejection(recrc(more)).code, INVALID_RECORD);
    const delta = batchOf(2);
    delta.writeInt32BE(5, 23);
    assert.match(rejection(recrc(delta)).message, /last offset delta 5 for 2/);
    const zero = batchOf(1);
    // A zero count with a last offset delta of 0: the offsets span one record, the count none (LogValidator's count check).
    zero.writeInt32BE(0, 57);
    assert.match(rejection(recrc(zero)).message, /invalid reported count/);
  });

  it('refuses a bad CRC, a truncated batch, a foreign magic and control batches', () => {
    const flipped = batchOf(2);
    flipped[flipped.length - 1] ^= 0xff;
    assert.deepEqual(rejection(flipped).code, CORRUPT_MESSAGE);
    assert.equal(rejection(batchOf(2).subarray(0, 70)).code, CORRUPT_MESSAGE);
    assert.equal(rejection(batchOf(2).subarray(0, 7)).code, CORRUPT_MESSAGE);
    const magic1 = batchOf(1);
    magic1.writeInt8(1, 16);
    assert.match(rejection(magic1).message, /message format v1/);
    const control = batchOf(1);
    control.writeInt16BE(0x20, 21);
    assert.equal(rejection(recrc(control)).code, INVALID_RECORD);
  });

  it('refuses a record whose length runs past the batch, or that leaves bytes over', () => {
    const long = batchOf(1);
    long[61] = 0x7e; // the record's length varint: 63 bytes, more than there are
    assert.equal(rejection(recrc(long)).code, CORRUPT_MESSAGE);
  });

  it('reads gzip batches and refuses codecs it cannot read', () => {
    const plain = batchOf(3);
    const records = gzipSync(plain.subarray(61));
    const gzip = Buffer.concat([plain.subarray(0, 61), records]);
    gzip.writeInt32BE(gzip.length - 12, 8);
    gzip.writeInt16BE(1, 21);
    assert.equal(readProducedBatches(recrc(gzip)).records, 3);
    const lz4 = Buffer.from(gzip);
    lz4.writeInt16BE(3, 21);
    assert.equal(rejection(recrc(lz4)).code, UNSUPPORTED_COMPRESSION_TYPE);
  });
});
