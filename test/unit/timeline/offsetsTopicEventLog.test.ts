import { strict as assert } from 'node:assert';
import { OffsetsTopicEventLog } from '../../../src/timeline/offsetsTopicEventLog';
import { concat, groupMetadataKey, groupMetadataValueV3, i16, i32, str } from './kafkaBytes';

const groupKey = groupMetadataKey;
const groupValue = (generation: number, members: Array<[string, number[]]>): Uint8Array => groupMetadataValueV3(generation, members);
const commitKey = concat(i16(1), str('g'), str('orders'), i32(0));

describe('timeline/OffsetsTopicEventLog', () => {
  it('turns raw group-metadata records into per-group events and skips offset commits', () => {
    const log = new OffsetsTopicEventLog();
    assert.deepEqual(log.ingest(commitKey, Uint8Array.from([0, 3]), 5), []);
    const first = log.ingest(groupKey('g'), groupValue(1, [['a', [0, 1]]]), 1_700_000_000_100);
    assert.deepEqual(first.map((e) => e.kind), ['member-joined', 'assignment-changed', 'state-changed']);
    log.ingest(groupKey('other'), groupValue(4, [['x', [0]]]), 1_700_000_000_200);
    const second = log.ingest(groupKey('g'), groupValue(2, [['a', [0]], ['b', [1]]]), 1_700_000_000_300);
    assert.deepEqual(second.map((e) => e.kind), ['member-joined', 'assignment-changed', 'state-changed']);
    assert.deepEqual(second[1].assignments, [
      { memberId: 'a', groupInstanceId: null, revoked: [{ topic: 'orders', partition: 1 }], assigned: [] },
      { memberId: 'b', groupInstanceId: null, revoked: [], assigned: [{ topic: 'orders', partition: 1 }] },
    ]);
    // A tombstone is Dead at the end of its batch (consumer-group records after it in the batch would make it an upgrade).
    assert.deepEqual(log.ingest(groupKey('g'), null, 1_700_000_000_400), []);
    assert.deepEqual(log.endBatch().map((e) => e.stateAfter), ['Dead']);
    assert.equal(log.events('g').length, 7);
    assert.equal(log.events('other').length, 3);
    assert.deepEqual(log.events('none'), []);
  });

  it('says why a record cannot be read', () => {
    const log = new OffsetsTopicEventLog();
    assert.throws(() => log.ingest(null, null, 0), /without a key/);
    assert.throws(() => log.ingest(groupKey('g'), i16(9), 0), /unsupported version 9/);
  });

  it('stages the offsets a transaction commits until its marker, per partition and producer', () => {
    const log = new OffsetsTopicEventLog();
    log.ingest(groupKey('g'), groupValue(3, [['a', [0, 1]]]), 100);
    const txn = { partition: 7, producerId: 4001, producerEpoch: 2 };
    const key = (group: string, partition: number): Uint8Array => concat(i16(1), str(group), str('orders'), i32(partition));
    assert.deepEqual(log.ingest(key('g', 0), Uint8Array.from([0, 3]), 200, txn), []);
    log.ingest(key('g', 1), Uint8Array.from([0, 3]), 201, txn);
    log.ingest(key('h', 0), Uint8Array.from([0, 3]), 201, txn);
    const staged = log.endBatch();
    assert.deepEqual(staged.map((e) => [e.groupId, e.kind, e.time, e.generation, e.transaction?.partitions.map((p) => p.partition)]), [
      ['g', 'transaction-offsets', 201, 3, [0, 1]],
      ['h', 'transaction-offsets', 201, 0, [0]],
    ]);
    assert.equal(staged[0].transaction?.producerId, 4001);
    assert.equal(staged[0].transaction?.producerEpoch, 2);
    // A plain commit of the same group makes no event; a marker of another producer or partition resolves nothing.
    assert.deepEqual(log.ingest(key('g', 0), Uint8Array.from([0, 3]), 250), []);
    assert.deepEqual(log.endBatch(), []);
    assert.deepEqual(log.ingestMarker({ ...txn, producerId: 5 }, 'COMMIT', 260), []);
    assert.deepEqual(log.ingestMarker({ ...txn, partition: 8 }, 'COMMIT', 260), []);
    const ended = log.ingestMarker(txn, 'ABORT', 300);
    assert.deepEqual(ended.map((e) => [e.groupId, e.kind, e.time]), [['g', 'transaction-aborted', 300], ['h', 'transaction-aborted', 300]]);
    assert.match(ended[0].cause ?? '', /2 offset\(s\) dropped: producer 4001 \(epoch 2\) wrote its ABORT marker/);
    // The marker is read once: a repeat (a refetch) adds nothing.
    assert.deepEqual(log.ingestMarker(txn, 'ABORT', 300), []);
    assert.deepEqual(log.events('g').map((e) => e.kind).slice(-2), ['transaction-offsets', 'transaction-aborted']);
  });
});
