import { strict as assert } from 'node:assert';
import { fetchRequest } from '../../../../src/kafka/protocol/fetchRequest';
import { ByteWriter } from '../../../../src/kafka/protocol/wire';

const limits = { maxWaitMs: 500, maxBytes: 4096, maxBytesPerPartition: 1024 };
const hex = (w: ByteWriter): string => w.toBuffer().toString('hex');

describe('kafka/protocol/fetchRequest', () => {
  it('writes a v4 fetch: no session, no leader epoch, no log start offset', () => {
    const request = fetchRequest(4, 't', [{ partition: 3, fetchOffset: 42 }], limits);
    assert.equal(request.apiKey, 1);
    assert.equal(request.apiVersion, 4);
    const expected = new ByteWriter()
      .int32(-1).int32(500).int32(1).int32(4096).int8(0)
      .array(['t'], (w, topic) => w.string(topic).array([0], (p) => p.int32(3).int64(42).int32(1024)));
    assert.equal(request.body.toString('hex'), hex(expected));
  });

  it('writes a v11 fetch: sessionless full fetch, unknown leader epoch, no forgotten topics, empty rack', () => {
    const request = fetchRequest(11, 't', [{ partition: 0, fetchOffset: 7 }, { partition: 2, fetchOffset: 0 }], limits);
    const expected = new ByteWriter()
      .int32(-1).int32(500).int32(1).int32(4096).int8(0)
      .int32(0).int32(-1)
      .array(['t'], (w, topic) =>
        w.string(topic).array([[0, 7], [2, 0]], (p, [partition, offset]) => p.int32(partition).int32(-1).int64(offset).int64(-1).int32(1024)),
      )
      .array([], () => undefined)
      .string('');
    assert.equal(request.body.toString('hex'), hex(expected));
  });

  it('reads a v11 response: errors, high watermark, log start, records', () => {
    const records = Buffer.from('0102', 'hex');
    const payload = new ByteWriter()
      .int32(0).int16(0).int32(0)
      .array(['t'], (w, topic) =>
        w.string(topic).array([0, 1], (p, partition) => {
          p.int32(partition).int16(partition === 0 ? 0 : 6).int64(100).int64(100).int64(5);
          p.array([[1, 2]], (a, [producerId, first]) => a.int64(producerId).int64(first));
          p.int32(-1).bytes(partition === 0 ? records : null);
        }),
      )
      .toBuffer();
    assert.deepEqual(fetchRequest(11, 't', [{ partition: 0, fetchOffset: 0 }], limits).decode(payload), {
      errorCode: 0,
      partitions: [
        { topic: 't', partition: 0, errorCode: 0, highWatermark: 100, logStartOffset: 5, records },
        { topic: 't', partition: 1, errorCode: 6, highWatermark: 100, logStartOffset: 5, records: null },
      ],
    });
  });

  it('reads a v4 response, which has no log start offset, and a whole-request error of v7+', () => {
    const v4 = new ByteWriter()
      .int32(0)
      .array(['t'], (w, topic) => w.string(topic).array([0], (p) => p.int32(0).int16(0).int64(9).int64(9).int32(-1).bytes(null)))
      .toBuffer();
    assert.deepEqual(fetchRequest(4, 't', [{ partition: 0, fetchOffset: 0 }], limits).decode(v4).partitions, [
      { topic: 't', partition: 0, errorCode: 0, highWatermark: 9, logStartOffset: -1, records: null },
    ]);
    const v7 = new ByteWriter().int32(0).int16(70).int32(0).array([], () => undefined).toBuffer();
    assert.deepEqual(fetchRequest(7, 't', [{ partition: 0, fetchOffset: 0 }], limits).decode(v7), { errorCode: 70, partitions: [] });
  });

  it('refuses versions it cannot write and empty requests', () => {
    assert.throws(() => fetchRequest(3, 't', [{ partition: 0, fetchOffset: 0 }], limits), /Fetch v3 is not supported here \(v4\.\.v11\)/);
    assert.throws(() => fetchRequest(12, 't', [{ partition: 0, fetchOffset: 0 }], limits), /Fetch v12/);
    assert.throws(() => fetchRequest(11, 't', [], limits), /at least one partition/);
  });
});
