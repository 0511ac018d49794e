import * as assert from 'node:assert/strict';
import type { KafkaLogger } from '../../../src/kafka/connection';
import { OffsetsTopicReader } from '../../../src/kafka/offsetsTopicReader';
import type { EarliestOffset, OffsetsTopicTransport } from '../../../src/kafka/offsetsTopicTransport';
import type { FetchPosition, FetchResult } from '../../../src/kafka/requests/fetchRequest';
import { offsetsPartitionFor } from '../../../src/protocol/offsetsPartition';
import { encodeConsumerGroupRecord } from '../../../src/timeline/consumerGroupRecords';
import { convergence, membershipChange, TIMELINE_GROUP, TOPIC_NAMES } from '../timeline/consumerGroupTimeline';
import { concat } from '../timeline/kafkaBytes';
import { recordBatch } from '../protocol/recordBatchBytes';

const PARTITIONS = 50;
const partition = offsetsPartitionFor(TIMELINE_GROUP, PARTITIONS);

/** One broker holding the engine's batches in the group's partition, one record batch per coordinator write. */
class OneBrokerOffsetsTopic implements OffsetsTopicTransport {
  readonly nameLookups: string[][] = [];
  private readonly bytes: Uint8Array;
  private readonly end: number;

  constructor(batches: ReturnType<typeof membershipChange>['batches'], private readonly names: ReadonlyMap<string, string> | Error) {
    let offset = 0;
    this.bytes = concat(...batches.map((batch) => {
      const bytes = recordBatch({
        baseOffset: offset,
        firstTimestamp: 1_700_000_000_000 + batch.time,
        records: batch.records.map((record, i) => ({ offsetDelta: i, ...encodeConsumerGroupRecord(record) })),
      });
      offset += batch.records.length;
      return bytes;
    }));
    this.end = offset;
  }

  async partitionLeaders(): Promise<number[]> {
    return new Array<number>(PARTITIONS).fill(1);
  }

  async earliestOffsets(_leader: number, partitions: readonly number[]): Promise<EarliestOffset[]> {
    return partitions.map((p) => ({ partition: p, errorCode: 0, offset: 0 }));
  }

  async fetch(_leader: number, positions: readonly FetchPosition[]): Promise<FetchResult> {
    return {
      errorCode: 0,
      partitions: positions.map((p) => ({
        topic: '__consumer_offsets', partition: p.partition, errorCode: 0, highWatermark: p.partition === partition ? this.end : 0, logStartOffset: 0,
        records: p.partition === partition && p.fetchOffset === 0 ? this.bytes : null,
      })),
    };
  }

  async topicNames(_leader: number, topicIds: readonly string[]): Promise<Map<string, string>> {
    this.nameLookups.push([...topicIds]);
    if (this.names instanceof Error) {
      throw this.names;
    }
    return new Map([...this.names].filter(([id]) => topicIds.includes(id)));
  }
}

function logger(lines: string[]): KafkaLogger {
  const log = (m: string): number => lines.push(m);
  return { debug: log, info: log, warn: log, error: log };
}

describe('OffsetsTopicReader: KIP-848 consumer-group records', () => {
  const change = membershipChange();

  it('reads a consumer group\'s timeline, with convergence times from the record timestamps and topic names asked once', async () => {
    const transport = new OneBrokerOffsetsTopic(change.batches, TOPIC_NAMES);
    const reader = new OffsetsTopicReader(transport, { logger: logger([]) });
    reader.watchGroup(TIMELINE_GROUP, () => assert.fail('unavailable'));
    const summary = await reader.readOnce();
    assert.deepEqual(summary.groupsWithEvents, [TIMELINE_GROUP]);
    const events = reader.events(TIMELINE_GROUP);
    assert.deepEqual(convergence(events), convergence(change.events));
    assert.deepEqual(events.map((e) => e.time - 1_700_000_000_000), change.events.map((e) => e.time));
    assert.deepEqual(transport.nameLookups, [[...TOPIC_NAMES.keys()]]);
    assert.ok(events.some((e) => e.assignments?.some((a) => a.assigned.some((tp) => tp.topic === 'foo'))));
    assert.equal(reader.generation(TIMELINE_GROUP), 5);
  });

  it('shows topic ids when the names cannot be had, and asks only once', async () => {
    const lines: string[] = [];
    const transport = new OneBrokerOffsetsTopic(change.batches, new Error('UNSUPPORTED_VERSION'));
    const reader = new OffsetsTopicReader(transport, { logger: logger(lines) });
    reader.watchGroup(TIMELINE_GROUP, () => assert.fail('unavailable'));
    await reader.readOnce();
    assert.equal(transport.nameLookups.length, 1);
    assert.ok(lines.some((line) => /Could not name the topics of consumer-group records \(UNSUPPORTED_VERSION\)/.test(line)));
    assert.deepEqual(convergence(reader.events(TIMELINE_GROUP)), convergence(change.events));
  });
});
