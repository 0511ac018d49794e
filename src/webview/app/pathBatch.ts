/**
 * Collects many shapes that look the same (one CSS class list) and lie close together into one SVG
 * path each. A plot of
 * thousands of markers and spans then has a few dozen elements: building, styling and painting
 * thousands of separate elements was what made a redraw slow. Pure (no DOM), unit-tested in Node.
 */

/** A glyph path (absolute commands, centred on 0, 0) split so it can be placed anywhere cheaply. */
export interface Glyph {
  /** Literal text before each coordinate, and after the last. */
  text: string[];
  /** Per coordinate: 'x' or 'y', to add the placement to. */
  axes: ('x' | 'y')[];
  values: number[];
}

/** Which arguments of each command are x or y coordinates (the rest, like arc radii and flags, are not). */
const ARGUMENT_AXES: Record<string, (('x' | 'y') | null)[]> = {
  M: ['x', 'y'],
  L: ['x', 'y'],
  H: ['x'],
  V: ['y'],
  A: [null, null, null, null, null, 'x', 'y'],
  Z: [],
};

/** Parses a path of absolute M, L, H, V, A and Z commands; anything else is refused. */
export function parseGlyph(path: string): Glyph {
  const tokens = path.trim().split(/[\s,]+/);
  const glyph: Glyph = { text: [], axes: [], values: [] };
  let pending = '';
  let argumentAxes: (('x' | 'y') | null)[] = [];
  let argument = 0;
  for (const token of tokens) {
    if (/^[A-Za-z]$/.test(token)) {
      const axes = ARGUMENT_AXES[token];
      if (!axes) {
        throw new Error(`glyph path: unsupported command ${token} in "${path}"`);
      }
      pending += `${token} `;
      argumentAxes = axes;
      argument = 0;
      continue;
    }
    const value = Number(token);
    if (!Number.isFinite(value) || argumentAxes.length === 0) {
      throw new Error(`glyph path: unexpected "${token}" in "${path}"`);
    }
    const axis = argumentAxes[argument % argumentAxes.length];
    argument++;
    if (axis === null) {
      pending += `${token} `;
      continue;
    }
    glyph.text.push(pending);
    glyph.axes.push(axis);
    glyph.values.push(value);
    pending = ' ';
  }
  glyph.text.push(pending);
  return glyph;
}

/** The glyph's path moved to (x, y). */
export function placeGlyph(glyph: Glyph, x: number, y: number): string {
  let d = glyph.text[0];
  for (let i = 0; i < glyph.values.length; i++) {
    d += round(glyph.values[i] + (glyph.axes[i] === 'x' ? x : y)) + glyph.text[i + 1];
  }
  return d;
}

/** A rectangle, with corners rounded by `radius` (clamped to half the smaller side). */
export function rectPath(x: number, y: number, width: number, height: number, radius = 0): string {
  const r = Math.min(radius, width / 2, height / 2);
  if (r <= 0) {
    return `M${round(x)} ${round(y)}h${round(width)}v${round(height)}h${round(-width)}Z`;
  }
  const w = round(width - 2 * r);
  const h = round(height - 2 * r);
  const a = round(r);
  return `M${round(x + r)} ${round(y)}h${w}a${a} ${a} 0 0 1 ${a} ${a}v${h}a${a} ${a} 0 0 1 ${-a} ${a}h${-w}a${a} ${a} 0 0 1 ${-a} ${-a}v${-h}a${a} ${a} 0 0 1 ${a} ${-a}Z`;
}

export interface BatchedPath {
  className: string;
  d: string;
  /** How many shapes it holds. */
  count: number;
}

/**
 * Side of the square cells shapes are grouped by. The compositor rasters in tiles of about this
 * size and plays every path whose bounds touch a tile in full: one path spanning the whole plot
 * would be rastered once per tile.
 */
export const CELL_PIXELS = 256;

export class PathBatch {
  private readonly batches = new Map<string, { className: string; parts: string[]; count: number }>();

  /** Adds a shape whose top left is near (x, y); shapes as tall as the plot pass y = 0. */
  add(className: string, path: string, x: number, y = 0): void {
    const key = `${className}|${Math.floor(x / CELL_PIXELS)}|${Math.floor(y / CELL_PIXELS)}`;
    let batch = this.batches.get(key);
    if (!batch) {
      batch = { className, parts: [], count: 0 };
      this.batches.set(key, batch);
    }
    batch.parts.push(path);
    batch.count++;
  }

  /** One path per class list and cell, in the order each was first added (later ones paint on top). */
  paths(): BatchedPath[] {
    return [...this.batches.values()].map(({ className, parts, count }) => ({ className, d: parts.join(''), count }));
  }
}

/** Two decimals are plenty for pixels and keep the path short. */
function round(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}
