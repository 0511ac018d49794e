import { strict as assert } from 'node:assert';
import { EARLIEST_TIMESTAMP, READ_COMMITTED, listOffsetsRequest, metadataRequest, offsetFetchRequest } from '../../../../src/kafka/protocol/offsetRequests';
import { ByteWriter } from '../../../../src/kafka/protocol/wire';

describe('offsetRequests', () => {
  it('asks Metadata v6 for named topics without auto-creation, and decodes brokers and leaders', () => {
    const request = metadataRequest(['t']);
    assert.equal(request.apiVersion, 6);
    assert.equal(request.body.toString('hex'), '00000001' + '000174' + '00');
    const payload = new ByteWriter()
      .int32(0)
      .array([0], (w) => w.int32(1).string('127.0.0.1').int32(9092).string(null))
      .string('cluster-x')
      .int32(1)
      .array([0], (w) => {
        w.int16(0).string('t').boolean(false);
        w.array([0, 1], (x, p) => x.int16(0).int32(p).int32(1).array([1], (y, n) => y.int32(n)).array([1], (y, n) => y.int32(n)).array([], () => undefined));
      })
      .toBuffer();
    assert.deepEqual(request.decode(payload), {
      brokers: [{ nodeId: 1, host: '127.0.0.1', port: 9092, rack: null }],
      clusterId: 'cluster-x',
      controllerId: 1,
      topics: [{ errorCode: 0, topic: 't', partitions: [{ errorCode: 0, partition: 0, leader: 1 }, { errorCode: 0, partition: 1, leader: 1 }] }],
    });
  });

  it('fetches every committed offset (topics = null) with OffsetFetch v4', () => {
    const request = offsetFetchRequest('g');
    assert.equal(request.body.toString('hex'), '000167' + 'ffffffff');
    const payload = new ByteWriter()
      .int32(0)
      .array([0], (w) => w.string('t').array([0], (x) => x.int32(3).int64(42).string('meta').int16(0)))
      .int16(0)
      .toBuffer();
    assert.deepEqual(request.decode(payload), { errorCode: 0, offsets: [{ topic: 't', partition: 3, offset: 42, metadata: 'meta', errorCode: 0 }] });
  });

  it('lists offsets per topic with one timestamp and isolation level', () => {
    const request = listOffsetsRequest(READ_COMMITTED, EARLIEST_TIMESTAMP, [
      { topic: 'a', partition: 0 },
      { topic: 'b', partition: 1 },
      { topic: 'a', partition: 2 },
    ]);
    const expected = new ByteWriter()
      .int32(-1)
      .int8(1)
      .array([['a', [0, 2]], ['b', [1]]] as const, (w, [t, ps]) => w.string(t).array(ps, (x, p) => x.int32(p).int64(-2)))
      .toBuffer();
    assert.equal(request.body.toString('hex'), expected.toString('hex'));
    const payload = new ByteWriter()
      .int32(0)
      .array([0], (w) => w.string('a').array([[0, 0, 5], [2, 6, -1]] as const, (x, [p, e, o]) => x.int32(p).int16(e).int64(-1).int64(o)))
      .toBuffer();
    assert.deepEqual(request.decode(payload), [
      { topic: 'a', partition: 0, errorCode: 0, offset: 5 },
      { topic: 'a', partition: 2, errorCode: 6, offset: -1 },
    ]);
  });
});
