import { strict as assert } from 'node:assert';
import { offsetsPartitionFor } from '../../../src/protocol/offsetsPartition';
import { OffsetsTopicReader } from '../../../src/kafka/offsetsTopicReader';
import { OffsetsTopicAccessError, type EarliestOffset, type OffsetsTopicTransport } from '../../../src/kafka/offsetsTopicTransport';
import type { FetchLimits, FetchPosition, FetchResult } from '../../../src/kafka/requests/fetchRequest';
import { concat, groupMetadataKey, groupMetadataValueV3, i16, i32, str } from '../timeline/kafkaBytes';
import { controlKey, recordBatch, withCrc, type TestBatch } from '../protocol/recordBatchBytes';
import type { KafkaLogger } from '../../../src/kafka/connection';

const PARTITIONS = 4;

class MemoryLogger implements KafkaLogger {
  readonly lines: string[] = [];
  readonly debug = (m: string): number => this.lines.push(`debug ${m}`);
  readonly info = (m: string): number => this.lines.push(`info ${m}`);
  readonly warn = (m: string): number => this.lines.push(`warn ${m}`);
  readonly error = (m: string): number => this.lines.push(`error ${m}`);
}
const LEADERS = [1, 1, 2, 2];

/** Group names by the partition offsetsPartitionFor puts them in, for a 4-partition topic. */
function groupIn(partition: number, prefix = 'g'): string {
  for (let i = 0; ; i++) {
    if (offsetsPartitionFor(`${prefix}${i}`, PARTITIONS) === partition) {
      return `${prefix}${i}`;
    }
  }
}

interface StoredBatch {
  baseOffset: number;
  lastOffset: number;
  bytes: Uint8Array;
}

type GroupRecord = [group: string, generation: number, members: Array<[string, number[]]>];

/** An in-memory `__consumer_offsets` that answers like a broker: batches from the one holding the offset, cut at max bytes. */
class FakeOffsetsTopic implements OffsetsTopicTransport {
  leaders: number[] | null = [...LEADERS];
  metadataError: Error | null = null;
  readonly logStart = new Map<number, number>();
  readonly log = new Map<number, StoredBatch[]>();
  /** One-shot error codes per partition, answered instead of data. */
  readonly fetchErrors = new Map<number, number>();
  readonly fetches: Array<{ leader: number; positions: FetchPosition[] }> = [];
  readonly listings: Array<{ leader: number; partitions: number[] }> = [];

  end(partition: number): number {
    const batches = this.log.get(partition) ?? [];
    return batches.length === 0 ? (this.logStart.get(partition) ?? 0) : batches[batches.length - 1].lastOffset + 1;
  }

  append(partition: number, batch: Omit<TestBatch, 'baseOffset'>): void {
    const baseOffset = this.end(partition);
    const bytes = recordBatch({ ...batch, baseOffset });
    const lastOffset = baseOffset + (batch.lastOffsetDelta ?? batch.records[batch.records.length - 1]?.offsetDelta ?? 0);
    this.log.set(partition, [...(this.log.get(partition) ?? []), { baseOffset, lastOffset, bytes }]);
  }

  /** One batch of group-metadata records, timed one ms apart. */
  appendGroups(partition: number, records: GroupRecord[], options: Partial<TestBatch> = {}): void {
    this.append(partition, {
      ...options,
      records: records.map(([group, generation, members], i) => {
        assert.equal(offsetsPartitionFor(group, PARTITIONS), partition, `${group} is not in partition ${partition}`);
        return { offsetDelta: i, timestampDelta: i, key: groupMetadataKey(group), value: groupMetadataValueV3(generation, members) };
      }),
    });
  }

  async partitionLeaders(): Promise<number[] | null> {
    if (this.metadataError) {
      throw this.metadataError;
    }
    return this.leaders === null ? null : [...this.leaders];
  }

  async earliestOffsets(leader: number, partitions: readonly number[]): Promise<EarliestOffset[]> {
    this.listings.push({ leader, partitions: [...partitions] });
    return partitions.map((partition) => ({ partition, errorCode: 0, offset: this.logStart.get(partition) ?? 0 }));
  }

