/**
 * The plot's layers, back to front: phase bands, stopped-consumption windows, rebalance bars, member
 * spans, markers, generation rules, the selection cursor. Only what is in view is drawn, and shapes
 * closer than a few pixels are merged, so the element count stays bounded however many events there
 * are. Shapes that look alike go into one PathBatch; what can be clicked is recorded as a HitTarget.
 */
import { EVENT_KINDS } from '../../model/eventKinds';
import type { GroupState, RebalanceEventKind } from '../../model/types';
import { reconciliationOf, type ReconciliationSpanKind } from '../../timeline/reconciliation';
import type { RebalanceSpan, TimelineModel } from '../../timeline/timelineModel';
import type { TimeBase } from '../timelineProtocol';
import { generationSteps, KIND_LABELS, modeLabel } from './describe';
import { s, svgTitle } from './dom';
import { MARKER_PATHS } from './markers';
import { parseGlyph, placeGlyph, rectPath, type Glyph, type PathBatch } from './pathBatch';
import { pixelRuns } from './pixelRuns';
import { GROUP_LANE_HEIGHT, LABEL_WIDTH, MIN_SPAN_PIXELS, type PlotScale } from './plotScale';
import { formatDuration, formatTime, overlapping } from './viewWindow';

/** Markers closer than this on one lane are merged. */
const BUCKET_PIXELS = 8;

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
  'transaction-aborted': 4,
  'lso-held': 4,
  'lso-released': 3,
  'transaction-committed': 2,
  'transaction-offsets': 1,
  'offsets-committed': 1,
};

/** KIND_RANK by the kind's code in marker columns. */
const KIND_RANK_BY_CODE = EVENT_KINDS.map((kind) => KIND_RANK[kind]);

const GLYPHS = Object.fromEntries(Object.entries(MARKER_PATHS).map(([kind, path]) => [kind, parseGlyph(path)])) as Record<RebalanceEventKind, Glyph>;

/** Half the size of the box a marker is clicked in. */
const MARKER_HIT = 7;

/** Something drawn that can be clicked (selects `event`) and shows `title` on hover. */
export interface HitTarget {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  event: number;
  title: () => string;
}

/** What one render of the plot's layers draws from, and where it records what can be clicked. */
export interface PlotLayers {
  model: TimelineModel;
  scale: PlotScale;
  timeBase: TimeBase;
  selected: number | null;
  focused: number | null;
  /** Filled in paint order. */
  hits: HitTarget[];
}

export function phaseBands({ model, scale }: PlotLayers, height: number, batch: PathBatch): void {
  const visible = overlapping(model.phases, scale.view.start, scale.view.end);
  const cx = scale.clampedX();
  const runs = pixelRuns(visible, (p) => [cx(p.from), cx(p.to)], MIN_SPAN_PIXELS, (a, b) => (PHASE_RANK[b.state] > PHASE_RANK[a.state] ? b : a));
  for (const run of runs) {
    if (run.item.state === 'Empty') {
      continue;
    }
    batch.add(`phase phase-${phaseClass(run.item.state)}`, rectPath(run.x1, 0, Math.max(run.x2 - run.x1, 1.5), height), run.x1);
  }
}

