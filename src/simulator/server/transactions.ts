/**
 * The transaction coordinator's bookkeeping for clients of the server: per transactional id the
 * engine's TransactionalProducer (which writes the records, the markers and the transactional
 * offsets), the epoch InitProducerId handed out, and the partitions AddPartitionsToTxn added.
 * Kafka's rules: a new InitProducerId bumps the epoch, fences the old one and aborts what it left
 * open; transactional records may only go to partitions added to the ongoing transaction.
 * Transactions V2 (KIP-890, EndTxn v5+) also bump the epoch at each EndTxn, and tell a retried EndTxn
 * from the next one by that epoch, as Kafka's TransactionCoordinator.endTransaction does.
 */
import type { Simulation } from '../simulation';
import type { TransactionalProducer } from '../clients/producer/internals/transactionalProducer';
import { errorCodeOf } from '../../protocol/errorCodes';

const NO_ERROR = 0;
const INVALID_TXN_STATE = errorCodeOf('INVALID_TXN_STATE');
const PRODUCER_FENCED = errorCodeOf('PRODUCER_FENCED');
/** Kafka rotates the producer id when a bump would pass this epoch (Short.MaxValue - 1). */
const LAST_BUMPABLE_EPOCH = 32766;

/** How the last transaction of a transactional id ended: Kafka's Empty, CompleteCommit and CompleteAbort. */
export type TransactionEnd = 'none' | 'commit' | 'abort';

/** An EndTxn v5+ answer: its error, and the producer id and epoch the client goes on with. */
export interface EndTxnV2Result {
  errorCode: number;
  producerId: number;
  producerEpoch: number;
}

export interface ClientTransaction {
  readonly transactionalId: string;
  readonly producer: TransactionalProducer;
  epoch: number;
  /** "topic\0partition" of the partitions added to the ongoing transaction. */
  readonly partitions: Set<string>;
  /** How the last transaction ended, when none is ongoing. */
  lastEnd: TransactionEnd;
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
      known.lastEnd = 'none';
      return known;
    }
    const created: ClientTransaction = { transactionalId, producer, epoch: 0, partitions: new Set(), lastEnd: 'none' };
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
    txn.lastEnd = commit ? 'commit' : 'abort';
    return NO_ERROR;
  }

  /**
   * EndTxn v5+ (Transactions V2), as TransactionCoordinator.endTransaction decides it: the ongoing
   * transaction ends and the epoch is bumped; with none ongoing, an abort still bumps the epoch (an
   * empty abort, no markers), and the same request one epoch late is the client's retry of the EndTxn
   * that ended it, answered NONE with the epoch it bumped to. Any other epoch is fenced.
   */
  endV2(transactionalId: string, producerId: number, epoch: number, commit: boolean): EndTxnV2Result {
    const refused = (errorCode: number): EndTxnV2Result => ({ errorCode, producerId: -1, producerEpoch: -1 });
    const txn = this.byId.get(transactionalId);
    if (!txn || txn.producer.producerId !== producerId) {
      return refused(errorCodeOf('INVALID_PRODUCER_ID_MAPPING'));
    }
    const ongoing = txn.producer.inTransaction;
    const retry = !ongoing && txn.lastEnd !== 'none' && epoch + 1 === txn.epoch;
    if (!(epoch === txn.epoch || retry)) {
      return refused(PRODUCER_FENCED);
    }
    const answer = (): EndTxnV2Result => ({ errorCode: NO_ERROR, producerId: txn.producer.producerId, producerEpoch: txn.epoch });
    if (retry) {
      return (commit ? txn.lastEnd === 'commit' : txn.lastEnd === 'abort') ? answer() : refused(INVALID_TXN_STATE);
    }
    if (txn.epoch >= LAST_BUMPABLE_EPOCH) {
      // Kafka hands out a new producer id here; the engine's producer keeps its id for its life.
      return refused(PRODUCER_FENCED);
    }
    if (ongoing) {
      const errorCode = this.end(txn, commit);
      if (errorCode !== NO_ERROR) {
        return refused(errorCode);
      }
    } else if (commit) {
      return refused(INVALID_TXN_STATE);
    } else {
      txn.lastEnd = 'abort';
    }
    txn.epoch++;
    return answer();
  }
}
