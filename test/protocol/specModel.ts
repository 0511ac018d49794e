// Kafka's message specs (src/protocol/messages/specs.json, written by the generator) read independently of the
// generator, for the tests: seeded random messages of any message and version, and Kafka's JSON form of a message
// (what the generated *JsonConverter classes read and write), so Java's view can be compared with ours.
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface SpecField {
  name: string;
  type: string;
  versions: string;
  nullableVersions?: string;
  taggedVersions?: string;
  tag?: number;
  default?: string | number | boolean | null;
  ignorable?: boolean;
  flexibleVersions?: string;
  fields?: SpecField[];
}

export interface MessageSpec {
  name: string;
  type: string;
  apiKey?: number;
  validVersions: string;
  flexibleVersions: string;
  fields?: SpecField[];
  commonStructs?: Array<{ name: string; versions: string; fields: SpecField[] }>;
  artifact: string;
}

interface Range {
  lo: number;
  hi: number;
}

export type Value = null | boolean | number | bigint | string | Uint8Array | Value[] | { [key: string]: Value | RawTagged[] };
export interface RawTagged {
  tag: number;
  data: Uint8Array;
}
type Struct = { [key: string]: Value | RawTagged[] };

const specsFile = path.resolve(__dirname, '..', '..', 'src', 'protocol', 'messages', 'specs.json');
export const messageSpecs: MessageSpec[] = JSON.parse(fs.readFileSync(specsFile, 'utf8')) as MessageSpec[];

export function parseRange(text: string | undefined): Range | null {
  if (text === undefined || text === 'none') {
    return null;
  }
  const match = /^(\d+)(\+|-(\d+))?$/.exec(text);
  if (!match) {
    throw new Error(`bad version range ${text}`);
  }
  const lo = Number(match[1]);
  return { lo, hi: match[2] === '+' ? 32767 : match[3] !== undefined ? Number(match[3]) : lo };
}

export function inRange(text: string | undefined, version: number): boolean {
  const range = parseRange(text);
  return range !== null && version >= range.lo && version <= range.hi;
}

export function versionsOf(spec: MessageSpec): number[] {
  const range = parseRange(spec.validVersions);
  const versions: number[] = [];
  for (let v = range?.lo ?? 0; range !== null && v <= range.hi; v++) {
    versions.push(v);
  }
  return versions;
}

const lowerFirst = (name: string): string => name.charAt(0).toLowerCase() + name.slice(1);

/** Mulberry32: small, fast and seeded, so a failing case can be replayed from its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A message spec with its structs indexed by name. */
export class SpecModel {
  private readonly structs = new Map<string, SpecField[]>();

  constructor(readonly spec: MessageSpec) {
    const collect = (fields: SpecField[] | undefined): void => {
      for (const field of fields ?? []) {
        if (field.fields !== undefined) {
          this.structs.set(field.type.replace(/^\[\]/, ''), field.fields);
          collect(field.fields);
        }
      }
    };
    for (const common of spec.commonStructs ?? []) {
      this.structs.set(common.name, common.fields);
      collect(common.fields);
    }
    collect(spec.fields);
  }

  structFields(name: string): SpecField[] {
    const fields = this.structs.get(name);
    if (fields === undefined) {
      throw new Error(`${this.spec.name}: no struct ${name}`);
    }
    return fields;
  }

  /** The value the generated reader gives a field it does not read (FieldSpec.fieldDefault). */
  defaultValue(field: SpecField, type = field.type): Value {
    // As Kafka's FieldSpec: a missing or JSON-null default is the type's own default.
    const text = field.default === undefined || field.default === null ? '' : String(field.default);
    if (type.startsWith('[]')) {
      return text === 'null' ? null : [];
    }
    switch (type) {
      case 'bool':
        return text.toLowerCase() === 'true';
      case 'int8': case 'int16': case 'uint16': case 'int32': case 'uint32':
        return text === '' ? 0 : Number(BigInt(text));
      case 'int64':
        return text === '' ? 0n : BigInt(text);
      case 'float64':
        return text === '' ? 0 : Number(text);
      case 'uuid':
        return text === '' ? 'AAAAAAAAAAAAAAAAAAAAAA' : text;
      case 'string':
        return text === 'null' ? null : text;
      case 'bytes':
        return text === 'null' ? null : new Uint8Array(0);
      case 'records':
        return null;
      default:
        return text === 'null' ? null : this.defaultStruct(type);
    }
  }

