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
});
