/**
 * The timeline's input: wheel zoom and pan, drag to pan, click to select, the tooltip of what is under
 * the pointer, and the keyboard (events, lanes, zoom, pan, fit). It decides what a gesture means; the
 * view (InputTarget) owns the state and draws.
 */
import type { TimelineModel } from '../../timeline/timelineModel';
import { LABEL_WIDTH } from './plotScale';
import type { HitTarget } from './timelineLayers';
import { panWindow, zoomWindow, type ViewWindow } from './viewWindow';

/** What the input handling reads from and acts on: the TimelineView. */
export interface InputTarget {
  readonly model: TimelineModel | null;
  readonly window: ViewWindow;
  readonly focusedIndex: number | null;
  /** Width of the plot (labels excluded) at the last render. */
  readonly plotWidth: number;
  /** What the last render drew that can be clicked, in paint order. */
  readonly hits: readonly HitTarget[];
  /** Shows `view` at the next frame (a burst of wheel or drag steps draws once per frame). */
  setWindow(view: ViewWindow): void;
  /** As setWindow, and tells the app now (persisted state). */
  moveView(view: ViewWindow): void;
  zoomIn(): void;
  zoomOut(): void;
  fit(): void;
  /** Selects `event` (null clears), focuses it, tells the app and draws. */
  pick(event: number | null): void;
  /** Moves keyboard focus to `event`, brings it into view and announces it. */
  focusEvent(event: number): void;
  scrollLaneIntoView(lane: number): void;
}

/** The elements input is read from: the focusable timeline, the plot <svg> and its one tooltip. */
export interface InputElements {
  element: HTMLElement;
  scroller: HTMLElement;
  plot: SVGSVGElement;
  tooltip: SVGTitleElement;
}

/** A pointer pressed on the plot: a drag once it moves more than a few pixels, otherwise a click. */
interface Drag {
  pointerId: number;
  x: number;
  view: ViewWindow;
  moved: boolean;
}

const DRAG_THRESHOLD_PIXELS = 3;
/** Wheel delta to zoom factor: exp(-delta × this). */
const WHEEL_ZOOM_RATE = 0.0015;
/** Shift+←/→ pans by this share of the window. */
const KEY_PAN_SHARE = 0.2;

export class TimelineInput {
  private drag: Drag | null = null;

  constructor(
    private readonly target: InputTarget,
    private readonly elements: InputElements,
  ) {
    const { element, scroller, plot } = elements;
    scroller.addEventListener('wheel', (event) => this.onWheel(event), { passive: false });
    plot.addEventListener('pointerdown', (event) => this.onPointerDown(event));
    plot.addEventListener('pointermove', (event) => this.onPointerMove(event));
    plot.addEventListener('pointerup', (event) => this.onPointerUp(event));
    plot.addEventListener('pointercancel', () => (this.drag = null));
    plot.addEventListener('pointermove', (event) => this.showTooltip(event));
    element.addEventListener('keydown', (event) => this.onKey(event));
  }

  private onWheel(event: WheelEvent): void {
    const { target } = this;
    if (!target.model) {
      return;
    }
    event.preventDefault();
    const horizontal = event.shiftKey || Math.abs(event.deltaX) > Math.abs(event.deltaY);
    if (horizontal) {
      target.setWindow(panWindow(target.window, (event.shiftKey ? event.deltaY : event.deltaX) / target.plotWidth));
    } else {
      const anchor = (event.offsetX - LABEL_WIDTH) / target.plotWidth;
      target.setWindow(zoomWindow(target.window, Math.exp(-event.deltaY * WHEEL_ZOOM_RATE), anchor));
    }
  }

  private onPointerDown(event: PointerEvent): void {
    if (event.button !== 0) {
      return;
    }
    this.drag = { pointerId: event.pointerId, x: event.clientX, view: this.target.window, moved: false };
    this.elements.plot.setPointerCapture(event.pointerId);
    this.elements.element.focus({ preventScroll: true });
  }

