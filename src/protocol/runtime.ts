// What the generated messages (src/protocol/messages/) call: the reader and writer, the codec shape and the checks
// Kafka's generated *Data classes make (version ranges, non-default fields a version cannot carry, nulls).
//
// Types: int8, int16, int32, uint16, uint32 and float64 are numbers; int64 is always bigint, because offsets,
// timestamps and producer ids reach 2^63 - 1 (Long.MAX_VALUE is a real value in several APIs) and one rule for
// every int64 field is simpler for callers than a number that throws past 2^53; a uuid is Kafka's Uuid.toString()
// (22 characters of URL-safe base64); bytes and records are Uint8Array (records as raw batch bytes, read them with
// recordBatch.ts). Field names are Kafka's JSON names (camelCase), so Kafka's JSON form of a message is ours.
import { ByteReader } from './byteReader';
import { ByteWriter, type RawTaggedField } from './byteWriter';
import { ProtocolError, UnsupportedVersionError } from './errors';
import type { VersionRange } from './versionRange';

export { ByteReader, ByteWriter, ProtocolError, UnsupportedVersionError };
export type { RawTaggedField, VersionRange };

export type MessageType = 'request' | 'response' | 'header' | 'data' | 'coordinator-key' | 'coordinator-value';

/** One generated message: its spec's identity and versions, and its reader, writer and all-defaults value. */
export interface MessageCodec<T> {
  readonly name: string;
  readonly type: MessageType;
  /** The API key of a request or response, the record type of a coordinator key or value, null otherwise. */
  readonly apiKey: number | null;
  readonly validVersions: VersionRange;
  readonly flexibleVersions: VersionRange | null;
  readonly latestVersionUnstable: boolean;
  read(reader: ByteReader, version: number): T;
  write(writer: ByteWriter, version: number, message: T): void;
  defaults(): T;
}

/** Any codec, for tables of all messages (tests). */
export type AnyMessageCodec = MessageCodec<unknown>;

/** The message's bytes at `version`. */
export function encode<T>(codec: MessageCodec<T>, version: number, message: T): Uint8Array {
  const writer = new ByteWriter();
  codec.write(writer, version, message);
  return writer.finish();
}

/** Reads one whole message; bytes left over after it are an error, as they mean the version or framing is wrong. */
export function decode<T>(codec: MessageCodec<T>, bytes: Uint8Array, version: number): T {
  const reader = new ByteReader(bytes);
  const message = codec.read(reader, version);
  if (reader.remaining !== 0) {
    throw new ProtocolError(`${codec.name} v${version}: ${reader.remaining} bytes left after the message`);
  }
  return message;
}

export function checkVersion(name: string, version: number, lo: number, hi: number): void {
  if (!Number.isInteger(version) || version < lo || version > hi) {
    throw new UnsupportedVersionError(`Can't handle version ${version} of ${name} (valid versions ${lo}-${hi})`);
  }
}

export function nonDefaultField(field: string, version: number): UnsupportedVersionError {
  return new UnsupportedVersionError(`Attempted to write a non-default ${field} at version ${version}`);
}

export function taggedFieldsUnsupported(version: number): UnsupportedVersionError {
  return new UnsupportedVersionError(`Tagged fields were set, but version ${version} of this message does not support them.`);
}

export function notNull<T>(value: T | null, field: string): T {
  if (value === null) {
    throw new ProtocolError(`non-nullable field ${field} is null`);
  }
  return value;
}

/** A null struct is only writable in the versions where the field is nullable. */
export function nullOnlyIf(nullable: boolean, field: string): void {
  if (!nullable) {
    throw new ProtocolError(`non-nullable field ${field} is null in this version`);
  }
}

export function addUnknownTaggedField(fields: RawTaggedField[] | undefined, tag: number, body: ByteReader): RawTaggedField[] {
  const list = fields ?? [];
  list.push({ tag, data: body.rest() });
  return list;
}

/** Structural equality of message values (Kafka's generated equals): bytes by content, no unknown tags = none. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) {
    return true;
  }
  if (a instanceof Uint8Array && b instanceof Uint8Array) {
    return a.byteLength === b.byteLength && Buffer.compare(a, b) === 0;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((value, index) => deepEqual(value, b[index]));
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) || Array.isArray(b)) {
    return false;
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  for (const key of keys) {
    const x = left[key];
    const y = right[key];
    if (key === 'unknownTaggedFields' && isEmptyList(x) && isEmptyList(y)) {
      continue;
    }
    if (!deepEqual(x, y)) {
      return false;
    }
  }
  return true;
}

function isEmptyList(value: unknown): boolean {
  return value === undefined || (Array.isArray(value) && value.length === 0);
}
