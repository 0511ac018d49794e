/**
 * Draws a TimelineModel as SVG and handles zoom, pan, selection and keyboard navigation.
 *
 * Only what is in view is drawn: the visible lanes (vertical scroll) and the visible time window,
 * and markers that would overlap on screen are merged into one per few pixels of each lane, so
 * the element count stays bounded however many events there are.
 */
import { EVENT_KINDS } from '../../model/eventKinds';
import type { GroupState, RebalanceEventKind } from '../../model/types';
import type { RebalanceSpan, TimelineModel } from '../../timeline/timelineModel';
import type { TimeBase } from '../protocol';
import { KIND_LABELS } from './describe';
import { h, s, svgTitle } from './dom';
import { MARKER_PATHS } from './markers';
import { parseGlyph, PathBatch, placeGlyph, rectPath, type Glyph } from './pathBatch';
import { pixelRuns } from './pixelRuns';
import { fitWindow, formatDuration, formatTime, overlapping, panWindow, revealTime, tickStep, ticks, zoomWindow, type ViewWindow } from './viewWindow';

const LABEL_WIDTH = 210;
const GENERATION_STRIP = 18;
const AXIS_HEIGHT = 44;
const GROUP_LANE_HEIGHT = 44;
/** Lanes grow up to MAX when few members leave room, and never shrink below MIN. */
const MIN_LANE_HEIGHT = 34;
const MAX_LANE_HEIGHT = 46;
const BOTTOM_PAD = 10;
/** Markers closer than this on one lane are merged. */
const BUCKET_PIXELS = 8;
const ZOOM_STEP = 1.6;

/** Spans narrower than this many pixels are merged with their neighbours. */
const MIN_SPAN_PIXELS = 2;

/** Which state a merged run of tiny phases shows: a rebalance, if there was one in it. */
const PHASE_RANK: Record<GroupState, number> = {
  PreparingRebalance: 6,
  CompletingRebalance: 5,
  Assigning: 4,
  Reconciling: 4,
  Dead: 3,
  Stable: 2,
  Unknown: 1,
  NotReady: 1,
  Empty: 0,
};

/** Which marker represents a few merged ones: what changed the group beats routine state ticks. */
const KIND_RANK: Record<RebalanceEventKind, number> = {
  'assignment-changed': 9,
  'rebalance-started': 8,
  'member-expired': 7,
  'poll-timeout': 7,
  'static-rejoin': 6,
  'member-left': 5,
  'member-joined': 5,
  'offsets-reset': 4,
  'sync-completed': 3,
  'state-changed': 2,
  'offsets-committed': 1,
};

/** KIND_RANK by the kind's code in marker columns. */
const KIND_RANK_BY_CODE = EVENT_KINDS.map((kind) => KIND_RANK[kind]);

const GLYPHS = Object.fromEntries(Object.entries(MARKER_PATHS).map(([kind, path]) => [kind, parseGlyph(path)])) as Record<RebalanceEventKind, Glyph>;

/** Half the size of the box a marker is clicked in. */
const MARKER_HIT = 7;

/** Something drawn that can be clicked (selects `event`) and shows `title` on hover. */
interface HitTarget {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  event: number;
  title: () => string;
}

export interface TimelineViewHandlers {
  /** The user selected an event (click, Enter) or cleared the selection (null). */
  onSelect(event: number | null): void;
  /** Keyboard focus moved to an event: announce it. */
  onFocus(event: number): void;
  /** The visible window changed (zoom, pan, new data): persist it. */
  onViewChange(view: ViewWindow): void;
}

export class TimelineView {
  readonly element: HTMLElement;
  private readonly axis: SVGSVGElement;
  private readonly scroller: HTMLElement;
  private readonly plot: SVGSVGElement;
  private readonly empty: HTMLElement;
  /** The plot's one tooltip, set to what is under the pointer. */
  private readonly tooltip: SVGTitleElement;
  /** What the last render drew that can be clicked, in paint order. */
  private hits: HitTarget[] = [];
  private model: TimelineModel | null = null;
  private timeBase: TimeBase = 'virtual';
  private view: ViewWindow = { start: 0, end: 1000 };
  private width = 800;
  private selected: number | null = null;
  private focused: number | null = null;
  private frame: number | null = null;
  private laneHeight = MIN_LANE_HEIGHT;
  /** The area's size at the last render. */
  private renderedArea = '';
  /**
   * The scroller's size and scroll offset as of the last layout, read where reading is free (the
   * resize observer's and the scroll event's callbacks): a render that read them from the element
   * would force a layout of whatever its caller had just changed. Null: read on the next render.
   */
  private area: { width: number; height: number; top: number } | null = null;
  private drag: { pointerId: number; x: number; view: ViewWindow; moved: boolean } | null = null;

