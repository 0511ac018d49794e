/**
 * The details pane: the selected event (what, when, who, why, what moved) and the rebalance it
 * belongs to; with nothing selected, a summary of the group's rebalances with links to each.
 */
import type { MemberAssignmentChange, MemberReconciliation, RebalanceEvent } from '../../model/types';
import { reconciliationOf } from '../../timeline/reconciliation';
import type { RebalanceSpan, TimelineModel } from '../../timeline/timelineModel';
import type { TimeBase } from '../timelineProtocol';
import { formatPartitions, generationSteps, KIND_LABELS, modeLabel } from './describe';
import { definitionList, h } from './dom';
import { transactionDetails, transactionSummary } from './transactionDetails';
import { markerIcon } from './markerIcon';
import { formatDuration, formatTime } from './viewWindow';

export interface DetailsContext {
  model: TimelineModel;
  timeBase: TimeBase;
  selected: number | null;
  /** Jump to (select) an event. */
  onSelect(event: number): void;
}

export function renderDetails(container: HTMLElement, context: DetailsContext): void {
  const { model, selected } = context;
  const content = selected === null ? summary(context) : eventDetails(context, model.events[selected], selected);
  container.replaceChildren(...content);
}

function eventDetails(context: DetailsContext, event: RebalanceEvent, index: number): HTMLElement[] {
  const { model, timeBase } = context;
  const heading = h('h2', { className: 'details-title' }, [markerIcon(event.kind), h('span', { text: KIND_LABELS[event.kind] })]);
  const rows: Array<[string, string | null | undefined]> = [
    ['Time', formatTime(event.time, timeBase, 1, true)],
    ['Generation', String(event.generation)],
    ['State', event.stateBefore || event.stateAfter ? `${event.stateBefore ?? '?'} → ${event.stateAfter ?? '?'}` : null],
    ['Member', event.memberId],
    ['Instance', event.groupInstanceId ? `${event.groupInstanceId} (static)` : null],
    ['Client', event.clientId],
    ['Cause', event.cause],
  ];
  const parts: HTMLElement[] = [heading, definitionList(rows)];
  if (event.inferred) {
    parts.push(h('p', { className: 'note', text: 'Inferred by comparing successive DescribeGroups snapshots; the time is when a poll noticed it.' }));
  }
  const hasAssignments = event.assignments !== undefined && event.assignments.length > 0;
  if (event.assignments && hasAssignments) {
    parts.push(h('h3', { text: 'Partitions' }), assignmentTable(model, event.assignments));
  }
  if (event.reconciliation) {
    parts.push(h('h3', { text: 'Reconciliation' }), reconciliationFacts(event.reconciliation));
  }
  parts.push(...transactionDetails(context, index));
  if (event.kind === 'sync-completed' && hasReconciliation(model)) {
    parts.push(h('h3', { text: `Convergence to epoch ${event.generation}` }), convergenceTable(context, event.generation));
  }
  const rebalance = rebalanceOf(model, index);
  if (rebalance) {
    // The rebalance's own table would repeat the event's when the event is its assignment.
    parts.push(h('h3', { text: 'Rebalance' }), rebalanceDetails(context, rebalance, !hasAssignments));
  }
  parts.push(h('p', { className: 'hint', text: `Event ${index + 1} of ${model.events.length} · ←/→ to move, Esc to clear` }));
  return parts;
}

