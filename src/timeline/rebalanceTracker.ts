/**
 * Folds a group's events into rebalances: what moved in each, which protocol ran it, and when
 * consumption of which partitions stopped and resumed (eager: all owned; cooperative and KIP-848: the
 * moved ones). Used by timelineModel.ts.
 */
import { lowerBound } from './lowerBound';
import { grown } from './typedArrays';
import type { GroupState, MemberAssignmentChange, RebalanceEvent, RebalanceEventKind, TopicPartition } from '../model/types';

/**
 * eager: every owned partition stopped (classic, onJoinPrepare revokes all); cooperative: only moved ones
 * (classic, two rebalances); reconciliation: a KIP-848 group's members revoke and are assigned one
 * epoch step at a time, so only moved partitions stop; none: nothing was revoked.
 */
export type RebalanceMode = 'eager' | 'cooperative' | 'reconciliation' | 'none';

/** Which group protocol ran the rebalance: classic generations, or the group epochs of KIP-848 or of a streams group (KIP-1071). */
export type RebalanceProtocol = 'classic' | 'consumer' | 'streams';

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
  /** consumer (streams) when its events carry a KIP-848 (streams) member's reconciliation: generations are then group epochs. */
  protocol: RebalanceProtocol;
  /** Partitions that could not be consumed during the rebalance: all owned ones for eager, only the moved ones for cooperative. */
  stoppedPartitions: TopicPartition[];
  /** Time consumption of `stoppedPartitions` stopped and resumed (resume null: not yet). */
  stoppedFrom: number | null;
  stoppedTo: number | null;
  /** Index in `events` of the event that started it. */
  startEvent: number;
}

const SETTLED_STATES: ReadonlySet<GroupState> = new Set<GroupState>(['Stable', 'Empty', 'Dead']);
export const LEAVING_KINDS: ReadonlySet<RebalanceEventKind> = new Set<RebalanceEventKind>(['member-left', 'member-expired', 'poll-timeout']);

export const NO_CHANGES: readonly MemberAssignmentChange[] = [];

/** The first of ascending `times` at or after `time`, if any. */
function firstAtOrAfter(times: readonly number[], time: number): number | undefined {
  const index = lowerBound(times.length, (i) => times[i] < time);
  return index < times.length ? times[index] : undefined;
}

function startsRebalance(event: RebalanceEvent): boolean {
  return event.kind === 'rebalance-started' || (event.stateAfter !== undefined && event.stateAfter === 'PreparingRebalance');
}

function endsRebalance(event: RebalanceEvent): boolean {
  return event.stateAfter !== undefined && SETTLED_STATES.has(event.stateAfter) && event.kind !== 'rebalance-started';
}

/** Folds events into rebalances: what moved in each, and when consumption stopped and resumed. */
export class RebalanceTracker {
  private readonly all: RebalanceSpan[] = [];
  /** Partition id → its owner's member id, from assignment events so far. */
  private readonly owners: (string | undefined)[] = [];
  /**
   * Partition ids that have an owner, in the order they became owned: a rebalance copies them, and
   * an eager rebalance lists its stopped partitions in this order.
   */
  private readonly owned = new Set<number>();
  /** Partition id → times it was assigned to someone, ascending: when a revoked partition resumes. */
  private readonly assignedAt: number[][] = [];
  /** Partition keys are small numbers: no string per partition mention, and arrays instead of maps. */
  private readonly partitionIds = new PartitionIds();
  /** Members that left, expired or timed out at `departedTime` (the latest instant anyone did). */
  private departedTime = Number.NaN;
  private departedNow: string[] = [];
  private open: OpenRebalance | null = null;
  /** A rebalance that has settled but still takes what happens at the same instant (the sync's assignments). */
  private settling: OpenRebalance | null = null;
  /** classic until an event shows a KIP-848 member's reconciliation. */
  private protocol: RebalanceProtocol = 'classic';
  /** Rebalances whose classification later events can still change. */
  private pending: OpenRebalance[] = [];
  private readonly scratch = new PartitionScratch();
  /** Merged changes this tracker made (and may extend), as opposed to the events' own. */
  private readonly mergedCopies = new WeakSet<MemberAssignmentChange>();

