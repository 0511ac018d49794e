/**
 * The visible time window of the timeline and the arithmetic of zooming, panning and axis ticks.
 * Pure (no DOM), so it is unit-tested in Node.
 */
import { lowerBound } from '../../timeline/lowerBound';

export interface ViewWindow {
  start: number;
  end: number;
}

/** Narrowest window: below a millisecond nothing in the model differs. */
export const MIN_SPAN_MS = 1;

/** A window showing [start, end] with a margin, never narrower than one second around a single instant. */
export function fitWindow(start: number, end: number): ViewWindow {
  const span = Math.max(end - start, 0);
  const margin = span > 0 ? span * 0.04 : 1000;
  return { start: start - margin, end: end + margin };
}

/** Zooms by `factor` (>1 zooms in) keeping the time at `anchor` (0..1 across the window) in place. */
export function zoomWindow(view: ViewWindow, factor: number, anchor = 0.5): ViewWindow {
  if (!(factor > 0) || !Number.isFinite(factor)) {
    throw new Error(`zoom factor must be a positive number, got ${factor}`);
  }
  const span = view.end - view.start;
  const newSpan = Math.max(span / factor, MIN_SPAN_MS);
  const pivot = view.start + span * clamp(anchor, 0, 1);
  const start = pivot - newSpan * clamp(anchor, 0, 1);
  return { start, end: start + newSpan };
}

/** Shifts the window by `fraction` of its width (positive: later). */
export function panWindow(view: ViewWindow, fraction: number): ViewWindow {
  const shift = (view.end - view.start) * fraction;
  return { start: view.start + shift, end: view.end + shift };
}

/** The window moved just enough to show `time`, with a margin of a tenth of its width. */
export function revealTime(view: ViewWindow, time: number): ViewWindow {
  const span = view.end - view.start;
  const margin = span * 0.1;
  if (time < view.start + margin) {
    return { start: time - margin, end: time - margin + span };
  }
  if (time > view.end - margin) {
    return { start: time + margin - span, end: time + margin };
  }
  return view;
}

const STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 15000, 30000, 60000, 120000, 300000, 600000, 900000, 1800000, 3600000, 7200000, 10800000, 21600000, 43200000, 86400000];

/** A round tick step (ms) that gives ticks at least `minPixels` apart across `widthPixels`. */
export function tickStep(view: ViewWindow, widthPixels: number, minPixels = 90): number {
  const span = view.end - view.start;
  const wanted = (span * minPixels) / Math.max(widthPixels, 1);
  for (const step of STEPS) {
    if (step >= wanted) {
      return step;
    }
  }
  const day = 86400000;
  return Math.ceil(wanted / day) * day;
}

export function ticks(view: ViewWindow, step: number): number[] {
  const result: number[] = [];
  // "+ 0" turns -0 (from ceil of a small negative ratio) into 0.
  for (let t = Math.ceil(view.start / step) * step + 0; t <= view.end; t += step) {
    result.push(t);
  }
  return result;
}

/** A duration as people read it: 850 ms, 2.35 s, 4 min 05 s, 2 h 03 min. */
export function formatDuration(ms: number): string {
  const abs = Math.abs(ms);
  const sign = ms < 0 ? '-' : '';
  if (abs < 1000) {
    return `${sign}${Math.round(abs)} ms`;
  }
  if (abs < 60000) {
    return `${sign}${(abs / 1000).toFixed(abs < 10000 ? 2 : 1)} s`;
  }
  if (abs < 3600000) {
    const minutes = Math.floor(abs / 60000);
    return `${sign}${minutes} min ${String(Math.floor((abs % 60000) / 1000)).padStart(2, '0')} s`;
  }
  const hours = Math.floor(abs / 3600000);
  return `${sign}${hours} h ${String(Math.floor((abs % 3600000) / 60000)).padStart(2, '0')} min`;
}

/**
 * A point in time. Virtual (simulator) times read as the offset from the start, t+m:ss.mmm;
 * epoch times as UTC wall-clock time (with the date when `withDate`).
 */
export function formatTime(time: number, base: 'virtual' | 'epoch', step = 1, withDate = false): string {
  if (base === 'epoch') {
    const iso = new Date(time).toISOString();
    const clock = step >= 1000 ? iso.slice(11, 19) : iso.slice(11, 23);
    return withDate ? `${iso.slice(0, 10)} ${clock} UTC` : clock;
  }
  const sign = time < 0 ? '-' : '';
  const abs = Math.abs(time);
  const hours = Math.floor(abs / 3600000);
  const minutes = Math.floor((abs % 3600000) / 60000);
  const seconds = Math.floor((abs % 60000) / 1000);
  const millis = Math.round(abs % 1000);
  const hm = hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}` : `${minutes}`;
  const ms = step < 1000 || withDate ? `.${String(millis).padStart(3, '0')}` : '';
  return `t${sign === '-' ? '-' : '+'}${hm}:${String(seconds).padStart(2, '0')}${ms}`;
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

/**
 * The spans overlapping [start, end], found by binary search: `spans` are sorted by `from` and
 * their `to` never decreases (phases, generations and rebalances follow one another). A filter
 * would call a predicate per span on every render.
 */
export function overlapping<T extends { from: number; to: number }>(spans: readonly T[], start: number, end: number): T[] {
  const first = lowerBound(spans.length, (i) => spans[i].to < start);
  const after = lowerBound(spans.length, (i) => spans[i].from <= end);
  return spans.slice(first, Math.max(first, after));
}
