import { strict as assert } from 'node:assert';
import {
  decodeGroupMetadataValue,
  decodeOffsetsTopicKey,
  decodeOffsetsTopicRecord,
} from '../../../src/timeline/groupMetadataRecord';
import { bytes, cbytes, concat, consumerAssignment, consumerSubscriptionV0, cstr, i16, i32, i64, str, uvarint } from './kafkaBytes';

const subscription = consumerSubscriptionV0(['orders']);
const assignment = consumerAssignment({ orders: [0, 1] });

/** Classic (v0-3) member struct; fields absent from a version are left out. */
function classicMember(version: number, m: { id: string; instance?: string | null; rebalanceTimeout?: number }): Uint8Array {
  return concat(
    str(m.id),
    version >= 3 ? str(m.instance ?? null) : new Uint8Array(0),
    str('client-1'),
    str('/10.0.0.1'),
    version >= 1 ? i32(m.rebalanceTimeout ?? 300000) : new Uint8Array(0),
    i32(45000),
    bytes(subscription),
    bytes(assignment),
  );
}

function classicValue(version: number, members: Uint8Array[], timestamp = 1700000000123): Uint8Array {
  return concat(
    i16(version),
    str('consumer'),
    i32(7),
    str('range'),
    str('m-1'),
    version >= 2 ? i64(timestamp) : new Uint8Array(0),
    i32(members.length),
    ...members,
  );
}