  constructor(private readonly handlers: TimelineViewHandlers) {
    this.axis = s('svg', { class: 'axis', height: AXIS_HEIGHT, 'aria-hidden': 'true' });
    this.plot = s('svg', { class: 'plot', role: 'img', 'aria-label': 'Rebalance timeline' });
    this.tooltip = svgTitle('');
    this.empty = h('div', { className: 'empty', text: 'No rebalance events yet for this group. New ones appear here while the panel is open.' });
    this.scroller = h('div', { className: 'scroller' }, [this.plot, this.empty]);
    this.element = h(
      'div',
      {
        className: 'timeline',
        attrs: {
          tabindex: '0',
          role: 'application',
          'aria-roledescription': 'timeline',
          'aria-label': 'Rebalance timeline. Left and right arrows move between events, up and down between lanes, Enter selects, plus and minus zoom, 0 fits, Shift with arrows pans.',
        },
      },
      [this.axis, this.scroller],
    );
    this.listen();
  }

  /**
   * Replaces the model. `view` is `keep` for live updates (the window stays, following the newest
   * events if they were in view), `fit`, or a window to restore. Selection and focus follow their
   * events, which keep their identity across models.
   */
  setModel(model: TimelineModel, timeBase: TimeBase, view: 'keep' | 'fit' | ViewWindow): void {
    const previous = this.model;
    this.model = model;
    this.timeBase = timeBase;
    if (view === 'fit' || (view === 'keep' && (!previous || previous.events.length === 0))) {
      this.view = fitWindow(model.start, model.end);
    } else if (view !== 'keep') {
      this.view = view.end > view.start ? { start: view.start, end: view.end } : fitWindow(model.start, model.end);
    } else if (previous && previous.end <= this.view.end && model.end > this.view.end) {
      // The user was watching the newest events: keep them in view.
      this.view = revealTime(this.view, model.end);
    }
    this.selected = remap(previous, model, this.selected);
    this.focused = remap(previous, model, this.focused);
    this.render();
  }

  get selectedIndex(): number | null {
    return this.selected;
  }

  /** Selection from outside (details pane links). */
  select(event: number | null): void {
    this.selected = this.validIndex(event);
    if (this.selected !== null && this.model) {
      this.focused = this.selected;
      this.view = revealTime(this.view, this.model.events[this.selected].time);
    }
    this.render();
  }

  zoom(factor: number, anchor = 0.5): void {
    this.moveView(zoomWindow(this.view, factor, anchor));
  }

  /**
   * Changes the window now and redraws at the next frame: a burst of key repeats or wheel steps
   * costs one redraw per frame rather than one per step.
   */
  private moveView(view: ViewWindow): void {
    this.view = view;
    this.handlers.onViewChange(view);
    this.requestRender();
  }

  zoomIn(): void {
    this.zoom(ZOOM_STEP);
  }

  zoomOut(): void {
    this.zoom(1 / ZOOM_STEP);
  }

  fit(): void {
    if (this.model) {
      this.moveView(fitWindow(this.model.start, this.model.end));
    }
  }

  get window(): ViewWindow {
    return this.view;
  }

  /** Draws now. Interactions that fire in bursts (scroll, wheel, drag) go through requestRender instead. */
  render(): void {
    if (this.frame !== null) {
      cancelAnimationFrame(this.frame);
      this.frame = null;
    }
    const area = this.measuredArea();
    this.width = Math.max(area.width || this.width, LABEL_WIDTH + 100);
    this.renderedArea = areaKey(area);
    const model = this.model;
    this.empty.hidden = model !== null && model.events.length > 0;
    if (!model) {
      this.axis.replaceChildren();
      this.plot.replaceChildren();
      return;
    }
    this.renderAxis(model);
    this.renderPlot(model);
    this.handlers.onViewChange(this.view);
    this.element.dataset.renders = String(Number(this.element.dataset.renders ?? '0') + 1);
  }

  /** The scroller's size and offset, which is what a render lays out against. */
  private measuredArea(): { width: number; height: number; top: number } {
    this.area ??= this.readArea();
    return this.area;
  }

  private readArea(): { width: number; height: number; top: number } {
    return { width: this.scroller.clientWidth, height: this.scroller.clientHeight, top: this.scroller.scrollTop };
  }

  private requestRender(): void {
    if (this.frame === null) {
      this.frame = requestAnimationFrame(() => {
        this.frame = null;
        this.render();
      });
    }
  }

