/**
 * Requests about many groups, cut per coordinator and bounded: each coordinator's groups go in
 * requests of at most MAX_GROUPS_PER_REQUEST (DescribeGroups, OffsetFetch v8+), and the requests of a
 * load run with bounded concurrency. OffsetFetch for several groups (KIP-709, Kafka 3.3+) is what
 * Kafka's admin client sends for listConsumerGroupOffsets of several groups; an older broker gets one
 * OffsetFetch per group, as before.
 */
import { ApiKeys } from '../protocol/messages/apis';
import type { ClusterConnection, Topology } from './clusterConnection';
import { groupBy } from './collections';
import { COORDINATOR_LOADING_CODES, retryWhileCoordinatorLoads } from './coordinatorRetry';
import { sendRequest, type KafkajsBroker } from './kafkajsBridge';
import { describeErrorCode } from './kafkaErrors';
import { fetchesManyGroups, offsetFetchGroupsRequest, type CommittedOffset, type OffsetFetchResult } from './requests/offsetRequests';

/** Groups in one DescribeGroups or OffsetFetch: a few hundred kilobytes of answer at most for ordinary groups. */
export const MAX_GROUPS_PER_REQUEST = 500;

/** Runs fn over the items with at most `limit` at once; results in the items' order. */
export async function mapWithConcurrency<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, worker));
  return results;
}

/** The items in consecutive slices of at most `size`. */
export function chunked<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) {
    chunks.push(items.slice(i, i + size));
  }
  return chunks;
}

/** The group ids per coordinator node id (null: `__consumer_offsets` has no leader yet), each cut into requests. */
export function coordinatorBatches(connection: Pick<ClusterConnection, 'coordinatorId'>, groupIds: readonly string[], topology: Topology, size = MAX_GROUPS_PER_REQUEST): Array<{ nodeId: number | null; groupIds: string[] }> {
  return [...groupBy(groupIds, (id) => connection.coordinatorId(id, topology))].flatMap(([nodeId, ids]) => chunked(ids, size).map((chunk) => ({ nodeId, groupIds: chunk })));
}

/** A group's committed offsets, or the error text for that group alone. */
export type CommittedOrError = CommittedOffset[] | string;

export function committedOrError(result: OffsetFetchResult | string): CommittedOrError {
  if (typeof result === 'string') {
    return `Committed offsets: ${result}`;
  }
  if (result.errorCode !== 0) {
    return `Committed offsets: ${describeErrorCode(result.errorCode)}`;
  }
  const failed = result.offsets.find((o) => o.errorCode !== 0);
  if (failed) {
    return `Committed offset of ${failed.topic}-${failed.partition}: ${describeErrorCode(failed.errorCode)}`;
  }
  return result.offsets;
}

type Connection = Pick<ClusterConnection, 'coordinatorId' | 'brokerFor' | 'isConnectionFailure' | 'errorText'>;

/**
 * Committed offsets of the groups: one OffsetFetch per batch of a coordinator's groups where the
 * broker takes several, else `single` per group; at most `concurrency` requests at once. A
 * connection failure fails the whole fetch; any other failure lands on the groups it concerns.
 */
export async function fetchCommittedOffsets(
  connection: Connection,
  groupIds: readonly string[],
  topology: Topology,
  { concurrency, single, batchSize = MAX_GROUPS_PER_REQUEST }: { concurrency: number; single: (groupId: string) => Promise<OffsetFetchResult>; batchSize?: number },
): Promise<Map<string, CommittedOrError>> {
  const results = new Map<string, CommittedOrError>();
  const failed = (ids: readonly string[], e: unknown): void => {
    if (connection.isConnectionFailure(e)) {
      throw e;
    }
    ids.forEach((id) => results.set(id, `Committed offsets: ${connection.errorText(e)}`));
  };
  // The coordinators' brokers first: they say whether OffsetFetch takes several groups.
  const batches = coordinatorBatches(connection, groupIds, topology, batchSize);
  const brokers = new Map<number | null, KafkajsBroker | undefined>();
  for (const { nodeId, groupIds: ids } of batches) {
    if (brokers.has(nodeId)) {
      continue;
    }
    try {
      brokers.set(nodeId, await retryWhileCoordinatorLoads(() => connection.brokerFor(nodeId, ids[0]), () => false));
    } catch (e) {
      brokers.set(nodeId, undefined);
      failed(batches.filter((b) => b.nodeId === nodeId).flatMap((b) => b.groupIds), e);
    }
  }
  // broker undefined: one group, asked with `single`.
  const work = batches.flatMap(({ nodeId, groupIds: ids }): Array<{ broker?: KafkajsBroker; ids: string[] }> => {
    const broker = brokers.get(nodeId);
    if (!broker) {
      return [];
    }
    return fetchesManyGroups(broker.versions?.[ApiKeys.OffsetFetch]?.maxVersion) ? [{ broker, ids }] : ids.map((id) => ({ ids: [id] }));
  });
  await mapWithConcurrency(work, concurrency, async ({ broker, ids }) => {
    try {
      if (!broker) {
        results.set(ids[0], committedOrError(await single(ids[0])));
        return;
      }
      const answers = await retryWhileCoordinatorLoads(
        () => sendRequest(broker, offsetFetchGroupsRequest(ids)),
        (answer) => [...answer.values()].some((r) => typeof r !== 'string' && COORDINATOR_LOADING_CODES.has(r.errorCode)),
      );
      for (const id of ids) {
        results.set(id, committedOrError(answers.get(id) ?? 'the coordinator did not answer for this group'));
      }
    } catch (e) {
      failed(ids, e);
    }
  });
  return results;
}
