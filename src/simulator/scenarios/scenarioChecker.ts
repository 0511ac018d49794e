/** The scenario checks' tools: a collector of issues that walks the JSON, and what the checks learn on the way. */
export type Json = Record<string, unknown>;

export function describe(value: unknown): string {
  if (value === undefined) {
    return 'nothing';
  }
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Collects issues while walking the JSON. */
export class Checker {
  readonly issues: string[] = [];

  fail(path: string, expected: string, value: unknown): void {
    this.issues.push(`${path}: expected ${expected}, got ${describe(value)}`);
  }

  object(value: unknown, path: string): Json | null {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      this.fail(path, 'an object', value);
      return null;
    }
    return value as Json;
  }

  array(value: unknown, path: string): unknown[] | null {
    if (!Array.isArray(value)) {
      this.fail(path, 'an array', value);
      return null;
    }
    return value;
  }

  string(obj: Json, key: string, path: string, optional = false): string | undefined {
    const value = obj[key];
    if (value === undefined && optional) {
      return undefined;
    }
    if (typeof value !== 'string' || value.length === 0) {
      this.fail(`${path}.${key}`, 'a non-empty string', value);
      return undefined;
    }
    return value;
  }

  number(obj: Json, key: string, path: string, opts: { optional?: boolean; min?: number; max?: number; integer?: boolean } = {}): number | undefined {
    const value = obj[key];
    if (value === undefined && opts.optional) {
      return undefined;
    }
    const min = opts.min ?? 0;
    const max = opts.max ?? Number.MAX_SAFE_INTEGER;
    const ok = typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max && (!opts.integer || Number.isInteger(value));
    if (!ok) {
      const kind = opts.integer ? 'an integer' : 'a number';
      this.fail(`${path}.${key}`, `${kind} between ${min} and ${max}`, value);
      return undefined;
    }
    return value;
  }

  oneOf<T extends string>(obj: Json, key: string, path: string, allowed: readonly T[], optional = false): T | undefined {
    const value = obj[key];
    if (value === undefined && optional) {
      return undefined;
    }
    if (typeof value !== 'string' || !allowed.includes(value as T)) {
      this.fail(`${path}.${key}`, `one of ${allowed.map((a) => `"${a}"`).join(', ')}`, value);
      return undefined;
    }
    return value as T;
  }

  unknownKeys(obj: Json, path: string, allowed: readonly string[]): void {
    for (const key of Object.keys(obj)) {
      if (!allowed.includes(key)) {
        this.issues.push(`${path}.${key}: unknown field; expected one of ${allowed.join(', ')}`);
      }
    }
  }
}

export interface ScenarioContext {
  topics: Map<string, number>;
  consumerIds: Set<string>;
  producerIds: Set<string>;
  /** Transactional ids with a transaction open at this point of the (time-ordered) check. */
  openTransactions: Set<string>;
  /** Streams applications by applicationId. */
  streamsApps: Set<string>;
}

