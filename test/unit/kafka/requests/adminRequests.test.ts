import { strict as assert } from 'node:assert';
import { adminOffsetCommitRequest, deleteGroupsRequest, leaveGroupByInstanceIdRequest, offsetDeleteRequest } from '../../../../src/kafka/requests/adminRequests';
import { hex, WireWriter } from '../../protocol/wire';

describe('adminRequests', () => {
  describe('adminOffsetCommitRequest', () => {
    const offsets = [
      { topic: 't', partition: 0, offset: 5 },
      { topic: 't', partition: 1, offset: 7, metadata: 'm' },
    ];

    it('encodes v7 with generation -1, member "", null instance id and unknown leader epochs', () => {
      const expected = new WireWriter()
        .string('g')
        .int32(-1)
        .string('')
        .string(null)
        .array([0], (w) => {
          w.string('t').array(offsets, (x, o) => x.int32(o.partition).int64(o.offset).int32(-1).string(o.metadata ?? ''));
        })
        .toBuffer();
      const request = adminOffsetCommitRequest('g', offsets).build(7);
      assert.equal(request.apiKey, 8);
      assert.equal(hex(request.body), expected.toString('hex'));
    });

    it('puts a bigint offset up to 2^63-1 on the wire exactly', () => {
      const request = adminOffsetCommitRequest('g', [{ topic: 't', partition: 0, offset: 2n ** 63n - 1n }]).build(7);
      assert.ok(hex(request.body).includes('000000007fffffffffffffffffffffff'), hex(request.body));
    });

    it('encodes v2 with a retention time and no leader epoch or instance id', () => {
      const expected = new WireWriter()
        .string('g')
        .int32(-1)
        .string('')
        .int64(-1)
        .array([0], (w) => {
          w.string('t').array(offsets, (x, o) => x.int32(o.partition).int64(o.offset).string(o.metadata ?? ''));
        })
        .toBuffer();
      assert.equal(hex(adminOffsetCommitRequest('g', offsets).build(2).body), expected.toString('hex'));
    });

    it('groups partitions by topic and decodes per-partition errors', () => {
      const request = adminOffsetCommitRequest('g', [...offsets, { topic: 'u', partition: 0, offset: 1 }]).build(5);
      const payload = new WireWriter()
        .int32(0)
        .array([['t', [[0, 0], [1, 25]]], ['u', [[0, 0]]]] as const, (w, [topic, parts]) => {
          w.string(topic).array(parts, (x, [p, e]) => x.int32(p).int16(e));
        })
        .toBuffer();
      assert.deepEqual(request.decode(payload), [
        { topic: 't', partition: 0, errorCode: 0 },
        { topic: 't', partition: 1, errorCode: 25 },
        { topic: 'u', partition: 0, errorCode: 0 },
      ]);
    });

    it('offers v2..v9 (v10 names topics by id only) and refuses versions Kafka does not define', () => {
      assert.deepEqual([adminOffsetCommitRequest('g', offsets).minVersion, adminOffsetCommitRequest('g', offsets).maxVersion], [2, 9]);
      assert.throws(() => adminOffsetCommitRequest('g', offsets).build(11), /OffsetCommit v11 is not a version Kafka defines/);
      assert.throws(() => adminOffsetCommitRequest('g', offsets).build(1), /OffsetCommit v1 is not a version Kafka defines/);
    });
  });

  it('encodes OffsetDelete v0 and decodes group and partition errors', () => {
    const request = offsetDeleteRequest('g', 't', [0, 2]).build(0);
    assert.equal(request.apiKey, 47);
    assert.equal(hex(request.body), new WireWriter().string('g').array([0], (w) => w.string('t').array([0, 2], (x, p) => x.int32(p))).toBuffer().toString('hex'));
    const payload = new WireWriter()
      .int16(0)
      .int32(0)
      .array([0], (w) => w.string('t').array([[0, 0], [2, 86]], (x, [p, e]) => x.int32(p).int16(e)))
      .toBuffer();
    assert.deepEqual(request.decode(payload), {
      errorCode: 0,
      partitions: [
        { topic: 't', partition: 0, errorCode: 0 },
        { topic: 't', partition: 2, errorCode: 86 },
      ],
    });
  });

  it('encodes LeaveGroup v3 by group.instance.id with an empty member id', () => {
    const request = leaveGroupByInstanceIdRequest('g', ['i1']).build(3);
    assert.equal(request.apiVersion, 3);
    assert.equal(hex(request.body), new WireWriter().string('g').array(['i1'], (w, i) => w.string('').string(i)).toBuffer().toString('hex'));
    const payload = new WireWriter().int32(0).int16(0).array([['m-1', 'i1', 0]] as const, (w, [m, i, e]) => w.string(m).string(i).int16(e)).toBuffer();
    assert.deepEqual(request.decode(payload), { errorCode: 0, members: [{ memberId: 'm-1', groupInstanceId: 'i1', errorCode: 0 }] });
  });

  it('encodes DeleteGroups v1 and decodes one result per group', () => {
    const request = deleteGroupsRequest(['a', 'b']).build(1);
    assert.equal(hex(request.body), '00000002' + '000161' + '000162');
    const payload = new WireWriter().int32(0).array([['a', 0], ['b', 68]] as const, (w, [g, e]) => w.string(g).int16(e)).toBuffer();
    assert.deepEqual(request.decode(payload), [
      { groupId: 'a', errorCode: 0 },
      { groupId: 'b', errorCode: 68 },
    ]);
  });

  it('sends LeaveGroup v5 with the reason Kafka\'s admin client gives, and DeleteGroups up to v3', () => {
    const request = leaveGroupByInstanceIdRequest('g', ['i1']).build(5);
    const expected = new WireWriter().emptyTaggedFields().compactString('g')
      .compactArray(['i1'], (w, i) => w.compactString('').compactString(i).compactString('member was removed by an admin').emptyTaggedFields())
      .emptyTaggedFields();
    assert.equal(hex(request.body), hex(expected.toBuffer()));
    assert.deepEqual([leaveGroupByInstanceIdRequest('g', ['i1']).minVersion, leaveGroupByInstanceIdRequest('g', ['i1']).maxVersion], [3, 5]);
    assert.deepEqual([deleteGroupsRequest(['a']).minVersion, deleteGroupsRequest(['a']).maxVersion], [1, 3]);
    const payload = new WireWriter().emptyTaggedFields().int32(0).compactArray([['a', 0]] as const, (w, [g, e]) => w.compactString(g).int16(e).emptyTaggedFields()).emptyTaggedFields().toBuffer();
    assert.deepEqual(deleteGroupsRequest(['a']).build(2).decode(payload), [{ groupId: 'a', errorCode: 0 }]);
  });
});
