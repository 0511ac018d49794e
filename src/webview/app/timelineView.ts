/**
 * The timeline view: holds what is shown (model, time window, selection, keyboard focus), lays out
 * the drawing area, and draws the axes and the plot's layers (timelineAxes.ts, timelineLayers.ts) at
 * most once per frame. Input (timelineInput.ts) decides what gestures and keys mean and acts through
 * this view.
 */
import type { TimelineModel } from '../../timeline/timelineModel';
import type { TimeBase } from '../timelineProtocol';
import { h, s, svgTitle } from './dom';
import { PathBatch } from './pathBatch';
import { AXIS_HEIGHT, BOTTOM_PAD, drawingWidth, fittedLaneHeight, GROUP_LANE_HEIGHT, LABEL_WIDTH, MIN_LANE_HEIGHT, PlotScale } from './plotScale';
import { drawTimeAxis, laneAxis } from './timelineAxes';
import { TimelineInput, type InputTarget } from './timelineInput';
import { cursor, generationRules, laneSpans, markers, phaseBands, rebalanceBars, reconciliationBars, stopWindows, type HitTarget, type PlotLayers } from './timelineLayers';
import { lsoHoldBars, transactionBars } from './transactionLayers';
import { fitWindow, revealTime, zoomWindow, type ViewWindow } from './viewWindow';

const ZOOM_STEP = 1.6;

export interface TimelineViewHandlers {
  /** The user selected an event (click, Enter) or cleared the selection (null). */
  onSelect(event: number | null): void;
  /** Keyboard focus moved to an event: announce it. */
  onFocus(event: number): void;
  /** The visible window changed (zoom, pan, new data): persist it. */
  onViewChange(view: ViewWindow): void;
}

/** The scroller's size and scroll offset. */
interface Area {
  width: number;
  height: number;
  top: number;
}

