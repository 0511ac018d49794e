import { strict as assert } from 'node:assert';
import { ByteReader, ByteWriter, ProtocolDecodeError } from '../../../../src/kafka/protocol/wire';

const hex = (b: Buffer) => b.toString('hex');

describe('wire', () => {
  describe('ByteWriter', () => {
    it('writes fixed-width big-endian integers', () => {
      assert.equal(hex(new ByteWriter().int8(-1).int16(258).int32(-2).int64(2 ** 40 + 5).toBuffer()), 'ff0102fffffffe0000010000000005');
    });

    it('writes unsigned varints in 7-bit groups, low first', () => {
      assert.equal(hex(new ByteWriter().uvarint(0).uvarint(127).uvarint(128).uvarint(300).uvarint(0xffffffff).toBuffer()), '007f8001ac02ffffffff0f');
      assert.throws(() => new ByteWriter().uvarint(-1), RangeError);
    });

    it('writes classic and compact strings, nulls included', () => {
      assert.equal(hex(new ByteWriter().string('ab').string(null).toBuffer()), '00026162ffff');
      assert.equal(hex(new ByteWriter().compactString('ab').compactString(null).compactString('').toBuffer()), '03616200' + '01');
    });

    it('writes classic and compact arrays with their null forms', () => {
      const w = new ByteWriter()
        .array([1, 2], (x, v) => x.int8(v))
        .array(null, () => undefined)
        .compactArray([7], (x, v) => x.int8(v))
        .compactArray(null, () => undefined);
      assert.equal(hex(w.toBuffer()), '000000020102' + 'ffffffff' + '0207' + '00');
    });

    it('refuses a UUID that is not 16 bytes', () => {
      assert.throws(() => new ByteWriter().uuid(Buffer.alloc(15)), /16 bytes/);
    });
  });

  describe('ByteReader', () => {
    it('reads back what the writer wrote', () => {
      const bytes = new ByteWriter()
        .int16(-3)
        .int32(70000)
        .int64(9007199254740991)
        .boolean(true)
        .string('topic')
        .string(null)
        .compactString('x')
        .compactString(null)
        .bytes(Buffer.from([1, 2]))
        .bytes(null)
        .uvarint(300)
        .toBuffer();
      const r = new ByteReader(bytes);
      assert.equal(r.int16(), -3);
      assert.equal(r.int32(), 70000);
      assert.equal(r.int64(), 9007199254740991);
      assert.equal(r.boolean(), true);
      assert.equal(r.string(), 'topic');
      assert.equal(r.nullableString(), null);
      assert.equal(r.compactString(), 'x');
      assert.equal(r.compactNullableString(), null);
      assert.deepEqual(r.nullableBytes(), Buffer.from([1, 2]));
      assert.equal(r.nullableBytes(), null);
      assert.equal(r.uvarint(), 300);
      assert.equal(r.remaining, 0);
    });

    it('reads negative int64 values', () => {
      assert.equal(new ByteReader(Buffer.from('ffffffffffffffff', 'hex')).int64(), -1);
    });

    it('refuses an offset beyond 2^53 instead of rounding it', () => {
      assert.equal(new ByteReader(Buffer.from('001fffffffffffff', 'hex')).exactInt64(), Number.MAX_SAFE_INTEGER);
      assert.equal(new ByteReader(Buffer.from('ffffffffffffffff', 'hex')).exactInt64(), -1);
      assert.throws(() => new ByteReader(Buffer.from('0020000000000001', 'hex'), 'ListOffsets').exactInt64(), /ListOffsets: int64 9007199254740993 at offset 0 is beyond 2\^53/);
    });

    it('skips tagged fields by their size, not as compact bytes', () => {
      // two tagged fields: tag 0 with 3 bytes, tag 5 with 1 byte, then an int8 after the section
      const r = new ByteReader(Buffer.from('02' + '0003aabbcc' + '0501dd' + '2a', 'hex'));
      r.skipTaggedFields();
      assert.equal(r.int8(), 42);
    });

    it('reads null arrays as empty', () => {
      assert.deepEqual(new ByteReader(Buffer.from('ffffffff', 'hex')).array((r) => r.int8()), []);
      assert.deepEqual(new ByteReader(Buffer.from('00', 'hex')).compactArray((r) => r.int8()), []);
    });

    it('fails clearly on truncated input and impossible array sizes', () => {
      assert.throws(() => new ByteReader(Buffer.from('0005616263', 'hex'), 'test message').string(), (e: unknown) => e instanceof ProtocolDecodeError && /test message: needs 5 more byte/.test(e.message));
      assert.throws(() => new ByteReader(Buffer.from('7fffffff', 'hex')).array((r) => r.int8()), /cannot fit/);
      assert.throws(() => new ByteReader(Buffer.from('ffff', 'hex')).string(), /unexpected null string/);
      assert.throws(() => new ByteReader(Buffer.from('ffffffffff', 'hex')).uvarint(), /longer than 5 bytes/);
    });
  });
});
