/**
 * Fetch v4..v11 (the non-flexible versions that still name topics; v13+ use topic ids), for a
 * reader that assigns itself partitions instead of joining a group. The record bytes are returned
 * untouched: recordBatches.ts splits them.
 */
import { ApiKeys, buildRequest, type ApiRequest } from './apiRequest';

export const MIN_FETCH_VERSION = 4;
export const MAX_FETCH_VERSION = 11;

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
  /** v5+; -1 in v4 and when the broker does not know it. */
  logStartOffset: number;
  /** The record batches (possibly ending with a truncated one); null when there are none. */
  records: Buffer | null;
}

export interface FetchResult {
  /** Whole-request error (v7+, fetch sessions); 0 otherwise. */
  errorCode: number;
  partitions: FetchedPartition[];
}

/** Session id 0 with epoch -1: a plain full fetch that opens no fetch session. */
const NO_SESSION_ID = 0;
const FINAL_SESSION_EPOCH = -1;
const NO_LEADER_EPOCH = -1;
const READ_UNCOMMITTED = 0;

export function fetchRequest(version: number, topic: string, positions: readonly FetchPosition[], limits: FetchLimits): ApiRequest<FetchResult> {
  if (!Number.isInteger(version) || version < MIN_FETCH_VERSION || version > MAX_FETCH_VERSION) {
    throw new RangeError(`Fetch v${version} is not supported here (v${MIN_FETCH_VERSION}..v${MAX_FETCH_VERSION})`);
  }
  if (positions.length === 0) {
    throw new RangeError('Fetch needs at least one partition');
  }
  return buildRequest({
    apiKey: ApiKeys.Fetch,
    apiName: 'Fetch',
    apiVersion: version,
    flexible: false,
    writeBody: (f) => {
      f.w.int32(-1); // replica id: a consumer
      f.w.int32(limits.maxWaitMs);
      f.w.int32(1); // min bytes: answer as soon as anything is there
      f.w.int32(limits.maxBytes);
      f.w.int8(READ_UNCOMMITTED); // group-metadata records are never transactional
      if (version >= 7) {
        f.w.int32(NO_SESSION_ID);
        f.w.int32(FINAL_SESSION_EPOCH);
      }
      f.array([topic], (t, name) => {
        t.string(name);
        t.array(positions, (p, position) => {
          p.w.int32(position.partition);
          if (version >= 9) {
            p.w.int32(NO_LEADER_EPOCH);
          }
          p.w.int64(position.fetchOffset);
          if (version >= 5) {
            p.w.int64(-1); // log start offset: only followers send it
          }
          p.w.int32(limits.maxBytesPerPartition);
        });
      });
      if (version >= 7) {
        f.array([], () => undefined); // forgotten topics
      }
      if (version >= 11) {
        f.string(''); // rack id
      }
    },
    readBody: (f) => {
      f.r.int32(); // throttle time
      const errorCode = version >= 7 ? f.r.int16() : 0;
      if (version >= 7) {
        f.r.int32(); // session id
      }
      const partitions = f
        .array((t) => {
          const topicName = t.string();
          return t.array((p): FetchedPartition => {
            const partition = p.r.int32();
            const partitionError = p.r.int16();
            const highWatermark = p.r.exactInt64();
            p.r.int64(); // last stable offset
            const logStartOffset = version >= 5 ? p.r.exactInt64() : -1;
            p.array((a) => [a.r.int64(), a.r.int64()]); // aborted transactions
            if (version >= 11) {
              p.r.int32(); // preferred read replica
            }
            const records = p.bytes();
            return { topic: topicName, partition, errorCode: partitionError, highWatermark, logStartOffset, records };
          });
        })
        .flat();
      return { errorCode, partitions };
    },
  });
}
