import { strict as assert } from 'assert';
import { VirtualClock } from '../../../../src/simulator/common/clock';
import { KafkaApiError } from '../../../../src/simulator/common/errors';
import type { FetchedBatch } from '../../../../src/simulator/share/fetchedData';
import { AcknowledgeType } from '../../../../src/simulator/share/recordState';
import { SharePartition, type DeadLetterRecords, type PersistedShareState, type SharePartitionConfig, type ShareStateWrite } from '../../../../src/simulator/share/sharePartition';

const { GAP, ACCEPT, RELEASE, REJECT, RENEW } = AcknowledgeType;

interface Harness {
  clock: VirtualClock;
  partition: SharePartition;
  config: { lockMs: number; limit: number; maxLocks: number; renew: boolean; dlq: string | null };
  writes: ShareStateWrite[];
  deadLetters: DeadLetterRecords[];
  failWrites: { on: boolean };
}

function harness(overrides: Partial<Harness['config']> = {}, persisted: PersistedShareState = { stateEpoch: 0, startOffset: -1, stateBatches: [] }, resetOffset = 0): Harness {
  const clock = new VirtualClock();
  const config = { lockMs: 30_000, limit: 5, maxLocks: 2000, renew: true, dlq: null as string | null, ...overrides };
  const writes: ShareStateWrite[] = [];
  const deadLetters: DeadLetterRecords[] = [];
  const failWrites = { on: false };
  const provider: SharePartitionConfig = {
    recordLockDurationMs: () => config.lockMs,
    deliveryCountLimit: () => config.limit,
    partitionMaxRecordLocks: () => config.maxLocks,
    renewAcknowledgeEnabled: () => config.renew,
    deadLetterTopic: () => config.dlq,
  };
  const partition = new SharePartition({
    clock,
    leaderEpoch: 0,
    config: provider,
    persister: {
      writeState: (write) => {
        if (failWrites.on) {
          throw new KafkaApiError('COORDINATOR_NOT_AVAILABLE', 'share coordinator down');
        }
        writes.push(write);
      },
    },
    writeDeadLetters: (records) => deadLetters.push(records),
  }, persisted, () => resetOffset);
  return { clock, partition, config, writes, deadLetters, failWrites };
}

/** Log batches of `size` records each over [first, last]. */
function batches(first: number, last: number, size = 1): FetchedBatch[] {
  const result: FetchedBatch[] = [];
  for (let base = first; base <= last; base += size) {
    result.push({ baseOffset: base, lastOffset: Math.min(base + size - 1, last), producerId: null, controlType: null });
  }
  return result;
}

function fetch(h: Harness, member: string, logEnd: number, opts: { max?: number; batchSize?: number; mode?: 'batch_optimized' | 'record_limit'; size?: number } = {}) {
  const from = h.partition.nextFetchOffset();
  return h.partition.acquire(member, opts.mode ?? 'batch_optimized', opts.batchSize ?? 500, opts.max ?? 500, from, batches(from, logEnd, opts.size ?? 1), null);
}

function ranges(h: Harness) {
  return h.partition.inFlightRanges().map((r) => `${r.firstOffset}-${r.lastOffset}:${r.state}:${r.memberId || '-'}:${r.deliveryCount}`);
}

function apiError(name: string, message?: RegExp) {
  return (error: unknown) => error instanceof KafkaApiError && error.errorName === name && (message === undefined || message.test(error.message));
}

