/** Metadata, OffsetFetch and ListOffsets: the typed requests and what the loaders keep of the answers. */
import type { BrokerRef } from '../../model/types';
import { ApiKeys } from '../../protocol/messages/apis';
import { ListOffsetsRequest } from '../../protocol/messages/listOffsetsRequest';
import { ListOffsetsResponse } from '../../protocol/messages/listOffsetsResponse';
import { MetadataRequest } from '../../protocol/messages/metadataRequest';
import { MetadataResponse, type MetadataResponseData } from '../../protocol/messages/metadataResponse';
import { OffsetFetchRequest, type OffsetFetchRequestData } from '../../protocol/messages/offsetFetchRequest';
import { OffsetFetchResponse, type OffsetFetchResponseData } from '../../protocol/messages/offsetFetchResponse';
import { groupBy } from '../collections';
import { errorMessage } from '../../protocol/errors';
import { KafkaErrorCode } from '../kafkaErrors';
import { apiCall, exactNumber, requestSpec, type RequestSpec } from './apiCall';

/** Kafka's Uuid.ZERO_UUID: no topic id (a broker older than topic ids, or a Metadata version before them). */
export const ZERO_UUID = 'AAAAAAAAAAAAAAAAAAAAAA';
/** The replica id of a consumer (not a follower) in ListOffsets and Fetch. */
export const CONSUMER_REPLICA_ID = -1;

export interface PartitionMetadata {
  errorCode: number;
  partition: number;
  leader: number;
}

export interface TopicMetadata {
  errorCode: number;
  topic: string;
  /** Metadata v10+ from a broker with topic ids; null otherwise. */
  topicId: string | null;
  partitions: PartitionMetadata[];
}

export interface MetadataResult {
  brokers: Array<BrokerRef & { rack: string | null }>;
  clusterId: string | null;
  controllerId: number;
  topics: TopicMetadata[];
}

/** Metadata for the named topics (never "all topics"), without auto-creation: v6 (what every 2.x+ broker serves) to v13. */
export function metadataRequest(topics: readonly string[]): RequestSpec<MetadataResult> {
  return requestSpec(ApiKeys.Metadata, 6, 13, (version) =>
    apiCall(MetadataRequest, MetadataResponse, version, { topics: topics.map((name) => ({ name })), allowAutoTopicCreation: false }, (answer) => {
      // v13+: a whole-request error (e.g. REBOOTSTRAP_REQUIRED) leaves the rest of the answer empty.
      if ((answer.errorCode ?? 0) !== 0) {
        throw new KafkaErrorCode(answer.errorCode ?? 0, 'Metadata');
      }
      return metadataResult(answer);
    }),
  );
}

function metadataResult(answer: MetadataResponseData): MetadataResult {
  return {
    brokers: answer.brokers.map((b) => ({ nodeId: b.nodeId, host: b.host, port: b.port, rack: b.rack ?? null })),
    clusterId: answer.clusterId ?? null,
    controllerId: answer.controllerId ?? -1,
    // Topics asked for by name come back named; a nameless one (v12+ allows it) was not asked for.
    topics: answer.topics.flatMap((t) =>
      t.name === null
        ? []
        : [{
            errorCode: t.errorCode,
            topic: t.name,
            topicId: t.topicId === undefined || t.topicId === ZERO_UUID ? null : t.topicId,
            partitions: t.partitions.map((p) => ({ errorCode: p.errorCode, partition: p.partitionIndex, leader: p.leaderId })),
          }],
    ),
  };
}

export interface CommittedOffset {
  topic: string;
  partition: number;
  /** -1 when the group has no commit for the partition. */
  offset: number;
  metadata: string | null;
  errorCode: number;
}

export interface OffsetFetchResult {
  errorCode: number;
  offsets: CommittedOffset[];
}

/** v8 moved the request into a list of groups. */
const OFFSET_FETCH_GROUPS_VERSION = 8;

/**
 * OffsetFetch for every topic the group committed (topics = null), v4 to v9: v10 names topics by id
 * only, and Kafka 4.4's admin client (OffsetFetchRequest.Builder with topic names) stops at v9 too.
 */
export function offsetFetchRequest(groupId: string): RequestSpec<OffsetFetchResult> {
  return requestSpec(ApiKeys.OffsetFetch, 4, 9, (version) => {
    const data: OffsetFetchRequestData =
      version >= OFFSET_FETCH_GROUPS_VERSION ? { groups: [{ groupId, memberId: null, memberEpoch: -1, topics: null }] } : { groupId, topics: null };
    return apiCall(OffsetFetchRequest, OffsetFetchResponse, version, data, (answer) => offsetFetchResult(answer, groupId, version));
  });
}

/**
 * OffsetFetch v8–v9 for many groups in one request (KIP-709), every topic each committed: what Kafka's
 * admin client sends per coordinator for listConsumerGroupOffsets of several groups. A group the answer
 * leaves out gets an error of its own rather than failing the others.
 */
