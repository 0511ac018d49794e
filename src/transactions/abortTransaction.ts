/**
 * Abort Transaction with kafka-transactions.sh abort's semantics: the transaction is named by its
 * partition and start offset; DescribeProducers finds the producer whose open transaction starts
 * there, and an ABORT marker for that producer id, epoch and coordinator epoch goes to the partition's
 * leader (WriteTxnMarkers). The records the transaction wrote there are discarded for read_committed
 * readers, which is why the plan is previewed, and re-checked before the marker is written.
 */
import type { AbortTransactionSpec, PartitionProducers, ProducerState, TransactionAdmin } from '../model/transactions';

export interface AbortTarget {
  topic: string;
  partition: number;
  startOffset: number;
}

/** What the preview shows and the execution writes. */
export interface AbortPlan {
  target: AbortTarget;
  spec: AbortTransactionSpec;
  producer: ProducerState;
  /** The transactional id, when a coordinator names the producer id. */
  transactionalId?: string;
}

function partitionName(target: { topic: string; partition: number }): string {
  return `${target.topic}-${target.partition}`;
}

function openAt(answer: PartitionProducers, target: AbortTarget): ProducerState {
  if (answer.error !== undefined) {
    throw new Error(`Failed to validate producer state for partition ${partitionName(target)}: ${answer.error}`);
  }
  const producer = answer.producers.find((p) => p.currentTxnStartOffset >= 0 && p.currentTxnStartOffset === target.startOffset);
  if (!producer) {
    throw new Error(`Could not find any open transactions starting at offset ${target.startOffset} on partition ${partitionName(target)}`);
  }
  return producer;
}

async function producersOf(admin: TransactionAdmin, target: AbortTarget): Promise<PartitionProducers> {
  const [answer] = await admin.describeProducers([{ topic: target.topic, partition: target.partition }]);
  if (!answer) {
    throw new Error(`Failed to validate producer state for partition ${partitionName(target)}: no answer`);
  }
  return answer;
}

/** The abort's plan, as the tool's buildAbortSpec makes it; throws with the tool's message when there is nothing to abort. */
export async function planAbort(admin: TransactionAdmin, target: AbortTarget): Promise<AbortPlan> {
  if (!Number.isSafeInteger(target.startOffset) || target.startOffset < 0 || !Number.isInteger(target.partition) || target.partition < 0) {
    throw new Error(`A transaction is named by a partition and a start offset, both non-negative integers (got ${target.partition}, ${target.startOffset})`);
  }
  const producer = openAt(await producersOf(admin, target), target);
  const listing = (await admin.listTransactions({ producerIds: [producer.producerId] })).find((l) => l.producerId === producer.producerId);
  return {
    target,
    producer,
    ...(listing ? { transactionalId: listing.transactionalId } : {}),
    spec: {
      topic: target.topic,
      partition: target.partition,
      producerId: producer.producerId,
      producerEpoch: producer.producerEpoch,
      // A transaction that hung before its producer's first marker has coordinator epoch -1: the tool sends 0,
      // which no leader epoch is below.
      coordinatorEpoch: Math.max(producer.coordinatorEpoch, 0),
    },
  };
}

/**
 * Writes the plan's ABORT marker once the partition still shows the same producer, at the same epoch,
 * with its transaction open at the same start offset; otherwise the preview went stale and nothing is written.
 */
export async function executeAbort(admin: TransactionAdmin, plan: AbortPlan): Promise<void> {
  const answer = await producersOf(admin, plan.target);
  let now: ProducerState;
  try {
    now = openAt(answer, plan.target);
  } catch (error) {
    throw new Error(`Nothing was aborted: the preview went stale (${error instanceof Error ? error.message : String(error)})`);
  }
  if (now.producerId !== plan.producer.producerId || now.producerEpoch !== plan.producer.producerEpoch) {
    throw new Error(
      `Nothing was aborted: the preview went stale (the transaction at offset ${plan.target.startOffset} on ${partitionName(plan.target)} is now producer ${now.producerId} epoch ${now.producerEpoch}, previewed as producer ${plan.producer.producerId} epoch ${plan.producer.producerEpoch})`,
    );
  }
  const result = await admin.abortTransaction(plan.spec);
  if (result.error !== undefined) {
    throw new Error(`Failed to abort the transaction of producer ${plan.spec.producerId} on ${partitionName(plan.target)}: ${result.error}`);
  }
}
