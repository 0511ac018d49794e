/**
 * The transaction coordinator's bookkeeping for clients of the server: per transactional id the
 * engine's TransactionalProducer (which writes the records, the markers and the transactional
 * offsets), the epoch InitProducerId handed out, and the partitions AddPartitionsToTxn added.
 * Kafka's rules: a new InitProducerId bumps the epoch, fences the old one and aborts what it left
 * open; transactional records may only go to partitions added to the ongoing transaction.
 */
import type { Simulation } from '../simulation';
import type { TransactionalProducer } from '../clients/producer/internals/transactionalProducer';
import { errorCodeOf } from '../../protocol/errorCodes';

const NO_ERROR = 0;
const INVALID_TXN_STATE = errorCodeOf('INVALID_TXN_STATE');

export interface ClientTransaction {
  readonly transactionalId: string;
  readonly producer: TransactionalProducer;
  epoch: number;
  /** "topic\0partition" of the partitions added to the ongoing transaction. */
  readonly partitions: Set<string>;
}

export function partitionEntry(topic: string, partition: number): string {
  return `${topic}\u0000${partition}`;
}

export class ServerTransactions {
  private readonly byId = new Map<string, ClientTransaction>();

  constructor(private readonly simulation: Simulation) {}

  /** InitProducerId with a transactional id: the producer id stays, the epoch moves on. */
  init(transactionalId: string): ClientTransaction {
    const producer = this.simulation.initTransactions(transactionalId);
    const known = this.byId.get(transactionalId);
    if (known) {
      known.epoch++;
      known.partitions.clear();
      return known;
    }
    const created: ClientTransaction = { transactionalId, producer, epoch: 0, partitions: new Set() };
    this.byId.set(transactionalId, created);
    return created;
  }

  /** The transaction a request names, or the error code Kafka answers a stale or unknown producer with. */
  lookup(transactionalId: string, producerId: number, epoch: number): ClientTransaction | number {
    const txn = this.byId.get(transactionalId);
    if (!txn || txn.producer.producerId !== producerId) {
      return errorCodeOf('INVALID_PRODUCER_ID_MAPPING');
    }
    return epoch === txn.epoch ? txn : errorCodeOf('INVALID_PRODUCER_EPOCH');
  }

  /** Starts the engine's transaction on the first partition or group a client adds to it. */
  ensureOngoing(txn: ClientTransaction): void {
    if (!txn.producer.inTransaction) {
      txn.producer.beginTransaction();
      txn.partitions.clear();
    }
  }

  /** EndTxn: commit or abort the ongoing transaction. */
  end(txn: ClientTransaction, commit: boolean): number {
    if (!txn.producer.inTransaction) {
      return INVALID_TXN_STATE;
    }
    try {
      if (commit) {
        txn.producer.commitTransaction();
      } else {
        txn.producer.abortTransaction();
      }
    } catch {
      // A failed TxnOffsetCommit leaves the transaction abortable only, as in Kafka.
      return INVALID_TXN_STATE;
    }
    txn.partitions.clear();
    return NO_ERROR;
  }
}
