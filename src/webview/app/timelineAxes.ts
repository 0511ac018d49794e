/**
 * The timeline's two axes: the time axis above the plot (generation strip and ticks) and the lane axis
 * on its left (the group's lane and one label per visible member lane, static members badged).
 */
import type { TimelineModel } from '../../timeline/timelineModel';
import type { TimeBase } from '../timelineProtocol';
import { s, svgTitle } from './dom';
import { AXIS_HEIGHT, GENERATION_STRIP, GROUP_LANE_HEIGHT, LABEL_WIDTH, MIN_SPAN_PIXELS, type PlotScale } from './plotScale';
import { pixelRuns } from './pixelRuns';
import { formatTime, overlapping, tickStep, ticks } from './viewWindow';

/** Redraws the time axis into `axis` (an <svg>). */
export function drawTimeAxis(axis: SVGSVGElement, model: TimelineModel, scale: PlotScale, timeBase: TimeBase): void {
  const { width, view, plotWidth } = scale;
  axis.setAttribute('width', String(width));
  axis.setAttribute('viewBox', `0 0 ${width} ${AXIS_HEIGHT}`);
  const parts: SVGElement[] = [s('rect', { class: 'axis-bg', x: 0, y: 0, width, height: AXIS_HEIGHT })];

  const generations = s('g', { class: 'generations', 'clip-path': 'url(#axis-clip)' });
  const visible = overlapping(model.generations, view.start, view.end);
  const cx = scale.clampedX();
  const runs = pixelRuns(visible, (g) => [cx(g.from), cx(g.to)], MIN_SPAN_PIXELS * 2, (a) => a);
  runs.forEach((run, i) => {
    const dense = run.count > 1;
    generations.appendChild(
      s('rect', { class: dense ? 'gen gen-dense' : i % 2 === 0 ? 'gen gen-even' : 'gen gen-odd', x: run.x1, y: 2, width: Math.max(run.x2 - run.x1 - 1, 1), height: GENERATION_STRIP - 4, rx: 3 }),
    );
    if (!dense && run.x2 - run.x1 > 44) {
      const label = s('text', { class: 'gen-label', x: Math.max(run.x1, LABEL_WIDTH) + 6, y: GENERATION_STRIP - 6 });
      label.textContent = `gen ${run.item.generation}`;
      generations.appendChild(label);
    }
  });
  parts.push(s('defs', {}, [s('clipPath', { id: 'axis-clip' }, [s('rect', { x: LABEL_WIDTH, y: 0, width: plotWidth, height: AXIS_HEIGHT })])]), generations);

  const step = tickStep(view, plotWidth);
  const tickGroup = s('g', { class: 'ticks' });
  for (const t of ticks(view, step)) {
    const x = scale.x(t);
    if (x < LABEL_WIDTH) {
      continue;
    }
    tickGroup.appendChild(s('line', { class: 'tick', x1: x, x2: x, y1: AXIS_HEIGHT - 8, y2: AXIS_HEIGHT }));
    const label = s('text', { class: 'tick-label', x: x + 4, y: AXIS_HEIGHT - 12 });
    label.textContent = formatTime(t, timeBase, step);
    tickGroup.appendChild(label);
  }
  parts.push(tickGroup);
  const header = s('text', { class: 'axis-header', x: 12, y: AXIS_HEIGHT - 12 });
  header.textContent = `${model.lanes.length} member lane${model.lanes.length === 1 ? '' : 's'}`;
  parts.push(header, s('line', { class: 'axis-rule', x1: 0, x2: width, y1: AXIS_HEIGHT - 0.5, y2: AXIS_HEIGHT - 0.5 }));
  axis.replaceChildren(...parts);
}

/** The label column of the plot, for lanes firstLane..lastLane (the ones in view). */
export function laneAxis(model: TimelineModel, scale: PlotScale, firstLane: number, lastLane: number, height: number): SVGGElement {
  const group = s('g', { class: 'labels' });
  group.appendChild(s('rect', { class: 'label-bg', x: 0, y: 0, width: LABEL_WIDTH, height }));
  const groupLabel = s('text', { class: 'lane-label group-label', x: 12, y: GROUP_LANE_HEIGHT / 2 + 1 });
  groupLabel.textContent = 'Group';
  const groupHint = s('text', { class: 'lane-hint', x: 12, y: GROUP_LANE_HEIGHT / 2 + 14 });
  groupHint.textContent = 'state · rebalances';
  group.append(groupLabel, groupHint, s('line', { class: 'label-rule', x1: LABEL_WIDTH - 0.5, x2: LABEL_WIDTH - 0.5, y1: 0, y2: height }));
  for (let lane = firstLane; lane <= lastLane; lane++) {
    const info = model.lanes[lane];
    const y = scale.laneCenter(lane) + 4;
    const isStatic = info.groupInstanceId !== null;
    const name = isStatic ? (info.groupInstanceId ?? '') : info.label;
    const text = s('text', { class: 'lane-label', x: 12, y, 'data-lane': String(lane) }, [svgTitle(laneTooltip(info.label, info.memberIds))]);
    text.appendChild(document.createTextNode(truncate(name, isStatic ? 20 : 28)));
    group.appendChild(text);
    if (isStatic) {
      group.append(
        s('rect', { class: 'badge', x: LABEL_WIDTH - 56, y: y - 11, width: 46, height: 15, rx: 7.5 }),
        Object.assign(s('text', { class: 'badge-text', x: LABEL_WIDTH - 33, y: y - 0.5, 'text-anchor': 'middle' }), { textContent: 'static' }),
      );
    }
  }
  return group;
}

/**
 * Shortened in the middle: client ids tell members apart at their end (`consumer-orders-3`,
 * `<app>-<process>-StreamThread-2-consumer`), so the end is kept longer than the start.
 */
function truncate(text: string, max: number): string {
  if (text.length <= max) {
    return text;
  }
  const head = Math.floor((max - 1) * 0.4);
  return `${text.slice(0, head)}…${text.slice(text.length - (max - 1 - head))}`;
}

function laneTooltip(label: string, memberIds: readonly string[]): string {
  return `${label}\nmember id${memberIds.length > 1 ? 's' : ''}: ${memberIds.join(', ')}`;
}
