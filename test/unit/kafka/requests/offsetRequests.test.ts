import { strict as assert } from 'node:assert';
import { ByteWriter } from '../../../../src/protocol/byteWriter';
import { ListOffsetsResponse } from '../../../../src/protocol/messages/listOffsetsResponse';
import { EARLIEST_TIMESTAMP, MAX_TIMESTAMP, READ_COMMITTED, READ_UNCOMMITTED, listOffsetsRequest, metadataRequest, offsetFetchRequest } from '../../../../src/kafka/requests/offsetRequests';
import { KafkaErrorCode } from '../../../../src/kafka/kafkaErrors';
import { hex, WireWriter } from '../../protocol/wire';

describe('offsetRequests', () => {
  it('asks Metadata v6 for named topics without auto-creation, and decodes brokers and leaders', () => {
    const request = metadataRequest(['t']).build(6);
    assert.equal(request.apiVersion, 6);
    assert.equal(hex(request.body), '00000001' + '000174' + '00');
    const payload = new WireWriter()
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
      topics: [{ errorCode: 0, topic: 't', topicId: null, partitions: [{ errorCode: 0, partition: 0, leader: 1 }, { errorCode: 0, partition: 1, leader: 1 }] }],
    });
  });

  it('fetches every committed offset (topics = null) with OffsetFetch v4', () => {
    const request = offsetFetchRequest('g').build(4);
    assert.equal(hex(request.body), '000167' + 'ffffffff');
    const payload = new WireWriter()
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
    ]).build(3);
    const expected = new WireWriter()
      .int32(-1)
      .int8(1)
      .array([['a', [0, 2]], ['b', [1]]] as const, (w, [t, ps]) => w.string(t).array(ps, (x, p) => x.int32(p).int64(-2)))
      .toBuffer();
    assert.equal(hex(request.body), hex(expected));
    const payload = new WireWriter()
      .int32(0)
      .array([0], (w) => w.string('a').array([[0, 0, 5], [2, 6, -1]] as const, (x, [p, e, o]) => x.int32(p).int16(e).int64(-1).int64(o)))
      .toBuffer();
    assert.deepEqual(request.decode(payload), [
      { topic: 'a', partition: 0, errorCode: 0, offset: 5, timestamp: -1 },
      { topic: 'a', partition: 2, errorCode: 6, offset: -1, timestamp: -1 },
    ]);
  });

  it('asks MAX_TIMESTAMP only from ListOffsets v7 (KIP-734), and keeps the timestamp of the answer', () => {
    assert.equal(listOffsetsRequest(READ_UNCOMMITTED, MAX_TIMESTAMP, [{ topic: 'a', partition: 0 }]).minVersion, 7);
    assert.equal(listOffsetsRequest(READ_UNCOMMITTED, EARLIEST_TIMESTAMP, [{ topic: 'a', partition: 0 }]).minVersion, 3);
    const request = listOffsetsRequest(READ_UNCOMMITTED, MAX_TIMESTAMP, [{ topic: 'a', partition: 0 }]).build(7);
    const writer = new ByteWriter();
    writer.uvarint(0); // response header v1's tagged fields
    ListOffsetsResponse.write(writer, 7, {
      throttleTimeMs: 0,
      topics: [{ name: 'a', partitions: [{ partitionIndex: 0, errorCode: 0, timestamp: 1_700_000_000_123n, offset: 41n, leaderEpoch: 3 }] }],
    });
    const payload = writer.finish();
    assert.deepEqual(request.decode(payload), [{ topic: 'a', partition: 0, errorCode: 0, offset: 41, timestamp: 1_700_000_000_123 }]);
  });

  it('offers Metadata v6..v13, OffsetFetch v4..v9 and ListOffsets v3..v11, and reads a topic id from Metadata v10+', () => {
    assert.deepEqual([metadataRequest(['t']).minVersion, metadataRequest(['t']).maxVersion], [6, 13]);
    assert.deepEqual([offsetFetchRequest('g').minVersion, offsetFetchRequest('g').maxVersion], [4, 9]);
    const list = listOffsetsRequest(READ_COMMITTED, EARLIEST_TIMESTAMP, [{ topic: 'a', partition: 0 }]);
    assert.deepEqual([list.minVersion, list.maxVersion], [3, 11]);
    const topicId = Buffer.alloc(16, 9);
    const payload = new WireWriter()
      .emptyTaggedFields()
      .int32(0)
      .compactArray([0], (w) => w.int32(1).compactString('127.0.0.1').int32(9092).compactString(null).emptyTaggedFields())
      .compactString('cluster-x')
      .int32(1)
      .compactArray([0], (w) => {
        w.int16(0).compactString('t').uuid(topicId).boolean(false);
        w.compactArray([0], (x) => x.int16(0).int32(0).int32(1).int32(0).compactArray([1], (y, n) => y.int32(n)).compactArray([1], (y, n) => y.int32(n)).compactArray([], () => undefined).emptyTaggedFields());
        w.int32(-2147483648).emptyTaggedFields();
      })
      .int16(0)
      .emptyTaggedFields()
      .toBuffer();
    const [topic] = metadataRequest(['t']).build(13).decode(payload).topics;
    assert.deepEqual(topic, { errorCode: 0, topic: 't', topicId: topicId.toString('base64url'), partitions: [{ errorCode: 0, partition: 0, leader: 1 }] });
    // v13's whole-request error code is an error, not an empty cluster.
    const failed = Buffer.from(payload);
    failed.writeInt16BE(31, failed.length - 3);
    assert.throws(() => metadataRequest(['t']).build(13).decode(failed), (e: unknown) => e instanceof KafkaErrorCode && e.code === 31);
  });

  it('asks OffsetFetch v8+ for one group in the groups list and reads its answer; refuses offsets beyond 2^53', () => {
    const request = offsetFetchRequest('g').build(9);
    // header tags | groups [ g, member id null, epoch -1, topics null, tags ] | require stable false | tags
    assert.equal(hex(request.body), '00' + '02' + '0267' + '00' + 'ffffffff' + '00' + '00' + '00' + '00');
    const answer = (offset: bigint) => new WireWriter()
      .emptyTaggedFields()
      .int32(0)
      .compactArray([0], (w) => {
        w.compactString('g').compactArray([0], (t) => {
          t.compactString('t').compactArray([0], (p) => p.int32(3).int64(offset).int32(-1).compactString(null).int16(0).emptyTaggedFields()).emptyTaggedFields();
        });
        w.int16(0).emptyTaggedFields();
      })
      .emptyTaggedFields()
      .toBuffer();
    assert.deepEqual(request.decode(answer(42n)), { errorCode: 0, offsets: [{ topic: 't', partition: 3, offset: 42, metadata: null, errorCode: 0 }] });
    assert.throws(() => request.decode(answer(2n ** 53n)), /Committed offset of g: int64 9007199254740992 is beyond 2\^53/);
  });
});
