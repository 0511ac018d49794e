import assert from 'node:assert/strict';
import { decodeRecordBatches } from '../../../../src/protocol/recordBatch';
import { crc32c } from '../../../../src/protocol/crc32c';
import { encodeRecordBatch, simulatedValue } from '../../../../src/simulator/server/recordBatch';

describe('simulator/server/recordBatch', () => {
  it('computes CRC-32C (the standard check value of "123456789")', () => {
    assert.equal(crc32c(Buffer.from('123456789')), 0xe3069283);
  });

  it('writes a v2 batch that the client-side decoder (src/protocol/recordBatch) reads back, gaps in offsets included', () => {
    const records = [10, 11, 13].map((offset) => ({ offset, value: simulatedValue('t', 2, offset) }));
    const batch = encodeRecordBatch(records, 1700000000000);
    const [decoded] = decodeRecordBatches(batch);
    assert.equal(decoded.baseOffset, 10n);
    assert.equal(decoded.lastOffset, 13n);
    assert.equal(decoded.control, false);
    assert.deepEqual(
      decoded.records.map((r) => [r.offset, r.timestamp, r.key, r.value === null ? null : Buffer.from(r.value).toString()]),
      [
        [10n, 1700000000000n, null, 't/2@10'],
        [11n, 1700000000000n, null, 't/2@11'],
        [13n, 1700000000000n, null, 't/2@13'],
      ],
    );
    // The CRC covers everything from the attributes on.
    assert.equal(batch.readUInt32BE(17), crc32c(batch.subarray(21)));
  });

  it('refuses an empty batch', () => {
    assert.throws(() => encodeRecordBatch([], 0), /at least one record/);
  });
});