  private get plotWidth(): number {
    return this.width - LABEL_WIDTH;
  }

  /** The current window's scale: x(time), clampedX and the marker loop all map time with it. */
  private get pixelsPerMs(): number {
    return this.plotWidth / (this.view.end - this.view.start);
  }

  private x(time: number): number {
    return LABEL_WIDTH + (time - this.view.start) * this.pixelsPerMs;
  }

  /**
   * x clamped a little outside the plot so huge zooms do not produce huge coordinates, as a function
   * of the current window: renders call it for thousands of spans, where a method reading the view
   * and the plot width on each call cost several calls per span before the code was optimised.
   */
  private clampedX(): (time: number) => number {
    const start = this.view.start;
    const scale = this.pixelsPerMs;
    const min = LABEL_WIDTH - 10;
    const max = this.width + 10;
    return (time) => {
      const x = LABEL_WIDTH + (time - start) * scale;
      return x < min ? min : x > max ? max : x;
    };
  }

  private laneTop(lane: number): number {
    return lane < 0 ? 0 : GROUP_LANE_HEIGHT + lane * this.laneHeight;
  }

  private laneCenter(lane: number): number {
    return lane < 0 ? GROUP_LANE_HEIGHT / 2 - 4 : this.laneTop(lane) + this.laneHeight / 2;
  }

  private renderAxis(model: TimelineModel): void {
    const width = this.width;
    this.axis.setAttribute('width', String(width));
    this.axis.setAttribute('viewBox', `0 0 ${width} ${AXIS_HEIGHT}`);
    const parts: SVGElement[] = [s('rect', { class: 'axis-bg', x: 0, y: 0, width, height: AXIS_HEIGHT })];

    const generations = s('g', { class: 'generations', 'clip-path': 'url(#axis-clip)' });
    const visible = overlapping(model.generations, this.view.start, this.view.end);
    const cx = this.clampedX();
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
    parts.push(
      s('defs', {}, [s('clipPath', { id: 'axis-clip' }, [s('rect', { x: LABEL_WIDTH, y: 0, width: this.plotWidth, height: AXIS_HEIGHT })])]),
      generations,
    );

    const step = tickStep(this.view, this.plotWidth);
    const tickGroup = s('g', { class: 'ticks' });
    for (const t of ticks(this.view, step)) {
      const x = this.x(t);
      if (x < LABEL_WIDTH) {
        continue;
      }
      tickGroup.appendChild(s('line', { class: 'tick', x1: x, x2: x, y1: AXIS_HEIGHT - 8, y2: AXIS_HEIGHT }));
      const label = s('text', { class: 'tick-label', x: x + 4, y: AXIS_HEIGHT - 12 });
      label.textContent = formatTime(t, this.timeBase, step);
      tickGroup.appendChild(label);
    }
    parts.push(tickGroup);
    const header = s('text', { class: 'axis-header', x: 12, y: AXIS_HEIGHT - 12 });
    header.textContent = `${model.lanes.length} member lane${model.lanes.length === 1 ? '' : 's'}`;
    parts.push(header, s('line', { class: 'axis-rule', x1: 0, x2: width, y1: AXIS_HEIGHT - 0.5, y2: AXIS_HEIGHT - 0.5 }));
    this.axis.replaceChildren(...parts);
  }

