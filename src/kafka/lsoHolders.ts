/**
 * Which open transaction holds a partition's last stable offset (issue 28), the way `kafka-transactions.sh
 * describe-producers` and `describe` find it: DescribeProducers to the partition's leader (one request per
 * leader, batched over its partitions), the producer whose currentTxnStartOffset is the LSO, then
 * ListTransactions (filtered by those producer ids, to every broker: each coordinates some transactional
 * ids), FindCoordinator for the ids found and DescribeTransactions to each coordinator. Asked only for
 * partitions whose LSO is below the high watermark, so a cluster without open transactions costs nothing.
 * Every failure becomes the holder's `error`: it never fails the group's offsets.
 */
import type { LsoHolder, TopicPartition } from '../model/types';
import type { ProducerState, TransactionDescription } from '../model/transactions';
import { groupBy } from './collections';
import { mapWithConcurrency } from './coordinatorBatches';
import { partitionKey } from './groupDetailMapper';
import { describeErrorCode } from './kafkaErrors';
import type { RequestSpec } from './requests/apiCall';
import { describeProducersRequest, describeTransactionsRequest, findTransactionCoordinatorRequest, listTransactionsRequest } from './requests/transactionRequests';

/** A partition whose LSO is below its high watermark. */
export interface HeldPartition extends TopicPartition {
  lastStableOffset: number;
  highWatermark: number;
}

/** Sends a request to a broker by node id, or to any broker (null). */
export type SendTo = <T>(nodeId: number | null, spec: RequestSpec<T>) => Promise<T>;

export interface LsoHolderDeps {
  send: SendTo;
  /** Broker ids of the cluster: ListTransactions goes to each. */
  brokerIds: readonly number[];
  errorText(e: unknown): string;
  concurrency: number;
}

/** Partitions where an open transaction holds read_committed consumers back: LSO known and below the HW. */
export function heldPartitions<T extends TopicPartition & { lastStableOffset?: number | null; logEndOffset: number | null }>(rows: readonly T[]): HeldPartition[] {
  const held = new Map<string, HeldPartition>();
  for (const r of rows) {
    if (r.lastStableOffset != null && r.logEndOffset != null && r.lastStableOffset < r.logEndOffset) {
      held.set(partitionKey(r), { topic: r.topic, partition: r.partition, lastStableOffset: r.lastStableOffset, highWatermark: r.logEndOffset });
    }
  }
  return [...held.values()];
}

/** The producer whose open transaction starts at the LSO (ProducerStateManager's first unstable offset), or null. */
export function producerHoldingLso(producers: readonly ProducerState[], lastStableOffset: number): ProducerState | null {
  return producers.find((p) => p.currentTxnStartOffset === lastStableOffset) ?? null;
}

/** "open transaction not named: ..." */
export function notNamedText(reason: string): string {
  return `open transaction not named: ${reason}`;
}

/** The holder of each held partition (keyed by partitionKey); a partition left out could not be asked. */
export async function readLsoHolders(
  held: readonly HeldPartition[],
  leaders: ReadonlyMap<string, number>,
  deps: LsoHolderDeps,
): Promise<Map<string, LsoHolder | null>> {
  const result = new Map<string, LsoHolder | null>();
  const producersOf = await describeProducers(held, leaders, deps);
  const holders: Array<LsoHolder & { producer: ProducerState }> = [];
  for (const p of held) {
    const key = partitionKey(p);
    const answer = producersOf.get(key);
    if (answer === undefined) {
      continue;
    }
    if (typeof answer === 'string') {
      result.set(key, { error: notNamedText(`DescribeProducers: ${answer}`) });
      continue;
    }
    const producer = producerHoldingLso(answer, p.lastStableOffset);
    const holder = producer ? { producer } : null;
    if (holder) {
      holders.push(holder);
    }
    result.set(key, holder);
  }
  if (holders.length > 0) {
    await nameTransactions(holders, deps);
  }
  return result;
}