  async fetch(leader: number, positions: readonly FetchPosition[], limits: FetchLimits): Promise<FetchResult> {
    this.fetches.push({ leader, positions: positions.map((p) => ({ ...p })) });
    if (positions.every((p) => p.fetchOffset >= this.end(p.partition))) {
      await new Promise((resolve) => setImmediate(resolve)); // a long poll that found nothing
    }
    return {
      errorCode: 0,
      partitions: positions.map(({ partition, fetchOffset }) => {
        const highWatermark = this.end(partition);
        const errorCode = this.fetchErrors.get(partition) ?? (fetchOffset < (this.logStart.get(partition) ?? 0) || fetchOffset > highWatermark ? 1 : 0);
        this.fetchErrors.delete(partition);
        const base = { topic: '__consumer_offsets', partition, errorCode, highWatermark, logStartOffset: this.logStart.get(partition) ?? 0 };
        if (errorCode !== 0) {
          return { ...base, records: null };
        }
        const batches = (this.log.get(partition) ?? []).filter((b) => b.lastOffset >= fetchOffset);
        const all = Buffer.from(concat(...batches.map((b) => b.bytes)));
        // Like a broker: at least the first batch whole, then up to the limit, possibly mid-batch.
        const size = Math.min(all.length, Math.max(limits.maxBytesPerPartition, batches[0]?.bytes.byteLength ?? 0));
        return { ...base, records: size === 0 ? null : all.subarray(0, size) };
      }),
    };
  }
}

function members(events: ReturnType<OffsetsTopicReader['events']>, generation: number): string[] {
  return events.filter((e) => e.generation === generation && e.kind === 'member-joined').map((e) => e.memberId ?? '').sort();
}

