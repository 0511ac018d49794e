/**
 * Lays a group's RebalanceEvents out for drawing: one lane per member (a static member keeps its
 * lane across member ids), the group's state phases and generations as time spans, markers, and
 * per rebalance what moved, how long it took and when consumption stopped. Pure; the webview
 * renders it.
 */
import type { GroupState, MemberAssignmentChange, RebalanceEvent, RebalanceEventKind, TopicPartition } from '../model/types';
import { topicPartitionKey } from './membershipDiff';

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

export type RebalanceMode = 'eager' | 'cooperative' | 'none';

export interface RebalanceSpan {
  from: number;
  /** When the group settled again (Stable, Empty or Dead), or the last event's time while still rebalancing. */
  to: number;
  finished: boolean;
  generationBefore: number;
  generationAfter: number;
  /** Merged per-member changes of every assignment event inside the rebalance. */
  assignments: MemberAssignmentChange[];
  mode: RebalanceMode;
  /** Partitions that could not be consumed during the rebalance: all owned ones for eager, only the moved ones for cooperative. */
  stoppedPartitions: TopicPartition[];
  /** Time consumption of `stoppedPartitions` stopped and resumed (resume null: not yet). */
  stoppedFrom: number | null;
  stoppedTo: number | null;
  /** Index in `events` of the event that started it. */
  startEvent: number;
}

export interface TimelineMarker {
  /** Index in `events`. An assignment event has one marker on the group lane and one per member it changed. */
  event: number;
  /** Index in `lanes`, or -1 for the group lane. */
  lane: number;
  time: number;
  kind: RebalanceEventKind;
}

export interface TimelineModel {
  groupId: string;
  /** The input events sorted by time (stable). Markers and rebalances index into this. */
  events: RebalanceEvent[];
  lanes: TimelineLane[];
  phases: PhaseSpan[];
  generations: GenerationSpan[];
  rebalances: RebalanceSpan[];
  /** Sorted by time. */
  markers: TimelineMarker[];
  start: number;
  end: number;
}

const SETTLED_STATES: ReadonlySet<GroupState> = new Set<GroupState>(['Stable', 'Empty', 'Dead']);
const LEAVING_KINDS: ReadonlySet<RebalanceEventKind> = new Set<RebalanceEventKind>(['member-left', 'member-expired', 'poll-timeout']);

export function buildTimeline(groupId: string, input: readonly RebalanceEvent[]): TimelineModel {
  const events = sortedByTime(input);
  const start = events.length > 0 ? events[0].time : 0;
  const end = events.length > 0 ? events[events.length - 1].time : 0;
  const lanes = new LaneBuilder();
  const markers: TimelineMarker[] = [];
  for (let index = 0; index < events.length; index++) {
    const event = events[index];
    const lane = lanes.place(event);
    markers.push({ event: index, lane, time: event.time, kind: event.kind });
    // An assignment also shows on the lane of each member it changed.
    for (const change of event.assignments ?? NO_CHANGES) {
      const memberLane = lanes.laneFor(change.memberId, change.groupInstanceId ?? null, null);
      if (memberLane !== lane) {
        markers.push({ event: index, lane: memberLane, time: event.time, kind: event.kind });
      }
    }
  }
  return {
    groupId,
    events,
    lanes: lanes.finish(),
    phases: phaseSpans(events, end),
    generations: generationSpans(events, end),
    rebalances: rebalanceSpans(events),
    markers,
    start,
    end,
  };
}

const NO_CHANGES: readonly MemberAssignmentChange[] = [];
const NO_MEMBERS: readonly string[] = [];

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

/** Index of the first marker at or after `time` (markers sorted by time); markers.length when none. */
export function firstMarkerAtOrAfter(markers: readonly TimelineMarker[], time: number): number {
  return lowerBound(markers.length, (i) => markers[i].time < time);
}

/** The first of ascending `times` at or after `time`, if any. */
function firstAtOrAfter(times: readonly number[], time: number): number | undefined {
  const index = lowerBound(times.length, (i) => times[i] < time);
  return index < times.length ? times[index] : undefined;
}

