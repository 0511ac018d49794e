/**
 * Fetch for a reader that assigns itself partitions of one topic instead of joining a group. The
 * record bytes are returned untouched: src/protocol/recordBatch.ts frames and reads them.
 */
import { ApiKeys } from '../../protocol/messages/apis';
import { FetchRequest, type FetchRequestData } from '../../protocol/messages/fetchRequest';
import { FetchResponse } from '../../protocol/messages/fetchResponse';
import { apiCall, exactNumber, requestSpec, type RequestSpec } from './apiCall';
import { CONSUMER_REPLICA_ID, READ_UNCOMMITTED } from './offsetRequests';

/** v4 is the oldest version Kafka 4 serves; v13 names topics by id, v18 is Kafka 4.4's newest. */
export const MIN_FETCH_VERSION = 4;
export const MAX_FETCH_VERSION = 18;
/** The newest version that names topics: a topic without a known id is fetched at it. */
export const MAX_FETCH_VERSION_BY_NAME = 12;

export interface FetchPosition {
  partition: number;
  fetchOffset: number;
}

export interface FetchLimits {
  /** How long the broker may wait for `minBytes` to accumulate (a long poll). */
  maxWaitMs: number;
  maxBytes: number;
  maxBytesPerPartition: number;
}

export interface FetchedPartition {
  topic: string;
  partition: number;
  errorCode: number;
  highWatermark: number;
  /** v5+; -1 when the broker does not know it. */
  logStartOffset: number;
  /** The record batches (possibly ending with a truncated one); null when there are none. */
  records: Uint8Array | null;
}

export interface FetchResult {
  /** Whole-request error (v7+, fetch sessions); 0 otherwise. */
  errorCode: number;
  partitions: FetchedPartition[];
}

export interface FetchTarget {
  topic: string;
  /** The topic's id from Metadata v10+, which Fetch v13+ needs; null limits the request to v12. */
  topicId: string | null;
}

/** Session id 0 with epoch -1: a plain full fetch that opens no fetch session. */
const NO_SESSION_ID = 0;
const FINAL_SESSION_EPOCH = -1;

export function fetchRequest(target: FetchTarget, positions: readonly FetchPosition[], limits: FetchLimits): RequestSpec<FetchResult> {
  if (positions.length === 0) {
    throw new RangeError('Fetch needs at least one partition');
  }
  const { topic, topicId } = target;
  const maxVersion = topicId === null ? MAX_FETCH_VERSION_BY_NAME : MAX_FETCH_VERSION;
  return requestSpec(ApiKeys.Fetch, MIN_FETCH_VERSION, maxVersion, (version) => {
    const byId = version > MAX_FETCH_VERSION_BY_NAME;
    const data: FetchRequestData = {
      replicaId: CONSUMER_REPLICA_ID,
      maxWaitMs: limits.maxWaitMs,
      minBytes: 1, // answer as soon as anything is there
      maxBytes: limits.maxBytes,
      isolationLevel: READ_UNCOMMITTED, // group-metadata records are never transactional; markers are read as batches
      sessionId: NO_SESSION_ID,
      sessionEpoch: FINAL_SESSION_EPOCH,
      topics: [{
        ...(byId ? { topicId: topicId ?? undefined } : { topic }),
        partitions: positions.map((p) => ({ partition: p.partition, fetchOffset: BigInt(p.fetchOffset), partitionMaxBytes: limits.maxBytesPerPartition })),
      }],
      forgottenTopicsData: [],
      rackId: '',
    };
    return apiCall(FetchRequest, FetchResponse, version, data, (answer) => ({
      errorCode: answer.errorCode ?? 0,
      partitions: answer.responses.flatMap((t) => {
        const name = byId ? (t.topicId === topicId ? topic : `topic id ${t.topicId ?? '?'}`) : (t.topic ?? '');
        return t.partitions.map((p) => ({
          topic: name,
          partition: p.partitionIndex,
          errorCode: p.errorCode,
          highWatermark: exactNumber(p.highWatermark, `High watermark of ${name}-${p.partitionIndex}`),
          logStartOffset: exactNumber(p.logStartOffset ?? -1n, `Log start offset of ${name}-${p.partitionIndex}`),
          records: p.records,
        }));
      }),
    }));
  });
}