function summary(context: DetailsContext): HTMLElement[] {
  const { model, timeBase } = context;
  const finished = model.rebalances.filter((r) => r.finished);
  const durations = finished.map((r) => r.to - r.from);
  const stopped = model.rebalances.reduce((sum, r) => sum + (r.stoppedFrom !== null && r.stoppedTo !== null ? r.stoppedTo - r.stoppedFrom : 0), 0);
  const parts: HTMLElement[] = [
    h('h2', { className: 'details-title', text: 'Overview' }),
    definitionList([
      ['Events', String(model.events.length)],
      ['Members seen', String(model.lanes.length)],
      ['Rebalances', `${model.rebalances.length}${finished.length < model.rebalances.length ? ' (one in progress)' : ''}`],
      ['Longest', durations.length > 0 ? formatDuration(Math.max(...durations)) : null],
      ['Average', durations.length > 0 ? formatDuration(durations.reduce((a, b) => a + b, 0) / durations.length) : null],
      ['Consumption stopped', model.rebalances.length > 0 ? formatDuration(stopped) : null],
      ['Slowest convergence', slowestConvergence(model)],
      ...transactionSummary(model),
      ['From', model.events.length > 0 ? formatTime(model.start, timeBase, 1, true) : null],
      ['To', model.events.length > 0 ? formatTime(model.end, timeBase, 1, true) : null],
    ]),
  ];
  if (model.rebalances.length > 0) {
    parts.push(h('h3', { text: 'Latest rebalances' }));
    const list = h('ol', { className: 'rebalance-list', attrs: { reversed: '' } });
    for (const rebalance of model.rebalances.slice(-12).reverse()) {
      const button = h('button', { className: 'link', attrs: { type: 'button' } }, [
        h('span', { className: `pill pill-${rebalance.mode}`, text: modeLabel(rebalance) }),
        ` ${generationSteps(rebalance)} · ${formatDuration(rebalance.to - rebalance.from)}`,
      ]);
      button.addEventListener('click', () => context.onSelect(rebalance.startEvent));
      list.appendChild(h('li', {}, [button]));
    }
    parts.push(list);
  }
  parts.push(h('p', { className: 'hint', text: 'Click an event or use the arrow keys and Enter to see its details.' }));
  return parts;
}

const PROTOCOL_TEXT: Record<RebalanceSpan['mode'], string> = {
  eager: 'eager (stop the world)',
  cooperative: 'cooperative (incremental)',
  reconciliation: 'consumer protocol, KIP-848 (each member revokes, then is assigned, one epoch step at a time)',
  none: 'nothing revoked',
};

const STREAMS_PROTOCOL_TEXT = 'streams protocol, KIP-1071 (each member revokes its active tasks, then is assigned, one epoch step at a time)';

function rebalanceDetails(context: DetailsContext, rebalance: RebalanceSpan, withAssignments: boolean): HTMLElement {
  const { timeBase, model } = context;
  const stopped =
    rebalance.stoppedFrom === null
      ? rebalance.mode === 'none'
        ? 'nothing was owned before it'
        : null
      : `${rebalance.mode === 'eager' ? `whole group, ${rebalance.stoppedPartitions.length} partition(s)` : `${rebalance.stoppedPartitions.length} moved partition(s): ${formatPartitions(rebalance.stoppedPartitions)}`} for ${formatDuration((rebalance.stoppedTo ?? model.end) - rebalance.stoppedFrom)}${rebalance.stoppedTo === null ? ' so far' : ''}`;
  const wrapper = h('div', { className: 'rebalance-details' }, [
    definitionList([
      [rebalance.protocol === 'classic' ? 'Generations' : 'Group epochs', `${rebalance.generationBefore} → ${rebalance.generationAfter}`],
      ['Started', formatTime(rebalance.from, timeBase, 1, true)],
      ['Duration', `${formatDuration(rebalance.to - rebalance.from)}${rebalance.finished ? '' : ' (in progress)'}`],
      ['Protocol', rebalance.protocol === 'streams' && rebalance.mode === 'reconciliation' ? STREAMS_PROTOCOL_TEXT : PROTOCOL_TEXT[rebalance.mode]],
      ['Consumption stopped', stopped],
    ]),
  ]);
  if (withAssignments && rebalance.assignments.length > 0) {
    wrapper.appendChild(assignmentTable(model, rebalance.assignments));
  }
  const goTo = h('button', { className: 'link', text: 'Go to the start of this rebalance', attrs: { type: 'button' } });
  goTo.addEventListener('click', () => context.onSelect(rebalance.startEvent));
  wrapper.appendChild(goTo);
  return wrapper;
}

function assignmentTable(model: TimelineModel, changes: readonly MemberAssignmentChange[]): HTMLElement {
  const body = h('tbody');
  for (const change of changes) {
    body.appendChild(
      h('tr', {}, [
        h('th', { attrs: { scope: 'row', title: change.memberId } }, [memberName(model, change)]),
        h('td', { className: 'revoked', text: change.revoked.length > 0 ? `− ${formatPartitions(change.revoked)}` : '' }),
        h('td', { className: 'assigned', text: change.assigned.length > 0 ? `+ ${formatPartitions(change.assigned)}` : '' }),
      ]),
    );
  }
  return h('table', { className: 'assignments' }, [
    h('thead', {}, [h('tr', {}, [h('th', { text: 'Member' }), h('th', { text: 'Revoked' }), h('th', { text: 'Assigned' })])]),
    body,
  ]);
}