/** Binary search: the first index in [0, length) for which `before` is false. */
function lowerBound(length: number, before: (index: number) => boolean): number {
  let low = 0;
  let high = length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (before(mid)) {
      low = mid + 1;
    } else {
      high = mid;
    }
  }
  return low;
}

class LaneBuilder {
  private readonly lanes: TimelineLane[] = [];
  private readonly byKey = new Map<string, number>();
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
    return this.lanes;
  }

  /** The member's lane, created (with no membership span) when the member was not seen yet. */
  laneFor(memberId: string, groupInstanceId: string | null, clientId: string | null): number {
    const key = groupInstanceId !== null ? `static:${groupInstanceId}` : `member:${memberId}`;
    let index = this.byKey.get(key) ?? this.byMemberId.get(memberId);
    if (index === undefined) {
      index = this.lanes.length;
      this.lanes.push({
        key,
        label: '',
        groupInstanceId,
        clientId,
        memberIds: [],
        spans: [],
      });
      this.byKey.set(key, index);
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

function phaseSpans(events: readonly RebalanceEvent[], end: number): PhaseSpan[] {
  const phases: PhaseSpan[] = [];
  for (const event of events) {
    const state = event.stateAfter;
    if (state === undefined) {
      continue;
    }
    const last = phases[phases.length - 1];
    if (last && last.state === state) {
      continue;
    }
    if (last) {
      last.to = event.time;
    }
    phases.push({ state, from: event.time, to: end });
  }
  return phases;
}

function generationSpans(events: readonly RebalanceEvent[], end: number): GenerationSpan[] {
  const spans: GenerationSpan[] = [];
  for (const event of events) {
    const last = spans[spans.length - 1];
    if (last && event.generation <= last.generation) {
      continue;
    }
    if (last) {
      last.to = event.time;
    }
    spans.push({ generation: event.generation, from: event.time, to: end });
  }
  return spans;
}

function startsRebalance(event: RebalanceEvent): boolean {
  return event.kind === 'rebalance-started' || (event.stateAfter !== undefined && event.stateAfter === 'PreparingRebalance');
}

function endsRebalance(event: RebalanceEvent): boolean {
  return event.stateAfter !== undefined && SETTLED_STATES.has(event.stateAfter) && event.kind !== 'rebalance-started';
}

function rebalanceSpans(events: readonly RebalanceEvent[]): RebalanceSpan[] {
  const spans: RebalanceSpan[] = [];
  /** Partition key → owner member id, from assignment events so far. */
  const owners = new Map<string, Owner>();
  /** Partition key → times it was assigned to someone, ascending: when a revoked partition resumes. */
  const assignedAt = new Map<string, number[]>();
  /** Members that left, expired or timed out at `departedTime` (the latest instant anyone did). */
  let departedTime = Number.NaN;
  let departedNow: string[] = [];
  let open: OpenRebalance | null = null;
  /** A rebalance that has settled but still takes what happens at the same instant (the sync's assignments). */
  let settling: OpenRebalance | null = null;
  const all: OpenRebalance[] = [];

  for (let index = 0; index < events.length; index++) {
    const event = events[index];
    if (settling && (event.time !== settling.span.to || startsRebalance(event))) {
      settling = null;
    }
    if (LEAVING_KINDS.has(event.kind) && event.memberId !== undefined) {
      if (event.time !== departedTime) {
        departedTime = event.time;
        departedNow = [];
      }
      departedNow.push(event.memberId);
      open?.departed.add(event.memberId);
    }
    if (open === null && startsRebalance(event)) {
      const span: RebalanceSpan = {
        from: event.time,
        to: event.time,
        finished: false,
        generationBefore: event.generation,
        generationAfter: event.generation,
        assignments: [],
        mode: 'none',
        stoppedPartitions: [],
        stoppedFrom: null,
        stoppedTo: null,
        startEvent: index,
      };
      spans.push(span);
      // A departure at the very instant the rebalance starts is what started it.
      const departed: Set<string> = new Set(departedNow.length > 0 && departedTime === event.time ? departedNow : NO_MEMBERS);
      open = { span, ownedBefore: [...owners.values()], departed, firstRevoke: null };
      all.push(open);
    }
    const current = open ?? settling;
    for (const change of event.assignments ?? NO_CHANGES) {
      applyOwnership(owners, change);
      for (const tp of change.assigned) {
        const key = topicPartitionKey(tp);
        const times = assignedAt.get(key);
        if (times) {
          times.push(event.time);
        } else {
          assignedAt.set(key, [event.time]);
        }
      }
      if (current) {
        mergeChange(current.span.assignments, change);
        if (change.revoked.length > 0 && current.firstRevoke === null) {
          current.firstRevoke = event.time;
        }
      }
    }
    if (open) {
      open.span.to = event.time;
      open.span.generationAfter = Math.max(open.span.generationAfter, event.generation);
      if (endsRebalance(event)) {
        open.span.finished = true;
        settling = open;
        open = null;
      }
    }
  }
  for (const rebalance of all) {
    classify(rebalance, assignedAt);
  }
  return spans;
}

interface Owner {
  tp: TopicPartition;
  memberId: string;
}

interface OpenRebalance {
  span: RebalanceSpan;
  /** What each member owned when the rebalance started. */
  ownedBefore: Owner[];
  /** Members that left when or while it ran: they stopped consuming without revoking. */
  departed: Set<string>;
  /** Time of the first assignment event inside the rebalance that revoked something. */
  firstRevoke: number | null;
}

function applyOwnership(owners: Map<string, Owner>, change: MemberAssignmentChange): void {
  for (const tp of change.revoked) {
    const key = topicPartitionKey(tp);
    if (owners.get(key)?.memberId === change.memberId) {
      owners.delete(key);
    }
  }
  for (const tp of change.assigned) {
    owners.set(topicPartitionKey(tp), { tp, memberId: change.memberId });
  }
}

function mergeChange(into: MemberAssignmentChange[], change: MemberAssignmentChange): void {
  const existing = into.find((c) => c.memberId === change.memberId);
  if (!existing) {
    into.push({ memberId: change.memberId, groupInstanceId: change.groupInstanceId, revoked: [...change.revoked], assigned: [...change.assigned] });
    return;
  }
  existing.revoked.push(...change.revoked);
  existing.assigned.push(...change.assigned);
}

/**
 * Eager consumers revoke everything they own before rejoining, so the whole group stops for the
 * whole rebalance; cooperative ones keep what does not move, so only moved partitions stop. The
 * mode is read from what the events say: when everything owned before was revoked or belonged to
 * a member that left, or a partition was revoked and handed back to the same member, it is eager.
 */
function classify({ span, ownedBefore, departed, firstRevoke }: OpenRebalance, assignedAt: ReadonlyMap<string, number[]>): void {
  const revoked = new Map<string, TopicPartition>();
  let handedBack = false;
  for (const change of span.assignments) {
    const assigned = new Set(change.assigned.map(topicPartitionKey));
    for (const tp of change.revoked) {
      revoked.set(topicPartitionKey(tp), tp);
      handedBack ||= assigned.has(topicPartitionKey(tp));
    }
  }
  if (revoked.size === 0) {
    span.mode = 'none';
    return;
  }
  const allStopped =
    ownedBefore.length > 0 && ownedBefore.every((owner) => revoked.has(topicPartitionKey(owner.tp)) || departed.has(owner.memberId));
  span.mode = handedBack || allStopped ? 'eager' : 'cooperative';
  if (span.mode === 'eager') {
    // onJoinPrepare revokes everything before JoinGroup: nothing is consumed until the group is Stable.
    span.stoppedPartitions = ownedBefore.map((owner) => owner.tp);
    span.stoppedFrom = span.from;
    span.stoppedTo = span.finished ? span.to : null;
    return;
  }
  // A moved partition stops when its owner revokes it and resumes when the follow-up rebalance hands it out.
  span.stoppedPartitions = [...revoked.values()];
  const stoppedFrom = firstRevoke ?? span.from;
  span.stoppedFrom = stoppedFrom;
  let resumed: number | null = stoppedFrom;
  for (const key of revoked.keys()) {
    const next = firstAtOrAfter(assignedAt.get(key) ?? [], stoppedFrom);
    resumed = next === undefined || resumed === null ? null : Math.max(resumed, next);
  }
  span.stoppedTo = resumed;
}
