/**
 * Checks a tool call's arguments against the tool's inputSchema before the tool runs: a model that sends
 * `"limit": "ten"` or leaves out `group` gets every problem named, with the field and what it takes, rather
 * than a TypeError from deep inside. Covers what the schemas use: object, string, number, boolean, array, enum, required.
 */
import type { InputSchema } from './toolDeclarations';

function typeOf(value: unknown): string {
  return Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
}

function check(value: unknown, schema: InputSchema, where: string, problems: string[]): void {
  // An object the schema leaves open (simulate's scenario) may come as JSON text, as its description says; the tool parses it.
  const openObjectAsText = schema.type === 'object' && !schema.properties && typeof value === 'string';
  if (schema.type && schema.type !== typeOf(value) && !openObjectAsText) {
    problems.push(`"${where}" must be ${schema.type === 'array' ? 'an array' : `a ${schema.type}`}${schema.description ? ` (${schema.description})` : ''}, got ${typeOf(value)}`);
    return;
  }
  if (schema.enum && !schema.enum.includes(value as string)) {
    problems.push(`"${where}" must be one of ${schema.enum.join(', ')}, got ${JSON.stringify(value)}`);
  }
  if (Array.isArray(value) && schema.items) {
    const items = schema.items;
    value.forEach((item: unknown, i) => check(item, items, `${where}[${i}]`, problems));
  }
  if (schema.type === 'object' && schema.properties && typeOf(value) === 'object') {
    const input = value as Record<string, unknown>;
    for (const name of schema.required ?? []) {
      if (input[name] === undefined) {
        problems.push(`"${name}" is required${schema.properties[name]?.description ? `: ${schema.properties[name].description}` : ''}`);
      }
    }
    for (const [name, field] of Object.entries(input)) {
      const fieldSchema = schema.properties[name];
      if (fieldSchema === undefined) {
        problems.push(`"${name}" is not an input of this tool; its inputs are ${Object.keys(schema.properties).join(', ')}`);
      } else if (field !== undefined) {
        check(field, fieldSchema, where ? `${where}.${name}` : name, problems);
      }
    }
  }
}

/** Every way `input` breaks `schema`, one sentence each; empty when it fits. */
export function inputProblems(input: unknown, schema: InputSchema & { type: 'object' }): string[] {
  if (typeOf(input) !== 'object') {
    return [`the arguments must be a JSON object (see the tool's inputSchema), got ${typeOf(input)}`];
  }
  const problems: string[] = [];
  check(input, schema, '', problems);
  return problems;
}