  private onPointerMove(event: PointerEvent): void {
    if (!this.drag || event.pointerId !== this.drag.pointerId) {
      return;
    }
    const dx = event.clientX - this.drag.x;
    if (Math.abs(dx) > DRAG_THRESHOLD_PIXELS) {
      this.drag.moved = true;
      this.elements.element.classList.add('dragging');
    }
    if (this.drag.moved) {
      this.target.setWindow(panWindow(this.drag.view, -dx / this.target.plotWidth));
    }
  }

  private onPointerUp(event: PointerEvent): void {
    const drag = this.drag;
    this.drag = null;
    this.elements.element.classList.remove('dragging');
    if (!drag || drag.moved) {
      return;
    }
    // A click rather than a drag: select what is under the pointer.
    this.target.pick(this.hitAt(event)?.event ?? null);
  }

  /** The topmost clickable thing drawn under the pointer. */
  private hitAt(event: MouseEvent): HitTarget | undefined {
    const box = this.elements.plot.getBoundingClientRect();
    const x = event.clientX - box.left;
    const y = event.clientY - box.top;
    if (x < LABEL_WIDTH) {
      return undefined;
    }
    const hits = this.target.hits;
    for (let i = hits.length - 1; i >= 0; i--) {
      const hit = hits[i];
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
    const { tooltip, plot } = this.elements;
    if (tooltip.textContent !== text) {
      tooltip.textContent = text;
    }
    plot.classList.toggle('over-event', hit !== undefined);
  }

  private onKey(event: KeyboardEvent): void {
    const { target } = this;
    const model = target.model;
    if (!model || event.altKey || event.ctrlKey || event.metaKey) {
      return;
    }
    let handled = true;
    switch (event.key) {
      case 'ArrowRight':
      case 'ArrowLeft':
        if (event.shiftKey) {
          target.moveView(panWindow(target.window, event.key === 'ArrowRight' ? KEY_PAN_SHARE : -KEY_PAN_SHARE));
        } else {
          this.moveFocus(model, event.key === 'ArrowRight' ? 1 : -1);
        }
        break;
      case 'ArrowUp':
      case 'ArrowDown':
        this.moveFocusAcrossLanes(model, event.key === 'ArrowDown' ? 1 : -1);
        break;
      case 'Home':
        target.focusEvent(0);
        break;
      case 'End':
        target.focusEvent(model.events.length - 1);
        break;
      case 'Enter':
      case ' ':
        if (target.focusedIndex !== null) {
          target.pick(target.focusedIndex);
        }
        break;
      case 'Escape':
        target.pick(null);
        break;
      case '+':
      case '=':
        target.zoomIn();
        break;
      case '-':
      case '_':
        target.zoomOut();
        break;
      case '0':
        target.fit();
        break;
      default:
        handled = false;
    }
    if (handled) {
      event.preventDefault();
    }
  }

  private moveFocus(model: TimelineModel, step: number): void {
    if (model.events.length === 0) {
      return;
    }
    const focused = this.target.focusedIndex;
    if (focused === null) {
      // Start from the first event in view rather than from the very beginning.
      const first = model.markers.firstAtOrAfter(this.target.window.start);
      this.target.focusEvent(first < model.markers.length ? model.markers.events[first] : model.events.length - 1);
      return;
    }
    this.target.focusEvent(Math.min(model.events.length - 1, Math.max(0, focused + step)));
  }

  /** The event nearest in time to the focused one on the lane above or below. */
  private moveFocusAcrossLanes(model: TimelineModel, step: number): void {
    const focused = this.target.focusedIndex;
    if (focused === null) {
      this.moveFocus(model, 1);
      return;
    }
    const time = model.events[focused].time;
    const markers = model.markers;
    const currentLane = markers.laneOfEvent(focused);
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
        this.target.focusEvent(best);
        if (lane >= 0) {
          this.target.scrollLaneIntoView(lane);
        }
        return;
      }
    }
  }
}
