/**
 * The details pane's words on transactions: for a selected transaction-* or lso-* event, the span it
 * starts or ends (producer, outcome, how long, which partitions); in the overview, how many of the
 * group's transactions committed or aborted and how long open transactions held its partitions' LSO.
 */
import type { LsoHoldSpan, TimelineModel, TransactionSpan } from '../../timeline/timelineModel';
import type { TimeBase } from '../timelineProtocol';
import { formatPartitions, producerEpochText } from './describe';
import { definitionList, h } from './dom';
import { formatDuration, formatTime } from './viewWindow';

interface TransactionContext {
  model: TimelineModel;
  timeBase: TimeBase;
  onSelect(event: number): void;
}

const OUTCOME_TEXT: Record<TransactionSpan['outcome'], string> = {
  open: 'open: its offsets are pending (a stable OffsetFetch waits for them)',
  committed: 'committed: its offsets became the group\'s',
  aborted: 'aborted: its offsets were dropped',
};

function goTo(context: TransactionContext, event: number | null, text: string): HTMLElement[] {
  if (event === null) {
    return [];
  }
  const button = h('button', { className: 'link', text, attrs: { type: 'button' } });
  button.addEventListener('click', () => context.onSelect(event));
  return [button];
}

/** The sections for event `index`: the transaction span and the LSO holds it starts or ends. */
export function transactionDetails(context: TransactionContext, index: number): HTMLElement[] {
  const { model, timeBase } = context;
  const parts: HTMLElement[] = [];
  const span = model.transactions.find((t) => t.startEvent === index || t.endEvent === index);
  if (span) {
    parts.push(
      h('h3', { text: 'Transaction' }),
      definitionList([
        ['Transactional id', span.transactionalId],
        ['Producer', producerEpochText(span)],
        ['Outcome', OUTCOME_TEXT[span.outcome]],
        ['Began', formatTime(span.from, timeBase, 1, true)],
        ['Open for', `${formatDuration((span.to ?? model.end) - span.from)}${span.to === null ? ' so far' : ''}`],
        ['Offsets of', formatPartitions(span.partitions)],
      ]),
      ...goTo(context, span.startEvent === index ? span.endEvent : span.startEvent, span.startEvent === index ? 'Go to its marker' : 'Go to its first offsets'),
    );
  }
  const holds = model.lsoHolds.filter((hold) => hold.startEvent === index || hold.endEvent === index);
  for (const hold of holds) {
    parts.push(
      h('h3', { text: `LSO of ${hold.topic}-${hold.partition}` }),
      definitionList([
        ['Held at', hold.lso !== null ? hold.lso.toLocaleString('en-US') : null],
        ['By', `${hold.transactionalId !== null ? `${hold.transactionalId}, ` : ''}producer ${producerEpochText(hold)}`],
        ['Read by', hold.lane >= 0 ? model.lanes[hold.lane]?.label : 'no member of the group at the time'],
        ['Held for', `${formatDuration((hold.to ?? model.end) - hold.from)}${hold.to === null ? ' so far' : ''}`],
        ['Effect', 'read_committed fetches stop at the LSO: the group\'s lag grows until the transaction ends'],
      ]),
      ...goTo(context, hold.startEvent === index ? hold.endEvent : hold.startEvent, hold.startEvent === index ? 'Go to its release' : 'Go to its start'),
    );
  }
  return parts;
}

function heldTime(holds: readonly LsoHoldSpan[], end: number): number {
  return holds.reduce((sum, hold) => sum + ((hold.to ?? end) - hold.from), 0);
}

/** Overview rows; none for a group without transactions. */
export function transactionSummary(model: TimelineModel): Array<[string, string | null]> {
  const count = (outcome: TransactionSpan['outcome']): number => model.transactions.filter((t) => t.outcome === outcome).length;
  const open = model.lsoHolds.filter((hold) => hold.to === null).length;
  return [
    ['Transactions', model.transactions.length > 0 ? `${count('committed')} committed, ${count('aborted')} aborted, ${count('open')} open` : null],
    ['LSO held', model.lsoHolds.length > 0 ? `${formatDuration(heldTime(model.lsoHolds, model.end))} in ${model.lsoHolds.length} hold(s)${open > 0 ? `, ${open} still open` : ''}` : null],
  ];
}
