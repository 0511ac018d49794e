// Kept only for src/simulator/server, which still imports it; the client uses src/protocol. It goes when the
// simulator's server moves onto the generated layer (issue 16, server side).
/**
 * Byte-level reader and writer for the Kafka wire format, classic and flexible ("compact") encodings.
 * kafkajs 2.2.4's own compact helpers are unusable here (Decoder.readUVarIntBytes returns one byte too
 * many and readTaggedFields reads tagged-field sizes as compact lengths), so the requests kafkajs lacks
 * are encoded and decoded with this module and only handed to kafkajs as finished bytes.
 */

export class ProtocolDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProtocolDecodeError';
  }
}

export class ByteWriter {
  private readonly chunks: Buffer[] = [];

  int8(value: number): this {
    const b = Buffer.alloc(1);
    b.writeInt8(value);
    return this.raw(b);
  }

  int16(value: number): this {
    const b = Buffer.alloc(2);
    b.writeInt16BE(value);
    return this.raw(b);
  }

  int32(value: number): this {
    const b = Buffer.alloc(4);
    b.writeInt32BE(value);
    return this.raw(b);
  }

  /** Offsets travel as JS numbers: exact up to 2^53, which every real offset is below. */
  int64(value: number | bigint): this {
    const b = Buffer.alloc(8);
    b.writeBigInt64BE(BigInt(value));
    return this.raw(b);
  }

  boolean(value: boolean): this {
    return this.int8(value ? 1 : 0);
  }

