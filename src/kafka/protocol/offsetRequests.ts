/** Metadata, OffsetFetch and ListOffsets at fixed non-flexible versions every Kafka 2.x to 4.x broker serves. */
import type { BrokerRef } from '../../model/types';
import { groupBy } from '../collections';
import { ApiKeys, buildRequest, type ApiRequest } from './apiRequest';

export const METADATA_VERSION = 6;
export const OFFSET_FETCH_VERSION = 4;
export const LIST_OFFSETS_VERSION = 3;

export interface PartitionMetadata {
  errorCode: number;
  partition: number;
  leader: number;
}

export interface TopicMetadata {
  errorCode: number;
  topic: string;
  partitions: PartitionMetadata[];
}

export interface MetadataResult {
  brokers: Array<BrokerRef & { rack: string | null }>;
  clusterId: string | null;
  controllerId: number;
  topics: TopicMetadata[];
}

/** Metadata v6 for the named topics (never "all topics"), without auto-creation. */
export function metadataRequest(topics: readonly string[]): ApiRequest<MetadataResult> {
  return buildRequest({
    apiKey: ApiKeys.Metadata,
    apiName: 'Metadata',
    apiVersion: METADATA_VERSION,
    flexible: false,
    writeBody: (f) => {
      f.array(topics, (t, name) => t.string(name));
      f.w.boolean(false);
    },
    readBody: (f) => {
      f.r.int32();
      const brokers = f.array((b) => ({ nodeId: b.r.int32(), host: b.string(), port: b.r.int32(), rack: b.nullableString() }));
      const clusterId = f.nullableString();
      const controllerId = f.r.int32();
      const topicList = f.array((t) => {
        const errorCode = t.r.int16();
        const topic = t.string();
        t.r.boolean(); // is internal
        const partitions = t.array((p) => {
          const partition: PartitionMetadata = { errorCode: p.r.int16(), partition: p.r.int32(), leader: p.r.int32() };
          p.array((x) => x.r.int32()); // replicas
          p.array((x) => x.r.int32()); // isr
          p.array((x) => x.r.int32()); // offline replicas
          return partition;
        });
        return { errorCode, topic, partitions };
      });
      return { brokers, clusterId, controllerId, topics: topicList };
    },
  });
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

/** OffsetFetch v4 for every topic the group committed (topics = null). */
export function offsetFetchRequest(groupId: string): ApiRequest<OffsetFetchResult> {
  return buildRequest({
    apiKey: ApiKeys.OffsetFetch,
    apiName: 'OffsetFetch',
    apiVersion: OFFSET_FETCH_VERSION,
    flexible: false,
    writeBody: (f) => {
      f.string(groupId);
      f.array(null, () => undefined);
    },
    readBody: (f) => {
      f.r.int32();
      const offsets = f
        .array((t) => {
          const topic = t.string();
          return t.array((p) => ({
            topic,
            partition: p.r.int32(),
            offset: p.r.exactInt64(),
            metadata: p.nullableString(),
            errorCode: p.r.int16(),
          }));
        })
        .flat();
      const errorCode = f.r.int16();
      return { errorCode, offsets };
    },
  });
}

/** ListOffsets timestamps with special meaning. */
export const LATEST_TIMESTAMP = -1;
export const EARLIEST_TIMESTAMP = -2;
export const READ_UNCOMMITTED = 0;
export const READ_COMMITTED = 1;

export interface ListedOffset {
  topic: string;
  partition: number;
  errorCode: number;
  offset: number;
}

export function listOffsetsRequest(
  isolationLevel: number,
  timestamp: number,
  partitions: ReadonlyArray<{ topic: string; partition: number }>,
): ApiRequest<ListedOffset[]> {
  const byTopic = groupBy(partitions, (p) => p.topic);
  return buildRequest({
    apiKey: ApiKeys.ListOffsets,
    apiName: 'ListOffsets',
    apiVersion: LIST_OFFSETS_VERSION,
    flexible: false,
    writeBody: (f) => {
      f.w.int32(-1); // replica id: a consumer
      f.w.int8(isolationLevel);
      f.array([...byTopic], (t, [topic, parts]) => {
        t.string(topic);
        t.array(parts, (p, { partition }) => p.w.int32(partition).int64(timestamp));
      });
    },
    readBody: (f) => {
      f.r.int32();
      return f
        .array((t) => {
          const topic = t.string();
          return t.array((p) => {
            const partition = p.r.int32();
            const errorCode = p.r.int16();
            p.r.int64(); // timestamp
            return { topic, partition, errorCode, offset: p.r.exactInt64() };
          });
        })
        .flat();
    },
  });
}
