import { ProtocolError } from './errors';

const MAX_STRING_LENGTH = 0x7fff;

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Reads Kafka's primitive types (big-endian, as Java's ByteBuffer) from a byte range. Every read is checked against
 * the bytes left and fails with a ProtocolError naming what was being read; every count is bounded by the bytes left
 * before anything is allocated, so a hostile length costs nothing.
 */
export class ByteReader {
  private readonly buffer: Buffer;
  private position: number;
  private readonly end: number;

  constructor(bytes: Uint8Array, start = 0, end = bytes.byteLength) {
    if (start < 0 || end > bytes.byteLength || start > end) {
      throw new ProtocolError(`Bad byte range ${start}..${end} of ${bytes.byteLength} bytes`);
    }
    this.buffer = asBuffer(bytes);
    this.position = start;
    this.end = end;
  }

  get offset(): number {
    return this.position;
  }

  get remaining(): number {
    return this.end - this.position;
  }

  /** A second reader at this one's position over the same range, to look ahead without moving this one. */
  fork(): ByteReader {
    return new ByteReader(this.buffer, this.position, this.end);
  }

  private take(count: number, what: string): number {
    if (count > this.end - this.position) {
      throw new ProtocolError(`Truncated input: ${what} needs ${count} bytes at offset ${this.position}, only ${this.end - this.position} left`);
    }
    const at = this.position;
    this.position += count;
    return at;
  }

  int8(): number {
    return this.buffer.readInt8(this.take(1, 'an int8'));
  }

  uint8(): number {
    return this.buffer.readUInt8(this.take(1, 'a uint8'));
  }

  bool(): boolean {
    return this.buffer.readInt8(this.take(1, 'a boolean')) !== 0;
  }

  int16(): number {
    return this.buffer.readInt16BE(this.take(2, 'an int16'));
  }

  uint16(): number {
    return this.buffer.readUInt16BE(this.take(2, 'a uint16'));
  }

  int32(): number {
    return this.buffer.readInt32BE(this.take(4, 'an int32'));
  }

  uint32(): number {
    return this.buffer.readUInt32BE(this.take(4, 'a uint32'));
  }

  int64(): bigint {
    return this.buffer.readBigInt64BE(this.take(8, 'an int64'));
  }

  float64(): number {
    return this.buffer.readDoubleBE(this.take(8, 'a float64'));
  }

  /** Kafka's Uuid, as Uuid.toString() writes it: the 16 bytes in URL-safe base64 without padding. */
  uuid(): string {
    const at = this.take(16, 'a uuid');
    return this.buffer.toString('base64url', at, at + 16);
  }

  /** An unsigned varint of at most 5 bytes (Kafka's ByteUtils.readUnsignedVarint), up to 2^32 - 1. */
  uvarint(): number {
    let value = 0;
    for (let shift = 0; shift <= 28; shift += 7) {
      const byte = this.buffer.readUInt8(this.take(1, 'a varint'));
      value += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) {
        if (value > 0xffffffff) {
          throw new ProtocolError(`Varint ${value} at offset ${this.position - 5} does not fit in 32 bits`);
        }
        return value;
      }
    }
    throw new ProtocolError(`Varint at offset ${this.position - 5} is longer than 5 bytes`);
  }

  /** A zigzag-encoded signed varint (record fields). */
  varint(): number {
    const raw = this.uvarint();
    return raw % 2 === 0 ? raw / 2 : -(raw + 1) / 2;
  }

  /** A zigzag-encoded signed varlong of at most 10 bytes (record timestamps and offsets deltas). */
  varlong(): bigint {
    let raw = 0n;
    for (let shift = 0n; shift <= 63n; shift += 7n) {
      const byte = this.buffer.readUInt8(this.take(1, 'a varlong'));
      raw |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) {
        raw = BigInt.asUintN(64, raw);
        return BigInt.asIntN(64, (raw >> 1n) ^ -(raw & 1n));
      }
    }
    throw new ProtocolError(`Varlong at offset ${this.position - 10} is longer than 10 bytes`);
  }

  /** A copy of the next `count` bytes. */
  raw(count: number, what = 'bytes'): Uint8Array {
    if (!Number.isInteger(count) || count < 0) {
      throw new ProtocolError(`Bad length ${count} for ${what}`);
    }
    const at = this.take(count, what);
    return new Uint8Array(this.buffer.subarray(at, at + count));
  }

  /** The rest of this reader's range, copied. */
  rest(): Uint8Array {
    return this.raw(this.remaining);
  }

  private stringLength(flexible: boolean): number {
    return flexible ? this.uvarint() - 1 : this.int16();
  }

  private bytesLength(flexible: boolean): number {
    return flexible ? this.uvarint() - 1 : this.int32();
  }

  private text(length: number, field: string): string {
    if (length > MAX_STRING_LENGTH) {
      throw new ProtocolError(`string field ${field} had invalid length ${length}`);
    }
    const at = this.take(length, `string field ${field}`);
    return this.buffer.toString('utf8', at, at + length);
  }

  string(flexible: boolean, field: string): string {
    const length = this.stringLength(flexible);
    if (length < 0) {
      throw new ProtocolError(`non-nullable field ${field} was serialized as null`);
    }
    return this.text(length, field);
  }

  nullableString(flexible: boolean): string | null {
    const length = this.stringLength(flexible);
    return length < 0 ? null : this.text(length, 'string');
  }

  bytes(flexible: boolean, field: string): Uint8Array {
    const length = this.bytesLength(flexible);
    if (length < 0) {
      throw new ProtocolError(`non-nullable field ${field} was serialized as null`);
    }
    return this.raw(length, `bytes field ${field}`);
  }

  nullableBytes(flexible: boolean): Uint8Array | null {
    const length = this.bytesLength(flexible);
    return length < 0 ? null : this.raw(length);
  }

  private elements<T>(length: number, field: string, readElement: () => T): T[] {
    if (length > this.remaining) {
      throw new ProtocolError(`Tried to allocate a collection of size ${length} for ${field}, but there are only ${this.remaining} bytes remaining.`);
    }
    const values: T[] = new Array<T>(length);
    for (let i = 0; i < length; i++) {
      values[i] = readElement();
    }
    return values;
  }

  array<T>(flexible: boolean, field: string, readElement: () => T): T[] {
    const length = this.bytesLength(flexible);
    if (length < 0) {
      throw new ProtocolError(`non-nullable field ${field} was serialized as null`);
    }
    return this.elements(length, field, readElement);
  }

  nullableArray<T>(flexible: boolean, field: string, readElement: () => T): T[] | null {
    const length = this.bytesLength(flexible);
    return length < 0 ? null : this.elements(length, field, readElement);
  }

  /** The number of tagged fields that follow; each takes at least two bytes, so more than the bytes left is an error. */
  taggedFieldCount(): number {
    const count = this.uvarint();
    if (count * 2 > this.remaining) {
      throw new ProtocolError(`${count} tagged fields cannot fit in the ${this.remaining} bytes left`);
    }
    return count;
  }

  /** The body of one tagged field (its size read here) as a reader of its own; this reader moves past it. */
  taggedField(): ByteReader {
    const size = this.uvarint();
    const at = this.take(size, 'a tagged field');
    return new ByteReader(this.buffer, at, at + size);
  }
}
