/**
 * Find Hanging Transactions with kafka-transactions.sh's definition (TransactionsCommand
 * FindHangingTransactionsCommand): in the partitions searched, an open transaction whose producer last
 * wrote longer ago than the maximum transaction timeout is a candidate; it hangs when no transaction
 * coordinator knows its producer id, when its transactional id cannot be described, or when the
 * coordinator's transaction does not hold that partition (so no marker will ever come for it).
 */
import type { ProducerState, TransactionAdmin } from '../model/transactions';

/** The tool's default --max-transaction-timeout: transaction.max.timeout.ms, 15 minutes. */
export const DEFAULT_MAX_TRANSACTION_TIMEOUT_MS = 15 * 60_000;
/** The tool asks DescribeProducers and DescribeTopics about at most this many at once. */
export const FIND_HANGING_BATCH_SIZE = 500;

export interface FindHangingScope {
  /** Search this topic (all of its partitions unless `partition` is given)... */
  topic?: string;
  partition?: number;
  /** ...or every partition with a replica on this broker (of `topic` if given). */
  brokerId?: number;
  maxTransactionTimeoutMs?: number;
}

/** One row of `find-hanging`'s table. */
export interface HangingTransaction {
  topic: string;
  partition: number;
  producer: ProducerState;
  /** Minutes since the producer's last write to the partition, rounded down as the tool prints Duration(min). */
  durationMinutes: number;
}

/** Why a search cannot run, in the tool's own words. */
export function findHangingScopeError(scope: FindHangingScope): string | null {
  if (scope.topic === undefined && scope.brokerId === undefined) {
    return 'The `find-hanging` command requires either --topic or --broker-id to limit the scope of the search';
  }
  if (scope.partition !== undefined && scope.topic === undefined) {
    return 'The --partition argument requires --topic to be provided';
  }
  const timeout = scope.maxTransactionTimeoutMs ?? DEFAULT_MAX_TRANSACTION_TIMEOUT_MS;
  if (!Number.isFinite(timeout) || timeout < 0) {
    return `The maximum transaction timeout must be zero or more, got ${timeout}`;
  }
  return null;
}

function batches<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += FIND_HANGING_BATCH_SIZE) {
    out.push(items.slice(i, i + FIND_HANGING_BATCH_SIZE));
  }
  return out;
}

async function partitionsToSearch(admin: TransactionAdmin, scope: FindHangingScope): Promise<Array<{ topic: string; partition: number }>> {
  if (scope.topic !== undefined && scope.partition !== undefined) {
    return [{ topic: scope.topic, partition: scope.partition }];
  }
  const partitions = await admin.topicPartitions(scope.topic === undefined ? undefined : [scope.topic]);
  return partitions.filter((p) => scope.brokerId === undefined || p.replicas.includes(scope.brokerId)).map(({ topic, partition }) => ({ topic, partition }));
}

/** Runs the tool's search; a failed step throws with the tool's message, as the tool exits on it. */
export async function findHangingTransactions(admin: TransactionAdmin, scope: FindHangingScope): Promise<HangingTransaction[]> {
  const refusal = findHangingScopeError(scope);
  if (refusal !== null) {
    throw new Error(refusal);
  }
  const maxTimeoutMs = scope.maxTransactionTimeoutMs ?? DEFAULT_MAX_TRANSACTION_TIMEOUT_MS;
  const candidates: HangingTransaction[] = [];
  for (const batch of batches(await partitionsToSearch(admin, scope))) {
    const described = await admin.describeProducers(batch);
    const now = admin.now();
    for (const partition of described) {
      if (partition.error !== undefined) {
        throw new Error(`Failed to describe producers for ${batch.length} partitions: ${partition.topic}-${partition.partition}: ${partition.error}`);
      }
      for (const producer of partition.producers) {
        if (producer.currentTxnStartOffset >= 0 && now - producer.lastTimestamp > maxTimeoutMs) {
          candidates.push({ topic: partition.topic, partition: partition.partition, producer, durationMinutes: Math.floor((now - producer.lastTimestamp) / 60_000) });
        }
      }
    }
  }
  if (candidates.length === 0) {
    return [];
  }
  const producerIds = [...new Set(candidates.map((c) => c.producer.producerId))];
  const listings = await admin.listTransactions({ producerIds });
  const transactionalIdOf = new Map(listings.filter((l) => producerIds.includes(l.producerId)).map((l) => [l.producerId, l.transactionalId]));
  const ids = [...new Set(transactionalIdOf.values())];
  const descriptions = new Map<string, Set<string> | null>();
  for (const result of ids.length > 0 ? await admin.describeTransactions(ids) : []) {
    if (result.description) {
      descriptions.set(result.transactionalId, new Set(result.description.topicPartitions.map((tp) => `${tp.topic}\u0000${tp.partition}`)));
    } else if (result.error?.startsWith('TRANSACTIONAL_ID_NOT_FOUND')) {
      descriptions.set(result.transactionalId, null);
    } else {
      throw new Error(`Failed to describe ${ids.length} transactions: ${result.transactionalId}: ${result.error ?? 'no answer'}`);
    }
  }
  return candidates.filter((c) => {
    const transactionalId = transactionalIdOf.get(c.producer.producerId);
    const partitions = transactionalId === undefined ? null : descriptions.get(transactionalId);
    // The coordinator will still write a marker where its transaction holds the partition.
    return !partitions?.has(`${c.topic}\u0000${c.partition}`);
  });
}
