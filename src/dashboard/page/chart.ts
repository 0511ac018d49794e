/**
 * One SVG line chart on the dashboard's shared time axis: a path per series (gaps where a value is unknown), the
 * rebalances as vertical markers with their kind as tooltip, the largest value and the axis ends as labels. Built
 * with DOM calls only (no markup strings), so nothing of the data is parsed as markup; colours come from the
 * stylesheet's classes, which use the theme's `--vscode-*` variables.
 */
import type { RebalanceMarkerData } from '../dashboardProtocol';

const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 400;
const HEIGHT = 140;
const LEFT = 52;
const RIGHT = 8;
const TOP = 10;
const BOTTOM = 20;
/** With one sample the axis still needs a width: a minute around it. */
const SINGLE_SAMPLE_SPAN_MS = 60_000;

export interface ChartLine {
  /** The stylesheet class that colours it: `lag`, `consumed`, `produced`. */
  className: string;
  values: readonly (number | null)[];
}

export interface ChartSpec {
  title: string;
  lines: ChartLine[];
  times: readonly number[];
  markers: readonly RebalanceMarkerData[];
  format(value: number): string;
}

export function lineChart({ title, lines, times, markers, format }: ChartSpec): HTMLElement {
  const figure = document.createElement('figure');
  figure.className = 'chart';
  const caption = document.createElement('figcaption');
  caption.textContent = title;
  figure.append(caption);

  const svg = svgElement('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img', 'aria-label': title });
  const [start, end] = timeRange(times);
  const max = Math.max(1, ...lines.flatMap((line) => line.values.filter((v): v is number => v !== null)));
  const x = (time: number): number => LEFT + ((time - start) / (end - start)) * (WIDTH - LEFT - RIGHT);
  const y = (value: number): number => HEIGHT - BOTTOM - (value / max) * (HEIGHT - TOP - BOTTOM);

  svg.append(
    svgElement('line', { class: 'axis', x1: LEFT, y1: HEIGHT - BOTTOM, x2: WIDTH - RIGHT, y2: HEIGHT - BOTTOM }),
    svgElement('line', { class: 'axis', x1: LEFT, y1: TOP, x2: LEFT, y2: HEIGHT - BOTTOM }),
    label(format(max), LEFT - 4, TOP + 4, 'end'),
    label(format(0), LEFT - 4, HEIGHT - BOTTOM, 'end'),
    label(clock(start), LEFT, HEIGHT - 4, 'start'),
    label(clock(end), WIDTH - RIGHT, HEIGHT - 4, 'end'),
  );
  for (const marker of markers) {
    const line = svgElement('line', { class: 'rebalance-marker', x1: x(marker.time), y1: TOP, x2: x(marker.time), y2: HEIGHT - BOTTOM });
    const tooltip = svgElement('title', {});
    tooltip.textContent = `${clock(marker.time)} ${marker.label}`;
    line.append(tooltip);
    svg.append(line);
  }
  for (const line of lines) {
    const d = pathData(line.values, times, x, y);
    if (d) {
      svg.append(svgElement('path', { class: `series ${line.className}`, d }));
    }
  }
  figure.append(svg);
  return figure;
}

/** Segments between unknown values; a lone known value is drawn as a short dash so it shows. */
function pathData(values: readonly (number | null)[], times: readonly number[], x: (t: number) => number, y: (v: number) => number): string {
  const parts: string[] = [];
  let open = false;
  values.forEach((value, i) => {
    if (value === null) {
      open = false;
      return;
    }
    const px = x(times[i]).toFixed(1);
    const py = y(value).toFixed(1);
    const next = values[i + 1];
    if (!open && (next === null || next === undefined)) {
      parts.push(`M${px} ${py}h2`);
      return;
    }
    parts.push(`${open ? 'L' : 'M'}${px} ${py}`);
    open = true;
  });
  return parts.join('');
}

function timeRange(times: readonly number[]): [number, number] {
  const start = times[0] ?? 0;
  const end = times[times.length - 1] ?? 0;
  return end > start ? [start, end] : [start - SINGLE_SAMPLE_SPAN_MS / 2, start + SINGLE_SAMPLE_SPAN_MS / 2];
}

function label(text: string, x: number, y: number, anchor: 'start' | 'end'): SVGElement {
  const element = svgElement('text', { class: 'label', x, y, 'text-anchor': anchor });
  element.textContent = text;
  return element;
}

function clock(time: number): string {
  return new Date(time).toLocaleTimeString(undefined, { hour12: false });
}

function svgElement(name: string, attributes: Record<string, string | number>): SVGElement {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) {
    element.setAttribute(key, String(value));
  }
  return element;
}
