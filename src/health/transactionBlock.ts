/**
 * A read_committed group waiting on an open transaction (issue 28): its position is at the partition's last
 * stable offset, below the high watermark, so it cannot read on until the transaction holding the LSO ends.
 * That is not STALLED (the consumer is fine): the health says "blocked by an open transaction" and names it.
 */
import type { LsoHolder, PartitionOffsets } from '../model/types';
import { formatDuration, type GroupSeriesLike } from './lagEvaluation';

const numberFormat = new Intl.NumberFormat('en-US');

/**
 * "held at LSO 1,204 by transaction `payments-tx-3` (producer 4001, epoch 2), open 12m, timeout 1m", or
 * "... by producer 4001 (epoch 2); open transaction not named: ..." when the transaction could not be named.
 * Names are raw: a markdown view escapes them.
 */
export function lsoHolderText(lastStableOffset: number, holder: LsoHolder | null): string {
  const at = `held at LSO ${numberFormat.format(lastStableOffset)}`;
  if (holder === null) {
    return `${at} (no producer's open transaction starts there now)`;
  }
  const { producer, transaction, error } = holder;
  if (!producer) {
    return `${at}; ${error ?? 'open transaction not named'}`;
  }
  const who = `producer ${producer.producerId}, epoch ${producer.producerEpoch}`;
  if (!transaction) {
    return `${at} by ${who}${error ? `; ${error}` : ''}`;
  }
  const open = transaction.transactionStartTimeMs >= 0 ? `, open ${formatDuration(holder.observedAtMs - transaction.transactionStartTimeMs)}` : '';
  return `${at} by transaction \`${transaction.transactionalId}\` (${who})${open}, timeout ${formatDuration(transaction.transactionTimeoutMs)}`;
}

/**
 * The "blocked by an open transaction" reason of a read_committed row, or null: the LSO is below the HW
 * and the group has read up to it (committed at or past the LSO, so its read_committed lag is 0).
 */
export function transactionBlockReason(row: PartitionOffsets): string | null {
  const { lastStableOffset: lso, logEndOffset: hw, committedOffset } = row;
  if (row.lsoHolder === undefined || lso == null || hw == null || committedOffset == null || lso >= hw || committedOffset < lso) {
    return null;
  }
  return `blocked by an open transaction: ${lsoHolderText(lso, row.lsoHolder)}`;
}

/** The series with each partition's `blockedBy` from the newest load's rows (the sample store keeps offsets only). */
export function withTransactionBlocks<S extends GroupSeriesLike>(series: S | undefined, rows: readonly PartitionOffsets[]): GroupSeriesLike | undefined {
  const reasons = new Map<string, string>();
  for (const row of rows) {
    const reason = transactionBlockReason(row);
    if (reason !== null) {
      reasons.set(`${row.topic}\u0000${row.partition}`, reason);
    }
  }
  if (series === undefined || reasons.size === 0) {
    return series;
  }
  return { times: series.times, partitions: series.partitions.map((p) => ({ ...p, blockedBy: reasons.get(`${p.topic}\u0000${p.partition}`) ?? null })) };
}
