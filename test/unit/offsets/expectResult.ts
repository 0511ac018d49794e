/** Assertions for the offsets engine's `{ ok: true, … } | { ok: false, error }` results. */
import { strict as assert } from 'assert';

type Result = { ok: true } | { ok: false; error: string };

/** The success branch, failing the test with the error otherwise. */
export function expectOk<R extends Result>(result: R, context = ''): Extract<R, { ok: true }> {
  if (!result.ok) {
    assert.fail(`${context}${context ? ': ' : ''}${(result as { error: string }).error}`);
  }
  return result as Extract<R, { ok: true }>;
}

/** The error text, failing the test when the result is a success. */
export function expectError(result: Result, context = ''): string {
  if (result.ok) {
    assert.fail(`expected a failure${context ? ` for ${context}` : ''}`);
  }
  return result.error;
}