export class TimelineView implements InputTarget {
  readonly element: HTMLElement;
  private readonly axis: SVGSVGElement;
  private readonly scroller: HTMLElement;
  private readonly plot: SVGSVGElement;
  private readonly empty: HTMLElement;
  /** The plot's one tooltip, set by the input handling to what is under the pointer. */
  private readonly tooltip: SVGTitleElement;
  private drawnHits: HitTarget[] = [];
  private shown: TimelineModel | null = null;
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
  private area: Area | null = null;

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
    this.trackArea();
    new TimelineInput(this, { element: this.element, scroller: this.scroller, plot: this.plot, tooltip: this.tooltip });
  }

  /**
   * Replaces the model. `view` is `keep` for live updates (the window stays, following the newest
   * events if they were in view), `fit`, or a window to restore. Selection and focus follow their
   * events, which keep their identity across models.
   */
  setModel(model: TimelineModel, timeBase: TimeBase, view: 'keep' | 'fit' | ViewWindow): void {
    const previous = this.shown;
    this.shown = model;
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

  get model(): TimelineModel | null {
    return this.shown;
  }

  get selectedIndex(): number | null {
    return this.selected;
  }

  get focusedIndex(): number | null {
    return this.focused;
  }

  get window(): ViewWindow {
    return this.view;
  }

  get hits(): readonly HitTarget[] {
    return this.drawnHits;
  }

  get plotWidth(): number {
    return this.width - LABEL_WIDTH;
  }

  /** Selection from outside (details pane links). */
  select(event: number | null): void {
    this.selected = this.validIndex(event);
    if (this.selected !== null && this.shown) {
      this.focused = this.selected;
      this.view = revealTime(this.view, this.shown.events[this.selected].time);
    }
    this.render();
  }

  pick(event: number | null): void {
    this.selected = this.validIndex(event);
    if (this.selected !== null) {
      this.focused = this.selected;
    }
    this.handlers.onSelect(this.selected);
    this.render();
  }

  focusEvent(index: number): void {
    const model = this.shown;
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

  zoom(factor: number, anchor = 0.5): void {
    this.moveView(zoomWindow(this.view, factor, anchor));
  }

  zoomIn(): void {
    this.zoom(ZOOM_STEP);
  }

  zoomOut(): void {
    this.zoom(1 / ZOOM_STEP);
  }

  fit(): void {
    if (this.shown) {
      this.moveView(fitWindow(this.shown.start, this.shown.end));
    }
  }

  /**
   * Changes the window now and redraws at the next frame: a burst of key repeats or wheel steps
   * costs one redraw per frame rather than one per step.
   */
  moveView(view: ViewWindow): void {
    this.view = view;
    this.handlers.onViewChange(view);
    this.requestRender();
  }

  setWindow(view: ViewWindow): void {
    this.view = view;
    this.requestRender();
  }

  scrollLaneIntoView(lane: number): void {
    const top = GROUP_LANE_HEIGHT + lane * this.laneHeight;
    if (top < this.scroller.scrollTop + GROUP_LANE_HEIGHT) {
      this.scroller.scrollTop = Math.max(0, top - GROUP_LANE_HEIGHT);
    } else if (top + this.laneHeight > this.scroller.scrollTop + this.scroller.clientHeight) {
      this.scroller.scrollTop = top + this.laneHeight - this.scroller.clientHeight;
    }
    // The browser clamps the offset: read it back at the next render.
    this.area = null;
  }

  /** Draws now. Interactions that fire in bursts (scroll, wheel, drag) go through requestRender instead. */
  render(): void {
    if (this.frame !== null) {
      cancelAnimationFrame(this.frame);
      this.frame = null;
    }
    const area = this.measuredArea();
    this.width = drawingWidth(area.width, this.width);
    this.renderedArea = areaKey(area);
    const model = this.shown;
    this.empty.hidden = model !== null && model.events.length > 0;
    if (!model) {
      this.axis.replaceChildren();
      this.plot.replaceChildren();
      return;
    }
    this.laneHeight = fittedLaneHeight(model.lanes.length, area.height);
    const scale = new PlotScale(this.view, this.width, this.laneHeight);
    drawTimeAxis(this.axis, model, scale, this.timeBase);
    this.renderPlot(model, scale, area);
    this.handlers.onViewChange(this.view);
    this.element.dataset.renders = String(Number(this.element.dataset.renders ?? '0') + 1);
  }

  private renderPlot(model: TimelineModel, scale: PlotScale, area: Area): void {
    const { width, laneHeight } = scale;
    const lanesBottom = GROUP_LANE_HEIGHT + model.lanes.length * laneHeight;
    // Bands and rules run to the bottom of the view even when the lanes end above it.
    const height = Math.max(lanesBottom + BOTTOM_PAD, area.height);
    this.plot.setAttribute('width', String(width));
    this.plot.setAttribute('height', String(height));
    this.plot.setAttribute('viewBox', `0 0 ${width} ${height}`);

    // Vertical virtualization: lanes outside the scroller's viewport are skipped.
    const top = area.top;
    const bottom = top + (area.height || height);
    const firstLane = Math.max(0, Math.floor((top - GROUP_LANE_HEIGHT) / laneHeight) - 1);
    const lastLane = Math.min(model.lanes.length - 1, Math.ceil((bottom - GROUP_LANE_HEIGHT) / laneHeight) + 1);
    const laneVisible = (lane: number): boolean => lane < 0 || (lane >= firstLane && lane <= lastLane);

    const rows = s('g', { class: 'rows' });
    rows.appendChild(s('rect', { class: 'row row-group', x: 0, y: 0, width, height: GROUP_LANE_HEIGHT }));
    for (let lane = firstLane; lane <= lastLane; lane++) {
      rows.appendChild(s('rect', { class: lane % 2 === 0 ? 'row row-even' : 'row row-odd', x: 0, y: scale.laneTop(lane), width, height: laneHeight }));
    }

    // Shapes that look alike share one path; the layers add in paint order.
    const batch = new PathBatch();
    const texts: SVGElement[] = [];
    const layers: PlotLayers = { model, scale, timeBase: this.timeBase, selected: this.selected, focused: this.focused, hits: [] };
    phaseBands(layers, height, batch);
    stopWindows(layers, laneVisible, batch);
    rebalanceBars(layers, batch, texts);
    laneSpans(layers, firstLane, lastLane, batch);
    reconciliationBars(layers, laneVisible, batch);
    transactionBars(layers, batch);
    lsoHoldBars(layers, laneVisible, batch);
    const highlighted = markers(layers, laneVisible, batch);
    this.drawnHits = layers.hits;
    const clipped = s('g', { 'clip-path': 'url(#plot-clip)' });
    for (const path of batch.paths()) {
      clipped.appendChild(s('path', { class: `${path.className} batch`, d: path.d, 'fill-rule': 'evenodd', 'data-count': path.count }));
    }
    clipped.append(generationRules(layers, height), ...texts, ...highlighted, cursor(layers, height));

    this.plot.replaceChildren(
      this.tooltip,
      s('defs', {}, [s('clipPath', { id: 'plot-clip' }, [s('rect', { x: LABEL_WIDTH, y: 0, width: scale.plotWidth, height })])]),
      rows,
      clipped,
      laneAxis(model, scale, firstLane, lastLane, height),
    );
  }

  /** The scroller's size and offset, which is what a render lays out against. */
  private measuredArea(): Area {
    this.area ??= this.readArea();
    return this.area;
  }

  private readArea(): Area {
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

  /** Scrolling and resizing change what is in view: both redraw at the next frame. */
  private trackArea(): void {
    this.scroller.addEventListener(
      'scroll',
      () => {
        this.area = this.readArea();
        this.requestRender();
      },
      { passive: true },
    );
    // Only a real change of the drawing area redraws: a first render that fills the panel would
    // otherwise notify about its own layout and draw everything twice.
    new ResizeObserver(() => {
      this.area = this.readArea();
      if (areaKey(this.area) !== this.renderedArea) {
        this.requestRender();
      }
    }).observe(this.scroller);
  }

  private validIndex(index: number | null): number | null {
    return index !== null && this.shown !== null && index >= 0 && index < this.shown.events.length ? index : null;
  }
}

function areaKey(area: { width: number; height: number }): string {
  return `${area.width}x${area.height}`;
}

function remap(previous: TimelineModel | null, next: TimelineModel, index: number | null): number | null {
  if (previous === null || index === null || index >= previous.events.length) {
    return null;
  }
  const at = next.events.indexOf(previous.events[index]);
  return at >= 0 ? at : null;
}
