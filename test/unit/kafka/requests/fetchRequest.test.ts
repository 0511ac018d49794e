import { strict as assert } from 'node:assert';
import { fetchRequest, MAX_FETCH_VERSION, MAX_FETCH_VERSION_BY_NAME, MIN_FETCH_VERSION } from '../../../../src/kafka/requests/fetchRequest';
import { UnsupportedVersionError } from '../../../../src/protocol/errors';
import { hex, WireWriter } from '../../protocol/wire';

const limits = { maxWaitMs: 500, maxBytes: 4096, maxBytesPerPartition: 1024 };
const byName = { topic: 't', topicId: null };
/** A topic id as Kafka prints it (base64url of 16 bytes) and its bytes. */
const topicIdBytes = Buffer.alloc(16, 7);
const byId = { topic: 't', topicId: topicIdBytes.toString('base64url') };

describe('kafka/requests/fetchRequest', () => {
  it('writes a v4 fetch: no session, no leader epoch, no log start offset', () => {
    const request = fetchRequest(byName, [{ partition: 3, fetchOffset: 42 }], limits).build(4);
    assert.equal(request.apiKey, 1);
    assert.equal(request.apiVersion, 4);
    const expected = new WireWriter()
      .int32(-1).int32(500).int32(1).int32(4096).int8(0)
      .array(['t'], (w, topic) => w.string(topic).array([0], (p) => p.int32(3).int64(42).int32(1024)));
    assert.equal(hex(request.body), hex(expected.toBuffer()));
  });

  it('writes a v11 fetch: sessionless full fetch, unknown leader epoch, no forgotten topics, empty rack', () => {
    const request = fetchRequest(byName, [{ partition: 0, fetchOffset: 7 }, { partition: 2, fetchOffset: 0 }], limits).build(11);
    const expected = new WireWriter()
      .int32(-1).int32(500).int32(1).int32(4096).int8(0)
      .int32(0).int32(-1)
      .array(['t'], (w, topic) =>
        w.string(topic).array([[0, 7], [2, 0]], (p, [partition, offset]) => p.int32(partition).int32(-1).int64(offset).int64(-1).int32(1024)),
      )
      .array([], () => undefined)
      .string('');
    assert.equal(hex(request.body), hex(expected.toBuffer()));
  });

  it('names the topic by id from v13 (flexible), as Kafka 4.4 consumers do, and maps the answer back to the name', () => {
    const request = fetchRequest(byId, [{ partition: 0, fetchOffset: 7 }], limits).build(MAX_FETCH_VERSION);
    const expected = new WireWriter()
      .emptyTaggedFields() // request header v2
      .int32(500).int32(1).int32(4096).int8(0).int32(0).int32(-1)
      .compactArray([0], (w) =>
        w.uuid(topicIdBytes).compactArray([0], (p) => p.int32(0).int32(-1).int64(7).int32(-1).int64(-1).int32(1024).emptyTaggedFields()).emptyTaggedFields(),
      )
      .compactArray([], () => undefined)
      .compactString('')
      .emptyTaggedFields();
    assert.equal(hex(request.body), hex(expected.toBuffer()));
    const payload = new WireWriter()
      .emptyTaggedFields() // response header v1
      .int32(0).int16(0).int32(0)
      .compactArray([0], (w) =>
        w.uuid(topicIdBytes).compactArray([0], (p) => {
          p.int32(0).int16(0).int64(9).int64(9).int64(2).compactArray([], () => undefined).int32(-1).compactBytes(null).emptyTaggedFields();
        }).emptyTaggedFields(),
      )
      .emptyTaggedFields()
      .toBuffer();
    assert.deepEqual(request.decode(payload), { errorCode: 0, partitions: [{ topic: 't', partition: 0, errorCode: 0, highWatermark: 9, logStartOffset: 2, records: null }] });
  });

  it('reads a v11 response: errors, high watermark, log start, records', () => {
    const records = Buffer.from('0102', 'hex');
    const payload = new WireWriter()
      .int32(0).int16(0).int32(0)
      .array(['t'], (w, topic) =>
        w.string(topic).array([0, 1], (p, partition) => {
          p.int32(partition).int16(partition === 0 ? 0 : 6).int64(100).int64(100).int64(5);
          p.array([[1, 2]], (a, [producerId, first]) => a.int64(producerId).int64(first));
          p.int32(-1).bytes(partition === 0 ? records : null);
        }),
      )
      .toBuffer();
    const { errorCode, partitions } = fetchRequest(byName, [{ partition: 0, fetchOffset: 0 }], limits).build(11).decode(payload);
    assert.equal(errorCode, 0);
    assert.deepEqual(partitions.map((p) => ({ ...p, records: p.records === null ? null : hex(p.records) })), [
      { topic: 't', partition: 0, errorCode: 0, highWatermark: 100, logStartOffset: 5, records: '0102' },
      { topic: 't', partition: 1, errorCode: 6, highWatermark: 100, logStartOffset: 5, records: null },
    ]);
  });

  it('reads a v4 response, which has no log start offset, and a whole-request error of v7+', () => {
    const v4 = new WireWriter()
      .int32(0)
      .array(['t'], (w, topic) => w.string(topic).array([0], (p) => p.int32(0).int16(0).int64(9).int64(9).int32(-1).bytes(null)))
      .toBuffer();
    assert.deepEqual(fetchRequest(byName, [{ partition: 0, fetchOffset: 0 }], limits).build(4).decode(v4).partitions, [
      { topic: 't', partition: 0, errorCode: 0, highWatermark: 9, logStartOffset: -1, records: null },
    ]);
    const v7 = new WireWriter().int32(0).int16(70).int32(0).array([], () => undefined).toBuffer();
    assert.deepEqual(fetchRequest(byName, [{ partition: 0, fetchOffset: 0 }], limits).build(7).decode(v7), { errorCode: 70, partitions: [] });
  });

  it('offers v4 up to v18, but only up to v12 for a topic without an id; refuses versions Kafka does not define and empty requests', () => {
    assert.deepEqual([MIN_FETCH_VERSION, MAX_FETCH_VERSION, MAX_FETCH_VERSION_BY_NAME], [4, 18, 12]);
    const spec = fetchRequest(byName, [{ partition: 0, fetchOffset: 0 }], limits);
    assert.deepEqual([spec.minVersion, spec.maxVersion], [4, 12]);
    assert.equal(fetchRequest(byId, [{ partition: 0, fetchOffset: 0 }], limits).maxVersion, 18);
    assert.throws(() => spec.build(3), UnsupportedVersionError);
    assert.throws(() => fetchRequest(byName, [], limits), /at least one partition/);
  });
});