describe('SharePartition (Kafka 4.4 kafka.server.share.SharePartition)', () => {
  it('acquires new records under a lock and moves the start offset once they are all accepted', () => {
    const h = harness();
    const acquired = fetch(h, 'm1', 9);
    assert.deepEqual(acquired, { acquiredRecords: [{ firstOffset: 0, lastOffset: 9, deliveryCount: 1 }], count: 10 });
    assert.equal(h.partition.nextFetchOffset(), 10);
    assert.deepEqual(ranges(h), ['0-9:ACQUIRED:m1:1']);
    assert.equal(h.partition.inFlightRanges()[0].lockExpiresAtMs, 30_000);
    h.partition.acknowledge('m1', [{ firstOffset: 0, lastOffset: 9, acknowledgeTypes: [ACCEPT] }]);
    assert.equal(h.partition.startOffset, 10);
    assert.equal(h.partition.endOffset, 10);
    assert.equal(h.partition.deliveryCompleteCount, 0);
    assert.deepEqual(ranges(h), []);
    assert.deepEqual(h.writes.map((w) => [w.startOffset, w.deliveryCompleteCount, w.stateBatches]), [[0, 10, [{ firstOffset: 0, lastOffset: 9, deliveryState: 2, deliveryCount: 1 }]]]);
  });

  it('cuts new records into batches of at most batchSize at log batch boundaries', () => {
    const h = harness();
    const acquired = fetch(h, 'm1', 11, { batchSize: 5, size: 3 });
    assert.deepEqual(acquired.acquiredRecords.map((r) => [r.firstOffset, r.lastOffset]), [[0, 5], [6, 11]]);
  });

  it('redelivers released records with a higher delivery count and keeps accepted ones delivered', () => {
    const h = harness();
    fetch(h, 'm1', 4);
    h.partition.acknowledge('m1', [{ firstOffset: 0, lastOffset: 4, acknowledgeTypes: [ACCEPT, RELEASE, ACCEPT, RELEASE, ACCEPT] }]);
    assert.equal(h.partition.startOffset, 1);
    assert.equal(h.partition.deliveryCompleteCount, 2);
    assert.deepEqual(ranges(h), ['1-1:AVAILABLE:-:1', '2-2:ACKNOWLEDGED:-:1', '3-3:AVAILABLE:-:1', '4-4:ACKNOWLEDGED:-:1']);
    assert.equal(h.partition.nextFetchOffset(), 1);
    const again = fetch(h, 'm2', 4);
    assert.deepEqual(again.acquiredRecords, [{ firstOffset: 1, lastOffset: 1, deliveryCount: 2 }, { firstOffset: 3, lastOffset: 3, deliveryCount: 2 }]);
    assert.equal(again.count, 2);
  });

  it('returns records whose lock expired to AVAILABLE for another member', () => {
    const h = harness({ lockMs: 1_000 });
    fetch(h, 'slow', 2);
    h.clock.advance(999);
    assert.deepEqual(ranges(h), ['0-2:ACQUIRED:slow:1']);
    h.clock.advance(1);
    assert.deepEqual(ranges(h), ['0-2:AVAILABLE:-:1']);
    assert.deepEqual(h.writes.at(-1)?.stateBatches, [{ firstOffset: 0, lastOffset: 2, deliveryState: 0, deliveryCount: 1 }]);
    assert.deepEqual(fetch(h, 'fast', 2).acquiredRecords, [{ firstOffset: 0, lastOffset: 2, deliveryCount: 2 }]);
    assert.throws(() => h.partition.acknowledge('slow', [{ firstOffset: 0, lastOffset: 2, acknowledgeTypes: [ACCEPT] }]), apiError('INVALID_RECORD_STATE', /not the owner/));
  });

  it('archives a record released at the delivery limit and moves the start offset past it', () => {
    const h = harness({ limit: 2 });
    for (let attempt = 1; attempt <= 2; attempt++) {
      assert.deepEqual(fetch(h, 'm1', 0).acquiredRecords, [{ firstOffset: 0, lastOffset: 0, deliveryCount: attempt }]);
      h.partition.acknowledge('m1', [{ firstOffset: 0, lastOffset: 0, acknowledgeTypes: [RELEASE] }]);
    }
    assert.equal(h.partition.startOffset, 1);
    assert.deepEqual(h.writes.at(-1)?.stateBatches, [{ firstOffset: 0, lastOffset: 0, deliveryState: 4, deliveryCount: 2 }]);
    assert.deepEqual(fetch(h, 'm1', 0).acquiredRecords, []);
  });

  it('archives a record whose lock expired on its last delivery', () => {
    const h = harness({ limit: 2, lockMs: 100 });
    fetch(h, 'm1', 0);
    h.clock.advance(100);
    fetch(h, 'm1', 0);
    h.clock.advance(100);
    assert.equal(h.partition.startOffset, 1);
    assert.deepEqual(ranges(h), []);
  });

  it('copies rejected records and records past the delivery limit into the dead-letter topic, then archives them', () => {
    const h = harness({ dlq: 'orders-dlq', limit: 2 });
    fetch(h, 'm1', 3);
    h.partition.acknowledge('m1', [{ firstOffset: 0, lastOffset: 3, acknowledgeTypes: [REJECT, RELEASE, ACCEPT, ACCEPT] }]);
    assert.deepEqual(h.deadLetters, [{ topic: 'orders-dlq', firstOffset: 0, lastOffset: 0, deliveryCount: 1, cause: 'CLIENT_REJECT' }]);
    assert.equal(h.partition.startOffset, 1);
    fetch(h, 'm1', 3);
    h.partition.acknowledge('m1', [{ firstOffset: 1, lastOffset: 1, acknowledgeTypes: [RELEASE] }]);
    assert.deepEqual(h.deadLetters.at(-1), { topic: 'orders-dlq', firstOffset: 1, lastOffset: 1, deliveryCount: 2, cause: 'DELIVERY_COUNT_EXCEEDED' });
    assert.equal(h.partition.startOffset, 4);
    const states = h.writes.flatMap((w) => w.stateBatches.map((b) => `${b.firstOffset}:${b.deliveryState}`));
    assert.deepEqual(states, ['0:3', '1:0', '2:2', '3:2', '0:4', '1:3', '1:4'], 'ARCHIVING (3) is persisted before ARCHIVED (4)');
  });

  it('refuses acknowledgements it cannot apply and rolls back the batches before the bad one', () => {
    const h = harness();
    fetch(h, 'm1', 4);
    const before = ranges(h);
    assert.throws(() => h.partition.acknowledge('m1', [
      { firstOffset: 0, lastOffset: 1, acknowledgeTypes: [ACCEPT] },
      { firstOffset: 2, lastOffset: 2, acknowledgeTypes: [9] },
    ]), apiError('INVALID_REQUEST', /Invalid acknowledge type/));
    assert.deepEqual(ranges(h), before);
    assert.throws(() => h.partition.acknowledge('other', [{ firstOffset: 0, lastOffset: 4, acknowledgeTypes: [ACCEPT] }]), apiError('INVALID_RECORD_STATE', /Member is not the owner/));
    assert.throws(() => h.partition.acknowledge('m1', [{ firstOffset: 3, lastOffset: 7, acknowledgeTypes: [ACCEPT] }]), apiError('INVALID_REQUEST', /last offset in request is past/));
    assert.throws(() => h.partition.acknowledge('m1', [{ firstOffset: 9, lastOffset: 9, acknowledgeTypes: [ACCEPT] }]), apiError('INVALID_REQUEST', /first offset in request is past/));
    h.partition.acknowledge('m1', [{ firstOffset: 0, lastOffset: 0, acknowledgeTypes: [ACCEPT] }]);
    assert.throws(() => h.partition.acknowledge('m1', [{ firstOffset: 1, lastOffset: 1, acknowledgeTypes: [ACCEPT] }, { firstOffset: 1, lastOffset: 1, acknowledgeTypes: [ACCEPT] }]), apiError('INVALID_RECORD_STATE', /not acquired/));
    assert.deepEqual(ranges(h), ['1-4:ACQUIRED:m1:1']);
    assert.equal(h.partition.deliveryCompleteCount, 0);
  });

  it('rolls back when the share coordinator cannot persist the acknowledgement', () => {
    const h = harness();
    fetch(h, 'm1', 1);
    h.failWrites.on = true;
    assert.throws(() => h.partition.acknowledge('m1', [{ firstOffset: 0, lastOffset: 1, acknowledgeTypes: [ACCEPT] }]), apiError('COORDINATOR_NOT_AVAILABLE'));
    assert.deepEqual(ranges(h), ['0-1:ACQUIRED:m1:1']);
    assert.equal(h.partition.deliveryCompleteCount, 0);
    h.failWrites.on = false;
    h.partition.acknowledge('m1', [{ firstOffset: 0, lastOffset: 1, acknowledgeTypes: [ACCEPT] }]);
    assert.equal(h.partition.startOffset, 2);
  });

  it('renews a lock where the group allows it (share.renew.acknowledge.enable)', () => {
    const h = harness({ lockMs: 1_000 });
    fetch(h, 'm1', 0);
    h.clock.advance(600);
    h.partition.acknowledge('m1', [{ firstOffset: 0, lastOffset: 0, acknowledgeTypes: [RENEW] }]);
    h.clock.advance(600);
    assert.deepEqual(ranges(h), ['0-0:ACQUIRED:m1:1']);
    assert.equal(h.partition.inFlightRanges()[0].lockExpiresAtMs, 1_600);
    h.config.renew = false;
    assert.throws(() => h.partition.acknowledge('m1', [{ firstOffset: 0, lastOffset: 0, acknowledgeTypes: [RENEW] }]), apiError('INVALID_RECORD_STATE', /Renewing acquisition locks is not enabled/));
    h.clock.advance(400);
    assert.deepEqual(ranges(h), ['0-0:AVAILABLE:-:1']);
  });

  it('stops at the record-lock limit (share.partition.max.record.locks) and resumes when records complete', () => {
    const h = harness({ maxLocks: 5 });
    assert.equal(fetch(h, 'm1', 9).count, 5);
    assert.equal(h.partition.canAcquireRecords(), false);
    assert.deepEqual(fetch(h, 'm2', 9).acquiredRecords, []);
    h.partition.acknowledge('m1', [{ firstOffset: 0, lastOffset: 1, acknowledgeTypes: [ACCEPT] }]);
    assert.equal(h.partition.canAcquireRecords(), true);
    assert.deepEqual(fetch(h, 'm2', 9).acquiredRecords, [{ firstOffset: 5, lastOffset: 6, deliveryCount: 1 }]);
  });

  it('in record_limit mode acquires exactly maxRecords of a larger log batch and leaves the rest available', () => {
    const h = harness();
    const first = fetch(h, 'm1', 9, { mode: 'record_limit', max: 3, size: 10 });
    assert.deepEqual(first, { acquiredRecords: [{ firstOffset: 0, lastOffset: 2, deliveryCount: 1 }], count: 3 });
    assert.deepEqual(ranges(h), ['0-2:ACQUIRED:m1:1', '3-9:AVAILABLE:-:0']);
    const second = fetch(h, 'm2', 9, { mode: 'record_limit', max: 3, size: 10 });
    assert.deepEqual(second.acquiredRecords, [{ firstOffset: 3, lastOffset: 5, deliveryCount: 1 }]);
  });

  it('in batch_optimized mode hands out whole log batches even past maxRecords', () => {
    const h = harness();
    assert.deepEqual(fetch(h, 'm1', 9, { max: 3, size: 10 }).acquiredRecords, [{ firstOffset: 0, lastOffset: 9, deliveryCount: 1 }]);
  });

  it('delivers fewer records at once from half the delivery limit on, and a record on its last attempt alone', () => {
    const h = harness({ limit: 5, lockMs: 10 });
    fetch(h, 'm1', 7);
    for (let expire = 0; expire < 2; expire++) {
      h.clock.advance(10);
      fetch(h, 'm1', 7);
    }
    // Every record now has 3 deliveries: 3 ≥ max(2, ceil(5/2)) = 3, so 8 >> 1 = 4 records per fetch.
    h.clock.advance(10);
    assert.deepEqual(fetch(h, 'm1', 7).acquiredRecords, [{ firstOffset: 0, lastOffset: 3, deliveryCount: 4 }]);
    assert.deepEqual(fetch(h, 'm2', 7).acquiredRecords, [{ firstOffset: 4, lastOffset: 7, deliveryCount: 4 }]);
    h.clock.advance(10);
    // Now on their fifth and last delivery: one record per fetch.
    assert.deepEqual(fetch(h, 'm1', 7).acquiredRecords, [{ firstOffset: 0, lastOffset: 0, deliveryCount: 5 }]);
    assert.deepEqual(fetch(h, 'm1', 7).acquiredRecords, [{ firstOffset: 1, lastOffset: 1, deliveryCount: 5 }]);
  });

  it('under read_committed archives the records of aborted transactions instead of delivering them', () => {
    const h = harness();
    const log: FetchedBatch[] = [
      { baseOffset: 0, lastOffset: 2, producerId: 7, controlType: null },
      { baseOffset: 3, lastOffset: 4, producerId: null, controlType: null },
      { baseOffset: 5, lastOffset: 5, producerId: 7, controlType: 'ABORT' },
      { baseOffset: 6, lastOffset: 7, producerId: 8, controlType: null },
      { baseOffset: 8, lastOffset: 8, producerId: 8, controlType: 'COMMIT' },
    ];
    const acquired = h.partition.acquire('m1', 'batch_optimized', 500, 500, 0, log, [{ producerId: 7, firstOffset: 0 }]);
    assert.deepEqual(acquired, { acquiredRecords: [{ firstOffset: 3, lastOffset: 8, deliveryCount: 1 }], count: 6 });
    assert.deepEqual(ranges(h), ['0-2:ARCHIVED:-:1', '3-8:ACQUIRED:m1:1']);
    assert.equal(h.partition.deliveryCompleteCount, 3);
    // The client acknowledges the control records it never saw as GAP.
    h.partition.acknowledge('m1', [{ firstOffset: 3, lastOffset: 8, acknowledgeTypes: [ACCEPT, ACCEPT, GAP, ACCEPT, ACCEPT, GAP] }]);
    assert.equal(h.partition.startOffset, 9);
    assert.equal(h.partition.deliveryCompleteCount, 0);
  });

  it('releases a leaving member\'s records, whether tracked per batch or per offset', () => {
    const h = harness();
    fetch(h, 'm1', 3);
    fetch(h, 'm2', 5);
    h.partition.acknowledge('m1', [{ firstOffset: 0, lastOffset: 0, acknowledgeTypes: [ACCEPT] }]);
    h.partition.releaseAcquiredRecords('m1');
    assert.deepEqual(ranges(h), ['1-3:AVAILABLE:-:1', '4-5:ACQUIRED:m2:1']);
    assert.equal(h.partition.nextFetchOffset(), 1);
  });

  it('archives available records the log start offset passed (retention, DeleteRecords)', () => {
    const h = harness();
    fetch(h, 'm1', 5);
    h.partition.acknowledge('m1', [{ firstOffset: 0, lastOffset: 5, acknowledgeTypes: [ACCEPT, RELEASE, RELEASE, RELEASE, ACCEPT, ACCEPT] }]);
    h.partition.updateCacheAndOffsets(3);
    assert.equal(h.partition.startOffset, 3);
    assert.deepEqual(ranges(h), ['3-3:AVAILABLE:-:1', '4-5:ACKNOWLEDGED:-:1']);
    assert.equal(h.partition.deliveryCompleteCount, 2);
  });

  it('starts from share.auto.offset.reset with no persisted state, else from the persisted start offset and batches', () => {
    assert.equal(harness({}, undefined, 42).partition.nextFetchOffset(), 42);
    const h = harness({}, {
      stateEpoch: 3,
      startOffset: 10,
      stateBatches: [
        { firstOffset: 8, lastOffset: 11, deliveryState: 2, deliveryCount: 1 },
        { firstOffset: 14, lastOffset: 15, deliveryState: 0, deliveryCount: 2 },
        { firstOffset: 16, lastOffset: 16, deliveryState: 1, deliveryCount: 1 },
      ],
    });
    assert.equal(h.partition.startOffset, 12);
    assert.deepEqual(ranges(h), ['12-13:AVAILABLE:-:0', '14-15:AVAILABLE:-:2', '16-16:AVAILABLE:-:1'], 'a record persisted ACQUIRED has no holder left');
    assert.equal(h.partition.nextFetchOffset(), 12);
    assert.deepEqual(fetch(h, 'm1', 20).acquiredRecords, [
      { firstOffset: 12, lastOffset: 13, deliveryCount: 1 },
      { firstOffset: 14, lastOffset: 15, deliveryCount: 3 },
      { firstOffset: 16, lastOffset: 16, deliveryCount: 2 },
      { firstOffset: 17, lastOffset: 20, deliveryCount: 1 },
    ]);
    assert.equal(h.partition.endOffset, 20);
  });
});
