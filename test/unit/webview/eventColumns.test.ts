import { strict as assert } from 'node:assert';
import type { RebalanceEvent } from '../../../src/model/types';
import { decodeEvents, encodeEvents, isEventColumns } from '../../../src/webview/eventColumns';
import { membershipChange } from '../timeline/consumerGroupTimeline';

/** Drops fields that are present but undefined: decoded events carry every field. */
function normalized(events: readonly RebalanceEvent[]): unknown {
  return JSON.parse(JSON.stringify(events));
}

const EVENTS: RebalanceEvent[] = [
  { groupId: 'g', time: 0, kind: 'member-joined', generation: 0, memberId: 'a-1', clientId: 'a', cause: 'new member joined' },
  { groupId: 'g', time: 0, kind: 'rebalance-started', generation: 0, stateBefore: 'Empty', stateAfter: 'PreparingRebalance' },
  {
    groupId: 'g',
    time: 6040.5,
    kind: 'assignment-changed',
    generation: 1,
    assignments: [
      { memberId: 'a-1', groupInstanceId: null, revoked: [], assigned: [{ topic: 'orders', partition: 0 }, { topic: 'orders', partition: 1 }] },
      { memberId: 's-1', groupInstanceId: 'static-a', revoked: [{ topic: 'pay<ments>', partition: 7 }], assigned: [] },
      { memberId: 'b-1', revoked: [], assigned: [] },
    ],
  },
  { groupId: 'g', time: 1.7e12, kind: 'member-left', generation: 2, memberId: 's-1', groupInstanceId: 'static-a', inferred: true },
  { groupId: 'other', time: 1.7e12, kind: 'state-changed', generation: 2, stateAfter: 'Dead', inferred: false, assignments: [] },
];

describe('webview/eventColumns', () => {
  it('round-trips every field, null and absent instance ids, empty and missing assignments', () => {
    const decoded = decodeEvents(encodeEvents(EVENTS));
    assert.deepEqual(normalized(decoded), normalized(EVENTS));
    assert.equal(decoded[2].assignments?.[0].groupInstanceId, null);
    assert.equal(decoded[2].assignments?.[2].groupInstanceId, undefined);
    assert.deepEqual(decoded[4].assignments, []);
    assert.equal(decoded[0].assignments, undefined);
    assert.equal(decoded[3].inferred, true);
    assert.equal(decoded[4].inferred, false);
    assert.equal(decoded[0].inferred, undefined);
  });

  it('stores each distinct string once', () => {
    const columns = encodeEvents([...EVENTS, ...EVENTS]);
    assert.equal(columns.count, EVENTS.length * 2);
    assert.equal(new Set(columns.strings).size, columns.strings.length);
    assert.ok(columns.strings.includes('pay<ments>'));
  });

  it('handles no events', () => {
    assert.deepEqual(decodeEvents(encodeEvents([])), []);
  });

  it('rejects events it cannot encode', () => {
    assert.throws(() => encodeEvents([{ ...EVENTS[0], kind: 'exploded' as RebalanceEvent['kind'] }]), /event 0 has an unknown kind: exploded/);
    assert.throws(() => encodeEvents([{ ...EVENTS[1], stateAfter: 'Sleepy' as RebalanceEvent['stateAfter'] }]), /unknown group state: Sleepy/);
  });

  it('recognises columns by shape and rejects plain arrays in their place', () => {
    const columns = encodeEvents(EVENTS);
    assert.ok(isEventColumns(columns));
    assert.equal(isEventColumns({ ...columns, time: Array.from(columns.time) }), false);
    assert.equal(isEventColumns({ ...columns, strings: [1] }), false);
    assert.equal(isEventColumns({ ...columns, count: -1 }), false);
    assert.equal(isEventColumns(null), false);
  });

  it('refuses inconsistent columns with a clear error', () => {
    const columns = encodeEvents(EVENTS);
    assert.throws(() => decodeEvents({ ...columns, count: columns.count + 1 }), /time has 5 entries for 6 events/);
    assert.throws(() => decodeEvents({ ...columns, strings: [] }), /refers to string 0 of 0/);
    const kinds = Uint8Array.from(columns.kind);
    kinds[1] = 200;
    assert.throws(() => decodeEvents({ ...columns, kind: kinds }), /event 1 has kind code 200/);
    const starts = Int32Array.from(columns.changeStart);
    starts[4] = 1;
    assert.throws(() => decodeEvents({ ...columns, changeStart: starts }), /changeStart decreases at 4/);
    assert.throws(() => decodeEvents({ ...columns, partTopic: columns.partTopic.subarray(1) }), /assignment columns do not match/);
  });

  it('round-trips KIP-848 reconciliations (epochs, state, pending partitions, convergence time) and refuses a bad reference to one', () => {
    const { events } = membershipChange();
    const columns = encodeEvents(events);
    assert.deepEqual(normalized(decodeEvents(columns)), normalized(events));
    assert.equal(columns.recMemberEpoch.length, events.filter((e) => e.reconciliation).length);
    const at = Int32Array.from(columns.recAt);
    at[0] = columns.recMemberEpoch.length;
    assert.throws(() => decodeEvents({ ...columns, recAt: at }), /event 0 refers to reconciliation \d+ of \d+/);
    assert.equal(isEventColumns({ ...columns, recState: Array.from(columns.recState) }), false);
  });

  it('round-trips transactions (producer, epoch, transactional id, partitions, LSO) and refuses a bad reference to one', () => {
    const events: RebalanceEvent[] = [
      { groupId: 'g', time: 10, kind: 'transaction-offsets', generation: 3, transaction: { producerId: 4001, producerEpoch: 2, transactionalId: 'pay<tx>-3', partitions: [{ topic: 'orders', partition: 0 }, { topic: 'orders', partition: 1 }] } },
      { groupId: 'g', time: 11, kind: 'offsets-committed', generation: 3 },
      { groupId: 'g', time: 12, kind: 'lso-held', generation: 3, transaction: { producerId: 2 ** 40, producerEpoch: -1, partitions: [{ topic: 'orders', partition: 1 }], offset: 1204 } },
      { groupId: 'g', time: 20, kind: 'transaction-aborted', generation: 3, transaction: { producerId: 4001, producerEpoch: 2, partitions: [] } },
    ];
    const columns = encodeEvents(events);
    assert.deepEqual(normalized(decodeEvents(columns)), normalized(events));
    assert.equal(columns.txnProducerId.length, 3);
    const at = Int32Array.from(columns.txnAt);
    at[1] = 3;
    assert.throws(() => decodeEvents({ ...columns, txnAt: at }), /event 1 refers to transaction 3 of 3/);
    const ids = Float64Array.from(columns.txnProducerId);
    ids[0] = 0.5;
    assert.throws(() => decodeEvents({ ...columns, txnProducerId: ids }), /transaction 0 has producer id 0.5/);
    assert.equal(isEventColumns({ ...columns, txnPartTopic: Array.from(columns.txnPartTopic) }), false);
  });
});