  private renderPlot(model: TimelineModel): void {
    const width = this.width;
    const area = this.measuredArea();
    const available = area.height;
    const fitted = model.lanes.length > 0 ? Math.floor((available - GROUP_LANE_HEIGHT - BOTTOM_PAD) / model.lanes.length) : MIN_LANE_HEIGHT;
    this.laneHeight = Math.max(MIN_LANE_HEIGHT, Math.min(MAX_LANE_HEIGHT, fitted));
    const lanesBottom = GROUP_LANE_HEIGHT + model.lanes.length * this.laneHeight;
    // Bands and rules run to the bottom of the view even when the lanes end above it.
    const height = Math.max(lanesBottom + BOTTOM_PAD, available);
    this.plot.setAttribute('width', String(width));
    this.plot.setAttribute('height', String(height));
    this.plot.setAttribute('viewBox', `0 0 ${width} ${height}`);

    // Vertical virtualization: lanes outside the scroller's viewport are skipped.
    const top = area.top;
    const bottom = top + (area.height || height);
    const firstLane = Math.max(0, Math.floor((top - GROUP_LANE_HEIGHT) / this.laneHeight) - 1);
    const lastLane = Math.min(model.lanes.length - 1, Math.ceil((bottom - GROUP_LANE_HEIGHT) / this.laneHeight) + 1);
    const laneVisible = (lane: number): boolean => lane < 0 || (lane >= firstLane && lane <= lastLane);

    const rows = s('g', { class: 'rows' });
    rows.appendChild(s('rect', { class: 'row row-group', x: 0, y: 0, width, height: GROUP_LANE_HEIGHT }));
    for (let lane = firstLane; lane <= lastLane; lane++) {
      rows.appendChild(s('rect', { class: lane % 2 === 0 ? 'row row-even' : 'row row-odd', x: 0, y: this.laneTop(lane), width, height: this.laneHeight }));
    }

    // Shapes that look alike share one path; the layers add in paint order.
    const batch = new PathBatch();
    const texts: SVGElement[] = [];
    this.hits = [];
    this.phaseBands(model, height, batch);
    this.stopWindows(model, laneVisible, batch);
    this.rebalanceBars(model, batch, texts);
    this.laneSpans(model, firstLane, lastLane, batch);
    const highlighted = this.markers(model, laneVisible, batch);
    const clipped = s('g', { 'clip-path': 'url(#plot-clip)' });
    for (const path of batch.paths()) {
      clipped.appendChild(s('path', { class: `${path.className} batch`, d: path.d, 'fill-rule': 'evenodd', 'data-count': path.count }));
    }
    clipped.append(this.generationRules(model, height), ...texts, ...highlighted, this.cursor(model, height));

    this.plot.replaceChildren(
      this.tooltip,
      s('defs', {}, [
        s('clipPath', { id: 'plot-clip' }, [s('rect', { x: LABEL_WIDTH, y: 0, width: this.plotWidth, height })]),
      ]),
      rows,
      clipped,
      this.labels(model, firstLane, lastLane, height),
    );
  }

  private phaseBands(model: TimelineModel, height: number, batch: PathBatch): void {
    const visible = overlapping(model.phases, this.view.start, this.view.end);
    const cx = this.clampedX();
    const runs = pixelRuns(visible, (p) => [cx(p.from), cx(p.to)], MIN_SPAN_PIXELS, (a, b) => (PHASE_RANK[b.state] > PHASE_RANK[a.state] ? b : a));
    for (const run of runs) {
      if (run.item.state === 'Empty') {
        continue;
      }
      batch.add(`phase phase-${phaseClass(run.item.state)}`, rectPath(run.x1, 0, Math.max(run.x2 - run.x1, 1.5), height), run.x1);
    }
  }

  /** Separate lines, not a batch: the rasterizer dashes a lone straight line fast and a many-line path slowly. */
  private generationRules(model: TimelineModel, height: number): SVGGElement {
    const group = s('g', { class: 'gen-rules' });
    let lastX = -Infinity;
    for (const span of model.generations.slice(1)) {
      if (span.from >= this.view.start && span.from <= this.view.end) {
        const x = this.x(span.from);
        // Rules closer than a few pixels would only grey the plot out.
        if (x - lastX >= 6) {
          group.appendChild(s('line', { class: 'gen-rule', x1: x, x2: x, y1: 0, y2: height }));
          lastX = x;
        }
      }
    }
    return group;
  }

  /** Where consumption stopped: the whole member area for eager rebalances, the losing members' lanes for cooperative ones. */
  private stopWindows(model: TimelineModel, laneVisible: (lane: number) => boolean, batch: PathBatch): void {
    const laneOfMember = memberLaneIndex(model);
    const stopped = model.rebalances.filter((r) => r.stoppedFrom !== null && (r.stoppedTo ?? model.end) >= this.view.start && (r.stoppedFrom ?? 0) <= this.view.end);
    const cx = this.clampedX();
    const extent = (r: RebalanceSpan): [number, number] => [cx(r.stoppedFrom ?? r.from), cx(r.stoppedTo ?? model.end)];
    const eager = pixelRuns(stopped.filter((r) => r.mode === 'eager'), extent, MIN_SPAN_PIXELS, (a) => a);
    for (const run of eager) {
      const width = Math.max(run.x2 - run.x1, 2);
      const height = model.lanes.length * this.laneHeight;
      batch.add('stop stop-eager', rectPath(run.x1, GROUP_LANE_HEIGHT, width, height), run.x1);
      this.hits.push({
        x1: run.x1,
        y1: GROUP_LANE_HEIGHT,
        x2: run.x1 + width,
        y2: GROUP_LANE_HEIGHT + height,
        event: run.item.startEvent,
        title: () => (run.count > 1 ? `${run.count} eager rebalances stopped the whole group here; zoom in` : stopTitle(run.item, model.end)),
      });
    }
    // Cooperative: per lane of a member that gave partitions up.
    const perLane = new Map<number, RebalanceSpan[]>();
    for (const rebalance of stopped.filter((r) => r.mode === 'cooperative')) {
      for (const change of rebalance.assignments) {
        const lane = laneOfMember.get(change.memberId);
        if (change.revoked.length > 0 && lane !== undefined && laneVisible(lane)) {
          const list = perLane.get(lane);
          if (list) {
            list.push(rebalance);
          } else {
            perLane.set(lane, [rebalance]);
          }
        }
      }
    }
    for (const [lane, rebalances] of perLane) {
      for (const run of pixelRuns(rebalances, extent, MIN_SPAN_PIXELS, (a) => a)) {
        const y = this.laneTop(lane) + 3;
        const width = Math.max(run.x2 - run.x1, 2);
        batch.add('stop stop-cooperative', rectPath(run.x1, y, width, this.laneHeight - 6, 3), run.x1, y);
        this.hits.push({
          x1: run.x1,
          y1: y,
          x2: run.x1 + width,
          y2: y + this.laneHeight - 6,
          event: run.item.startEvent,
          title: () => (run.count > 1 ? `${run.count} cooperative rebalances moved partitions of this member here; zoom in` : stopTitle(run.item, model.end)),
        });
      }
    }
  }

