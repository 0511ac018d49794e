import { strict as assert } from 'node:assert';
import { CELL_PIXELS, parseGlyph, PathBatch, placeGlyph, rectPath } from '../../../../src/webview/app/pathBatch';
import { MARKER_PATHS } from '../../../../src/webview/app/markers';

describe('webview/app/pathBatch', () => {
  it('places a glyph by moving its coordinates and leaving arc radii and flags alone', () => {
    const glyph = parseGlyph('M -5 0 A 5 5 0 1 0 5 0 Z');
    assert.equal(placeGlyph(glyph, 100, 20), 'M 95 20 A 5 5 0 1 0 105 20 Z ');
    assert.equal(placeGlyph(parseGlyph('M -4.5 -4.5 H 4.5 V 4.5 H -4.5 Z'), 10.25, 1), 'M 5.75 -3.50 H 14.75 V 5.50 H 5.75 Z ');
  });

  it('parses every marker glyph and places it at the origin unchanged', () => {
    for (const [kind, path] of Object.entries(MARKER_PATHS)) {
      const numbers = (d: string): number[] => d.split(/[^-\d.]+/).filter(Boolean).map(Number);
      assert.deepEqual(numbers(placeGlyph(parseGlyph(path), 0, 0)), numbers(path), kind);
    }
  });

  it('refuses relative or curve commands and stray numbers', () => {
    assert.throws(() => parseGlyph('m 1 1'), /unsupported command m/);
    assert.throws(() => parseGlyph('M 0 0 C 1 1 2 2 3 3'), /unsupported command C/);
    assert.throws(() => parseGlyph('5 M 0 0'), /unexpected "5"/);
  });

  it('draws plain and rounded rectangles, clamping the radius', () => {
    assert.equal(rectPath(1, 2, 10, 4), 'M1 2h10v4h-10Z');
    assert.equal(rectPath(0, 0, 10, 4, 2), 'M2 0h6a2 2 0 0 1 2 2v0a2 2 0 0 1 -2 2h-6a2 2 0 0 1 -2 -2v0a2 2 0 0 1 2 -2Z');
    assert.match(rectPath(0, 0, 2, 8, 3), /^M1 0h0a1 1 /);
  });

  it('joins shapes of one class and cell into one path, in first-added order', () => {
    const batch = new PathBatch();
    batch.add('a', 'M0 0Z', 10, 10);
    batch.add('b', 'M1 1Z', 10, 10);
    batch.add('a', 'M2 2Z', 20, 20);
    batch.add('a', 'M3 3Z', CELL_PIXELS + 1, 10);
    assert.deepEqual(batch.paths(), [
      { className: 'a', d: 'M0 0ZM2 2Z', count: 2 },
      { className: 'b', d: 'M1 1Z', count: 1 },
      { className: 'a', d: 'M3 3Z', count: 1 },
    ]);
  });
});