  add(event: RebalanceEvent, index: number): void {
    const starts = startsRebalance(event);
    if (this.settling && (event.time !== this.settling.span.to || starts)) {
      this.settling = null;
    }
    if (LEAVING_KINDS.has(event.kind) && event.memberId !== undefined) {
      if (event.time !== this.departedTime) {
        this.departedTime = event.time;
        this.departedNow = [];
      }
      this.departedNow.push(event.memberId);
      this.open?.departed.push(event.memberId);
    }
    if (this.open === null && starts) {
      const span: RebalanceSpan = {
        from: event.time,
        to: event.time,
        finished: false,
        generationBefore: event.generation,
        generationAfter: event.generation,
        assignments: [],
        mode: 'none',
        protocol: this.protocol,
        stoppedPartitions: [],
        stoppedFrom: null,
        stoppedTo: null,
        startEvent: index,
      };
      this.all.push(span);
      // A departure at the very instant the rebalance starts is what started it.
      const departed = this.departedNow.length > 0 && this.departedTime === event.time ? this.departedNow.slice() : [];
      const ownedBefore = Array.from(this.owned);
      const ownersBefore = ownedBefore.map((id) => this.owners[id] ?? '');
      this.open = { span, ownedBefore, ownersBefore, departed, firstRevoke: null };
      this.pending.push(this.open);
    }
    const current = this.open ?? this.settling;
    if (event.reconciliation) {
      // A group whose members reported a reconciliation runs the consumer protocol from then on; only a
      // streams member's steps carry standby tasks.
      this.protocol = event.reconciliation.standbyTasks === undefined ? 'consumer' : 'streams';
      if (current) {
        current.span.protocol = this.protocol;
      }
    }
    const changes = event.assignments ?? NO_CHANGES;
    for (let c = 0; c < changes.length; c++) {
      const change = changes[c];
      this.applyOwnership(change, event.time);
      if (current) {
        mergeChange(current.span.assignments, change, this.mergedCopies);
        if (change.revoked.length > 0 && current.firstRevoke === null) {
          current.firstRevoke = event.time;
        }
      }
    }
    if (this.open) {
      this.open.span.to = event.time;
      this.open.span.generationAfter = Math.max(this.open.span.generationAfter, event.generation);
      if (endsRebalance(event)) {
        this.open.span.finished = true;
        this.settling = this.open;
        this.open = null;
      }
    }
  }

  /** Every rebalance so far, classified as of the last event. */
  spans(): RebalanceSpan[] {
    this.pending = this.pending.filter((rebalance) => {
      classify(rebalance, this.assignedAt, this.partitionIds, this.scratch);
      // Settled and closed to same-instant events, and (cooperative) every moved partition handed out again: final.
      return rebalance === this.open || rebalance === this.settling || (rebalance.span.mode !== 'eager' && rebalance.span.mode !== 'none' && rebalance.span.stoppedTo === null);
    });
    return this.all.slice();
  }

  /** Moves ownership for `change`, and notes when each assigned partition was handed out. */
  private applyOwnership(change: MemberAssignmentChange, time: number): void {
    const { revoked, assigned, memberId } = change;
    for (let p = 0; p < revoked.length; p++) {
      const id = this.partitionIds.of(revoked[p]);
      if (this.owners[id] === memberId) {
        this.owners[id] = undefined;
        this.owned.delete(id);
      }
    }
    for (let p = 0; p < assigned.length; p++) {
      const id = this.partitionIds.of(assigned[p]);
      this.owners[id] = memberId;
      this.owned.add(id);
      const times = this.assignedAt[id];
      if (times) {
        times.push(time);
      } else {
        this.assignedAt[id] = [time];
      }
    }
  }
}

/** Numbers topic-partitions 0, 1, 2… in order of first mention. */
class PartitionIds {
  private readonly byTopic = new Map<string, number[]>();
  private readonly partitions: TopicPartition[] = [];
  /** The last topic looked up and its partitions: mentions come in runs of one topic. */
  private lastTopic: string | null = null;
  private lastPartitions: number[] = [];

  of(tp: TopicPartition): number {
    let partitions: number[] | undefined = this.lastPartitions;
    if (tp.topic !== this.lastTopic) {
      partitions = this.byTopic.get(tp.topic);
      if (partitions === undefined) {
        partitions = [];
        this.byTopic.set(tp.topic, partitions);
      }
      this.lastTopic = tp.topic;
      this.lastPartitions = partitions;
    }
    let id = partitions[tp.partition];
    if (id === undefined) {
      id = this.partitions.length;
      this.partitions.push(tp);
      partitions[tp.partition] = id;
    }
    return id;
  }

  partition(id: number): TopicPartition {
    return this.partitions[id];
  }

  /** How many partitions have ids (they are 0 … count − 1). */
  get count(): number {
    return this.partitions.length;
  }
}

/**
 * Sets of partition ids without allocating: a partition is in the set when its slot holds the
 * current stamp, so clearing is one increment.
 */
class PartitionScratch {
  /** Slot per partition id: in the revoked (assigned) set when it holds the current stamp. */
  revoked: Int32Array<ArrayBuffer> = new Int32Array(64);
  assigned: Int32Array<ArrayBuffer> = new Int32Array(64);
  private stamp = 0;

