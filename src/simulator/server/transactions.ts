/**
 * The transaction coordinator's answers to clients of the server. The state per transactional id (the
 * producer id, the epoch InitProducerId handed out, the partitions added, how the last transaction
 * ended) is the engine's TransactionalProducer, which also writes the records, the markers and the
 * transactional offsets; scenario producers and wire clients share it.
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

/** An EndTxn v5+ answer: its error, and the producer id and epoch the client goes on with. */
export interface EndTxnV2Result {
  errorCode: number;
  producerId: number;
  producerEpoch: number;
}

export function partitionEntry(topic: string, partition: number): string {
  return `${topic}\u0000${partition}`;
}

export class ServerTransactions {
  constructor(
    private readonly simulation: Simulation,
    private readonly log: (line: string) => void = () => undefined,
  ) {}

  /** InitProducerId with a transactional id: the producer id stays, the epoch moves on. */
  init(transactionalId: string, transactionTimeoutMs: number): TransactionalProducer | number {
    let producer: TransactionalProducer;
    try {
      producer = this.simulation.initTransactions(transactionalId, transactionTimeoutMs);
    } catch {
      // transaction.timeout.ms outside 1..transaction.max.timeout.ms, as TransactionCoordinator refuses it.
      return errorCodeOf('INVALID_TRANSACTION_TIMEOUT');
    }
    producer.onTimeout ??= (timedOut) =>
      this.log(`transaction of "${timedOut.transactionalId}" (producer ${timedOut.producerId}) aborted: open longer than transaction.timeout.ms ${timedOut.transactionTimeoutMs}; producer fenced at epoch ${timedOut.producerEpoch}`);
    return producer;
  }

  /** The transaction a request names, or the error code Kafka answers a stale or unknown producer with. */
  lookup(transactionalId: string, producerId: number, epoch: number): TransactionalProducer | number {
    const txn = this.simulation.findTransactionalProducer(transactionalId);
    if (!txn || txn.producerId !== producerId) {
      return errorCodeOf('INVALID_PRODUCER_ID_MAPPING');
    }
    return epoch === txn.producerEpoch ? txn : errorCodeOf('INVALID_PRODUCER_EPOCH');
  }

  /** Starts the engine's transaction on the first partition or group a client adds to it. */
  ensureOngoing(txn: TransactionalProducer): void {
    if (!txn.inTransaction) {
      txn.beginTransaction();
    }
  }

  /** EndTxn: commit or abort the ongoing transaction. */
  end(txn: TransactionalProducer, commit: boolean): number {
    if (!txn.inTransaction || (commit && txn.commitRefusal !== null)) {
      // A failed TxnOffsetCommit leaves the transaction abortable only, as in Kafka.
      return INVALID_TXN_STATE;
    }
    if (commit) {
      txn.commitTransaction();
    } else {
      txn.abortTransaction();
    }
    return NO_ERROR;
  }

  /**
   * EndTxn v5+ (Transactions V2), as TransactionCoordinator.endTransaction decides it: the epoch is
   * bumped and the ongoing transaction ends with markers at the new epoch; with none ongoing, an abort
   * still bumps the epoch (an empty abort, no markers), and the same request one epoch late is the
   * client's retry of the EndTxn that ended it, answered NONE with the epoch it bumped to. Any other
   * epoch is fenced.
   */
  endV2(transactionalId: string, producerId: number, epoch: number, commit: boolean): EndTxnV2Result {
    const refused = (errorCode: number): EndTxnV2Result => ({ errorCode, producerId: -1, producerEpoch: -1 });
    const txn = this.simulation.findTransactionalProducer(transactionalId);
    if (!txn || txn.producerId !== producerId) {
      return refused(errorCodeOf('INVALID_PRODUCER_ID_MAPPING'));
    }
    const ongoing = txn.inTransaction;
    const retry = !ongoing && txn.lastEnd !== 'none' && epoch + 1 === txn.producerEpoch;
    if (!(epoch === txn.producerEpoch || retry)) {
      return refused(PRODUCER_FENCED);
    }
    const answer = (): EndTxnV2Result => ({ errorCode: NO_ERROR, producerId: txn.producerId, producerEpoch: txn.producerEpoch });
    if (retry) {
      return (commit ? txn.lastEnd === 'commit' : txn.lastEnd === 'abort') ? answer() : refused(INVALID_TXN_STATE);
    }
    if (txn.producerEpoch >= LAST_BUMPABLE_EPOCH) {
      // Kafka hands out a new producer id here; the engine's producer keeps its id for its life.
      return refused(PRODUCER_FENCED);
    }
    if (ongoing) {
      if (commit && txn.commitRefusal !== null) {
        return refused(INVALID_TXN_STATE);
      }
      txn.bumpEpoch();
      this.end(txn, commit);
    } else if (commit) {
      return refused(INVALID_TXN_STATE);
    } else {
      txn.bumpEpoch('abort');
    }
    return answer();
  }
}
