import * as assert from 'node:assert/strict';
import type { RebalanceEvent } from '../../../src/model/types';
import { ConsumerGroupEventBuilder } from '../../../src/timeline/consumerGroupEvents';
import { encodeConsumerGroupRecord } from '../../../src/timeline/consumerGroupRecords';
import { OffsetsTopicEventLog } from '../../../src/timeline/offsetsTopicEventLog';
import { convergence, membershipChange, TIMELINE_GROUP, TOPIC_NAMES, type WrittenBatch } from './consumerGroupTimeline';

/** What the real-cluster path reads: the batches as __consumer_offsets bytes through the event log. */
function readBack(batches: readonly WrittenBatch[]): RebalanceEvent[] {
  const log = new OffsetsTopicEventLog((topicId) => TOPIC_NAMES.get(topicId));
  for (const batch of batches) {
    for (const record of batch.records) {
      const { key, value } = encodeConsumerGroupRecord(record);
      assert.deepEqual(log.ingest(key, value, batch.time), []);
    }
    log.endBatch();
  }
  return log.events(TIMELINE_GROUP);
}

const withoutCause = (events: readonly RebalanceEvent[]): RebalanceEvent[] => events.map(({ cause: _cause, ...event }) => event);

describe('timeline/consumerGroupEvents (KIP-848 records → events)', () => {
  const change = membershipChange();

  it('gives each member\'s epoch steps and the time it took to reach each target (a slow revoker included)', () => {
    assert.deepEqual(convergence(change.events), [
      ['m1', 2, 0], // alone: converged in the batch of its join
      ['m1', 3, 6000], // told at 2000 to revoke foo-3..5, acknowledged at 7000; target written at 1000
      ['m2', 3, 7000], // waited for m1's partitions, got them on its next heartbeat at 8000
      ['m1', 4, 600],
      ['m2', 4, 1100],
      ['m3', 4, 2000],
    ]);
    const steps = change.events.filter((e) => e.kind === 'assignment-changed' && e.memberId === 'm1').map((e) => [e.time, e.reconciliation?.memberEpoch, e.reconciliation?.state]);
    assert.deepEqual(steps, [[0, 2, 'stable'], [2000, 2, 'unrevoked-partitions'], [7000, 3, 'stable'], [10500, 3, 'unrevoked-partitions'], [10600, 4, 'stable']]);
  });

  it('shows what a member still has to revoke and what it waits for, and what each step revoked and assigned', () => {
    const step = (time: number, memberId: string): RebalanceEvent | undefined =>
      change.events.find((e) => e.kind === 'assignment-changed' && e.time === time && e.memberId === memberId);
    const foo = (...partitions: number[]): Array<{ topic: string; partition: number }> => partitions.map((partition) => ({ topic: 'foo', partition }));
    assert.deepEqual(step(1000, 'm2')?.reconciliation?.pendingAssignment, foo(3, 4, 5));
    assert.deepEqual(step(2000, 'm1')?.reconciliation?.pendingRevocation, foo(3, 4, 5));
    assert.deepEqual(step(2000, 'm1')?.assignments, [{ memberId: 'm1', groupInstanceId: null, revoked: [], assigned: [] }]);
    assert.deepEqual(step(7000, 'm1')?.assignments, [{ memberId: 'm1', groupInstanceId: null, revoked: foo(3, 4, 5), assigned: [] }]);
    assert.deepEqual(step(8000, 'm2')?.assignments, [{ memberId: 'm2', groupInstanceId: null, revoked: [], assigned: foo(3, 4, 5) }]);
    const target = change.events.find((e) => e.kind === 'sync-completed' && e.generation === 4);
    assert.deepEqual(target?.assignments?.map((a) => [a.memberId, a.revoked, a.assigned]), [['m1', foo(2), []], ['m2', foo(5), []], ['m3', [], foo(2, 5)]]);
  });

  it('follows the group states of Kafka\'s ConsumerGroup (Reconciling until all are stable at the target, Assigning after a leave)', () => {
    const states = change.events.filter((e) => e.kind === 'state-changed').map((e) => [e.time, e.stateBefore, e.stateAfter]);
    assert.deepEqual(states, [[0, 'Empty', 'Stable'], [1000, 'Stable', 'Reconciling'], [8000, 'Reconciling', 'Stable'], [10000, 'Stable', 'Reconciling'], [12000, 'Reconciling', 'Stable'], [15000, 'Stable', 'Assigning']]);
  });

  it('the records read back from __consumer_offsets bytes give the engine\'s own timeline (one derivation, both ways)', () => {
    const read = readBack(change.batches);
    assert.deepEqual(withoutCause(read), withoutCause(change.events));
    // Only the causes differ: the records do not say why a member left.
    const left = read.find((e) => e.kind === 'member-left');
    assert.match(left?.cause ?? '', /left the group or was fenced/);
    assert.match(read.find((e) => e.kind === 'rebalance-started' && e.generation === 4)?.cause ?? '', /member m3 joined; group epoch bumped to 4/);
  });

  it('starts from the records compaction left (the first batches gone) without inventing a convergence', () => {
    const read = readBack(change.batches.filter((batch) => batch.time >= 7000));
    // Epoch 3's target (written at 1000) is gone: the steps that reached it have no measurable time.
    assert.deepEqual(convergence(read), [['m1', 4, 600], ['m2', 4, 1100], ['m3', 4, 2000]]);
  });

  it('names unknown topic ids by their id, and a group deletion ends in Dead and forgets the group', () => {
    const builder = new ConsumerGroupEventBuilder(TIMELINE_GROUP, () => undefined);
    const events = change.batches.flatMap((batch) => builder.applyBatch(batch.records, batch.time));
    assert.ok(events.some((e) => e.assignments?.some((a) => a.assigned.some((tp) => tp.topic !== 'foo' && tp.topic.length === 22))));
    const deleted = builder.applyBatch([{ type: 'ConsumerGroupMetadata', key: { groupId: TIMELINE_GROUP }, value: null }], 20000);
    assert.deepEqual(deleted.map((e) => [e.kind, e.stateAfter]), [['state-changed', 'Dead']]);
    assert.equal(builder.epoch, 0);
  });
});
