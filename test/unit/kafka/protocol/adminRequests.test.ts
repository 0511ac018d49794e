import { strict as assert } from 'node:assert';
import { adminOffsetCommitRequest, deleteGroupsRequest, leaveGroupByInstanceIdRequest, offsetDeleteRequest } from '../../../../src/kafka/protocol/adminRequests';
import { ByteWriter } from '../../../../src/kafka/protocol/wire';

describe('adminRequests', () => {
  describe('adminOffsetCommitRequest', () => {
    const offsets = [
      { topic: 't', partition: 0, offset: 5 },
      { topic: 't', partition: 1, offset: 7, metadata: 'm' },
    ];

    it('encodes v7 with generation -1, member "", null instance id and unknown leader epochs', () => {
      const expected = new ByteWriter()
        .string('g')
        .int32(-1)
        .string('')
        .string(null)
        .array([0], (w) => {
          w.string('t').array(offsets, (x, o) => x.int32(o.partition).int64(o.offset).int32(-1).string(o.metadata ?? ''));
        })
        .toBuffer();
      const request = adminOffsetCommitRequest('g', offsets, 7);
      assert.equal(request.apiKey, 8);
      assert.equal(request.body.toString('hex'), expected.toString('hex'));
    });

    it('puts a bigint offset up to 2^63-1 on the wire exactly', () => {
      const request = adminOffsetCommitRequest('g', [{ topic: 't', partition: 0, offset: 2n ** 63n - 1n }], 7);
      assert.ok(request.body.toString('hex').includes('000000007fffffffffffffffffffffff'), request.body.toString('hex'));
    });

    it('encodes v2 with a retention time and no leader epoch or instance id', () => {
      const expected = new ByteWriter()
        .string('g')
        .int32(-1)
        .string('')
        .int64(-1)
        .array([0], (w) => {
          w.string('t').array(offsets, (x, o) => x.int32(o.partition).int64(o.offset).string(o.metadata ?? ''));
        })
        .toBuffer();
      assert.equal(adminOffsetCommitRequest('g', offsets, 2).body.toString('hex'), expected.toString('hex'));
    });

    it('groups partitions by topic and decodes per-partition errors', () => {
      const request = adminOffsetCommitRequest('g', [...offsets, { topic: 'u', partition: 0, offset: 1 }], 5);
      const payload = new ByteWriter()
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

    it('refuses versions outside 2..7', () => {
      assert.throws(() => adminOffsetCommitRequest('g', offsets, 8), /OffsetCommit v8 is not implemented/);
      assert.throws(() => adminOffsetCommitRequest('g', offsets, 1), /not implemented/);
    });
  });

  it('encodes OffsetDelete v0 and decodes group and partition errors', () => {
    const request = offsetDeleteRequest('g', 't', [0, 2]);
    assert.equal(request.apiKey, 47);
    assert.equal(request.body.toString('hex'), new ByteWriter().string('g').array([0], (w) => w.string('t').array([0, 2], (x, p) => x.int32(p))).toBuffer().toString('hex'));
    const payload = new ByteWriter()
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
    const request = leaveGroupByInstanceIdRequest('g', ['i1']);
    assert.equal(request.apiVersion, 3);
    assert.equal(request.body.toString('hex'), new ByteWriter().string('g').array(['i1'], (w, i) => w.string('').string(i)).toBuffer().toString('hex'));
    const payload = new ByteWriter().int32(0).int16(0).array([['m-1', 'i1', 0]] as const, (w, [m, i, e]) => w.string(m).string(i).int16(e)).toBuffer();
    assert.deepEqual(request.decode(payload), { errorCode: 0, members: [{ memberId: 'm-1', groupInstanceId: 'i1', errorCode: 0 }] });
  });

  it('encodes DeleteGroups v1 and decodes one result per group', () => {
    const request = deleteGroupsRequest(['a', 'b']);
    assert.equal(request.body.toString('hex'), '00000002' + '000161' + '000162');
    const payload = new ByteWriter().int32(0).array([['a', 0], ['b', 68]] as const, (w, [g, e]) => w.string(g).int16(e)).toBuffer();
    assert.deepEqual(request.decode(payload), [
      { groupId: 'a', errorCode: 0 },
      { groupId: 'b', errorCode: 68 },
    ]);
  });
});
