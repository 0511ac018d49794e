/**
 * Transactions on the plot: along the bottom of the group's lane, each transaction that staged the
 * group's offsets (open, then committed or aborted); under a member's lane, each open transaction that
 * held the LSO of a partition it read, so its read_committed fetches returned nothing new. A hold on a
 * partition no member owned goes on the group's lane, at its top.
 */
import type { LsoHoldSpan, TransactionSpan } from '../../timeline/timelineModel';
import { formatPartitions, producerEpochText } from './describe';
import { rectPath, type PathBatch } from './pathBatch';
import { pixelRuns } from './pixelRuns';
import { GROUP_LANE_HEIGHT, MIN_SPAN_PIXELS } from './plotScale';
import type { HitTarget, PlotLayers } from './timelineLayers';
import { formatDuration, formatTime } from './viewWindow';

const TRANSACTION_Y = GROUP_LANE_HEIGHT - 4;
const BAR_HEIGHT = 3;
/** Below a member lane's reconciliation bars. */
const HOLD_OFFSET = 10;

/** A bar's click and hover target, a little taller than the bar. */
function barHit(x: number, y: number, width: number, event: number, title: () => string): HitTarget {
  return { x1: x, y1: y - 2, x2: x + width, y2: y + BAR_HEIGHT + 3, event, title };
}

function producerText(span: { producerId: number; producerEpoch: number; transactionalId: string | null }): string {
  const producer = producerEpochText(span);
  return span.transactionalId !== null ? `\`${span.transactionalId}\` (producer ${producer})` : `producer ${producer}`;
}

export function transactionTitle(span: TransactionSpan, end: number, timeBase: PlotLayers['timeBase']): string {
  const lasted = formatDuration((span.to ?? end) - span.from);
  const outcome = span.outcome === 'open' ? `open for ${lasted} so far, its offsets pending` : `${span.outcome} after ${lasted}`;
  return `Transaction of ${producerText(span)} · ${outcome} · staged offsets of ${formatPartitions(span.partitions)} · from ${formatTime(span.from, timeBase, 1)}`;
}

export function holdTitle(hold: LsoHoldSpan, end: number, timeBase: PlotLayers['timeBase']): string {
  const lasted = formatDuration((hold.to ?? end) - hold.from);
  const at = hold.lso !== null ? ` at LSO ${hold.lso.toLocaleString('en-US')}` : '';
  return `${hold.topic}-${hold.partition} held${at} by the open transaction of ${producerText(hold)} · ${hold.to === null ? `${lasted} so far` : lasted}: read_committed consumers wait · from ${formatTime(hold.from, timeBase, 1)}`;
}

/** The group's transactions, at the bottom of its lane. */
export function transactionBars({ model, scale, hits, timeBase }: PlotLayers, batch: PathBatch): void {
  const { view } = scale;
  const cx = scale.clampedX();
  const visible = model.transactions.filter((span) => (span.to ?? model.end) >= view.start && span.from <= view.end);
  // An aborted transaction among merged ones is what the run shows.
  const prefer = (a: TransactionSpan, b: TransactionSpan): TransactionSpan => (b.outcome === 'aborted' && a.outcome !== 'aborted' ? b : a);
  for (const run of pixelRuns(visible, (span) => [cx(span.from), cx(span.to ?? model.end)], MIN_SPAN_PIXELS, prefer)) {
    const width = Math.max(run.x2 - run.x1, 2);
    batch.add(`txn txn-${run.item.outcome === 'open' ? 'pending' : run.item.outcome}`, rectPath(run.x1, TRANSACTION_Y, width, BAR_HEIGHT, 1), run.x1, TRANSACTION_Y);
    const span = run.item;
    hits.push(barHit(run.x1, TRANSACTION_Y, width, span.startEvent, () => (run.count > 1 ? `${run.count} transactions here; zoom in` : transactionTitle(span, model.end, timeBase))));
  }
}

/** Each LSO hold under the lane of the member that read the partition. */
export function lsoHoldBars({ model, scale, hits, timeBase }: PlotLayers, laneVisible: (lane: number) => boolean, batch: PathBatch): void {
  const { view } = scale;
  const cx = scale.clampedX();
  const perLane = new Map<number, LsoHoldSpan[]>();
  for (const hold of model.lsoHolds) {
    if ((hold.to ?? model.end) >= view.start && hold.from <= view.end && laneVisible(hold.lane)) {
      const list = perLane.get(hold.lane);
      if (list) {
        list.push(hold);
      } else {
        perLane.set(hold.lane, [hold]);
      }
    }
  }
  for (const [lane, holds] of perLane) {
    const y = lane < 0 ? 2 : scale.laneCenter(lane) + HOLD_OFFSET;
    // The longest of merged holds is the one to name.
    const prefer = (a: LsoHoldSpan, b: LsoHoldSpan): LsoHoldSpan => ((b.to ?? model.end) - b.from > (a.to ?? model.end) - a.from ? b : a);
    for (const run of pixelRuns(holds, (hold) => [cx(hold.from), cx(hold.to ?? model.end)], MIN_SPAN_PIXELS, prefer)) {
      const width = Math.max(run.x2 - run.x1, 2);
      batch.add(`lso-hold${run.item.to === null ? ' open' : ''}`, rectPath(run.x1, y, width, BAR_HEIGHT + 1, 1), run.x1, y);
      const hold = run.item;
      hits.push(barHit(run.x1, y, width, hold.startEvent, () => (run.count > 1 ? `${run.count} LSO holds here; zoom in` : holdTitle(hold, model.end, timeBase))));
    }
  }
}