  /** Makes room for partition ids below `count`; classify then reads and writes the slots directly. */
  reserve(count: number): void {
    if (count > this.revoked.length) {
      this.revoked = grown(this.revoked, count - 1);
      this.assigned = grown(this.assigned, count - 1);
    }
  }

  /** A stamp no slot holds yet: a new, empty set. */
  next(): number {
    return ++this.stamp;
  }
}

interface OpenRebalance {
  span: RebalanceSpan;
  /** Partition ids owned when the rebalance started, and their owners' member ids at the same positions. */
  ownedBefore: number[];
  ownersBefore: string[];
  /** Members that left when or while it ran: they stopped consuming without revoking. */
  departed: string[];
  /** Time of the first assignment event inside the rebalance that revoked something. */
  firstRevoke: number | null;
}

/**
 * Adds a member's change to a rebalance's merged changes. A member changed once in a rebalance (the
 * usual case) shares the event's own change object; only a second change makes a merged copy, so
 * the events are never modified and a build allocates no copy per change.
 */
function mergeChange(into: MemberAssignmentChange[], change: MemberAssignmentChange, copies: WeakSet<MemberAssignmentChange>): void {
  const at = into.findIndex((c) => c.memberId === change.memberId);
  if (at < 0) {
    into.push(change);
    return;
  }
  let merged = into[at];
  if (!copies.has(merged)) {
    merged = { ...merged, revoked: [...merged.revoked], assigned: [...merged.assigned] };
    copies.add(merged);
    into[at] = merged;
  }
  merged.revoked.push(...change.revoked);
  merged.assigned.push(...change.assigned);
}

/**
 * Eager consumers revoke everything they own before rejoining, so the whole group stops for the
 * whole rebalance; cooperative ones keep what does not move, so only moved partitions stop. The
 * mode is read from what the events say: when everything owned before was revoked or belonged to
 * a member that left, or a partition was revoked and handed back to the same member, it is eager.
 */
function classify({ span, ownedBefore, ownersBefore, departed, firstRevoke }: OpenRebalance, assignedAt: readonly (number[] | undefined)[], ids: PartitionIds, scratch: PartitionScratch): void {
  scratch.reserve(ids.count);
  const revokedSet = scratch.revoked;
  const assignedSet = scratch.assigned;
  const revokedStamp = scratch.next();
  /** Revoked partition ids, each once, in order of first revocation. */
  const revoked: number[] = [];
  let handedBack = false;
  for (let c = 0; c < span.assignments.length; c++) {
    const change = span.assignments[c];
    const assignedStamp = scratch.next();
    for (let p = 0; p < change.assigned.length; p++) {
      assignedSet[ids.of(change.assigned[p])] = assignedStamp;
    }
    for (let p = 0; p < change.revoked.length; p++) {
      const id = ids.of(change.revoked[p]);
      if (revokedSet[id] !== revokedStamp) {
        revokedSet[id] = revokedStamp;
        revoked.push(id);
      }
      handedBack ||= assignedSet[id] === assignedStamp;
    }
  }
  if (revoked.length === 0) {
    span.mode = 'none';
    return;
  }
  let allStopped = ownedBefore.length > 0;
  for (let i = 0; i < ownedBefore.length && allStopped; i++) {
    allStopped = revokedSet[ownedBefore[i]] === revokedStamp || departed.includes(ownersBefore[i]);
  }
  // A KIP-848 member never revokes what it keeps (CurrentAssignmentBuilder), whatever the pattern looks like.
  span.mode = span.protocol !== 'classic' ? 'reconciliation' : handedBack || allStopped ? 'eager' : 'cooperative';
  if (span.mode === 'eager') {
    // onJoinPrepare revokes everything before JoinGroup: nothing is consumed until the group is Stable.
    span.stoppedPartitions = ownedBefore.map((id) => ids.partition(id));
    span.stoppedFrom = span.from;
    span.stoppedTo = span.finished ? span.to : null;
    return;
  }
  // A moved partition stops when its owner revokes it and resumes when the follow-up rebalance hands it out.
  span.stoppedPartitions = revoked.map((id) => ids.partition(id));
  const stoppedFrom = firstRevoke ?? span.from;
  span.stoppedFrom = stoppedFrom;
  let resumed: number | null = stoppedFrom;
  for (let r = 0; r < revoked.length; r++) {
    const id = revoked[r];
    const next = firstAtOrAfter(assignedAt[id] ?? [], stoppedFrom);
    resumed = next === undefined || resumed === null ? null : Math.max(resumed, next);
  }
  span.stoppedTo = resumed;
}
