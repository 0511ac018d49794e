/**
 * Lays a group's RebalanceEvents out for drawing: one lane per member (a static member keeps its
 * lane across member ids), the group's state phases and generations as time spans, markers, and
 * per rebalance what moved, how long it took and when consumption stopped. Pure; the webview
 * renders it.
 */
import { type MarkerColumns, MarkerColumnsBuilder } from './markerColumns';
import { LEAVING_KINDS, NO_CHANGES, RebalanceTracker, type RebalanceSpan } from './rebalanceTracker';
import { TransactionSpanBuilder, type LsoHoldSpan, type TransactionSpan } from './transactionSpans';
import type { GroupState, RebalanceEvent } from '../model/types';

export type { RebalanceMode, RebalanceProtocol, RebalanceSpan } from './rebalanceTracker';
export type { LsoHoldSpan, TransactionOutcome, TransactionSpan } from './transactionSpans';

export interface LaneSpan {
  from: number;
  /** null: still a member at the last event. */
  to: number | null;
}

export interface TimelineLane {
  /** `static:<instance id>` or `member:<member id>`. */
  key: string;
  label: string;
  groupInstanceId: string | null;
  clientId: string | null;
  memberIds: string[];
  /** When the lane's member(s) belonged to the group. */
  spans: LaneSpan[];
}

export interface PhaseSpan {
  state: GroupState;
  from: number;
  to: number;
}

export interface GenerationSpan {
  generation: number;
  from: number;
  to: number;
}

export interface TimelineModel {
  groupId: string;
  /** The input events sorted by time (stable). Markers and rebalances index into this. */
  events: RebalanceEvent[];
  lanes: TimelineLane[];
  phases: PhaseSpan[];
  generations: GenerationSpan[];
  rebalances: RebalanceSpan[];
  /** Transactions that staged the group's offsets, by start time. */
  transactions: TransactionSpan[];
  /** Open transactions holding the LSO of the group's partitions, by start time. */
  lsoHolds: LsoHoldSpan[];
  /** Sorted by time. */
  markers: MarkerColumns;
  start: number;
  end: number;
}

export function buildTimeline(groupId: string, input: readonly RebalanceEvent[]): TimelineModel {
  return timelineBuilder(groupId, input).model();
}

/** A builder holding `input` (sorted by time), ready for appends. */
export function timelineBuilder(groupId: string, input: readonly RebalanceEvent[]): TimelineBuilder {
  const builder = new TimelineBuilder(groupId);
  builder.append(sortedByTime(input));
  return builder;
}

/**
 * Builds the model as a left fold over time-ordered events, so a live panel adds new events
 * without laying out the whole history again: work per append is proportional to what arrived.
 */
export class TimelineBuilder {
  private readonly events: RebalanceEvent[] = [];
  private readonly lanes = new LaneBuilder();
  private readonly markers = new MarkerColumnsBuilder();
  private readonly phases: PhaseSpan[] = [];
  private readonly generations: GenerationSpan[] = [];
  private readonly rebalances = new RebalanceTracker();
  private readonly transactions = new TransactionSpanBuilder();
  private readonly laneOfMember = (memberId: string, groupInstanceId: string | null): number => this.lanes.laneFor(memberId, groupInstanceId, null);

  constructor(readonly groupId: string) {}

  get eventCount(): number {
    return this.events.length;
  }

  /**
   * Adds events at or after the last one held. Returns false, adding nothing, when one is earlier
   * (history was reordered): the caller builds a new model from all events then.
   */
  append(input: readonly RebalanceEvent[]): boolean {
    // Indexed loops here and below: they run per event and per partition, often before the code
    // is optimised, where for-of's iterator calls cost several times the work.
    let last = this.events.length > 0 ? this.events[this.events.length - 1].time : -Infinity;
    for (let i = 0; i < input.length; i++) {
      if (input[i].time < last) {
        return false;
      }
      last = input[i].time;
    }
    for (let i = 0; i < input.length; i++) {
      this.add(input[i]);
    }
    return true;
  }

  /** The model of everything appended so far; a new object each call, so a previous model keeps its lengths. */
  model(): TimelineModel {
    const events = this.events;
    const start = events.length > 0 ? events[0].time : 0;
    const end = events.length > 0 ? events[events.length - 1].time : 0;
    // Spans run to the next span's start; the last one to the last event.
    const lastPhase = this.phases[this.phases.length - 1];
    if (lastPhase) {
      lastPhase.to = end;
    }
    const lastGeneration = this.generations[this.generations.length - 1];
    if (lastGeneration) {
      lastGeneration.to = end;
    }
    return {
      groupId: this.groupId,
      events: events.slice(),
      lanes: this.lanes.finish(),
      phases: this.phases.slice(),
      generations: this.generations.slice(),
      rebalances: this.rebalances.spans(),
      transactions: this.transactions.transactionSpans(),
      lsoHolds: this.transactions.lsoHolds(),
      markers: this.markers.columns(),
      start,
      end,
    };
  }

