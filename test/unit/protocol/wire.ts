/**
 * Kafka wire primitives for hand-built test payloads and for reading answers field by field, over the
 * protocol layer's ByteWriter/ByteReader: each call writes or reads one field exactly as the protocol
 * spells it (tests build frames the generated codecs would refuse to write, e.g. hostile counts).
 */
import { ByteReader } from '../../../src/protocol/byteReader';
import { ByteWriter } from '../../../src/protocol/byteWriter';

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

/** Reads a payload field by field (classic and compact forms), with the protocol layer's bounds checks. */
export class WireReader {
  private readonly r: ByteReader;

  constructor(bytes: Uint8Array) {
    this.r = new ByteReader(bytes);
  }

  get remaining(): number {
    return this.r.remaining;
  }

  int8(): number {
    return this.r.int8();
  }

  int16(): number {
    return this.r.int16();
  }

  int32(): number {
    return this.r.int32();
  }

  /** An int64 as a number: tests read small offsets and timestamps. */
  int64(): number {
    return Number(this.r.int64());
  }

  boolean(): boolean {
    return this.r.bool();
  }

  uvarint(): number {
    return this.r.uvarint();
  }

  string(): string {
    return this.r.string(false, 'string');
  }

  nullableString(): string | null {
    return this.r.nullableString(false);
  }

  compactString(): string {
    return this.r.string(true, 'string');
  }

  compactNullableString(): string | null {
    return this.r.nullableString(true);
  }

  nullableBytes(): Buffer | null {
    const bytes = this.r.nullableBytes(false);
    return bytes === null ? null : Buffer.from(bytes);
  }

  compactNullableBytes(): Buffer | null {
    const bytes = this.r.nullableBytes(true);
    return bytes === null ? null : Buffer.from(bytes);
  }

  /** Classic ARRAY; a null array reads as []. */
  array<T>(readItem: (r: this) => T): T[] {
    return this.r.nullableArray(false, 'array', () => readItem(this)) ?? [];
  }

  /** COMPACT_ARRAY; a null array reads as []. */
  compactArray<T>(readItem: (r: this) => T): T[] {
    return this.r.nullableArray(true, 'array', () => readItem(this)) ?? [];
  }

  skipTaggedFields(): void {
    const count = this.r.taggedFieldCount();
    for (let i = 0; i < count; i++) {
      this.r.uvarint();
      this.r.taggedField();
    }
  }

  /** 16 raw bytes. */
  uuid(): Buffer {
    return Buffer.from(this.r.raw(16));
  }

  rest(): Buffer {
    return Buffer.from(this.r.rest());
  }
}
