/**
 * Structure-aware mutations of well-formed requests: integers (counts, sizes, offsets, ids) set to
 * boundary values, array counts that lie, strings whose length prefix lies, array entries
 * duplicated or dropped, and bytes flipped, inserted or deleted in the encoded body; plus raw
 * garbage and frames whose declared size lies.
 */
import type { SeededRandom } from '../../../../src/simulator/common/random';
import { supportedApis } from '../../../../src/simulator/server/apis';
import { encodeFields, type CorpusRequest, type Field } from './requestCorpus';
import { requestFrame } from './serverTestKit';

const INT_BOUNDARIES: Record<'int8' | 'int16' | 'int32', number[]> = {
  int8: [0, 1, -1, 127, -128],
  int16: [0, 1, -1, 0x7fff, -0x8000, 2],
  int32: [0, 1, -1, 0x7fffffff, -0x80000000, 1 << 20, 100_000_000],
};
const INT64_BOUNDARIES: bigint[] = [0n, -1n, 1n, 2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n, 2n ** 63n - 1n, -(2n ** 63n), 2n ** 31n];
const COUNT_LIES = [-1, 0, 1, 2, 0x7fffffff, -0x80000000, 10_000_000];

export type MutationKind = 'valid' | 'boundary' | 'count' | 'string-length' | 'duplicate' | 'drop' | 'flip' | 'insert' | 'delete' | 'version' | 'garbage' | 'frame-size';

/** Weighted: most frames keep their structure and change one thing. */
const KINDS: Array<[MutationKind, number]> = [
  ['valid', 6],
  ['boundary', 20],
  ['count', 8],
  ['string-length', 6],
  ['duplicate', 14],
  ['drop', 6],
  ['flip', 12],
  ['insert', 6],
  ['delete', 6],
  ['version', 6],
  ['garbage', 5],
  ['frame-size', 5],
];
const TOTAL_WEIGHT = KINDS.reduce((n, [, w]) => n + w, 0);

function pickKind(random: SeededRandom): MutationKind {
  let roll = random.nextInt(TOTAL_WEIGHT);
  for (const [kind, weight] of KINDS) {
    if (roll < weight) {
      return kind;
    }
    roll -= weight;
  }
  return 'valid';
}

function pick<T>(random: SeededRandom, items: readonly T[]): T {
  return items[random.nextInt(items.length)];
}

/** A deep copy, so one request's mutation never leaks into the corpus. */
function clone(fields: readonly Field[]): Field[] {
  return fields.map((f) => (f.kind === 'array' ? { ...f, items: f.items.map(clone) } : { ...f }));
}

/** Every field of the tree with the list holding it, depth first. */
function walk(fields: Field[], visit: (field: Field, owner: Field[], index: number) => void): void {
  fields.forEach((field, index) => {
    visit(field, fields, index);
    if (field.kind === 'array') {
      for (const item of field.items) {
        walk(item, visit);
      }
    }
  });
}

function fieldsOf(fields: Field[], accept: (f: Field) => boolean): Array<{ field: Field; owner: Field[]; index: number }> {
  const found: Array<{ field: Field; owner: Field[]; index: number }> = [];
  walk(fields, (field, owner, index) => {
    if (accept(field)) {
      found.push({ field, owner, index });
    }
  });
  return found;
}

