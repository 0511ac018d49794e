/**
 * The timeline webview: receives events from the host (snapshot, then appends), builds the
 * timeline model and wires the view, the details pane, the toolbar and the legend. Everything the
 * host sends is data and is only ever set as text.
 */
import type { RebalanceEvent, RebalanceEventKind } from '../../model/types';
import { timelineBuilder, type TimelineBuilder, type TimelineModel } from '../../timeline/timelineModel';
import { decodeEvents } from '../eventColumns';
import { isHostToWebviewMessage, isTimelinePanelState, type HostToWebviewMessage, type TimeBase, type TimelinePanelState, type TimelineSnapshotMessage, type WebviewToHostMessage } from '../timelineProtocol';
import { KIND_LABELS } from './describe';
import { renderDetails } from './detailsPane';
import { h } from './dom';
import { markerIcon } from './markerIcon';
import { TimelineView } from './timelineView';
import { formatDuration, formatTime, type ViewWindow } from './viewWindow';

interface VsCodeApi {
  postMessage(message: WebviewToHostMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();

/** Kept by VS Code across reloads of the webview and of the window (the panel serializer reads the ids). */
type PersistedState = TimelinePanelState & { view: ViewWindow };

function persistedState(): PersistedState | undefined {
  const state = vscode.getState() as Partial<PersistedState> | undefined;
  const view = state?.view;
  return isTimelinePanelState(state) && view && Number.isFinite(view.start) && Number.isFinite(view.end)
    ? { sourceId: state.sourceId, groupId: state.groupId, view: { start: view.start, end: view.end } }
    : undefined;
}

interface Meta {
  sourceId: string;
  groupId: string;
  clusterLabel: string;
  timeBase: TimeBase;
  origin: string;
}

/**
 * Events the host dropped from the start of its history that the page still shows, at most this
 * share of what it holds: dropping them one by one would rebuild the whole model on every live
 * append, so they go in one rebuild once this many have piled up.
 */
const DEFERRED_DROP_SHARE = 0.1;
const DEFERRED_DROP_MIN = 256;

class TimelineApp {
  private meta: Meta | null = null;
  /** What the host sent, oldest first; the first `deferredDrop` the host has since dropped. */
  private events: RebalanceEvent[] = [];
  private deferredDrop = 0;
  private builder: TimelineBuilder | null = null;
  private model: TimelineModel | null = null;
  private selected: number | null = null;
  private readonly title = h('h1', { className: 'title', text: 'Rebalance timeline' });
  private readonly subtitle = h('div', { className: 'subtitle', text: 'Waiting for events…' });
  private readonly live = h('span', { className: 'live', text: 'live', attrs: { title: 'Updates while this panel is visible' } });
  private readonly banner = h('div', { className: 'banner', attrs: { role: 'alert' } });
  private readonly details = h('aside', { className: 'details', attrs: { 'aria-label': 'Event details', 'aria-live': 'polite' } });
  private readonly status = h('div', { className: 'status' });
  private readonly announcer = h('div', { className: 'sr-only', attrs: { 'aria-live': 'polite' } });
  private readonly view: TimelineView;

  constructor(root: HTMLElement) {
    this.view = new TimelineView({
      onSelect: (event) => this.setSelected(event, false),
      onFocus: (event) => this.announce(event),
      onViewChange: (view) => {
        if (this.meta) {
          const state: PersistedState = { sourceId: this.meta.sourceId, groupId: this.meta.groupId, view };
          vscode.setState(state);
        }
      },
    });
    this.banner.hidden = true;
    const toolbar = h('div', { className: 'toolbar', attrs: { role: 'toolbar', 'aria-label': 'Timeline' } }, [
      this.button('−', 'Zoom out (−)', () => this.view.zoomOut()),
      this.button('+', 'Zoom in (+)', () => this.view.zoomIn()),
      this.button('Fit', 'Show everything (0)', () => this.view.fit()),
      h('span', { className: 'toolbar-gap' }),
      this.button('Export JSON…', 'Save these events as JSON', () => this.post({ type: 'export' }), 'primary'),
    ]);
    const header = h('header', { className: 'header' }, [h('div', { className: 'heading' }, [h('div', { className: 'title-row' }, [this.title, this.live]), this.subtitle]), toolbar]);
    const main = h('div', { className: 'main' }, [h('section', { className: 'chart' }, [this.view.element, this.status]), this.details]);
    root.replaceChildren(header, this.banner, main, legend(), this.announcer);
    root.removeAttribute('aria-busy');
    this.renderDetails();
  }

  receive(message: HostToWebviewMessage): void {
    switch (message.type) {
      case 'snapshot':
        this.applySnapshot(message);
        break;
      case 'append':
        this.applyAppend(message.dropFromStart, message.events);
        break;
      case 'error':
        this.banner.textContent = message.message;
        this.banner.hidden = false;
        break;
    }
  }

  private applySnapshot(message: TimelineSnapshotMessage): void {
    // A webview that was hidden reloads from scratch: restore the window it showed.
    const persisted = persistedState();
    const view = this.meta?.groupId === message.groupId ? 'keep' : persisted?.groupId === message.groupId && persisted.sourceId === message.sourceId ? persisted.view : 'fit';
    this.meta = { sourceId: message.sourceId, groupId: message.groupId, clusterLabel: message.clusterLabel, timeBase: message.timeBase, origin: message.origin };
    const started = performance.now();
    this.events = decodeEvents(message.events);
    this.deferredDrop = 0;
    performance.measure('kgl:decode', { start: started, end: performance.now() });
    this.banner.hidden = true;
    this.title.textContent = message.groupId;
    this.title.title = message.groupId;
    this.subtitle.textContent = `${message.clusterLabel} · ${message.origin}`;
    this.rebuild(view);
  }

  /** New events go onto the model built so far; a full rebuild only when drops pile up or time runs backwards. */
  private applyAppend(dropFromStart: number, events: readonly RebalanceEvent[]): void {
    this.events.push(...events);
    this.deferredDrop += dropFromStart;
    const dropNow = this.deferredDrop > Math.max(DEFERRED_DROP_MIN, this.events.length * DEFERRED_DROP_SHARE);
    if (!dropNow && this.builder?.append(events)) {
      this.show('keep', performance.now());
      return;
    }
    this.events = this.events.slice(this.deferredDrop);
    this.deferredDrop = 0;
    this.rebuild('keep');
  }

  private rebuild(view: 'keep' | 'fit' | ViewWindow): void {
    if (!this.meta) {
      return;
    }
    const started = performance.now();
    this.builder = timelineBuilder(this.meta.groupId, this.events);
    this.show(view, started);
  }

  private show(view: 'keep' | 'fit' | ViewWindow, started: number): void {
    if (!this.meta || !this.builder) {
      return;
    }
    // Measured (performance.measure) so benchmarks can tell the model build from the drawing.
    this.model = this.builder.model();
    const built = performance.now();
    this.view.setModel(this.model, this.meta.timeBase, view);
    performance.measure('kgl:model', { start: started, end: built });
    performance.measure('kgl:render', { start: built, end: performance.now() });
    this.selected = this.view.selectedIndex;
    this.renderDetails();
    this.renderStatus();
  }

  private setSelected(event: number | null, moveView: boolean): void {
    this.selected = event;
    if (moveView) {
      this.view.select(event);
    }
    this.renderDetails();
  }

  private renderDetails(): void {
    if (!this.model || !this.meta) {
      this.details.replaceChildren(h('p', { className: 'hint', text: 'Loading the group’s rebalance events…' }));
      return;
    }
    renderDetails(this.details, {
      model: this.model,
      timeBase: this.meta.timeBase,
      selected: this.selected,
      onSelect: (event) => this.setSelected(event, true),
    });
  }

  private renderStatus(): void {
    const model = this.model;
    if (!model || !this.meta) {
      return;
    }
    const span = model.end - model.start;
    this.status.textContent = `${model.events.length} events · ${model.lanes.length} members · ${model.rebalances.length} rebalances${
      model.events.length > 0 ? ` · ${formatTime(model.start, this.meta.timeBase, 1)} – ${formatTime(model.end, this.meta.timeBase, 1)} (${formatDuration(span)})` : ''
    } · wheel or +/− to zoom, drag or Shift+←/→ to pan`;
  }

  private announce(index: number): void {
    const event = this.model?.events[index];
    if (!event || !this.meta) {
      return;
    }
    const who = event.groupInstanceId ?? event.memberId;
    this.announcer.textContent = `${KIND_LABELS[event.kind]}${who ? `, ${who}` : ''}, ${formatTime(event.time, this.meta.timeBase, 1)}, generation ${event.generation}. Press Enter for details.`;
  }

  private button(label: string, title: string, action: () => void, variant = 'secondary'): HTMLButtonElement {
    const button = h('button', { className: `button ${variant}`, text: label, attrs: { type: 'button', title, 'aria-label': title } });
    button.addEventListener('click', action);
    return button;
  }

  private post(message: WebviewToHostMessage): void {
    vscode.postMessage(message);
  }
}

/** Marks and measures kept for benchmarks and devtools; a live panel open for days must not pile them up. */
const MAX_TIMINGS = 600;

function trimTimings(): void {
  if (performance.getEntriesByType('measure').length + performance.getEntriesByType('mark').length > MAX_TIMINGS) {
    performance.clearMarks();
    performance.clearMeasures();
  }
}

const LEGEND_KINDS: RebalanceEventKind[] = ['member-joined', 'member-left', 'member-expired', 'poll-timeout', 'static-rejoin', 'rebalance-started', 'assignment-changed', 'state-changed'];

function legend(): HTMLElement {
  const swatch = (className: string, label: string): HTMLElement => h('span', { className: 'legend-item' }, [h('span', { className: `swatch ${className}` }), label]);
  return h('footer', { className: 'legend', attrs: { 'aria-label': 'Legend' } }, [
    ...LEGEND_KINDS.map((kind) => h('span', { className: 'legend-item' }, [markerIcon(kind), KIND_LABELS[kind]])),
    h('span', { className: 'legend-sep' }),
    swatch('phase-PreparingRebalance', 'Preparing / Assigning'),
    swatch('phase-CompletingRebalance', 'Completing / Reconciling'),
    swatch('phase-Stable', 'Stable'),
    swatch('stop-eager', 'Consumption stopped'),
    swatch('recon-revoking', 'Revoking'),
    swatch('recon-waiting', 'Waiting for partitions'),
    swatch('recon-standby', 'Standby tasks'),
    swatch('recon-warmup', 'Warm-up tasks'),
    swatch('txn-pending', 'Transaction open'),
    swatch('txn-committed', 'Committed'),
    swatch('txn-aborted', 'Aborted'),
    swatch('lso-hold', 'LSO held (read_committed)'),
  ]);
}

function start(): void {
  const root = document.getElementById('app');
  if (!root) {
    throw new Error('timeline webview: #app is missing from the page');
  }
  const app = new TimelineApp(root);
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    // Benchmarks read this mark: how long the message took to arrive (structured clone included).
    trimTimings();
    performance.mark('kgl:message');
    if (!isHostToWebviewMessage(event.data)) {
      vscode.postMessage({ type: 'reportError', message: 'ignored a malformed message from the extension' });
      return;
    }
    try {
      app.receive(event.data);
    } catch (error) {
      vscode.postMessage({ type: 'reportError', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    }
  });
  window.addEventListener('error', (event) => vscode.postMessage({ type: 'reportError', message: String(event.message) }));
  vscode.postMessage({ type: 'ready' });
}

start();
