/**
 * A chainable writer of Kafka wire primitives for hand-built test payloads, over the protocol
 * layer's ByteWriter: each call writes one field exactly as the protocol spells it.
 */
import { ByteWriter } from '../../../../src/protocol/byteWriter';

export class WireWriter {
  private readonly w = new ByteWriter();

  int8(value: number): this {
    this.w.int8(value);
    return this;
  }

  int16(value: number): this {
    this.w.int16(value);
    return this;
  }

  int32(value: number): this {
    this.w.int32(value);
    return this;
  }

  int64(value: number | bigint): this {
    this.w.int64(BigInt(value));
    return this;
  }

  boolean(value: boolean): this {
    this.w.bool(value);
    return this;
  }

  uvarint(value: number): this {
    this.w.uvarint(value);
    return this;
  }

  string(value: string | null): this {
    this.w.nullableString(false, value);
    return this;
  }

  compactString(value: string | null): this {
    this.w.nullableString(true, value);
    return this;
  }

  bytes(value: Uint8Array | null): this {
    this.w.nullableBytes(false, value);
    return this;
  }

  compactBytes(value: Uint8Array | null): this {
    this.w.nullableBytes(true, value);
    return this;
  }

  array<T>(items: readonly T[] | null, writeItem: (w: this, item: T) => void): this {
    this.w.nullableArray(false, items, 'array', (item) => writeItem(this, item));
    return this;
  }

  compactArray<T>(items: readonly T[] | null, writeItem: (w: this, item: T) => void): this {
    this.w.nullableArray(true, items, 'array', (item) => writeItem(this, item));
    return this;
  }

  emptyTaggedFields(): this {
    return this.uvarint(0);
  }

  /** 16 raw bytes. */
  uuid(bytes: Uint8Array): this {
    return this.raw(bytes);
  }

  raw(bytes: Uint8Array): this {
    this.w.raw(bytes);
    return this;
  }

  toBuffer(): Buffer {
    return Buffer.from(this.w.finish());
  }
}

export function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}
