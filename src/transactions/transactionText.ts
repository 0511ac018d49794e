/**
 * The texts of the transaction commands: the abort preview (what the marker does and what it costs) and
 * the tables kafka-transactions.sh prints (find-hanging, list), so a result can be compared with the tool's.
 */
import type { TransactionListing } from '../model/transactions';
import type { AbortPlan } from './abortTransaction';
import type { HangingTransaction } from './findHanging';

/** Columns padded as ToolsUtils.prettyPrintTable pads them (each followed by a tab). */
export function prettyPrintTable(headers: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => `${c.padEnd(widths[i])}\t`).join('');
  return [line(headers), ...rows.map(line)].join('\n');
}

export const FIND_HANGING_HEADERS = ['Topic', 'Partition', 'ProducerId', 'ProducerEpoch', 'CoordinatorEpoch', 'StartOffset', 'LastTimestamp', 'Duration(min)'] as const;

/** find-hanging's table. */
export function hangingTable(rows: readonly HangingTransaction[]): string {
  return prettyPrintTable(
    FIND_HANGING_HEADERS,
    rows.map((h) => [h.topic, String(h.partition), String(h.producer.producerId), String(h.producer.producerEpoch), String(h.producer.coordinatorEpoch), String(h.producer.currentTxnStartOffset), String(h.producer.lastTimestamp), String(h.durationMinutes)]),
  );
}

/** list's table. */
export function listingTable(rows: readonly TransactionListing[]): string {
  return prettyPrintTable(['TransactionalId', 'Coordinator', 'ProducerId', 'TransactionState'], rows.map((l) => [l.transactionalId, String(l.coordinatorId), String(l.producerId), l.state]));
}

/** "12 min", "40 s", "3 h 5 min": how long ago, for people. */
export function elapsedText(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) {
    return 'unknown';
  }
  if (ms < 60_000) {
    return `${Math.floor(ms / 1000)} s`;
  }
  const minutes = Math.floor(ms / 60_000);
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h${minutes % 60 ? ` ${minutes % 60} min` : ''}`;
}

/** The confirmation of Abort Transaction: the question names the transaction, the detail says what the marker does and costs. */
export function abortConfirmation(plan: AbortPlan, now: number): { message: string; detail: string } {
  const { spec, producer, transactionalId } = plan;
  const partition = `${spec.topic}-${spec.partition}`;
  const who = transactionalId === undefined ? `producer ${spec.producerId} (no transaction coordinator knows its transactional id)` : `"${transactionalId}" (producer ${spec.producerId})`;
  const lastWrite = producer.lastTimestamp >= 0 ? `, last written ${elapsedText(now - producer.lastTimestamp)} ago` : '';
  return {
    message: `Abort the transaction of ${who} on ${partition}, open from offset ${plan.target.startOffset.toLocaleString('en-US')}?`,
    detail: [
      `An ABORT marker for producer ${spec.producerId}, epoch ${spec.producerEpoch}, coordinator epoch ${spec.coordinatorEpoch} is written to ${partition} (WriteTxnMarkers, as kafka-transactions.sh abort).`,
      `Cost: every record this transaction wrote to ${partition} from offset ${plan.target.startOffset.toLocaleString('en-US')}${lastWrite} is discarded. read_committed consumers skip them and read on past the last stable offset; read_uncommitted consumers may already have read them. This cannot be undone.`,
      'Only this partition is aborted: the transaction\'s other partitions, and its producer, are not touched. The producer and its epoch are checked again just before the marker is written.',
    ].join('\n\n'),
  };
}