  private rebalanceBars(model: TimelineModel, batch: PathBatch, texts: SVGElement[]): void {
    const visible = overlapping(model.rebalances, this.view.start, this.view.end);
    const y = GROUP_LANE_HEIGHT - 13;
    const cx = this.clampedX();
    for (const run of pixelRuns(visible, (r) => [cx(r.from), cx(r.to)], MIN_SPAN_PIXELS * 2, (a) => a)) {
      const rebalance = run.item;
      const dense = run.count > 1;
      const duration = formatDuration(rebalance.to - rebalance.from);
      const title = dense
        ? `${run.count} rebalances here; zoom in`
        : `Rebalance gen ${rebalance.generationBefore} → ${rebalance.generationAfter} · ${duration}${rebalance.finished ? '' : ' (in progress)'} · ${modeLabel(rebalance)}`;
      const classes = dense ? 'rebalance rebalance-dense' : `rebalance rebalance-${rebalance.mode}${rebalance.finished ? '' : ' open'}`;
      const width = Math.max(run.x2 - run.x1, 3);
      batch.add(classes, rectPath(run.x1, y, width, 8, 2), run.x1, y);
      this.hits.push({ x1: run.x1, y1: y, x2: run.x1 + width, y2: y + 8, event: rebalance.startEvent, title: () => title });
      if (!dense && run.x2 - run.x1 > 70) {
        const label = s('text', { class: 'rebalance-label', x: run.x1 + 4, y: y - 3 });
        label.textContent = `${duration} · ${modeLabel(rebalance)}`;
        texts.push(label);
      }
    }
  }

  private laneSpans(model: TimelineModel, firstLane: number, lastLane: number, batch: PathBatch): void {
    const cx = this.clampedX();
    for (let lane = firstLane; lane <= lastLane; lane++) {
      const info = model.lanes[lane];
      const visible = info.spans.filter((span) => (span.to ?? this.view.end) >= this.view.start && span.from <= this.view.end);
      for (const run of pixelRuns(visible, (span) => [cx(span.from), cx(span.to ?? this.view.end)], MIN_SPAN_PIXELS, (a) => a)) {
        batch.add(`lane-span${info.groupInstanceId !== null ? ' static' : ''}`, rectPath(run.x1, this.laneCenter(lane) - 2, Math.max(run.x2 - run.x1, 1), 4, 2), run.x1, this.laneCenter(lane));
      }
    }
  }