  defaultStruct(name: string): Struct {
    const out: Struct = {};
    for (const field of this.structFields(name)) {
      out[lowerFirst(field.name)] = this.defaultValue(field);
    }
    return out;
  }

  /** A random message of `version`: every field present in it random (null sometimes, where nullable), the rest default. */
  randomMessage(version: number, random: () => number, withUnknownTags: boolean): Struct {
    return this.randomStruct(this.spec.fields ?? [], version, random, withUnknownTags, 0);
  }

  private randomStruct(fields: SpecField[], version: number, random: () => number, withUnknownTags: boolean, depth: number): Struct {
    const out: Struct = {};
    for (const field of fields) {
      const key = lowerFirst(field.name);
      if (!inRange(field.versions, version)) {
        out[key] = this.defaultValue(field);
      } else if (inRange(field.taggedVersions, version) && random() < 0.4) {
        out[key] = this.defaultValue(field);
      } else if (inRange(field.nullableVersions, version) && random() < 0.2) {
        out[key] = null;
      } else {
        out[key] = this.randomValue(field, field.type, version, random, withUnknownTags, depth);
      }
    }
    if (withUnknownTags && inRange(this.spec.flexibleVersions, version) && random() < 0.15) {
      const count = 1 + Math.floor(random() * 2);
      out.unknownTaggedFields = Array.from({ length: count }, (_, i) => ({
        tag: 10000 + i * 7 + Math.floor(random() * 5), data: randomBytes(random, 4),
      }));
    }
    return out;
  }

  private randomValue(field: SpecField, type: string, version: number, random: () => number, withUnknownTags: boolean, depth: number): Value {
    if (type.startsWith('[]')) {
      const length = depth > 3 ? 0 : Math.floor(random() * 4);
      return Array.from({ length }, () => this.randomValue(field, type.slice(2), version, random, withUnknownTags, depth + 1));
    }
    const edge = random() < 0.15;
    switch (type) {
      case 'bool': return random() < 0.5;
      case 'int8': return randomInt(random, -128, 127, edge);
      case 'int16': return randomInt(random, -32768, 32767, edge);
      case 'uint16': return randomInt(random, 0, 65535, edge);
      case 'int32': return randomInt(random, -2147483648, 2147483647, edge);
      case 'uint32': return randomInt(random, 0, 4294967295, edge);
      case 'int64': return edge ? [-(2n ** 63n), 2n ** 63n - 1n, -1n][Math.floor(random() * 3)]
        : BigInt.asIntN(64, (BigInt(Math.floor(random() * 2 ** 32)) << 32n) | BigInt(Math.floor(random() * 2 ** 32)));
      case 'float64': return edge ? 0 : Number(((random() - 0.5) * 1e9).toPrecision(12));
      case 'uuid': return Buffer.from(randomBytes(random, 16, 16)).toString('base64url');
      case 'string': return randomString(random);
      case 'bytes': return randomBytes(random, 12);
      case 'records': return randomBytes(random, 24);
      default:
        return this.randomStruct(this.structFields(type), version, random, withUnknownTags, depth + 1);
    }
  }