/** Separate lines, not a batch: the rasterizer dashes a lone straight line fast and a many-line path slowly. */
export function generationRules({ model, scale }: PlotLayers, height: number): SVGGElement {
  const group = s('g', { class: 'gen-rules' });
  let lastX = -Infinity;
  for (const span of model.generations.slice(1)) {
    if (span.from >= scale.view.start && span.from <= scale.view.end) {
      const x = scale.x(span.from);
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
export function stopWindows({ model, scale, hits }: PlotLayers, laneVisible: (lane: number) => boolean, batch: PathBatch): void {
  const { view, laneHeight } = scale;
  const laneOfMember = memberLaneIndex(model);
  const stopped = model.rebalances.filter((r) => r.stoppedFrom !== null && (r.stoppedTo ?? model.end) >= view.start && (r.stoppedFrom ?? 0) <= view.end);
  const cx = scale.clampedX();
  const extent = (r: RebalanceSpan): [number, number] => [cx(r.stoppedFrom ?? r.from), cx(r.stoppedTo ?? model.end)];
  const eager = pixelRuns(stopped.filter((r) => r.mode === 'eager'), extent, MIN_SPAN_PIXELS, (a) => a);
  for (const run of eager) {
    const width = Math.max(run.x2 - run.x1, 2);
    const height = model.lanes.length * laneHeight;
    batch.add('stop stop-eager', rectPath(run.x1, GROUP_LANE_HEIGHT, width, height), run.x1);
    hits.push({
      x1: run.x1,
      y1: GROUP_LANE_HEIGHT,
      x2: run.x1 + width,
      y2: GROUP_LANE_HEIGHT + height,
      event: run.item.startEvent,
      title: () => (run.count > 1 ? `${run.count} eager rebalances stopped the whole group here; zoom in` : stopTitle(run.item, model.end)),
    });
  }
  // Cooperative and KIP-848: per lane of a member that gave partitions up.
  const perLane = new Map<number, RebalanceSpan[]>();
  for (const rebalance of stopped.filter((r) => r.mode === 'cooperative' || r.mode === 'reconciliation')) {
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
      const y = scale.laneTop(lane) + 3;
      const width = Math.max(run.x2 - run.x1, 2);
      batch.add('stop stop-cooperative', rectPath(run.x1, y, width, laneHeight - 6, 3), run.x1, y);
      hits.push({
        x1: run.x1,
        y1: y,
        x2: run.x1 + width,
        y2: y + laneHeight - 6,
        event: run.item.startEvent,
        title: () => (run.count > 1 ? `${run.count} cooperative rebalances moved partitions of this member here; zoom in` : stopTitle(run.item, model.end)),
      });
    }
  }
}

/** The rebalances on the group's lane; their labels, when there is room, go to `texts`. */
export function rebalanceBars({ model, scale, hits }: PlotLayers, batch: PathBatch, texts: SVGElement[]): void {
  const visible = overlapping(model.rebalances, scale.view.start, scale.view.end);
  const y = GROUP_LANE_HEIGHT - 13;
  const cx = scale.clampedX();
  for (const run of pixelRuns(visible, (r) => [cx(r.from), cx(r.to)], MIN_SPAN_PIXELS * 2, (a) => a)) {
    const rebalance = run.item;
    const dense = run.count > 1;
    const duration = formatDuration(rebalance.to - rebalance.from);
    const title = dense
      ? `${run.count} rebalances here; zoom in`
      : `Rebalance ${generationSteps(rebalance)} · ${duration}${rebalance.finished ? '' : ' (in progress)'} · ${modeLabel(rebalance)}`;
    const classes = dense ? 'rebalance rebalance-dense' : `rebalance rebalance-${rebalance.mode}${rebalance.finished ? '' : ' open'}`;
    const width = Math.max(run.x2 - run.x1, 3);
    batch.add(classes, rectPath(run.x1, y, width, 8, 2), run.x1, y);
    hits.push({ x1: run.x1, y1: y, x2: run.x1 + width, y2: y + 8, event: rebalance.startEvent, title: () => title });
    if (!dense && run.x2 - run.x1 > 70) {
      const label = s('text', { class: 'rebalance-label', x: run.x1 + 4, y: y - 3 });
      label.textContent = `${duration} · ${modeLabel(rebalance)}`;
      texts.push(label);
    }
  }
}

/** Each member lane's spans of membership, for lanes firstLane..lastLane. */
export function laneSpans({ model, scale }: PlotLayers, firstLane: number, lastLane: number, batch: PathBatch): void {
  const { view } = scale;
  const cx = scale.clampedX();
  for (let lane = firstLane; lane <= lastLane; lane++) {
    const info = model.lanes[lane];
    const visible = info.spans.filter((span) => (span.to ?? view.end) >= view.start && span.from <= view.end);
    for (const run of pixelRuns(visible, (span) => [cx(span.from), cx(span.to ?? view.end)], MIN_SPAN_PIXELS, (a) => a)) {
      batch.add(`lane-span${info.groupInstanceId !== null ? ' static' : ''}`, rectPath(run.x1, scale.laneCenter(lane) - 2, Math.max(run.x2 - run.x1, 1), 4, 2), run.x1, scale.laneCenter(lane));
    }
  }
}

/** Where each kind of reconciliation span sits, from the lane's centre, and what its title calls it. */
const RECONCILIATION_ROWS: ReadonlyArray<{ kind: ReconciliationSpanKind; dy: number; height: number; what: string }> = [
  { kind: 'revoking', dy: -8, height: 4, what: 'Revoking' },
  { kind: 'waiting', dy: 4, height: 4, what: 'Waiting for' },
  { kind: 'warmup', dy: -12, height: 2, what: 'Warm-up tasks' },
  { kind: 'standby', dy: 10, height: 2, what: 'Standby tasks' },
];

/**
 * KIP-848 reconciliation on the member lanes: above the lane while the member still has partitions
 * to revoke, below it while it waits for partitions another member still owns; a streams member's
 * warm-up tasks as a thin line on top, its standby tasks as one at the bottom.
 */
export function reconciliationBars({ model, scale, hits, timeBase }: PlotLayers, laneVisible: (lane: number) => boolean, batch: PathBatch): void {
  const { view } = scale;
  const laneOfMember = memberLaneIndex(model);
  const cx = scale.clampedX();
  const visible = reconciliationOf(model.events, model.end).spans.filter((span) => span.to >= view.start && span.from <= view.end);
  for (const { kind, dy, height, what } of RECONCILIATION_ROWS) {
    const perLane = new Map<number, typeof visible>();
    for (const span of visible) {
      const lane = laneOfMember.get(span.memberId);
      if (span.kind === kind && lane !== undefined && laneVisible(lane)) {
        perLane.set(lane, [...(perLane.get(lane) ?? []), span]);
      }
    }
    for (const [lane, spans] of perLane) {
      const y = scale.laneCenter(lane) + dy;
      for (const run of pixelRuns(spans, (span) => [cx(span.from), cx(span.to)], MIN_SPAN_PIXELS, (a) => a)) {
        const width = Math.max(run.x2 - run.x1, 2);
        batch.add(`recon recon-${kind}${run.item.open ? ' open' : ''}`, rectPath(run.x1, y, width, height, 1), run.x1, y);
        const span = run.item;
        const title = (): string => run.count > 1
          ? `${run.count} reconciliation steps here; zoom in`
          : `${what} ${span.partitions.map((tp) => `${tp.topic}-${tp.partition}`).join(', ')} · epoch ${span.memberEpoch} → target ${span.targetEpoch} · ${formatDuration(span.to - span.from)}${span.open ? ' so far' : ''} from ${formatTime(span.from, timeBase, 1)}`;
        hits.push({ x1: run.x1, y1: y - 1, x2: run.x1 + width, y2: y + height + 1, event: span.event, title });
      }
    }
  }
}

/** Adds the markers in view to `batch`; the selected and focused ones come back as elements of their own, to draw on top. */
export function markers(layers: PlotLayers, laneVisible: (lane: number) => boolean, batch: PathBatch): SVGPathElement[] {
  const { model, scale, timeBase, selected, focused, hits } = layers;
  const view = scale.view;
  const highlighted: SVGPathElement[] = [];
  const pad = ((view.end - view.start) * 8) / scale.plotWidth;
  const buckets = new Map<number, { marker: number; count: number; rank: number }>();
  const order: number[] = [];
  const { times, lanes, events, kinds } = model.markers;
  const end = view.end + pad;
  // x(time) inlined: this loop runs over every marker in view, often before it is optimised.
  const x0 = view.start;
  const pixelsPerMs = scale.pixelsPerMs;
  for (let i = model.markers.firstAtOrAfter(view.start - pad); i < times.length; i++) {
    const time = times[i];
    if (time > end) {
      break;
    }
    const lane = lanes[i];
    if (!laneVisible(lane)) {
      continue;
    }
    // Lane (from -1) and pixel bin in one number: cheaper than a string key for thousands of markers.
    const key = (lane + 1) * 1e6 + Math.floor((LABEL_WIDTH + (time - x0) * pixelsPerMs) / BUCKET_PIXELS);
    const bucket = buckets.get(key);
    // The selected or focused event wins its bucket so it stays visible; then the most telling kind.
    const event = events[i];
    const rank = event === selected || event === focused ? 100 : KIND_RANK_BY_CODE[kinds[i]];
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
    const x = scale.x(marker.time);
    const y = scale.laneCenter(marker.lane);
    const title = (): string => `${KIND_LABELS[marker.kind]} · ${formatTime(event.time, timeBase, 1)}${count > 1 ? ` (+${count - 1} more here; zoom in)` : ''}`;
    hits.push({ x1: x - MARKER_HIT, y1: y - MARKER_HIT, x2: x + MARKER_HIT, y2: y + MARKER_HIT, event: marker.event, title });
    if (marker.event !== selected && marker.event !== focused) {
      batch.add(classes.join(' '), placeGlyph(GLYPHS[marker.kind], x, y), x, y);
      continue;
    }
    if (marker.event === selected) {
      classes.push('selected');
    }
    if (marker.event === focused) {
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

/** The selected event's vertical line. */
export function cursor({ model, scale, selected }: PlotLayers, height: number): SVGGElement {
  const group = s('g', { class: 'cursor' });
  if (selected !== null) {
    const x = scale.x(model.events[selected].time);
    group.appendChild(s('line', { class: 'selection-line', x1: x, x2: x, y1: 0, y2: height }));
  }
  return group;
}

function stopTitle(rebalance: RebalanceSpan, end: number): string {
  const from = rebalance.stoppedFrom ?? rebalance.from;
  const what = rebalance.mode === 'eager' ? `whole group (${rebalance.stoppedPartitions.length} partitions)` : `${rebalance.stoppedPartitions.length} moved partition(s)`;
  return `Consumption stopped ${formatDuration((rebalance.stoppedTo ?? end) - from)}${rebalance.stoppedTo === null ? ' so far' : ''}: ${what}`;
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