/** Per partition, its producers or why they could not be read. */
async function describeProducers(held: readonly HeldPartition[], leaders: ReadonlyMap<string, number>, deps: LsoHolderDeps): Promise<Map<string, ProducerState[] | string>> {
  const out = new Map<string, ProducerState[] | string>();
  const byLeader = groupBy(held.filter((p) => leaders.has(partitionKey(p))), (p) => leaders.get(partitionKey(p)) as number);
  await mapWithConcurrency([...byLeader], deps.concurrency, async ([leader, parts]) => {
    try {
      for (const answer of await deps.send(leader, describeProducersRequest(parts))) {
        out.set(partitionKey(answer), answer.errorCode === 0 ? answer.producers : answer.errorMessage ?? describeErrorCode(answer.errorCode));
      }
    } catch (e) {
      parts.forEach((p) => out.set(partitionKey(p), deps.errorText(e)));
    }
  });
  return out;
}

/** Fills each holder's transaction, or its error. */
async function nameTransactions(holders: ReadonlyArray<LsoHolder & { producer: ProducerState }>, deps: LsoHolderDeps): Promise<void> {
  const producerIds = [...new Set(holders.map((h) => h.producer.producerId))];
  const idOf = new Map<number, string>();
  const listErrors: string[] = [];
  await mapWithConcurrency(deps.brokerIds, deps.concurrency, async (nodeId) => {
    try {
      const listed = await deps.send(nodeId, listTransactionsRequest(nodeId, producerIds));
      if (listed.errorCode !== 0) {
        listErrors.push(`ListTransactions on broker ${nodeId}: ${describeErrorCode(listed.errorCode)}`);
      }
      listed.transactions.forEach((t) => idOf.set(t.producerId, t.transactionalId));
    } catch (e) {
      listErrors.push(`ListTransactions on broker ${nodeId}: ${deps.errorText(e)}`);
    }
  });
  const ids = [...new Set(holders.map((h) => idOf.get(h.producer.producerId)).filter((id): id is string => id !== undefined))];
  const described = ids.length > 0 ? await describeTransactions(ids, deps) : new Map<string, TransactionDescription | string>();
  for (const h of holders) {
    const id = idOf.get(h.producer.producerId);
    const answer = id === undefined ? undefined : described.get(id);
    if (answer !== undefined && typeof answer !== 'string') {
      h.transaction = answer;
    } else {
      h.error = notNamedText(answer ?? (listErrors.length > 0 ? [...listErrors].sort().join('; ') : `no transaction coordinator lists producer ${h.producer.producerId}`));
    }
  }
}

/** Per transactional id, its description or why it was not read. */
async function describeTransactions(ids: readonly string[], deps: LsoHolderDeps): Promise<Map<string, TransactionDescription | string>> {
  const out = new Map<string, TransactionDescription | string>();
  const coordinatorOf = new Map<string, number>();
  try {
    for (const found of await deps.send(null, findTransactionCoordinatorRequest(ids))) {
      if (found.errorCode === 0) {
        coordinatorOf.set(found.key, found.nodeId);
      } else {
        out.set(found.key, `FindCoordinator: ${found.errorMessage ?? describeErrorCode(found.errorCode)}`);
      }
    }
  } catch (e) {
    ids.forEach((id) => out.set(id, `FindCoordinator: ${deps.errorText(e)}`));
    return out;
  }
  const byCoordinator = groupBy(ids.filter((id) => coordinatorOf.has(id)), (id) => coordinatorOf.get(id) as number);
  await mapWithConcurrency([...byCoordinator], deps.concurrency, async ([nodeId, batch]) => {
    try {
      for (const t of await deps.send(nodeId, describeTransactionsRequest(nodeId, batch))) {
        out.set(t.transactionalId, t.errorCode === 0 ? t.description : `DescribeTransactions: ${describeErrorCode(t.errorCode)}`);
      }
    } catch (e) {
      batch.forEach((id) => out.set(id, `DescribeTransactions: ${deps.errorText(e)}`));
    }
  });
  return out;
}
