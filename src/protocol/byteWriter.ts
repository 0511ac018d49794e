import { ProtocolError } from './errors';

/** A tagged field this code has no name for, as read: written back unchanged (Kafka's RawTaggedField). */
export interface RawTaggedField {
  readonly tag: number;
  readonly data: Uint8Array;
}

const MAX_STRING_LENGTH = 0x7fff;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

function checkInteger(value: number, min: number, max: number, type: string): void {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ProtocolError(`${type} value ${String(value)} is out of range ${min}..${max}`);
  }
}

function nullField(field: string): ProtocolError {
  return new ProtocolError(`non-nullable field ${field} is null`);
}

/** Writes Kafka's primitive types into a growing buffer; values out of their type's range fail instead of wrapping. */
export class ByteWriter {
  private buffer: Buffer;
  private length = 0;

  constructor(initialCapacity = 256) {
    this.buffer = Buffer.allocUnsafe(Math.max(16, initialCapacity));
  }

  get size(): number {
    return this.length;
  }

  private reserve(count: number): number {
    const at = this.length;
    if (at + count > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, at + count));
      this.buffer.copy(grown, 0, 0, at);
      this.buffer = grown;
    }
    this.length = at + count;
    return at;
  }

  /** The bytes written so far (a view; write nothing more once it is handed on). */
  finish(): Uint8Array {
    return this.buffer.subarray(0, this.length);
  }

  int8(value: number): void {
    checkInteger(value, -0x80, 0x7f, 'int8');
    const at = this.reserve(1);
    this.buffer.writeInt8(value, at);
  }

  uint8(value: number): void {
    checkInteger(value, 0, 0xff, 'uint8');
    const at = this.reserve(1);
    this.buffer.writeUInt8(value, at);
  }

  bool(value: boolean): void {
    const at = this.reserve(1);
    this.buffer.writeUInt8(value ? 1 : 0, at);
  }

  int16(value: number): void {
    checkInteger(value, -0x8000, 0x7fff, 'int16');
    const at = this.reserve(2);
    this.buffer.writeInt16BE(value, at);
  }

  uint16(value: number): void {
    checkInteger(value, 0, 0xffff, 'uint16');
    const at = this.reserve(2);
    this.buffer.writeUInt16BE(value, at);
  }

  int32(value: number): void {
    checkInteger(value, -0x80000000, 0x7fffffff, 'int32');
    const at = this.reserve(4);
    this.buffer.writeInt32BE(value, at);
  }

  uint32(value: number): void {
    checkInteger(value, 0, 0xffffffff, 'uint32');
    const at = this.reserve(4);
    this.buffer.writeUInt32BE(value, at);
  }

  int64(value: bigint): void {
    if (typeof value !== 'bigint' || value < INT64_MIN || value > INT64_MAX) {
      throw new ProtocolError(`int64 value ${String(value)} is not a bigint in range`);
    }
    const at = this.reserve(8);
    this.buffer.writeBigInt64BE(value, at);
  }

  float64(value: number): void {
    const at = this.reserve(8);
    this.buffer.writeDoubleBE(value, at);
  }

  uuid(value: string): void {
    const bytes = Buffer.from(value, 'base64url');
    if (value.length !== 22 || bytes.length !== 16 || bytes.toString('base64url') !== value) {
      throw new ProtocolError(`${JSON.stringify(value)} is not a Kafka Uuid (22 characters of URL-safe base64)`);
    }
    const at = this.reserve(16);
    bytes.copy(this.buffer, at);
  }

  uvarint(value: number): void {
    checkInteger(value, 0, 0xffffffff, 'unsigned varint');
    let rest = value;
    while (rest >= 0x80) {
      const at = this.reserve(1);
      this.buffer.writeUInt8((rest % 0x80) | 0x80, at);
      rest = Math.floor(rest / 0x80);
    }
    const at = this.reserve(1);
    this.buffer.writeUInt8(rest, at);
  }

  varint(value: number): void {
    checkInteger(value, -0x80000000, 0x7fffffff, 'varint');
    this.uvarint(value >= 0 ? value * 2 : -value * 2 - 1);
  }

  varlong(value: bigint): void {
    if (value < INT64_MIN || value > INT64_MAX) {
      throw new ProtocolError(`varlong value ${value} is out of the int64 range`);
    }
    let rest = BigInt.asUintN(64, (value << 1n) ^ (value >> 63n));
    while (rest >= 0x80n) {
      const at = this.reserve(1);
      this.buffer.writeUInt8(Number(rest & 0x7fn) | 0x80, at);
      rest >>= 7n;
    }
    const at = this.reserve(1);
    this.buffer.writeUInt8(Number(rest), at);
  }

  raw(bytes: Uint8Array): void {
    const at = this.reserve(bytes.byteLength);
    this.buffer.set(bytes, at);
  }

  private text(flexible: boolean, value: string, field: string): void {
    const length = Buffer.byteLength(value, 'utf8');
    if (length > MAX_STRING_LENGTH) {
      throw new ProtocolError(`string field ${field} is ${length} bytes long, more than ${MAX_STRING_LENGTH}`);
    }
    if (flexible) {
      this.uvarint(length + 1);
    } else {
      this.int16(length);
    }
    const at = this.reserve(length);
    this.buffer.write(value, at, length, "utf8");
  }

  string(flexible: boolean, value: string | null, field: string): void {
    if (value === null) {
      throw nullField(field);
    }
    this.text(flexible, value, field);
  }

  nullableString(flexible: boolean, value: string | null): void {
    if (value === null) {
      this.nullLength(flexible, true);
    } else {
      this.text(flexible, value, 'string');
    }
  }

  private nullLength(flexible: boolean, isString: boolean): void {
    if (flexible) {
      this.uvarint(0);
    } else if (isString) {
      this.int16(-1);
    } else {
      this.int32(-1);
    }
  }

  private length32(flexible: boolean, length: number): void {
    if (flexible) {
      this.uvarint(length + 1);
    } else {
      this.int32(length);
    }
  }

  bytes(flexible: boolean, value: Uint8Array | null, field: string): void {
    if (value === null) {
      throw nullField(field);
    }
    this.length32(flexible, value.byteLength);
    this.raw(value);
  }

  nullableBytes(flexible: boolean, value: Uint8Array | null): void {
    if (value === null) {
      this.nullLength(flexible, false);
    } else {
      this.length32(flexible, value.byteLength);
      this.raw(value);
    }
  }

  array<T>(flexible: boolean, values: readonly T[] | null, field: string, writeElement: (value: T) => void): void {
    if (values === null) {
      throw nullField(field);
    }
    this.length32(flexible, values.length);
    for (const value of values) {
      writeElement(value);
    }
  }

  nullableArray<T>(flexible: boolean, values: readonly T[] | null, field: string, writeElement: (value: T) => void): void {
    if (values === null) {
      this.nullLength(flexible, false);
    } else {
      this.array(flexible, values, field, writeElement);
    }
  }

  /** One tagged field: its tag, its size, then what `writeBody` writes. */
  tagged(tag: number, writeBody: (body: ByteWriter) => void): void {
    const body = new ByteWriter(64);
    writeBody(body);
    this.uvarint(tag);
    this.uvarint(body.size);
    this.raw(body.finish());
  }

  /** A null tagged field whose default is not null: Kafka writes a one-byte body holding varint 0. */
  taggedNull(tag: number): void {
    this.uvarint(tag);
    this.uvarint(1);
    this.uvarint(0);
  }

  /**
   * Writes the unknown tagged fields from index `next` whose tags come before `beforeTag`, returning the index
   * after them (Kafka's RawTaggedFieldWriter.writeRawTags: known and unknown fields interleave in tag order).
   */
  rawTaggedFields(raw: readonly RawTaggedField[] | undefined, next: number, beforeTag: number): number {
    if (raw === undefined) {
      return next;
    }
    let index = next;
    while (index < raw.length && raw[index].tag < beforeTag) {
      this.uvarint(raw[index].tag);
      this.uvarint(raw[index].data.byteLength);
      this.raw(raw[index].data);
      index++;
    }
    return index;
  }
}