describe('timeline/groupMetadataRecord', () => {
  describe('decodeOffsetsTopicKey', () => {
    it('reads a GroupMetadataKey (version 2) with any characters in the group id', () => {
      const key = concat(i16(2), str('grp <é> "x"'));
      assert.deepEqual(decodeOffsetsTopicKey(key), { type: 'group-metadata', group: 'grp <é> "x"' });
    });

    it('reads offset-commit keys of versions 0 and 1 so callers can skip them', () => {
      for (const version of [0, 1]) {
        const key = concat(i16(version), str('g'), str('orders'), i32(3));
        assert.deepEqual(decodeOffsetsTopicKey(key), { type: 'offset-commit', keyVersion: version, group: 'g', topic: 'orders', partition: 3 });
      }
    });

    it('classifies newer key versions (KIP-848 records) as other without reading them', () => {
      assert.deepEqual(decodeOffsetsTopicKey(concat(i16(5), str('g'), str('member'))), { type: 'other', keyVersion: 5 });
    });

    it('rejects truncated keys, trailing bytes and negative versions', () => {
      assert.throws(() => decodeOffsetsTopicKey(Uint8Array.from([0, 2, 0, 5, 0x61])), /__consumer_offsets key: Truncated input: string field GroupMetadataKeyData.group needs 5 bytes at offset 4, only 1 left/);
      assert.throws(() => decodeOffsetsTopicKey(concat(i16(2), str('g'), Uint8Array.from([0]))), /1 unexpected trailing byte/);
      assert.throws(() => decodeOffsetsTopicKey(i16(-3)), /invalid version -3/);
      assert.throws(() => decodeOffsetsTopicKey(Uint8Array.from([0])), /__consumer_offsets key: Truncated input: an int16 needs 2 bytes at offset 0/);
    });
  });

  describe('decodeGroupMetadataValue', () => {
    it('reads v0 from literal bytes: no rebalance timeout, instance id or state timestamp', () => {
      // version 0 | "consumer" | generation 5 | protocol null | leader null | 0 members
      const literal = Uint8Array.from([
        0x00, 0x00, 0x00, 0x08, 0x63, 0x6f, 0x6e, 0x73, 0x75, 0x6d, 0x65, 0x72, 0x00, 0x00, 0x00, 0x05, 0xff, 0xff, 0xff, 0xff,
        0x00, 0x00, 0x00, 0x00,
      ]);
      assert.deepEqual(decodeGroupMetadataValue(literal), {
        version: 0,
        protocolType: 'consumer',
        generation: 5,
        protocol: null,
        leader: null,
        currentStateTimestamp: null,
        members: [],
      });
    });

    it('reads v0 members', () => {
      const value = decodeGroupMetadataValue(classicValue(0, [classicMember(0, { id: 'm-1' })]));
      assert.equal(value.protocol, 'range');
      assert.equal(value.leader, 'm-1');
      assert.equal(value.generation, 7);
      assert.equal(value.members.length, 1);
      const [member] = value.members;
      assert.equal(member.memberId, 'm-1');
      assert.equal(member.groupInstanceId, null);
      assert.equal(member.clientId, 'client-1');
      assert.equal(member.clientHost, '/10.0.0.1');
      assert.equal(member.rebalanceTimeoutMs, null);
      assert.equal(member.sessionTimeoutMs, 45000);
      assert.deepEqual([...member.subscription], [...subscription]);
      assert.deepEqual([...member.assignment], [...assignment]);
    });

    it('reads v1 rebalanceTimeout', () => {
      const value = decodeGroupMetadataValue(classicValue(1, [classicMember(1, { id: 'm-1', rebalanceTimeout: 120000 })]));
      assert.equal(value.members[0].rebalanceTimeoutMs, 120000);
      assert.equal(value.currentStateTimestamp, null);
    });

    it('reads v2 currentStateTimestamp, and -1 as unknown', () => {
      assert.equal(decodeGroupMetadataValue(classicValue(2, [classicMember(2, { id: 'm-1' })])).currentStateTimestamp, 1700000000123);
      assert.equal(decodeGroupMetadataValue(classicValue(2, [], -1)).currentStateTimestamp, null);
    });

    it('reads v3 groupInstanceId, null for dynamic members', () => {
      const value = decodeGroupMetadataValue(
        classicValue(3, [classicMember(3, { id: 'inst-a-1', instance: 'inst-a' }), classicMember(3, { id: 'm-2', instance: null })]),
      );
      assert.deepEqual(
        value.members.map((m) => [m.memberId, m.groupInstanceId]),
        [
          ['inst-a-1', 'inst-a'],
          ['m-2', null],
        ],
      );
    });

    it('reads flexible v4: compact strings, arrays and bytes, skipping tagged fields', () => {
      const taggedSection = concat(uvarint(1), uvarint(7), uvarint(3), Uint8Array.from([1, 2, 3]));
      const member = concat(
        cstr('inst-b-9'),
        cstr('inst-b'),
        cstr('client-é'),
        cstr('/10.0.0.2'),
        i32(60000),
        i32(10000),
        cbytes(subscription),
        cbytes(assignment),
        taggedSection,
      );
      const value = concat(i16(4), cstr('consumer'), i32(12), cstr(null), cstr(null), i64(1700000005000), uvarint(2), member, uvarint(0));
      const decoded = decodeGroupMetadataValue(value);
      assert.equal(decoded.version, 4);
      assert.equal(decoded.generation, 12);
      assert.equal(decoded.protocol, null);
      assert.equal(decoded.leader, null);
      assert.equal(decoded.currentStateTimestamp, 1700000005000);
      assert.equal(decoded.members.length, 1);
      assert.deepEqual(
        { ...decoded.members[0], subscription: [...decoded.members[0].subscription], assignment: [...decoded.members[0].assignment] },
        {
          memberId: 'inst-b-9',
          groupInstanceId: 'inst-b',
          clientId: 'client-é',
          clientHost: '/10.0.0.2',
          rebalanceTimeoutMs: 60000,
          sessionTimeoutMs: 10000,
          subscription: [...subscription],
          assignment: [...assignment],
        },
      );
    });

    it('rejects unknown versions, truncation, trailing bytes and nulls where Kafka forbids them', () => {
      assert.throws(() => decodeGroupMetadataValue(concat(i16(5), cstr('consumer'))), /unsupported version 5/);
      const full = classicValue(3, [classicMember(3, { id: 'm-1' })]);
      assert.throws(() => decodeGroupMetadataValue(full.subarray(0, full.byteLength - 3)), /GroupMetadataValue v3: Truncated input: bytes field MemberMetadata.assignment needs 30 bytes/);
      assert.throws(() => decodeGroupMetadataValue(concat(full, Uint8Array.from([9]))), /trailing byte/);
      const nullMemberId = concat(i16(0), str('consumer'), i32(1), str(null), str(null), i32(1), str(null));
      assert.throws(() => decodeGroupMetadataValue(nullMemberId), /GroupMetadataValue v0: non-nullable field MemberMetadata.memberId was serialized as null/);
      const hugeArray = concat(i16(0), str('consumer'), i32(1), str(null), str(null), i32(1000));
      assert.throws(() => decodeGroupMetadataValue(hugeArray), /GroupMetadataValue v0: Tried to allocate a collection of size 1000 for GroupMetadataValueData.members, but there are only 0 bytes remaining/);
    });
  });

  describe('decodeOffsetsTopicRecord', () => {
    it('decodes group metadata, turns a null value into a tombstone, and passes other records through', () => {
      const key = concat(i16(2), str('g'));
      const record = decodeOffsetsTopicRecord(key, classicValue(2, []));
      assert.equal(record.type, 'group-metadata');
      assert.equal(record.type === 'group-metadata' && record.value?.generation, 7);
      assert.deepEqual(decodeOffsetsTopicRecord(key, null), { type: 'group-metadata', group: 'g', value: null });
      assert.deepEqual(decodeOffsetsTopicRecord(concat(i16(1), str('g'), str('t'), i32(0)), Uint8Array.from([1])), {
        type: 'offset-commit',
        group: 'g',
        topic: 't',
        partition: 0,
      });
    });
  });
});
