/**
 * Which open transaction holds a partition's last stable offset (issue 28), found the way
 * `kafka-transactions.sh describe-producers` and `describe` find it, over either source's TransactionAdmin:
 * DescribeProducers at the partitions' leaders, the producer whose currentTxnStartOffset is the LSO (the
 * broker's first unstable offset), then ListTransactions filtered by those producer ids and DescribeTransactions
 * at their coordinators. Asked only for partitions whose LSO is below the high watermark, so a cluster without
 * open transactions costs no request. Every failure becomes the holder's `error`: it never fails the group.
 */
import { isLsoHeld, topicPartitionKey, type LsoHolder, type PartitionOffsets, type TopicPartition } from '../model/types';
import type { ProducerState, TransactionAdmin, TransactionDescription } from '../model/transactions';

/** A partition whose LSO is below its high watermark. */
export interface HeldPartition extends TopicPartition {
  lastStableOffset: number;
  highWatermark: number;
}

export type LsoHolderAdmin = Pick<TransactionAdmin, 'now' | 'describeProducers' | 'listTransactions' | 'describeTransactions'>;



/** Partitions where an open transaction holds read_committed consumers back, each once. */
export function heldPartitions(rows: ReadonlyArray<TopicPartition & { lastStableOffset?: number | null; logEndOffset: number | null }>): HeldPartition[] {
  const held = new Map<string, HeldPartition>();
  for (const r of rows) {
    if (isLsoHeld(r)) {
      held.set(topicPartitionKey(r), { topic: r.topic, partition: r.partition, lastStableOffset: r.lastStableOffset, highWatermark: r.logEndOffset });
    }
  }
  return [...held.values()];
}

/** The producer whose open transaction starts at the LSO, or null. */
export function producerHoldingLso(producers: readonly ProducerState[], lastStableOffset: number): ProducerState | null {
  return producers.find((p) => p.currentTxnStartOffset === lastStableOffset) ?? null;
}

export function notNamedText(reason: string): string {
  return `open transaction not named: ${reason}`;
}

/** The holder of each held partition, keyed by topic and partition; null where no producer's transaction starts at the LSO. */
export async function readLsoHolders(held: readonly HeldPartition[], admin: LsoHolderAdmin, errorText: (e: unknown) => string): Promise<Map<string, LsoHolder | null>> {
  const result = new Map<string, LsoHolder | null>();
  if (held.length === 0) {
    return result;
  }
  const observedAtMs = admin.now();
  let answers;
  try {
    answers = await admin.describeProducers(held);
  } catch (e) {
    held.forEach((p) => result.set(topicPartitionKey(p), { observedAtMs, error: notNamedText(`DescribeProducers: ${errorText(e)}`) }));
    return result;
  }
  const lsoOf = new Map(held.map((p) => [topicPartitionKey(p), p.lastStableOffset]));
  const holders: Array<LsoHolder & { producer: ProducerState }> = [];
  for (const answer of answers) {
    const lso = lsoOf.get(topicPartitionKey(answer));
    if (lso === undefined) {
      continue;
    }
    if (answer.error !== undefined) {
      result.set(topicPartitionKey(answer), { observedAtMs, error: notNamedText(`DescribeProducers: ${answer.error}`) });
      continue;
    }
    const producer = producerHoldingLso(answer.producers, lso);
    const holder = producer ? { observedAtMs, producer } : null;
    if (holder) {
      holders.push(holder);
    }
    result.set(topicPartitionKey(answer), holder);
  }
  if (holders.length > 0) {
    await nameTransactions(holders, admin, errorText);
  }
  return result;
}

/** Fills each holder's transaction, or the reason it could not be named. */
async function nameTransactions(holders: ReadonlyArray<LsoHolder & { producer: ProducerState }>, admin: LsoHolderAdmin, errorText: (e: unknown) => string): Promise<void> {
  const producerIds = [...new Set(holders.map((h) => h.producer.producerId))];
  const described = new Map<number, TransactionDescription | string>();
  let failure: string | undefined;
  try {
    const listed = await admin.listTransactions({ producerIds });
    const idOf = new Map(listed.map((t) => [t.producerId, t.transactionalId]));
    const ids = [...new Set(idOf.values())];
    const descriptions = ids.length === 0 ? [] : await admin.describeTransactions(ids);
    const byId = new Map(descriptions.map((d) => [d.transactionalId, d]));
    for (const [producerId, id] of idOf) {
      const d = byId.get(id);
      described.set(producerId, d?.description ?? `DescribeTransactions: ${d?.error ?? 'the coordinator did not answer for it'}`);
    }
  } catch (e) {
    failure = errorText(e);
  }
  for (const h of holders) {
    const answer = described.get(h.producer.producerId);
    if (answer !== undefined && typeof answer !== 'string') {
      h.transaction = answer;
    } else {
      h.error = notNamedText(answer ?? (failure !== undefined ? `ListTransactions: ${failure}` : `no transaction coordinator lists producer ${h.producer.producerId}`));
    }
  }
}

/**
 * Sets `lsoHolder` on every row whose LSO is below its high watermark, from one round of requests for all
 * the rows given (the read_committed groups' rows of a load).
 */
export async function fillLsoHolders(rows: readonly PartitionOffsets[], admin: LsoHolderAdmin, errorText: (e: unknown) => string): Promise<void> {
  const holders = await readLsoHolders(heldPartitions(rows), admin, errorText);
  for (const row of rows) {
    const holder = holders.get(topicPartitionKey(row));
    if (holder !== undefined && isLsoHeld(row)) {
      row.lsoHolder = holder;
    }
  }
}