/** Applies a structural mutation in place; false when the request has no field of the kind needed. */
function mutateFields(random: SeededRandom, fields: Field[], kind: MutationKind): boolean {
  switch (kind) {
    case 'boundary': {
      const ints = fieldsOf(fields, (f) => f.kind === 'int8' || f.kind === 'int16' || f.kind === 'int32' || f.kind === 'int64');
      if (ints.length === 0) {
        return false;
      }
      const { owner, index, field } = pick(random, ints);
      owner[index] = field.kind === 'int64' ? { kind: 'int64', value: pick(random, INT64_BOUNDARIES) } : { kind: field.kind as 'int32', value: pick(random, INT_BOUNDARIES[field.kind as 'int32']) };
      return true;
    }
    case 'count': {
      const arrays = fieldsOf(fields, (f) => f.kind === 'array');
      if (arrays.length === 0) {
        return false;
      }
      const { owner, index, field } = pick(random, arrays);
      owner[index] = { ...(field as Extract<Field, { kind: 'array' }>), count: pick(random, COUNT_LIES) };
      return true;
    }
    case 'string-length': {
      const strings = fieldsOf(fields, (f) => f.kind === 'string' || f.kind === 'bytes');
      if (strings.length === 0) {
        return false;
      }
      const { owner, index, field } = pick(random, strings);
      const value = (field as Extract<Field, { kind: 'string' | 'bytes' }>).value;
      const body = value === null ? Buffer.alloc(0) : Buffer.from(value);
      const lie = body.length + pick(random, [-1, 1, 2, -2, 100, -body.length - 2]);
      const prefix = Buffer.alloc(field.kind === 'string' ? 2 : 4);
      if (field.kind === 'string') {
        prefix.writeInt16BE(Math.max(-0x8000, Math.min(0x7fff, lie)));
      } else {
        prefix.writeInt32BE(lie);
      }
      owner[index] = { kind: 'raw', value: Buffer.concat([prefix, body]) };
      return true;
    }
    case 'duplicate':
    case 'drop': {
      const arrays = fieldsOf(fields, (f) => f.kind === 'array' && f.items.length > 0);
      if (arrays.length === 0) {
        return false;
      }
      const array = pick(random, arrays).field as Extract<Field, { kind: 'array' }>;
      const at = random.nextInt(array.items.length);
      if (kind === 'duplicate') {
        array.items.splice(at, 0, clone(array.items[at]));
      } else {
        array.items.splice(at, 1);
      }
      return true;
    }
    default:
      return true;
  }
}

function randomBytes(random: SeededRandom, n: number): Buffer {
  return Buffer.from(Array.from({ length: n }, () => random.nextInt(256)));
}

/** A frame derived from `request` by one mutation (or, for 'valid', none). */
export function mutatedFrame(random: SeededRandom, request: CorpusRequest, correlationId: number): { frame: Buffer; kind: MutationKind } {
  let kind = pickKind(random);
  const fields = clone(request.fields);
  if (!mutateFields(random, fields, kind)) {
    kind = 'valid';
  }
  let body = encodeFields(fields).toBuffer();
  let version = request.apiVersion;
  switch (kind) {
    case 'flip':
      if (body.length > 0) {
        body = Buffer.from(body);
        body[random.nextInt(body.length)] ^= 1 << random.nextInt(8);
      }
      break;
    case 'insert': {
      const at = random.nextInt(body.length + 1);
      body = Buffer.concat([body.subarray(0, at), randomBytes(random, 1 + random.nextInt(4)), body.subarray(at)]);
      break;
    }
    case 'delete': {
      const at = random.nextInt(body.length + 1);
      body = Buffer.concat([body.subarray(0, at), body.subarray(at + 1 + random.nextInt(4))]);
      break;
    }
    case 'version': {
      const api = supportedApis().find((a) => a.key === request.apiKey);
      version = api ? api.minVersion - 1 + random.nextInt(api.maxVersion - api.minVersion + 3) : version;
      break;
    }
    case 'garbage':
      return { frame: randomBytes(random, 1 + random.nextInt(64)), kind };
    case 'frame-size': {
      const frame = requestFrame(request.apiKey, version, correlationId, body);
      // The size says more (or far more, or less than nothing) than arrives.
      frame.writeInt32BE(pick(random, [frame.length, frame.length + 100, -1, 0x7fffffff, 104857601, 0]), 0);
      return { frame, kind };
    }
    default:
      break;
  }
  return { frame: requestFrame(request.apiKey, version, correlationId, body), kind };
}
