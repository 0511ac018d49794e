/**
 * Polls a page for the state a test expects instead of reading it once: a webview handles a posted
 * message in a later task and renders in an animation frame, so a read right after a send or a key
 * press races the page (a test that read "37 events" instead of "38" under load did exactly that).
 */
import { AssertionError } from 'node:assert';
import type { Locator } from 'playwright-core';

const POLL_MS = 20;
export const DEFAULT_WAIT_MS = 10_000;

/** Reads until `accept` holds and returns that value; fails after `timeoutMs` with the last value read. */
export async function eventually<T>(what: string, read: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = DEFAULT_WAIT_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (accept(value)) {
      return value;
    }
    if (Date.now() >= deadline) {
      throw new AssertionError({ message: `${what}: still ${JSON.stringify(value)} after ${timeoutMs} ms` });
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Waits until the element's text equals `expected`, or matches it when it is a RegExp. */
export function textBecomes(locator: Locator, expected: string | RegExp, timeoutMs = DEFAULT_WAIT_MS): Promise<string> {
  const accept = (text: string): boolean => (typeof expected === 'string' ? text === expected : expected.test(text));
  return eventually(`text of ${locator.toString()} to be ${String(expected)}`, async () => (await locator.textContent()) ?? '', accept, timeoutMs);
}

/** Waits until the locator matches `expected` elements. */
export function countBecomes(locator: Locator, expected: (count: number) => boolean, what: string, timeoutMs = DEFAULT_WAIT_MS): Promise<number> {
  return eventually(`${what} (${locator.toString()})`, () => locator.count(), expected, timeoutMs);
}
