import { ByteReader, ByteWriter } from './wire';

/**
 * A finished request for one API version: the body bytes (after kafkajs's v1 request header) and
 * a decoder for the response body (after the correlation id).
 *
 * kafkajs always writes request header v1. For flexible versions (request header v2) the body
 * therefore starts with the header's empty tagged-field section, and the response decoder skips
 * response header v1's tagged fields first, the trick kafkajs itself uses for its two flexible APIs.
 */
export interface ApiRequest<T> {
  apiKey: number;
  apiName: string;
  apiVersion: number;
  body: Buffer;
  decode(payload: Buffer): T;
}

/** Field helpers that pick the classic or compact encoding for one version. */
export interface FieldReader {
  r: ByteReader;
  flexible: boolean;
  string(): string;
  nullableString(): string | null;
  bytes(): Buffer | null;
  array<T>(item: (f: FieldReader) => T): T[];
  /** Ends a struct: skips its tagged fields in flexible versions. */
  endStruct(): void;
}

export interface FieldWriter {
  w: ByteWriter;
  flexible: boolean;
  string(value: string | null): FieldWriter;
  array<T>(items: readonly T[] | null, item: (f: FieldWriter, value: T) => void): FieldWriter;
  endStruct(): FieldWriter;
}

export function fieldReader(r: ByteReader, flexible: boolean): FieldReader {
  const f: FieldReader = {
    r,
    flexible,
    string: () => (flexible ? r.compactString() : r.string()),
    nullableString: () => (flexible ? r.compactNullableString() : r.nullableString()),
    bytes: () => (flexible ? r.compactNullableBytes() : r.nullableBytes()),
    array: <T>(item: (f: FieldReader) => T) => (flexible ? r.compactArray(() => item(f)) : r.array(() => item(f))),
    endStruct: () => {
      if (flexible) {
        r.skipTaggedFields();
      }
    },
  };
  return f;
}

export function fieldWriter(w: ByteWriter, flexible: boolean): FieldWriter {
  const f: FieldWriter = {
    w,
    flexible,
    string: (value) => {
      if (flexible) {
        w.compactString(value);
      } else {
        w.string(value);
      }
      return f;
    },
    array: (items, item) => {
      if (flexible) {
        w.compactArray(items, (_w, v) => item(f, v));
      } else {
        w.array(items, (_w, v) => item(f, v));
      }
      return f;
    },
    endStruct: () => {
      if (flexible) {
        w.emptyTaggedFields();
      }
      return f;
    },
  };
  return f;
}

export interface RequestSpec<T> {
  apiKey: number;
  apiName: string;
  apiVersion: number;
  flexible: boolean;
  writeBody(f: FieldWriter): void;
  readBody(f: FieldReader): T;
}

export function buildRequest<T>(spec: RequestSpec<T>): ApiRequest<T> {
  const w = new ByteWriter();
  const out = fieldWriter(w, spec.flexible);
  if (spec.flexible) {
    w.emptyTaggedFields(); // request header v2's tagged fields
  }
  spec.writeBody(out);
  out.endStruct();
  return {
    apiKey: spec.apiKey,
    apiName: spec.apiName,
    apiVersion: spec.apiVersion,
    body: w.toBuffer(),
    decode(payload: Buffer): T {
      const r = new ByteReader(payload, `${spec.apiName} v${spec.apiVersion} response`);
      const f = fieldReader(r, spec.flexible);
      if (spec.flexible) {
        r.skipTaggedFields(); // response header v1's tagged fields
      }
      const result = spec.readBody(f);
      f.endStruct();
      return result;
    },
  };
}

export const ApiKeys = {
  Fetch: 1,
  ListOffsets: 2,
  Metadata: 3,
  OffsetCommit: 8,
  OffsetFetch: 9,
  LeaveGroup: 13,
  DescribeGroups: 15,
  ListGroups: 16,
  DeleteGroups: 42,
  OffsetDelete: 47,
  ConsumerGroupDescribe: 69,
} as const;