  /** Adds the markers in view to `batch`; the selected and focused ones come back as elements of their own, to draw on top. */
  private markers(model: TimelineModel, laneVisible: (lane: number) => boolean, batch: PathBatch): SVGPathElement[] {
    const highlighted: SVGPathElement[] = [];
    const pad = ((this.view.end - this.view.start) * 8) / this.plotWidth;
    const buckets = new Map<number, { marker: number; count: number; rank: number }>();
    const order: number[] = [];
    const { times, lanes, events, kinds } = model.markers;
    const end = this.view.end + pad;
    // x(time) inlined: this loop runs over every marker in view, often before it is optimised.
    const x0 = this.view.start;
    const scale = this.pixelsPerMs;
    for (let i = model.markers.firstAtOrAfter(this.view.start - pad); i < times.length; i++) {
      const time = times[i];
      if (time > end) {
        break;
      }
      const lane = lanes[i];
      if (!laneVisible(lane)) {
        continue;
      }
      // Lane (from -1) and pixel bin in one number: cheaper than a string key for thousands of markers.
      const key = (lane + 1) * 1e6 + Math.floor((LABEL_WIDTH + (time - x0) * scale) / BUCKET_PIXELS);
      const bucket = buckets.get(key);
      // The selected or focused event wins its bucket so it stays visible; then the most telling kind.
      const event = events[i];
      const rank = event === this.selected || event === this.focused ? 100 : KIND_RANK_BY_CODE[kinds[i]];
      if (bucket) {
        bucket.count++;
        if (rank > bucket.rank) {
          bucket.marker = i;
          bucket.rank = rank;
        }
      } else {
        buckets.set(key, { marker: i, count: 1, rank });
        order.push(key);
      }
    }
    for (const key of order) {
      const bucket = buckets.get(key);
      if (!bucket) {
        continue;
      }
      const { marker: index, count } = bucket;
      const marker = model.markers.at(index);
      const event = model.events[marker.event];
      const classes = ['marker', `k-${marker.kind}`];
      if (marker.kind === 'state-changed' && event.stateAfter) {
        classes.push(`st-${phaseClass(event.stateAfter)}`);
      }
      if (marker.lane >= 0 && marker.kind === 'assignment-changed') {
        classes.push('on-lane');
      }
      if (count > 1) {
        classes.push('merged');
      }
      const x = this.x(marker.time);
      const y = this.laneCenter(marker.lane);
      const title = (): string => `${KIND_LABELS[marker.kind]} · ${formatTime(event.time, this.timeBase, 1)}${count > 1 ? ` (+${count - 1} more here; zoom in)` : ''}`;
      this.hits.push({ x1: x - MARKER_HIT, y1: y - MARKER_HIT, x2: x + MARKER_HIT, y2: y + MARKER_HIT, event: marker.event, title });
      if (marker.event !== this.selected && marker.event !== this.focused) {
        batch.add(classes.join(' '), placeGlyph(GLYPHS[marker.kind], x, y), x, y);
        continue;
      }
      if (marker.event === this.selected) {
        classes.push('selected');
      }
      if (marker.event === this.focused) {
        classes.push('focused');
      }
      highlighted.push(
        s('path', { class: classes.join(' '), d: MARKER_PATHS[marker.kind], 'fill-rule': 'evenodd', transform: `translate(${x.toFixed(1)} ${y})`, 'data-event': String(marker.event) }, [
          svgTitle(title()),
        ]),
      );
    }
    return highlighted;
  }

  private cursor(model: TimelineModel, height: number): SVGGElement {
    const group = s('g', { class: 'cursor' });
    if (this.selected !== null) {
      const x = this.x(model.events[this.selected].time);
      group.appendChild(s('line', { class: 'selection-line', x1: x, x2: x, y1: 0, y2: height }));
    }
    return group;
  }

