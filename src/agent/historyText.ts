/**
 * Rebalance history and lag explanations as bounded text for the language-model tools. Pure over the model's
 * plain data (events, a group's detail and its health); no `vscode` import.
 */
import type { GroupDetail, GroupHealth, MemberAssignmentChange, PartitionOffsets, RebalanceEvent } from '../model/types';
import { boundLines, formatGroupLine, formatPartitionLine, formatPartitions } from './toolText';

export interface TimeWindow {
  /** Inclusive bounds in the source's time base (epoch or virtual milliseconds). */
  fromMs?: number;
  toMs?: number;
}

/** "2026-12-05T09:00:00.000Z", or "+12.5 s" for a simulation's virtual time. */
export function formatEventTime(time: number, timeBase: 'epoch' | 'virtual'): string {
  return timeBase === 'virtual' ? `+${(time / 1000).toFixed(3)} s` : new Date(time).toISOString();
}

function assignmentText(changes: readonly MemberAssignmentChange[]): string {
  return changes
    .filter((c) => c.revoked.length > 0 || c.assigned.length > 0)
    .map((c) => `${c.memberId}${c.revoked.length ? ` -${formatPartitions(c.revoked)}` : ''}${c.assigned.length ? ` +${formatPartitions(c.assigned)}` : ''}`)
    .join('; ');
}

/** One event: time, generation, kind, member, state change, cause and moved partitions. */
export function formatEvent(event: RebalanceEvent, timeBase: 'epoch' | 'virtual'): string {
  const parts = [`${formatEventTime(event.time, timeBase)} gen ${event.generation} ${event.kind}`];
  if (event.memberId) {
    parts.push(`member ${event.groupInstanceId ? `static ${event.groupInstanceId}` : (event.clientId ?? event.memberId)} (${event.memberId})`);
  }
  if (event.stateBefore && event.stateAfter && event.stateBefore !== event.stateAfter) {
    parts.push(`${event.stateBefore} → ${event.stateAfter}`);
  }
  if (event.cause) {
    parts.push(`cause: ${event.cause}`);
  }
  const moved = event.assignments ? assignmentText(event.assignments) : '';
  if (moved) {
    parts.push(`moved: ${moved}`);
  }
  if (event.inferred) {
    parts.push('(inferred from snapshots)');
  }
  return `- ${parts.join(', ')}`;
}

/** The events inside the window, newest `limit` of them, oldest first, with a count of what was left out. */
export function formatHistory(groupId: string, events: readonly RebalanceEvent[], window: TimeWindow, limit: number, timeBase: 'epoch' | 'virtual'): string {
  const inside = events.filter((e) => (window.fromMs === undefined || e.time >= window.fromMs) && (window.toMs === undefined || e.time <= window.toMs));
  const span = `${window.fromMs === undefined ? 'the start' : formatEventTime(window.fromMs, timeBase)} to ${window.toMs === undefined ? 'now' : formatEventTime(window.toMs, timeBase)}`;
  if (inside.length === 0) {
    return `No rebalance events of "${groupId}" from ${span} (${events.length} events kept in all${events.length ? `, the newest at ${formatEventTime(events[events.length - 1].time, timeBase)}` : ''}).`;
  }
  const shown = inside.slice(-limit);
  const rebalances = inside.filter((e) => e.kind === 'rebalance-started').length;
  const lines = [`Rebalance history of "${groupId}" from ${span}: ${inside.length} events, ${rebalances} rebalance(s) started.`];
  if (shown.length < inside.length) {
    lines.push(`… ${inside.length - shown.length} older events left out (narrow the window or raise limit)`);
  }
  lines.push(...shown.map((e) => formatEvent(e, timeBase)));
  return lines.join('\n');
}

/** Kinds that say a member stopped consuming: it left, its session expired, or it stopped polling. */
const STOP_KINDS: ReadonlySet<RebalanceEvent['kind']> = new Set(['member-left', 'member-expired', 'poll-timeout']);

/** What holds a read_committed group's end below the high watermark: an open transaction at the LSO. */
function openTransactionLine(row: PartitionOffsets): string | undefined {
  if (row.lastStableOffset == null || row.logEndOffset == null || row.lastStableOffset >= row.logEndOffset) {
    return undefined;
  }
  return `- ${row.topic}-${row.partition}: an open transaction holds the last stable offset at ${row.lastStableOffset} (high watermark ${row.logEndOffset}); read_committed consumers cannot read past it until it commits or aborts`;
}

/**
 * Why a group lags: its health and the reason, the partitions that lag most with their owners, an open
 * transaction at the LSO where there is one, and the members that stopped (from the rebalance events).
 */
export function formatLagExplanation(detail: GroupDetail, health: GroupHealth | undefined, events: readonly RebalanceEvent[], timeBase: 'epoch' | 'virtual'): string {
  const lines = [`Lag of "${detail.groupId}": ${formatGroupLine({ ...detail, ...(health ? { health } : {}) }).slice(2)}`];
  lines.push(health ? `Health ${health.status}: ${health.reason}` : 'Health: not evaluated yet (the view samples lag at each refresh; ask again after a refresh or two)');
  const lagging = detail.offsets.filter((o) => (o.lag ?? 0) > 0).sort((a, b) => (b.lagInTimeMs ?? -1) - (a.lagInTimeMs ?? -1) || (b.lag ?? 0) - (a.lag ?? 0));
  if (lagging.length === 0) {
    lines.push('No partition lags.');
  } else {
    lines.push(`Lagging partitions (${lagging.length}, oldest unconsumed record first):`, ...boundLines(lagging.map((r) => formatPartitionLine(r, detail.members)), 10, 'lagging partitions'));
    const unowned = lagging.filter((o) => !o.ownerMemberId);
    if (unowned.length > 0) {
      lines.push(`${unowned.length} lagging partition(s) have no owner: no member consumes them${detail.members.length === 0 ? ' (the group has no members)' : ''}.`);
    }
  }
  const transactions = detail.offsets.map(openTransactionLine).filter((l): l is string => l !== undefined);
  if (transactions.length > 0) {
    lines.push('Open transactions:', ...boundLines(transactions, 10, 'partitions'));
  }
  const stops = events.filter((e) => STOP_KINDS.has(e.kind)).slice(-5);
  if (stops.length > 0) {
    lines.push('Members that stopped (latest first):', ...[...stops].reverse().map((e) => formatEvent(e, timeBase)));
  }
  return lines.join('\n');
}