export function offsetFetchGroupsRequest(groupIds: readonly string[]): RequestSpec<Map<string, OffsetFetchResult | string>> {
  return requestSpec(ApiKeys.OffsetFetch, OFFSET_FETCH_GROUPS_VERSION, 9, (version) =>
    apiCall(
      OffsetFetchRequest,
      OffsetFetchResponse,
      version,
      { groups: groupIds.map((groupId) => ({ groupId, memberId: null, memberEpoch: -1, topics: null })) },
      (answer) => {
        const results = new Map<string, OffsetFetchResult | string>();
        for (const groupId of groupIds) {
          try {
            results.set(groupId, offsetFetchResult(answer, groupId, version));
          } catch (e) {
            results.set(groupId, errorMessage(e));
          }
        }
        return results;
      },
    ),
  );
}

/** Whether the broker takes OffsetFetch for several groups at once (v8+). */
export function fetchesManyGroups(maxOffsetFetchVersion: number | undefined): boolean {
  return maxOffsetFetchVersion !== undefined && maxOffsetFetchVersion >= OFFSET_FETCH_GROUPS_VERSION;
}

function offsetFetchResult(answer: OffsetFetchResponseData, groupId: string, version: number): OffsetFetchResult {
  const what = `Committed offset of ${groupId}`;
  if (version < OFFSET_FETCH_GROUPS_VERSION) {
    return {
      errorCode: answer.errorCode ?? 0,
      offsets: (answer.topics ?? []).flatMap((t) =>
        t.partitions.map((p) => ({ topic: t.name, partition: p.partitionIndex, offset: exactNumber(p.committedOffset, what), metadata: p.metadata, errorCode: p.errorCode })),
      ),
    };
  }
  const group = (answer.groups ?? []).find((g) => g.groupId === groupId);
  if (group === undefined) {
    throw new Error(`OffsetFetch v${version}: the coordinator did not answer for group ${groupId}`);
  }
  return {
    errorCode: group.errorCode,
    offsets: group.topics.flatMap((t) =>
      t.partitions.map((p) => ({ topic: t.name ?? '', partition: p.partitionIndex, offset: exactNumber(p.committedOffset, what), metadata: p.metadata, errorCode: p.errorCode })),
    ),
  };
}

/** ListOffsets timestamps with special meaning. */
export const LATEST_TIMESTAMP = -1;
export const EARLIEST_TIMESTAMP = -2;
/** KIP-734: the offset and timestamp of the record with the largest timestamp; brokers take it from ListOffsets v7. */
export const MAX_TIMESTAMP = -3;
const MAX_TIMESTAMP_MIN_VERSION = 7;
export const READ_UNCOMMITTED = 0;
export const READ_COMMITTED = 1;
/** ListOffsets v10+: how long a broker may wait on tiered storage; the client's request timeout, as Java's consumer sends. */
const LIST_OFFSETS_TIMEOUT_MS = 10000;

export interface ListedOffset {
  topic: string;
  partition: number;
  errorCode: number;
  offset: number;
  /** The timestamp of the record at `offset` (MAX_TIMESTAMP's answer); -1 when the broker gives none. */
  timestamp: number;
}

/**
 * ListOffsets v3 (isolation level, one offset per partition) to v11; v7+ for MAX_TIMESTAMP, so a broker older
 * than KIP-734 is not asked it (sendRequest refuses without sending).
 */
export function listOffsetsRequest(
  isolationLevel: number,
  timestamp: number,
  partitions: ReadonlyArray<{ topic: string; partition: number }>,
): RequestSpec<ListedOffset[]> {
  const byTopic = groupBy(partitions, (p) => p.topic);
  const topics = [...byTopic].map(([name, parts]) => ({
    name,
    partitions: parts.map(({ partition }) => ({ partitionIndex: partition, currentLeaderEpoch: -1, timestamp: BigInt(timestamp) })),
  }));
  return requestSpec(ApiKeys.ListOffsets, timestamp === MAX_TIMESTAMP ? MAX_TIMESTAMP_MIN_VERSION : 3, 11, (version) =>
    apiCall(ListOffsetsRequest, ListOffsetsResponse, version, { replicaId: CONSUMER_REPLICA_ID, isolationLevel, topics, timeoutMs: version >= 10 ? LIST_OFFSETS_TIMEOUT_MS : 0 }, (answer) =>
      answer.topics.flatMap((t) =>
        t.partitions.map((p) => ({
          topic: t.name,
          partition: p.partitionIndex,
          errorCode: p.errorCode,
          offset: exactNumber(p.offset, `Offset of ${t.name}-${p.partitionIndex}`),
          timestamp: exactNumber(p.timestamp, `Timestamp of ${t.name}-${p.partitionIndex}`),
        })),
      ),
    ),
  );
}