/** A member as its lane names it (client id and the start of its UUID, or its static instance id). */
function memberName(model: TimelineModel, change: Pick<MemberAssignmentChange, 'memberId' | 'groupInstanceId'>): string {
  if (change.groupInstanceId) {
    return `${change.groupInstanceId} (static)`;
  }
  return model.lanes.find((lane) => lane.memberIds.includes(change.memberId))?.label ?? change.memberId;
}

/** The rebalance an event falls in, if any. */
function rebalanceOf(model: TimelineModel, index: number): RebalanceSpan | undefined {
  const time = model.events[index].time;
  return model.rebalances.find((r) => index >= r.startEvent && time <= r.to && (r.startEvent === index || time >= r.from));
}

/** A KIP-848 member's epoch step: where it stands and, on the step that reached the target, how long that took. */
function reconciliationFacts(rec: MemberReconciliation): HTMLElement {
  return definitionList([
    ['Member epoch', `${rec.previousMemberEpoch} → ${rec.memberEpoch}`],
    ['Target epoch', String(rec.targetEpoch)],
    ['State', RECONCILIATION_STATE_LABELS[rec.state]],
    ['Still to revoke', rec.pendingRevocation.length > 0 ? formatPartitions(rec.pendingRevocation) : null],
    ['Waiting for', rec.pendingAssignment.length > 0 ? formatPartitions(rec.pendingAssignment) : null],
    ['Standby tasks', rec.standbyTasks !== undefined && rec.standbyTasks.length > 0 ? formatPartitions(rec.standbyTasks) : null],
    ['Warm-up tasks', rec.warmupTasks !== undefined && rec.warmupTasks.length > 0 ? formatPartitions(rec.warmupTasks) : null],
    ['Converged', rec.convergedAfterMs !== undefined ? `${formatDuration(rec.convergedAfterMs)} after the target was set` : null],
  ]);
}

const RECONCILIATION_STATE_LABELS: Record<MemberReconciliation['state'], string> = {
  stable: 'stable',
  'unrevoked-partitions': 'revoking partitions (UNREVOKED_PARTITIONS)',
  'unreleased-partitions': 'waiting for partitions other members still own (UNRELEASED_PARTITIONS)',
  unknown: 'unknown',
};

function hasReconciliation(model: TimelineModel): boolean {
  return model.events.some((event) => event.reconciliation !== undefined);
}

/** Each member's time to reach one target epoch, with links to the step that reached it. */
function convergenceTable(context: DetailsContext, targetEpoch: number): HTMLElement {
  const { model } = context;
  const reached = reconciliationOf(model.events, model.end).convergences.filter((c) => c.targetEpoch === targetEpoch);
  const body = h('tbody');
  for (const convergence of reached) {
    const link = h('button', { className: 'link', text: formatDuration(convergence.to - convergence.from), attrs: { type: 'button' } });
    link.addEventListener('click', () => context.onSelect(convergence.event));
    body.appendChild(h('tr', {}, [h('th', { attrs: { scope: 'row', title: convergence.memberId } }, [memberName(model, { memberId: convergence.memberId })]), h('td', {}, [link])]));
  }
  if (reached.length === 0) {
    body.appendChild(h('tr', {}, [h('td', { text: 'no member has reached it yet', attrs: { colspan: '2' } })]));
  }
  return h('table', { className: 'assignments convergence' }, [h('thead', {}, [h('tr', {}, [h('th', { text: 'Member' }), h('th', { text: 'Took' })])]), body]);
}

function slowestConvergence(model: TimelineModel): string | null {
  const convergences = reconciliationOf(model.events, model.end).convergences;
  if (convergences.length === 0) {
    return null;
  }
  const slowest = convergences.reduce((a, b) => (b.to - b.from > a.to - a.from ? b : a));
  return `${formatDuration(slowest.to - slowest.from)} (${memberName(model, { memberId: slowest.memberId })} to epoch ${slowest.targetEpoch})`;
}
