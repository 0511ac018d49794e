/**
 * The transaction of transaction-* and lso-* events (RebalanceEvent.transaction), packed in columns
 * beside the event columns as the reconciliations are: one index per event into columns of the few
 * events that carry one. Strings and partition topics share the event columns' string table.
 */
import type { EventTransaction, TopicPartition } from '../model/types';

export interface TransactionColumns {
  /** Per event: -1, or the index t of its transaction in the txn* columns. */
  txnAt: Int32Array;
  /** Producer ids are int64 on the wire; as JS numbers they are exact up to 2^53, which Kafka's allocator never reaches. */
  txnProducerId: Float64Array;
  txnProducerEpoch: Int32Array;
  /** String index, -1 when absent. */
  txnTransactionalId: Int32Array;
  /** NaN when absent. */
  txnOffset: Float64Array;
  /** Transaction t's partitions are [txnPartStart[t], txnPartStart[t + 1]). */
  txnPartStart: Int32Array;
  txnPartTopic: Int32Array;
  txnPartNumber: Int32Array;
}

export const TRANSACTION_TYPED = {
  txnAt: Int32Array,
  txnProducerId: Float64Array,
  txnProducerEpoch: Int32Array,
  txnTransactionalId: Int32Array,
  txnOffset: Float64Array,
  txnPartStart: Int32Array,
  txnPartTopic: Int32Array,
  txnPartNumber: Int32Array,
} as const;

export function encodeTransactions(transactions: ReadonlyArray<EventTransaction | undefined>, ref: (text: string) => number): TransactionColumns {
  const present = transactions.filter((txn): txn is EventTransaction => txn !== undefined);
  const parts = present.reduce((n, txn) => n + txn.partitions.length, 0);
  const n = present.length;
  const columns: TransactionColumns = {
    txnAt: new Int32Array(transactions.length).fill(-1),
    txnProducerId: new Float64Array(n),
    txnProducerEpoch: new Int32Array(n),
    txnTransactionalId: new Int32Array(n),
    txnOffset: new Float64Array(n),
    txnPartStart: new Int32Array(n + 1),
    txnPartTopic: new Int32Array(parts),
    txnPartNumber: new Int32Array(parts),
  };
  let t = 0;
  let part = 0;
  transactions.forEach((txn, i) => {
    if (txn === undefined) {
      return;
    }
    columns.txnAt[i] = t;
    columns.txnProducerId[t] = txn.producerId;
    columns.txnProducerEpoch[t] = txn.producerEpoch;
    columns.txnTransactionalId[t] = txn.transactionalId === undefined ? -1 : ref(txn.transactionalId);
    columns.txnOffset[t] = txn.offset ?? Number.NaN;
    columns.txnPartStart[t] = part;
    for (const tp of txn.partitions) {
      columns.txnPartTopic[part] = ref(tp.topic);
      columns.txnPartNumber[part] = tp.partition;
      part++;
    }
    t++;
  });
  columns.txnPartStart[n] = part;
  return columns;
}

/** Checks the columns hold together; throws naming what does not. */
export function checkTransactions(columns: TransactionColumns, count: number): void {
  const n = columns.txnProducerId.length;
  const sameLength = [columns.txnProducerEpoch, columns.txnTransactionalId, columns.txnOffset].every((c) => c.length === n);
  if (columns.txnAt.length !== count || !sameLength || columns.txnPartStart.length !== n + 1 || columns.txnPartNumber.length !== columns.txnPartTopic.length) {
    throw new Error('event columns: the transaction columns do not match each other');
  }
  for (let i = 0; i < count; i++) {
    if (columns.txnAt[i] < -1 || columns.txnAt[i] >= n) {
      throw new Error(`event columns: event ${i} refers to transaction ${columns.txnAt[i]} of ${n}`);
    }
  }
  const starts = columns.txnPartStart;
  if (starts[0] !== 0 || starts[n] !== columns.txnPartTopic.length || starts.some((v, i) => i > 0 && v < starts[i - 1])) {
    throw new Error('event columns: txnPartStart must rise from 0 to the number of partitions');
  }
  for (let t = 0; t < n; t++) {
    if (!Number.isSafeInteger(columns.txnProducerId[t])) {
      throw new Error(`event columns: transaction ${t} has producer id ${columns.txnProducerId[t]}`);
    }
  }
}

/** The transaction of event i, if it has one; `text` resolves a string index (throwing on a bad one). */
export function decodeTransaction(columns: TransactionColumns, i: number, text: (ref: number, what: string, at: number) => string): EventTransaction | undefined {
  const t = columns.txnAt[i];
  if (t < 0) {
    return undefined;
  }
  const partitions: TopicPartition[] = [];
  for (let p = columns.txnPartStart[t]; p < columns.txnPartStart[t + 1]; p++) {
    partitions.push({ topic: text(columns.txnPartTopic[p], 'transaction partition', p), partition: columns.txnPartNumber[p] });
  }
  const txn: EventTransaction = { producerId: columns.txnProducerId[t], producerEpoch: columns.txnProducerEpoch[t], partitions };
  if (columns.txnTransactionalId[t] >= 0) {
    txn.transactionalId = text(columns.txnTransactionalId[t], 'transaction', t);
  }
  if (!Number.isNaN(columns.txnOffset[t])) {
    txn.offset = columns.txnOffset[t];
  }
  return txn;
}
