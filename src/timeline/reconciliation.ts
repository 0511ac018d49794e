/**
 * A KIP-848 group's reconciliation laid out for drawing, from its members' epoch steps
 * (RebalanceEvent.reconciliation): per member, the spans during which it still had partitions to
 * revoke or waited for partitions others still owned (and, in a streams group, held standby or warm-up
 * tasks), and how long each member took to reach each target assignment. Classic groups have no epoch steps and get an empty layout. Pure.
 */
import type { RebalanceEvent, TopicPartition } from '../model/types';

export type ReconciliationSpanKind = 'revoking' | 'waiting' | 'standby' | 'warmup';

export interface ReconciliationSpan {
  memberId: string;
  kind: ReconciliationSpanKind;
  from: number;
  /** The member's next step, its leaving, or the end of the timeline while still open. */
  to: number;
  open: boolean;
  memberEpoch: number;
  targetEpoch: number;
  partitions: TopicPartition[];
  /** Index of the step that opened it. */
  event: number;
}

export interface MemberConvergence {
  memberId: string;
  targetEpoch: number;
  /** When the target was written, and when the member reached it. */
  from: number;
  to: number;
  /** Index of the step that reached it. */
  event: number;
}

export interface ReconciliationLayout {
  spans: ReconciliationSpan[];
  convergences: MemberConvergence[];
}

const LEAVING = new Set<RebalanceEvent['kind']>(['member-left', 'member-expired', 'poll-timeout']);

/** `events` sorted by time (a TimelineModel's); `end` closes the spans still open. */
export function reconciliationLayout(events: readonly RebalanceEvent[], end: number): ReconciliationLayout {
  const spans: ReconciliationSpan[] = [];
  const convergences: MemberConvergence[] = [];
  const open = new Map<string, ReconciliationSpan[]>();
  const close = (memberId: string, time: number): void => {
    for (const span of open.get(memberId) ?? []) {
      span.to = time;
      span.open = false;
    }
    open.delete(memberId);
  };
  events.forEach((event, index) => {
    const memberId = event.memberId;
    if (memberId === undefined) {
      return;
    }
    if (LEAVING.has(event.kind)) {
      close(memberId, event.time);
      return;
    }
    const rec = event.reconciliation;
    if (rec === undefined) {
      return;
    }
    close(memberId, event.time);
    const opened: ReconciliationSpan[] = [];
    const base = { memberId, from: event.time, to: end, open: true, memberEpoch: rec.memberEpoch, targetEpoch: rec.targetEpoch, event: index };
    if (rec.pendingRevocation.length > 0) {
      opened.push({ ...base, kind: 'revoking', partitions: rec.pendingRevocation });
    }
    if (rec.pendingAssignment.length > 0) {
      opened.push({ ...base, kind: 'waiting', partitions: rec.pendingAssignment });
    }
    if (rec.standbyTasks !== undefined && rec.standbyTasks.length > 0) {
      opened.push({ ...base, kind: 'standby', partitions: rec.standbyTasks });
    }
    if (rec.warmupTasks !== undefined && rec.warmupTasks.length > 0) {
      opened.push({ ...base, kind: 'warmup', partitions: rec.warmupTasks });
    }
    if (opened.length > 0) {
      spans.push(...opened);
      open.set(memberId, opened);
    }
    if (rec.convergedAfterMs !== undefined) {
      convergences.push({ memberId, targetEpoch: rec.memberEpoch, from: event.time - rec.convergedAfterMs, to: event.time, event: index });
    }
  });
  return { spans, convergences };
}

const layouts = new WeakMap<readonly RebalanceEvent[], ReconciliationLayout>();

/** The layout of a model's events, computed once per events array. */
export function reconciliationOf(events: readonly RebalanceEvent[], end: number): ReconciliationLayout {
  let layout = layouts.get(events);
  if (layout === undefined) {
    layout = reconciliationLayout(events, end);
    layouts.set(events, layout);
  }
  return layout;
}