  private add(event: RebalanceEvent): void {
    const index = this.events.length;
    this.events.push(event);
    const lane = this.lanes.place(event);
    this.markers.push(index, lane, event.time, event.kind);
    // An assignment also shows on the lane of each member it changed.
    const changes = event.assignments ?? NO_CHANGES;
    for (let c = 0; c < changes.length; c++) {
      const change = changes[c];
      const memberLane = this.lanes.laneFor(change.memberId, change.groupInstanceId ?? null, null);
      if (memberLane !== lane) {
        this.markers.push(index, memberLane, event.time, event.kind);
      }
    }
    this.addPhase(event);
    this.addGeneration(event);
    this.rebalances.add(event, index);
    this.transactions.add(event, index, lane, this.laneOfMember);
  }

  private addPhase(event: RebalanceEvent): void {
    const state = event.stateAfter;
    const last = this.phases[this.phases.length - 1];
    if (state === undefined || (last && last.state === state)) {
      return;
    }
    if (last) {
      last.to = event.time;
    }
    this.phases.push({ state, from: event.time, to: event.time });
  }

  private addGeneration(event: RebalanceEvent): void {
    const last = this.generations[this.generations.length - 1];
    if (last && event.generation <= last.generation) {
      return;
    }
    if (last) {
      last.to = event.time;
    }
    this.generations.push({ generation: event.generation, from: event.time, to: event.time });
  }
}

/** The events sorted by time, stably. Logs are nearly always in order already: then the input is only copied. */
function sortedByTime(input: readonly RebalanceEvent[]): RebalanceEvent[] {
  let sorted = true;
  for (let i = 1; i < input.length && sorted; i++) {
    sorted = input[i - 1].time <= input[i].time;
  }
  if (sorted) {
    return input.slice();
  }
  const order = Array.from(input.keys()).sort((a, b) => input[a].time - input[b].time || a - b);
  return order.map((index) => input[index]);
}

class LaneBuilder {
  private readonly lanes: TimelineLane[] = [];
  /** Lanes by key: static ones by instance id, the others by the member id that opened them. */
  private readonly byInstanceId = new Map<string, number>();
  private readonly byOpeningMemberId = new Map<string, number>();
  private readonly byMemberId = new Map<string, number>();

  /** Returns the lane of the event's member (creating it), or -1 for group-level events. */
  place(event: RebalanceEvent): number {
    if (event.memberId === undefined || event.kind === 'state-changed' || event.kind === 'rebalance-started') {
      return -1;
    }
    const index = this.laneFor(event.memberId, event.groupInstanceId ?? null, event.clientId ?? null);
    const lane = this.lanes[index];
    const open = lane.spans.length > 0 && lane.spans[lane.spans.length - 1].to === null;
    if (LEAVING_KINDS.has(event.kind)) {
      if (open) {
        lane.spans[lane.spans.length - 1].to = event.time;
      } else {
        lane.spans.push({ from: event.time, to: event.time });
      }
    } else if (!open) {
      lane.spans.push({ from: event.time, to: null });
    }
    return index;
  }

  finish(): TimelineLane[] {
    for (const lane of this.lanes) {
      lane.label = laneLabel(lane);
    }
    return this.lanes.slice();
  }

  /** The member's lane, created (with no membership span) when the member was not seen yet. */
  laneFor(memberId: string, groupInstanceId: string | null, clientId: string | null): number {
    const keyed = groupInstanceId !== null ? this.byInstanceId : this.byOpeningMemberId;
    const key = groupInstanceId ?? memberId;
    let index = keyed.get(key) ?? this.byMemberId.get(memberId);
    if (index === undefined) {
      index = this.lanes.length;
      this.lanes.push({
        key: groupInstanceId !== null ? `static:${groupInstanceId}` : `member:${memberId}`,
        label: '',
        groupInstanceId,
        clientId,
        memberIds: [],
        spans: [],
      });
      keyed.set(key, index);
    }
    const lane = this.lanes[index];
    if (lane.clientId === null && clientId !== null) {
      lane.clientId = clientId;
    }
    // A member id last mapped to this lane is already among its ids: skip the scan.
    if (this.byMemberId.get(memberId) !== index && !lane.memberIds.includes(memberId)) {
      lane.memberIds.push(memberId);
    }
    this.byMemberId.set(memberId, index);
    return index;
  }
}

function laneLabel(lane: TimelineLane): string {
  if (lane.groupInstanceId !== null) {
    return `${lane.groupInstanceId} (static)`;
  }
  const memberId = lane.memberIds[0];
  return lane.clientId !== null && lane.clientId !== '' ? `${lane.clientId} · ${shortId(memberId, lane.clientId)}` : memberId;
}

/** Kafka member ids are `clientId-UUID`; the UUID's first block is enough to tell lanes apart. */
function shortId(memberId: string, clientId: string): string {
  const rest = memberId.startsWith(`${clientId}-`) ? memberId.slice(clientId.length + 1) : memberId;
  return rest.length > 8 ? rest.slice(0, 8) : rest;
}
