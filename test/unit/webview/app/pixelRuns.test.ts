import { strict as assert } from 'node:assert';
import { pixelRuns } from '../../../../src/webview/app/pixelRuns';

type Span = { name: string; x1: number; x2: number; weight: number };
const span = (name: string, x1: number, x2: number, weight = 0): Span => ({ name, x1, x2, weight });
const run = (spans: Span[]): Array<[number, number, string, number]> =>
  pixelRuns(spans, (s) => [s.x1, s.x2], 2, (a, b) => (b.weight > a.weight ? b : a)).map((r) => [r.x1, r.x2, r.item.name, r.count]);

describe('webview/app/pixelRuns', () => {
  it('keeps wide spans as they are', () => {
    assert.deepEqual(run([span('a', 0, 10), span('b', 10, 30)]), [
      [0, 10, 'a', 1],
      [10, 30, 'b', 1],
    ]);
  });

  it('merges neighbouring narrow spans into one run represented by the preferred item', () => {
    assert.deepEqual(run([span('a', 0, 0.5), span('b', 0.5, 1, 3), span('c', 1.5, 2), span('wide', 2, 20), span('d', 30, 30.2)]), [
      [0, 2, 'b', 3],
      [2, 20, 'wide', 1],
      [30, 30.2, 'd', 1],
    ]);
  });

  it('starts a new run after a gap wider than the minimum', () => {
    assert.deepEqual(run([span('a', 0, 1), span('b', 5, 6)]), [
      [0, 1, 'a', 1],
      [5, 6, 'b', 1],
    ]);
    assert.deepEqual(run([]), []);
  });
});