  uvarint(value: number): this {
    if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) {
      throw new RangeError(`uvarint out of range: ${value}`);
    }
    const bytes: number[] = [];
    let v = value;
    while (v > 0x7f) {
      bytes.push((v & 0x7f) | 0x80);
      v = Math.floor(v / 128);
    }
    bytes.push(v);
    return this.raw(Buffer.from(bytes));
  }

  /** Classic STRING / NULLABLE_STRING: int16 length (-1 for null). */
  string(value: string | null): this {
    if (value === null) {
      return this.int16(-1);
    }
    const b = Buffer.from(value, 'utf8');
    return this.int16(b.length).raw(b);
  }

  /** COMPACT_STRING / COMPACT_NULLABLE_STRING: uvarint length+1 (0 for null). */
  compactString(value: string | null): this {
    if (value === null) {
      return this.uvarint(0);
    }
    const b = Buffer.from(value, 'utf8');
    return this.uvarint(b.length + 1).raw(b);
  }

  /** Classic BYTES / NULLABLE_BYTES: int32 length (-1 for null). */
  bytes(value: Buffer | null): this {
    if (value === null) {
      return this.int32(-1);
    }
    return this.int32(value.length).raw(value);
  }

  /** Classic ARRAY: int32 count (-1 for null). */
  array<T>(items: readonly T[] | null, writeItem: (w: this, item: T) => void): this {
    if (items === null) {
      return this.int32(-1);
    }
    this.int32(items.length);
    for (const item of items) {
      writeItem(this, item);
    }
    return this;
  }

  /** COMPACT_ARRAY: uvarint count+1 (0 for null). */
  compactArray<T>(items: readonly T[] | null, writeItem: (w: this, item: T) => void): this {
    if (items === null) {
      return this.uvarint(0);
    }
    this.uvarint(items.length + 1);
    for (const item of items) {
      writeItem(this, item);
    }
    return this;
  }

  /** An empty tagged-field section: we never send tagged fields. */
  emptyTaggedFields(): this {
    return this.uvarint(0);
  }

  uuid(bytes: Buffer): this {
    if (bytes.length !== 16) {
      throw new RangeError(`a UUID has 16 bytes, got ${bytes.length}`);
    }
    return this.raw(bytes);
  }

  raw(b: Buffer): this {
    this.chunks.push(b);
    return this;
  }

  toBuffer(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

const MAX_EXACT = BigInt(Number.MAX_SAFE_INTEGER);

export class ByteReader {
  private offset = 0;

  constructor(private readonly buffer: Buffer, private readonly what = 'message') {}

  get remaining(): number {
    return this.buffer.length - this.offset;
  }

  private take(n: number): Buffer {
    if (n < 0 || this.offset + n > this.buffer.length) {
      throw new ProtocolDecodeError(
        `${this.what}: needs ${n} more byte(s) at offset ${this.offset}, only ${this.remaining} left`,
      );
    }
    const slice = this.buffer.subarray(this.offset, this.offset + n);
    this.offset += n;
    return slice;
  }

  int8(): number {
    return this.take(1).readInt8();
  }

  int16(): number {
    return this.take(2).readInt16BE();
  }

  int32(): number {
    return this.take(4).readInt32BE();
  }

  int64(): number {
    return Number(this.take(8).readBigInt64BE());
  }

  /** An int64 that must be exact as a number (offsets): beyond 2^53 it is refused, never rounded. */
  exactInt64(): number {
    const at = this.offset;
    const value = this.take(8).readBigInt64BE();
    if (value > MAX_EXACT || value < -MAX_EXACT) {
      throw new ProtocolDecodeError(`${this.what}: int64 ${value} at offset ${at} is beyond 2^53 and cannot be handled exactly`);
    }
    return Number(value);
  }

  boolean(): boolean {
    return this.int8() !== 0;
  }

  uvarint(): number {
    let result = 0;
    let multiplier = 1;
    for (let i = 0; i < 5; i++) {
      const byte = this.take(1)[0];
      result += (byte & 0x7f) * multiplier;
      if ((byte & 0x80) === 0) {
        return result;
      }
      multiplier *= 128;
    }
    throw new ProtocolDecodeError(`${this.what}: unsigned varint longer than 5 bytes at offset ${this.offset}`);
  }

  nullableString(): string | null {
    const length = this.int16();
    if (length === -1) {
      return null;
    }
    return this.take(length).toString('utf8');
  }

  string(): string {
    const value = this.nullableString();
    if (value === null) {
      throw new ProtocolDecodeError(`${this.what}: unexpected null string at offset ${this.offset - 2}`);
    }
    return value;
  }

  compactNullableString(): string | null {
    const lengthPlusOne = this.uvarint();
    if (lengthPlusOne === 0) {
      return null;
    }
    return this.take(lengthPlusOne - 1).toString('utf8');
  }

  compactString(): string {
    const value = this.compactNullableString();
    if (value === null) {
      throw new ProtocolDecodeError(`${this.what}: unexpected null compact string`);
    }
    return value;
  }

  nullableBytes(): Buffer | null {
    const length = this.int32();
    if (length === -1) {
      return null;
    }
    return Buffer.from(this.take(length));
  }

  compactNullableBytes(): Buffer | null {
    const lengthPlusOne = this.uvarint();
    if (lengthPlusOne === 0) {
      return null;
    }
    return Buffer.from(this.take(lengthPlusOne - 1));
  }

  /** Classic ARRAY; a null array (-1) reads as []. */
  array<T>(readItem: (r: ByteReader) => T): T[] {
    const count = this.int32();
    return this.items(count < 0 ? 0 : count, readItem);
  }

  /** COMPACT_ARRAY; a null array (0) reads as []. */
  compactArray<T>(readItem: (r: ByteReader) => T): T[] {
    const countPlusOne = this.uvarint();
    return this.items(countPlusOne === 0 ? 0 : countPlusOne - 1, readItem);
  }

  private items<T>(count: number, readItem: (r: ByteReader) => T): T[] {
    // Each item takes at least one byte: a larger count means corrupt input, not a huge allocation.
    if (count > this.remaining) {
      throw new ProtocolDecodeError(`${this.what}: array of ${count} items cannot fit in ${this.remaining} bytes`);
    }
    const out: T[] = [];
    for (let i = 0; i < count; i++) {
      out.push(readItem(this));
    }
    return out;
  }

  /** Skips a tagged-field section: uvarint count, then per field uvarint tag, uvarint size, bytes. */
  skipTaggedFields(): void {
    const count = this.uvarint();
    for (let i = 0; i < count; i++) {
      this.uvarint();
      this.take(this.uvarint());
    }
  }

  uuid(): Buffer {
    return Buffer.from(this.take(16));
  }
}