  /** Kafka's JSON form (the generated *JsonConverter.write): camelCase keys, fields of the version only. */
  toKafkaJson(message: Struct, version: number): string {
    const plain = this.jsonStruct(this.spec.fields ?? [], message, version);
    // int64 as exact digits, float64 always with a fraction or exponent: Kafka's converter wants a floating point node.
    return JSON.stringify(plain, (_key, value: unknown) => (typeof value === 'bigint' ? `\u0000${value}` : value))
      .replace(/"\\u0000(-?\d+)"/g, '$1')
      .replace(/"\\u0001([^"]+)"/g, '$1');
  }

  private jsonStruct(fields: SpecField[], message: Struct, version: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const field of fields) {
      if (inRange(field.versions, version)) {
        const key = lowerFirst(field.name);
        out[key] = this.jsonValue(field.type, message[key] as Value, version);
      }
    }
    return out;
  }

  private jsonValue(type: string, value: Value, version: number): unknown {
    if (value === null) {
      return null;
    }
    if (type.startsWith('[]')) {
      return (value as Value[]).map((element) => this.jsonValue(type.slice(2), element, version));
    }
    if (value instanceof Uint8Array) {
      return Buffer.from(value).toString('base64');
    }
    if (type === 'float64') {
      const text = String(value);
      return `\u0001${/[.eE]/.test(text) ? text : `${text}.0`}`;
    }
    if (typeof value === 'object' && !Array.isArray(value)) {
      return this.jsonStruct(this.structFields(type), value, version);
    }
    return value;
  }

  /**
   * Our message from Kafka's JSON, written by Java with numbers as strings (so int64 stays exact). Records come
   * from `template`: Kafka's JsonConverter writes records as an empty binary node (KIP-673's logging path).
   */
  fromKafkaJson(json: unknown, version: number, template: Struct): Struct {
    return this.structFromJson(this.spec.fields ?? [], json as Record<string, unknown>, version, template);
  }

  private structFromJson(fields: SpecField[], json: Record<string, unknown>, version: number, template: Struct | undefined): Struct {
    const out: Struct = {};
    for (const field of fields) {
      const key = lowerFirst(field.name);
      const raw = json[key];
      if (!inRange(field.versions, version) || raw === undefined) {
        out[key] = this.defaultValue(field);
      } else {
        out[key] = this.valueFromJson(field, field.type, raw, version, template?.[key] as Value | undefined);
      }
    }
    return out;
  }

  private valueFromJson(field: SpecField, type: string, raw: unknown, version: number, template: Value | undefined): Value {
    if (raw === null) {
      return null;
    }
    if (type.startsWith('[]')) {
      return (raw as unknown[]).map((element, i) => this.valueFromJson(field, type.slice(2), element, version,
        Array.isArray(template) ? template[i] : undefined));
    }
    switch (type) {
      case 'bool': return raw as boolean;
      case 'int64': return BigInt(raw as string);
      case 'int8': case 'int16': case 'uint16': case 'int32': case 'uint32': case 'float64': return Number(raw);
      case 'uuid': case 'string': return raw as string;
      case 'bytes': return new Uint8Array(Buffer.from(raw as string, 'base64'));
      case 'records': return template === undefined ? null : template;
      default:
        return this.structFromJson(this.structFields(type), raw as Record<string, unknown>, version, template as Struct | undefined);
    }
  }

  /** The message without unknown tagged fields (Kafka's JSON form does not carry them). */
  withoutUnknownTags(message: Struct): Struct {
    const strip = (value: Value | RawTagged[]): Value | RawTagged[] => {
      if (Array.isArray(value)) {
        return (value as Value[]).map((element) => strip(element) as Value);
      }
      if (value !== null && typeof value === 'object' && !(value instanceof Uint8Array)) {
        const out: Struct = {};
        for (const [key, inner] of Object.entries(value)) {
          if (key !== 'unknownTaggedFields') {
            out[key] = strip(inner);
          }
        }
        return out;
      }
      return value;
    };
    return strip(message) as Struct;
  }
}

function randomInt(random: () => number, min: number, max: number, edge: boolean): number {
  if (edge) {
    return [min, max, 0, -1 >= min ? -1 : 1][Math.floor(random() * 4)];
  }
  return min + Math.floor(random() * (max - min + 1));
}

function randomBytes(random: () => number, maxLength: number, minLength = 0): Uint8Array {
  const length = minLength + Math.floor(random() * (maxLength - minLength + 1));
  return Uint8Array.from({ length }, () => Math.floor(random() * 256));
}

const ALPHABET = ['a', 'b', 'z', '0', '-', '.', ' ', 'é', '€', '\u{1F600}', '_'];

function randomString(random: () => number): string {
  const length = Math.floor(random() * 10);
  let text = '';
  for (let i = 0; i < length; i++) {
    text += ALPHABET[Math.floor(random() * ALPHABET.length)];
  }
  return text;
}
