import * as assert from 'node:assert/strict';
import { ByteReader } from '../../../src/protocol/byteReader';
import { ByteWriter } from '../../../src/protocol/byteWriter';
import { ProtocolError, UnsupportedVersionError } from '../../../src/protocol/errors';
import { allMessages } from '../../../src/protocol/messages/allMessages';
import { FetchResponse } from '../../../src/protocol/messages/fetchResponse';
import { JoinGroupRequest } from '../../../src/protocol/messages/joinGroupRequest';
import { MetadataRequest } from '../../../src/protocol/messages/metadataRequest';
import { OffsetCommitRequest } from '../../../src/protocol/messages/offsetCommitRequest';
import { decode, encode } from '../../../src/protocol/runtime';
import { SpecModel, messageSpecs, seededRandom, versionsOf } from '../../protocol/specModel';

/** Decoding must end in a value or a ProtocolError / UnsupportedVersionError, never another throw. */
function outcome(run: () => unknown): 'ok' | 'rejected' {
  try {
    run();
    return 'ok';
  } catch (error) {
    assert.ok(error instanceof ProtocolError || error instanceof UnsupportedVersionError, `unexpected ${String(error)}`);
    assert.ok((error as Error).message.length > 0);
    return 'rejected';
  }
}

describe('generated messages: hostile input', () => {
  const specs = new Map(messageSpecs.map((spec) => [spec.name, spec]));

  it('every truncation of a random message of every version is a ProtocolError', () => {
    let truncations = 0;
    for (const codec of allMessages) {
      const spec = specs.get(codec.name);
      assert.ok(spec);
      const model = new SpecModel(spec);
      for (const version of versionsOf(spec)) {
        const bytes = encode(codec, version, model.randomMessage(version, seededRandom(version + 17), true));
        // Every cut point of short messages, a spread of them for long ones.
        const step = Math.max(1, Math.floor(bytes.length / 24));
        for (let cut = 0; cut < bytes.length; cut += step) {
          assert.equal(outcome(() => decode(codec, bytes.subarray(0, cut), version)), 'rejected', `${codec.name} v${version} cut at ${cut}`);
          truncations++;
        }
      }
    }
    assert.ok(truncations > 5000, `only ${truncations} truncations`);
  });

  it('random bytes never cause anything but a value or a clear error', () => {
    const random = seededRandom(99);
    for (const codec of allMessages) {
      for (let i = 0; i < 20; i++) {
        const bytes = Uint8Array.from({ length: Math.floor(random() * 64) }, () => Math.floor(random() * 256));
        outcome(() => decode(codec, bytes, codec.validVersions.hi));
      }
    }
  });

  it('a huge array count is refused at once, before anything is allocated', () => {
    // MetadataRequest v0: topics int32 count, here 2^31 - 1 with nothing after it.
    const started = process.hrtime.bigint();
    assert.throws(() => decode(MetadataRequest, new Uint8Array([0x7f, 0xff, 0xff, 0xff]), 0), (error: unknown) =>
      error instanceof ProtocolError && /collection of size 2147483647/.test(error.message));
    // The same in a flexible version: a compact array of 2^32 - 2 elements.
    assert.throws(() => decode(MetadataRequest, new Uint8Array([0xff, 0xff, 0xff, 0xff, 0x0f, 0, 0]), 9), ProtocolError);
    assert.ok(process.hrtime.bigint() - started < 1_000_000_000n);
  });

  it('a huge string or bytes length, a negative non-nullable length and an over-long varint are refused', () => {
    const w = new ByteWriter();
    w.int16(0x7fff);
    assert.throws(() => new ByteReader(w.finish()).string(false, 'name'), /needs 32767 bytes/);
    assert.throws(() => new ByteReader(new Uint8Array([0xff, 0xff])).string(false, 'groupId'), /non-nullable field groupId was serialized as null/);
    assert.throws(() => new ByteReader(new Uint8Array([0x7f, 0xff, 0xff, 0xff])).bytes(false, 'metadata'), ProtocolError);
    assert.throws(() => new ByteReader(new Uint8Array([0x80, 0x80, 0x80, 0x80, 0x80, 0x01])).uvarint(), /longer than 5 bytes/);
    assert.throws(() => new ByteReader(new Uint8Array([0xff, 0xff, 0xff, 0xff, 0x7f])).uvarint(), /does not fit in 32 bits/);
    assert.throws(() => new ByteReader(new Uint8Array([0x80, 0x81, 0x82])).varlong(), ProtocolError);
  });

  it('a huge tagged-field count is refused', () => {
    // FetchResponse v12 (flexible): throttle, error, session id, an empty topics array, then 2^28 tagged fields.
    const w = new ByteWriter();
    w.int32(0);
    w.int16(0);
    w.int32(0);
    w.uvarint(1);
    w.uvarint(2 ** 28);
    assert.throws(() => decode(FetchResponse, w.finish(), 12), /tagged fields cannot fit/);
  });

  it('bytes left after a message are an error; an unknown version is UnsupportedVersion', () => {
    const bytes = encode(JoinGroupRequest, 0, { groupId: 'g', sessionTimeoutMs: 1, memberId: '', protocolType: 'consumer', protocols: [] });
    assert.throws(() => decode(JoinGroupRequest, Buffer.concat([bytes, Buffer.from([0])]), 0), /1 bytes left after the message/);
    assert.throws(() => decode(JoinGroupRequest, bytes, 10), UnsupportedVersionError);
    assert.throws(() => encode(JoinGroupRequest, -1, { groupId: 'g', sessionTimeoutMs: 1, memberId: '', protocolType: 'consumer', protocols: [] }), UnsupportedVersionError);
  });

  it('writing a non-default value a version cannot carry throws UnsupportedVersion unless the field is ignorable', () => {
    const join = { groupId: 'g', sessionTimeoutMs: 1, memberId: '', protocolType: 'consumer', protocols: [] };
    // GroupInstanceId (v5+) is not ignorable, as in Kafka.
    assert.throws(() => encode(JoinGroupRequest, 4, { ...join, groupInstanceId: 'host-1' }), /non-default groupInstanceId at version 4/);
    // RebalanceTimeoutMs (v1+) and Reason (v8+) are ignorable: dropped.
    assert.deepEqual(encode(JoinGroupRequest, 0, { ...join, rebalanceTimeoutMs: 5, reason: 'why' }), encode(JoinGroupRequest, 0, join));
    // Unknown tagged fields need a flexible version.
    assert.throws(() => encode(JoinGroupRequest, 5, { ...join, unknownTaggedFields: [{ tag: 9, data: new Uint8Array([1]) }] }), /Tagged fields were set/);
  });

  it('values out of their type\'s range are refused instead of wrapping', () => {
    const commit = (offset: bigint, partition: number): Uint8Array => encode(OffsetCommitRequest, 8, {
      groupId: 'g', generationIdOrMemberEpoch: -1, memberId: '', groupInstanceId: null,
      topics: [{ name: 't', partitions: [{ partitionIndex: partition, committedOffset: offset, committedLeaderEpoch: -1, committedMetadata: null }] }],
    });
    assert.throws(() => commit(2n ** 63n, 0), /int64 value/);
    assert.throws(() => commit(0n, 2 ** 31), /int32 value 2147483648 is out of range/);
    assert.throws(() => commit(0n, 1.5), /int32 value 1.5/);
    assert.ok(commit(2n ** 63n - 1n, 0).length > 0);
  });
});