  private labels(model: TimelineModel, firstLane: number, lastLane: number, height: number): SVGGElement {
    const group = s('g', { class: 'labels' });
    group.appendChild(s('rect', { class: 'label-bg', x: 0, y: 0, width: LABEL_WIDTH, height }));
    const groupLabel = s('text', { class: 'lane-label group-label', x: 12, y: GROUP_LANE_HEIGHT / 2 + 1 });
    groupLabel.textContent = 'Group';
    const groupHint = s('text', { class: 'lane-hint', x: 12, y: GROUP_LANE_HEIGHT / 2 + 14 });
    groupHint.textContent = 'state · rebalances';
    group.append(groupLabel, groupHint, s('line', { class: 'label-rule', x1: LABEL_WIDTH - 0.5, x2: LABEL_WIDTH - 0.5, y1: 0, y2: height }));
    for (let lane = firstLane; lane <= lastLane; lane++) {
      const info = model.lanes[lane];
      const y = this.laneCenter(lane) + 4;
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

  private validIndex(index: number | null): number | null {
    return index !== null && this.model !== null && index >= 0 && index < this.model.events.length ? index : null;
  }

  private listen(): void {
    this.scroller.addEventListener(
      'scroll',
      () => {
        this.area = this.readArea();
        this.requestRender();
      },
      { passive: true },
    );
    this.scroller.addEventListener('wheel', (event) => this.onWheel(event), { passive: false });
    this.plot.addEventListener('pointerdown', (event) => this.onPointerDown(event));
    this.plot.addEventListener('pointermove', (event) => this.onPointerMove(event));
    this.plot.addEventListener('pointerup', (event) => this.onPointerUp(event));
    this.plot.addEventListener('pointercancel', () => (this.drag = null));
    this.plot.addEventListener('pointermove', (event) => this.showTooltip(event));
    this.element.addEventListener('keydown', (event) => this.onKey(event));
    // Only a real change of the drawing area redraws: a first render that fills the panel would
    // otherwise notify about its own layout and draw everything twice.
    new ResizeObserver(() => {
      this.area = this.readArea();
      if (areaKey(this.area) !== this.renderedArea) {
        this.requestRender();
      }
    }).observe(this.scroller);
  }

  private onWheel(event: WheelEvent): void {
    if (!this.model) {
      return;
    }
    event.preventDefault();
    const horizontal = event.shiftKey || Math.abs(event.deltaX) > Math.abs(event.deltaY);
    if (horizontal) {
      this.view = panWindow(this.view, (event.shiftKey ? event.deltaY : event.deltaX) / this.plotWidth);
    } else {
      const anchor = (event.offsetX - LABEL_WIDTH) / this.plotWidth;
      this.view = zoomWindow(this.view, Math.exp(-event.deltaY * 0.0015), anchor);
    }
    this.requestRender();
  }

  private onPointerDown(event: PointerEvent): void {
    if (event.button !== 0) {
      return;
    }
    this.drag = { pointerId: event.pointerId, x: event.clientX, view: this.view, moved: false };
    this.plot.setPointerCapture(event.pointerId);
    this.element.focus({ preventScroll: true });
  }

  private onPointerMove(event: PointerEvent): void {
    if (!this.drag || event.pointerId !== this.drag.pointerId) {
      return;
    }
    const dx = event.clientX - this.drag.x;
    if (Math.abs(dx) > 3) {
      this.drag.moved = true;
      this.element.classList.add('dragging');
    }
    if (this.drag.moved) {
      this.view = panWindow(this.drag.view, -dx / this.plotWidth);
      this.requestRender();
    }
  }

  private onPointerUp(event: PointerEvent): void {
    const drag = this.drag;
    this.drag = null;
    this.element.classList.remove('dragging');
    if (!drag || drag.moved) {
      return;
    }
    // A click rather than a drag: select what is under the pointer.
    this.selected = this.validIndex(this.hitAt(event)?.event ?? null);
    if (this.selected !== null) {
      this.focused = this.selected;
    }
    this.handlers.onSelect(this.selected);
    this.render();
  }

  /** The topmost clickable thing drawn under the pointer. */
  private hitAt(event: MouseEvent): HitTarget | undefined {
    const box = this.plot.getBoundingClientRect();
    const x = event.clientX - box.left;
    const y = event.clientY - box.top;
    if (x < LABEL_WIDTH) {
      return undefined;
    }
    for (let i = this.hits.length - 1; i >= 0; i--) {
      const hit = this.hits[i];
      if (x >= hit.x1 && x <= hit.x2 && y >= hit.y1 && y <= hit.y2) {
        return hit;
      }
    }
    return undefined;
  }

  private showTooltip(event: PointerEvent): void {
    if (this.drag?.moved) {
      return;
    }
    const hit = this.hitAt(event);
    const text = hit ? hit.title() : '';
    if (this.tooltip.textContent !== text) {
      this.tooltip.textContent = text;
    }
    this.plot.classList.toggle('over-event', hit !== undefined);
  }

  private onKey(event: KeyboardEvent): void {
    const model = this.model;
    if (!model || event.altKey || event.ctrlKey || event.metaKey) {
      return;
    }
    let handled = true;
    switch (event.key) {
      case 'ArrowRight':
      case 'ArrowLeft':
        if (event.shiftKey) {
          this.moveView(panWindow(this.view, event.key === 'ArrowRight' ? 0.2 : -0.2));
        } else {
          this.moveFocus(event.key === 'ArrowRight' ? 1 : -1);
        }
        break;
      case 'ArrowUp':
      case 'ArrowDown':
        this.moveFocusAcrossLanes(event.key === 'ArrowDown' ? 1 : -1);
        break;
      case 'Home':
        this.focusEvent(0);
        break;
      case 'End':
        this.focusEvent(model.events.length - 1);
        break;
      case 'Enter':
      case ' ':
        if (this.focused !== null) {
          this.selected = this.focused;
          this.handlers.onSelect(this.selected);
          this.render();
        }
        break;
      case 'Escape':
        this.selected = null;
        this.handlers.onSelect(null);
        this.render();
        break;
      case '+':
      case '=':
        this.zoomIn();
        break;
      case '-':
      case '_':
        this.zoomOut();
        break;
      case '0':
        this.fit();
        break;
      default:
        handled = false;
    }
    if (handled) {
      event.preventDefault();
    }
  }

  private moveFocus(step: number): void {
    const model = this.model;
    if (!model || model.events.length === 0) {
      return;
    }
    if (this.focused === null) {
      // Start from the first event in view rather than from the very beginning.
      const first = model.markers.firstAtOrAfter(this.view.start);
      this.focusEvent(first < model.markers.length ? model.markers.events[first] : model.events.length - 1);
      return;
    }
    this.focusEvent(Math.min(model.events.length - 1, Math.max(0, this.focused + step)));
  }

  /** The event nearest in time to the focused one on the lane above or below. */
  private moveFocusAcrossLanes(step: number): void {
    const model = this.model;
    if (!model || this.focused === null) {
      this.moveFocus(1);
      return;
    }
    const time = model.events[this.focused].time;
    const markers = model.markers;
    const currentLane = markers.laneOfEvent(this.focused);
    const laneCount = model.lanes.length;
    for (let lane = currentLane + step; lane >= -1 && lane < laneCount; lane += step) {
      let best: number | null = null;
      let bestDistance = Infinity;
      for (let i = 0; i < markers.length; i++) {
        if (markers.lanes[i] === lane && Math.abs(markers.times[i] - time) < bestDistance) {
          best = markers.events[i];
          bestDistance = Math.abs(markers.times[i] - time);
        }
      }
      if (best !== null) {
        this.focusEvent(best);
        if (lane >= 0) {
          this.scrollLaneIntoView(lane);
        }
        return;
      }
    }
  }

  private focusEvent(index: number): void {
    const model = this.model;
    if (!model || index < 0 || index >= model.events.length) {
      return;
    }
    this.focused = index;
    this.view = revealTime(this.view, model.events[index].time);
    const lane = model.markers.laneOfEvent(index);
    if (lane >= 0) {
      this.scrollLaneIntoView(lane);
    }
    this.handlers.onFocus(index);
    this.render();
  }

  private scrollLaneIntoView(lane: number): void {
    const top = this.laneTop(lane);
    if (top < this.scroller.scrollTop + GROUP_LANE_HEIGHT) {
      this.scroller.scrollTop = Math.max(0, top - GROUP_LANE_HEIGHT);
    } else if (top + this.laneHeight > this.scroller.scrollTop + this.scroller.clientHeight) {
      this.scroller.scrollTop = top + this.laneHeight - this.scroller.clientHeight;
    }
    // The browser clamps the offset: read it back at the next render.
    this.area = null;
  }
}

function areaKey(area: { width: number; height: number }): string {
  return `${area.width}x${area.height}`;
}

function stopTitle(rebalance: RebalanceSpan, end: number): string {
  const from = rebalance.stoppedFrom ?? rebalance.from;
  const what = rebalance.mode === 'eager' ? `whole group (${rebalance.stoppedPartitions.length} partitions)` : `${rebalance.stoppedPartitions.length} moved partition(s)`;
  return `Consumption stopped ${formatDuration((rebalance.stoppedTo ?? end) - from)}${rebalance.stoppedTo === null ? ' so far' : ''}: ${what}`;
}

function remap(previous: TimelineModel | null, next: TimelineModel, index: number | null): number | null {
  if (previous === null || index === null || index >= previous.events.length) {
    return null;
  }
  const at = next.events.indexOf(previous.events[index]);
  return at >= 0 ? at : null;
}

export function modeLabel(rebalance: { mode: string; generationBefore: number }): string {
  if (rebalance.mode !== 'none') {
    return rebalance.mode;
  }
  return rebalance.generationBefore === 0 ? 'initial' : 'no revocation';
}

function phaseClass(state: GroupState): string {
  return state.replace(/[^A-Za-z]/g, '');
}

/** Member id → lane, built once per model (a static member's lane holds every member id it had). */
const laneIndexes = new WeakMap<TimelineModel, Map<string, number>>();

function memberLaneIndex(model: TimelineModel): Map<string, number> {
  let index = laneIndexes.get(model);
  if (index === undefined) {
    index = new Map<string, number>();
    for (let lane = 0; lane < model.lanes.length; lane++) {
      for (const id of model.lanes[lane].memberIds) {
        index.set(id, lane);
      }
    }
    laneIndexes.set(model, index);
  }
  return index;
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function laneTooltip(label: string, memberIds: readonly string[]): string {
  return `${label}\nmember id${memberIds.length > 1 ? 's' : ''}: ${memberIds.join(', ')}`;
}
