/**
 * The timeline's geometry: the fixed sizes of its parts, and the scale of one render (time to x, lane
 * to y) that every layer and the input handling map with.
 */
import type { ViewWindow } from './viewWindow';

export const LABEL_WIDTH = 210;
export const GENERATION_STRIP = 18;
export const AXIS_HEIGHT = 44;
export const GROUP_LANE_HEIGHT = 44;
/** Lanes grow up to MAX when few members leave room, and never shrink below MIN. */
export const MIN_LANE_HEIGHT = 34;
const MAX_LANE_HEIGHT = 46;
export const BOTTOM_PAD = 10;
/** Spans narrower than this many pixels are merged with their neighbours. */
export const MIN_SPAN_PIXELS = 2;
/** Narrowest drawing: the label column and a little plot. */
const MIN_WIDTH = LABEL_WIDTH + 100;

/** Lanes as tall as the area allows for `laneCount` members, within MIN..MAX. */
export function fittedLaneHeight(laneCount: number, available: number): number {
  const fitted = laneCount > 0 ? Math.floor((available - GROUP_LANE_HEIGHT - BOTTOM_PAD) / laneCount) : MIN_LANE_HEIGHT;
  return Math.max(MIN_LANE_HEIGHT, Math.min(MAX_LANE_HEIGHT, fitted));
}

/** The width a render draws at: the area's, or the last one while the area has none (hidden). */
export function drawingWidth(areaWidth: number, previous: number): number {
  return Math.max(areaWidth || previous, MIN_WIDTH);
}

/** One render's mapping of time to x and lanes to y. Lane -1 is the group's own lane at the top. */
export class PlotScale {
  readonly plotWidth: number;
  readonly pixelsPerMs: number;

  constructor(
    readonly view: ViewWindow,
    /** The whole drawing's width, label column included. */
    readonly width: number,
    readonly laneHeight: number,
  ) {
    this.plotWidth = width - LABEL_WIDTH;
    this.pixelsPerMs = this.plotWidth / (view.end - view.start);
  }

  x(time: number): number {
    return LABEL_WIDTH + (time - this.view.start) * this.pixelsPerMs;
  }

  /**
   * x clamped a little outside the plot so huge zooms do not produce huge coordinates, as a closure
   * over this scale: renders call it for thousands of spans, where a method reading the view and the
   * plot width on each call cost several calls per span before the code was optimised.
   */
  clampedX(): (time: number) => number {
    const start = this.view.start;
    const scale = this.pixelsPerMs;
    const min = LABEL_WIDTH - 10;
    const max = this.width + 10;
    return (time) => {
      const x = LABEL_WIDTH + (time - start) * scale;
      return x < min ? min : x > max ? max : x;
    };
  }

  laneTop(lane: number): number {
    return lane < 0 ? 0 : GROUP_LANE_HEIGHT + lane * this.laneHeight;
  }

  laneCenter(lane: number): number {
    return lane < 0 ? GROUP_LANE_HEIGHT / 2 - 4 : this.laneTop(lane) + this.laneHeight / 2;
  }
}