describe('kafka/OffsetsTopicReader', () => {
  let topic: FakeOffsetsTopic;
  let logger: MemoryLogger;
  let notified: string[][];
  let reader: OffsetsTopicReader;
  const create = (limits: Partial<FetchLimits> = {}): OffsetsTopicReader =>
    new OffsetsTopicReader(topic, { logger, limits, onEvents: (groups) => notified.push(groups) });
  const noUnavailable = (reason: string): void => assert.fail(`unexpectedly unavailable: ${reason}`);

  beforeEach(() => {
    topic = new FakeOffsetsTopic();
    logger = new MemoryLogger();
    notified = [];
    reader = create();
  });

  it('reads only the partition of a watched group, from its log start, and tells which watched groups changed', async () => {
    const group = groupIn(2);
    const neighbour = groupIn(2, 'n');
    topic.appendGroups(2, [[group, 1, [['a', [0, 1]]]], [neighbour, 1, [['x', [0]]]]]);
    topic.appendGroups(2, [[group, 2, [['a', [0]], ['b', [1]]]]]);
    topic.appendGroups(0, [[groupIn(0), 1, [['z', [0]]]]]);
    reader.watchGroup(group, noUnavailable);

    const summary = await reader.readOnce();
    assert.deepEqual(summary.fetched, [2]);
    assert.deepEqual(topic.listings, [{ leader: 2, partitions: [2] }]);
    assert.equal(summary.records, 3);
    assert.equal(summary.caughtUp, true);
    assert.deepEqual(summary.groupsWithEvents, [group, neighbour].sort());
    assert.deepEqual(notified, [[group]]);
    assert.equal(reader.position(2), 3);
    assert.equal(reader.position(0), undefined);
    assert.deepEqual(members(reader.events(group), 1), ['a']);
    assert.deepEqual(members(reader.events(group), 2), ['b']);
    assert.equal(reader.events(neighbour).length, 3); // read along with the watched group, not announced
  });

  it('advances batch by batch when responses are cut at max bytes, ingesting each record once', async () => {
    const group = groupIn(1);
    for (let generation = 1; generation <= 6; generation++) {
      topic.appendGroups(1, [[group, generation, generation % 2 === 1 ? [['a', [0, 1]]] : [['a', [0]], ['b', [1]]]]]);
    }
    reader = create({ maxBytesPerPartition: 1 });
    reader.watchGroup(group, noUnavailable);
    const positions: number[] = [];
    for (let round = 0; round < 6; round++) {
      const summary = await reader.readOnce();
      assert.equal(summary.records, 1);
      assert.equal(summary.caughtUp, round === 5);
      positions.push(reader.position(1) ?? -1);
    }
    assert.deepEqual(positions, [1, 2, 3, 4, 5, 6]);
    assert.deepEqual(topic.fetches.map((f) => f.positions[0].fetchOffset), [0, 1, 2, 3, 4, 5]);
    assert.deepEqual([...new Set(reader.events(group).map((e) => e.generation))], [1, 2, 3, 4, 5, 6]);
    assert.equal((await reader.readOnce()).records, 0);
    assert.equal(reader.position(1), 6);
  });

  it('skips the records of the first batch that precede the log start', async () => {
    const group = groupIn(3);
    topic.appendGroups(3, [[group, 1, [['old', [0]]]], [group, 2, [['a', [0]]]], [group, 3, [['a', [0]], ['b', [1]]]]]);
    topic.logStart.set(3, 1);
    reader.watchGroup(group, noUnavailable);
    const summary = await reader.readOnce();
    assert.equal(summary.records, 2);
    assert.deepEqual([...new Set(reader.events(group).map((e) => e.generation))], [2, 3]);
    assert.ok(!reader.events(group).some((e) => e.memberId === 'old'));
  });

  it('moves past control batches, batches compaction emptied and gzip batches without stalling', async () => {
    const group = groupIn(0);
    topic.append(0, { records: [], lastOffsetDelta: 3 });
    topic.append(0, { control: true, records: [{ offsetDelta: 0, key: controlKey(1), value: concat(i16(0), i32(0)) }] });
    topic.appendGroups(0, [[group, 4, [['a', [0]]]]], { gzip: true });
    reader = create({ maxBytesPerPartition: 1 });
    reader.watchGroup(group, noUnavailable);
    const rounds = [await reader.readOnce(), await reader.readOnce(), await reader.readOnce()];
    assert.deepEqual(rounds.map((r) => r.records), [0, 0, 1]);
    assert.deepEqual(topic.fetches.map((f) => f.positions[0].fetchOffset), [0, 4, 5]);
    assert.equal(reader.position(0), 6);
    assert.deepEqual(members(reader.events(group), 4), ['a']);
  });

  it('tails: records appended later arrive in a later round, and only the changed watched groups are announced', async () => {
    const [g0, g3] = [groupIn(0), groupIn(3)];
    reader.watchGroup(g0, noUnavailable);
    reader.watchGroup(g3, noUnavailable);
    assert.deepEqual((await reader.readOnce()).fetched, [0, 3]);
    assert.deepEqual(topic.fetches.map((f) => f.leader).sort(), [1, 2]);
    assert.deepEqual(notified, []);
    topic.appendGroups(3, [[g3, 1, [['a', [0]]]]]);
    await reader.readOnce();
    assert.deepEqual(notified, [[g3]]);
    assert.equal(reader.events(g0).length, 0);
  });

  it('stops fetching a partition nobody watches and resumes it where it stopped', async () => {
    const group = groupIn(1);
    topic.appendGroups(1, [[group, 1, [['a', [0]]]]]);
    const stop = reader.watchGroup(group, noUnavailable);
    await reader.readOnce();
    stop();
    topic.appendGroups(1, [[group, 2, [['a', [0]], ['b', [1]]]]]);
    assert.deepEqual((await reader.readOnce()).fetched, []);
    reader.watchGroup(group, noUnavailable);
    const summary = await reader.readOnce();
    assert.equal(summary.records, 1);
    assert.equal(topic.fetches[topic.fetches.length - 1].positions[0].fetchOffset, 1);
    assert.deepEqual([...new Set(reader.events(group).map((e) => e.generation))], [1, 2]);
  });

  it('reads every partition when watching all groups', async () => {
    for (let p = 0; p < PARTITIONS; p++) {
      topic.appendGroups(p, [[groupIn(p), 1, [['m', [p]]]]]);
    }
    reader.watchAll(noUnavailable);
    const summary = await reader.readOnce();
    assert.deepEqual(summary.fetched, [0, 1, 2, 3]);
    assert.deepEqual(notified, [[0, 1, 2, 3].map((p) => groupIn(p)).sort()]);
  });

  it('starts over from the log start after OFFSET_OUT_OF_RANGE', async () => {
    const group = groupIn(2);
    topic.appendGroups(2, [[group, 1, [['a', [0]]]], [group, 2, [['b', [0]]]]]);
    reader.watchGroup(group, noUnavailable);
    await reader.readOnce();
    topic.logStart.set(2, 5); // retention removed everything read so far, and more
    topic.log.set(2, []);
    topic.appendGroups(2, [[group, 7, [['c', [0]]]]]);
    const failed = await reader.readOnce();
    assert.match(failed.failures.join(), /Fetch of __consumer_offsets-2: OFFSET_OUT_OF_RANGE/);
    const resumed = await reader.readOnce();
    assert.equal(resumed.records, 1);
    assert.equal(reader.position(2), 6);
    assert.deepEqual(topic.listings.map((l) => l.partitions), [[2], [2]]);
    assert.deepEqual(members(reader.events(group), 7), ['c']);
  });

  it('asks for the leaders again after NOT_LEADER_OR_FOLLOWER and fetches from the new one', async () => {
    const group = groupIn(0);
    topic.appendGroups(0, [[group, 1, [['a', [0]]]]]);
    reader.watchGroup(group, noUnavailable);
    topic.fetchErrors.set(0, 6);
    const failed = await reader.readOnce();
    assert.match(failed.failures.join(), /Fetch of __consumer_offsets-0: NOT_LEADER_OR_FOLLOWER/);
    assert.equal(failed.caughtUp, false);
    topic.leaders = [3, 1, 2, 2];
    const summary = await reader.readOnce();
    assert.equal(summary.records, 1);
    assert.deepEqual(topic.fetches.map((f) => f.leader), [1, 3]);
  });

  it('waits for the topic to exist', async () => {
    topic.leaders = null;
    reader.watchGroup(groupIn(0), noUnavailable);
    const summary = await reader.readOnce();
    assert.deepEqual([summary.topicMissing, summary.failures, summary.fetched], [true, [], []]);
    topic.leaders = [...LEADERS];
    assert.deepEqual((await reader.readOnce()).fetched, [0]);
  });

  it('logs and skips records it cannot decode', async () => {
    const group = groupIn(1);
    topic.append(1, { records: [{ offsetDelta: 0, key: null, value: null }, { offsetDelta: 1, key: concat(i16(2), str(group)), value: i16(9) }] });
    topic.appendGroups(1, [[group, 1, [['a', [0]]]]]);
    reader.watchGroup(group, noUnavailable);
    const summary = await reader.readOnce();
    assert.equal(summary.records, 3);
    assert.deepEqual(logger.lines.filter((l) => l.startsWith('warn')), [
      'warn Skipped __consumer_offsets-1 offset 0: __consumer_offsets record without a key',
      'warn Skipped __consumer_offsets-1 offset 1: GroupMetadataValue: unsupported version 9 (this decoder reads 0 to 4)',
    ]);
    assert.deepEqual(members(reader.events(group), 1), ['a']);
  });

  it('reports an unreadable batch once with its partition and offset, skips it and reads on (no fetch loop at a negative last offset delta)', async () => {
    const group = groupIn(1);
    topic.appendGroups(1, [[group, 1, [['a', [0]]]]]);
    topic.appendGroups(1, [[group, 2, [['b', [0]]]]]);
    topic.appendGroups(1, [[group, 3, [['c', [0]]]]]);
    topic.appendGroups(1, [[group, 4, [['d', [0]]]]]);
    const [, negativeDelta, hugeCount] = topic.log.get(1) ?? [];
    new DataView(negativeDelta.bytes.buffer, negativeDelta.bytes.byteOffset).setInt32(23, -5); // last offset delta
    new DataView(hugeCount.bytes.buffer, hugeCount.bytes.byteOffset).setInt32(57, 100_000); // record count
    withCrc(hugeCount.bytes); // a well-formed batch whose count is wrong, not a corrupt one
    reader.watchGroup(group, noUnavailable);
    for (let round = 0; round < 5 && reader.position(1) !== 4; round++) {
      await reader.readOnce();
    }
    assert.equal(reader.position(1), 4);
    assert.deepEqual(topic.fetches.map((f) => f.positions[0].fetchOffset), [0, 2]);
    assert.deepEqual(logger.lines.filter((l) => l.startsWith('warn')), [
      'warn Skipped an unreadable record batch of __consumer_offsets-1 at offset 1: record batch at offset 1: last offset delta -5 is negative',
      'warn Skipped an unreadable record batch of __consumer_offsets-1 at offset 2: record batch at offset 2: 100000 records cannot fit in the 137 bytes left',
    ]);
    assert.deepEqual([...new Set(reader.events(group).map((e) => e.generation))], [1, 4]);
  });

  it('stops reading, with the reason, when the broker answers only batches before the position', async () => {
    const group = groupIn(2);
    topic.appendGroups(2, [[group, 1, [['a', [0]]]]]);
    const reasons: string[] = [];
    reader.watchGroup(group, (reason) => reasons.push(reason));
    await reader.readOnce();
    assert.equal(reader.position(2), 1);
    topic.appendGroups(2, [[group, 2, [['b', [0]]]]]);
    const [first] = topic.log.get(2) ?? [];
    topic.fetch = async (_leader, positions) => ({
      errorCode: 0,
      partitions: positions.map(({ partition }) => ({ topic: '__consumer_offsets', partition, errorCode: 0, highWatermark: 2, logStartOffset: 0, records: Buffer.from(first.bytes) })),
    });
    await reader.readOnce();
    const reason = 'broker answered only batches before offset 1 of __consumer_offsets-2; reading it again would not move';
    assert.deepEqual(reasons, [reason]);
    assert.equal(reader.unavailable, reason);
  });

  describe('when the user may not read the topic', () => {
    it('tells every watcher once after TOPIC_AUTHORIZATION_FAILED and reads no more', async () => {
      const reasons: string[] = [];
      reader.watchGroup(groupIn(0), (r) => reasons.push(`a: ${r}`));
      reader.watchGroup(groupIn(2), (r) => reasons.push(`b: ${r}`));
      topic.fetchErrors.set(2, 29);
      await reader.readOnce();
      const reason = 'Fetch of __consumer_offsets: TOPIC_AUTHORIZATION_FAILED: Topic authorization failed.';
      assert.deepEqual(reasons.sort(), [`a: ${reason}`, `b: ${reason}`]);
      assert.equal(reader.unavailable, reason);
      const fetches = topic.fetches.length;
      assert.deepEqual(await reader.readOnce(), { fetched: [], records: 0, groupsWithEvents: [], failures: [], caughtUp: true, topicMissing: false });
      assert.equal(topic.fetches.length, fetches);

      const late: string[] = [];
      reader.watchGroup(groupIn(1), (r) => late.push(r));
      assert.deepEqual(late, []); // told asynchronously, never from inside watchGroup
      await Promise.resolve();
      assert.deepEqual(late, [reason]);
    });

    it('gives up when the metadata already refuses the topic', async () => {
      const reasons: string[] = [];
      topic.metadataError = new OffsetsTopicAccessError('Metadata of __consumer_offsets: TOPIC_AUTHORIZATION_FAILED');
      reader.watchGroup(groupIn(0), (r) => reasons.push(r));
      await reader.readOnce();
      assert.deepEqual(reasons, ['Metadata of __consumer_offsets: TOPIC_AUTHORIZATION_FAILED']);
      assert.match(logger.lines.join('\n'), /Cannot read __consumer_offsets .*fall back to polling/);
    });

    it('lets other metadata failures through for the caller to retry', async () => {
      topic.metadataError = new Error('Cannot reach 127.0.0.1:9092');
      reader.watchGroup(groupIn(0), noUnavailable);
      await assert.rejects(reader.readOnce(), /Cannot reach/);
      assert.equal(reader.unavailable, null);
    });
  });

  it('runs in the background until disposed', async () => {
    const group = groupIn(3);
    topic.appendGroups(3, [[group, 1, [['a', [0]]]]]);
    const announced = new Promise<string[]>((resolve) => {
      reader = new OffsetsTopicReader(topic, { logger, onEvents: resolve });
    });
    reader.watchGroup(group, noUnavailable);
    reader.start();
    assert.deepEqual(await announced, [group]);
    await reader.dispose();
    const fetches = topic.fetches.length;
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(topic.fetches.length, fetches);
    assert.throws(() => reader.watchGroup(group, noUnavailable), /disposed/);
  });

  it('keeps looking for the topic in the background until it exists, logging that at debug level only', async () => {
    const group = groupIn(0);
    topic.appendGroups(0, [[group, 1, [['a', [0]]]]]);
    topic.leaders = null;
    const lookup = topic.partitionLeaders.bind(topic);
    let lookups = 0;
    topic.partitionLeaders = async () => {
      if (++lookups === 3) {
        topic.leaders = [...LEADERS];
      }
      return lookup();
    };
    const announced = new Promise<string[]>((resolve) => {
      reader = new OffsetsTopicReader(topic, { logger, retryBackoffMs: 1, onEvents: resolve });
    });
    reader.watchGroup(group, noUnavailable);
    reader.start();
    assert.deepEqual(await announced, [group]);
    await reader.dispose();
    assert.equal(lookups, 3);
    assert.deepEqual(logger.lines, [
      'debug __consumer_offsets does not exist yet; looking again in 1 ms',
      'debug __consumer_offsets does not exist yet; looking again in 1 ms',
    ]);
  });

  it('refuses bad limits and empty group ids', () => {
    assert.throws(() => create({ maxBytes: 0 }), /maxBytes must be a positive integer, got 0/);
    assert.throws(() => reader.watchGroup('', noUnavailable), /needs a group id/);
  });
});
