/**
 * Level of detail for spans (phases, rebalances, stop windows): spans wide enough to see are kept
 * as they are; runs of spans narrower than `minWidth` pixels that follow each other are merged
 * into one, represented by the item `prefer` picks. The number of drawn shapes is then bounded by
 * the plot width, however many spans there are.
 */
export interface PixelRun<T> {
  x1: number;
  x2: number;
  /** The item drawn for the run (the only one when count is 1). */
  item: T;
  count: number;
}

export function pixelRuns<T>(
  items: readonly T[],
  extent: (item: T) => readonly [number, number],
  minWidth: number,
  prefer: (current: T, candidate: T) => T,
): PixelRun<T>[] {
  const runs: PixelRun<T>[] = [];
  let open: PixelRun<T> | null = null;
  // Indexed: renders run this over thousands of spans, often before it is optimised.
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const span = extent(item);
    const x1 = span[0];
    const x2 = span[1];
    if (x2 - x1 >= minWidth) {
      runs.push({ x1, x2, item, count: 1 });
      open = null;
      continue;
    }
    if (open !== null && x1 - open.x2 <= minWidth) {
      open.x2 = Math.max(open.x2, x2);
      open.item = prefer(open.item, item);
      open.count++;
      continue;
    }
    open = { x1, x2, item, count: 1 };
    runs.push(open);
  }
  return runs;
}
