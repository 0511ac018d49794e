/**
 * A timeline's markers as columns of typed arrays. A model of 10,000 events has some 15,000
 * markers: as objects they were the largest share of what a build allocated (and, where the
 * engine boxes doubles, an extra heap number per wall-clock time), which the first render paid
 * for in garbage collection.
 */
import { EVENT_KINDS, EVENT_KIND_CODES } from '../model/eventKinds';
import type { RebalanceEventKind } from '../model/types';
import { lowerBound } from './lowerBound';
import { grown } from './typedArrays';

export interface TimelineMarker {
  /** Index in the model's `events`. An assignment event has one marker on the group lane and one per member it changed. */
  event: number;
  /** Index in the model's `lanes`, or -1 for the group lane. */
  lane: number;
  time: number;
  kind: RebalanceEventKind;
}

/**
 * Markers sorted by time. The columns are public for loops over thousands of markers (a call per
 * field read costs, most of all before the code is optimised); nothing may write to them.
 */
export class MarkerColumns {
  constructor(
    readonly events: Int32Array,
    readonly lanes: Int32Array,
    readonly times: Float64Array,
    /** Codes into EVENT_KINDS. */
    readonly kinds: Uint8Array,
  ) {}

  get length(): number {
    return this.times.length;
  }

  kind(index: number): RebalanceEventKind {
    return EVENT_KINDS[this.kinds[index]];
  }

  /** The marker as an object (for details and tests; drawing reads the columns). */
  at(index: number): TimelineMarker {
    return { event: this.events[index], lane: this.lanes[index], time: this.times[index], kind: this.kind(index) };
  }

  toArray(): TimelineMarker[] {
    return Array.from({ length: this.length }, (_, index) => this.at(index));
  }

  /** Index of the first marker at or after `time`; length when none. */
  firstAtOrAfter(time: number): number {
    return lowerBound(this.times.length, (i) => this.times[i] < time);
  }

  /** The lane of the first marker of `event` (its own lane: the group lane or its member's), -1 when none. */
  laneOfEvent(event: number): number {
    const index = this.events.indexOf(event);
    return index >= 0 ? this.lanes[index] : -1;
  }
}

/** Append-only marker columns that grow by doubling; `columns()` is a snapshot later appends do not change. */
export class MarkerColumnsBuilder {
  private events: Int32Array<ArrayBuffer> = new Int32Array(256);
  private lanes: Int32Array<ArrayBuffer> = new Int32Array(256);
  private times: Float64Array<ArrayBuffer> = new Float64Array(256);
  private kinds: Uint8Array<ArrayBuffer> = new Uint8Array(256);
  private count = 0;

  push(event: number, lane: number, time: number, kind: RebalanceEventKind): void {
    const code = EVENT_KIND_CODES.get(kind);
    if (code === undefined) {
      throw new Error(`timeline: event ${event} has an unknown kind ${String(kind)}`);
    }
    const at = this.count++;
    if (at === this.times.length) {
      // Doubling: rare, so a push is otherwise a few stores (it runs once per marker, often before the code is optimised).
      this.events = grown(this.events, at);
      this.lanes = grown(this.lanes, at);
      this.times = grown(this.times, at);
      this.kinds = grown(this.kinds, at);
    }
    this.events[at] = event;
    this.lanes[at] = lane;
    this.times[at] = time;
    this.kinds[at] = code;
  }

  /** Views of the filled part: appends write past it, and growing copies into new buffers. */
  columns(): MarkerColumns {
    const n = this.count;
    return new MarkerColumns(this.events.subarray(0, n), this.lanes.subarray(0, n), this.times.subarray(0, n), this.kinds.subarray(0, n));
  }
}
