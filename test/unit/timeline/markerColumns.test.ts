import assert from 'node:assert/strict';
import { MarkerColumnsBuilder } from '../../../src/timeline/markerColumns';
import type { RebalanceEventKind } from '../../../src/model/types';

describe('timeline/markerColumns', () => {
  it('grows past its first buffers and keeps earlier snapshots as they were', () => {
    const builder = new MarkerColumnsBuilder();
    const kinds: RebalanceEventKind[] = ['member-joined', 'assignment-changed', 'state-changed'];
    for (let i = 0; i < 300; i++) {
      builder.push(i, (i % 4) - 1, i * 10, kinds[i % 3]);
    }
    const early = builder.columns();
    for (let i = 300; i < 1000; i++) {
      builder.push(i, 0, i * 10, 'member-left');
    }
    const late = builder.columns();
    assert.equal(early.length, 300);
    assert.equal(late.length, 1000);
    assert.deepEqual(early.at(299), { event: 299, lane: 2, time: 2990, kind: 'state-changed' });
    assert.deepEqual(late.at(999), { event: 999, lane: 0, time: 9990, kind: 'member-left' });
    assert.deepEqual(late.at(4), early.at(4));
    assert.equal(late.toArray().length, 1000);
  });

  it('finds the first marker at or after a time, and the lane of an event', () => {
    const builder = new MarkerColumnsBuilder();
    builder.push(0, -1, 10, 'rebalance-started');
    builder.push(1, 2, 20, 'assignment-changed');
    builder.push(1, 3, 20, 'assignment-changed');
    builder.push(2, 0, 30, 'member-left');
    const markers = builder.columns();
    assert.deepEqual([0, 10, 11, 20, 21, 31].map((t) => markers.firstAtOrAfter(t)), [0, 0, 1, 1, 3, 4]);
    assert.equal(markers.laneOfEvent(1), 2, "an event's first marker is on its own lane");
    assert.equal(markers.laneOfEvent(7), -1);
  });

  it('refuses a kind it has no code for', () => {
    assert.throws(() => new MarkerColumnsBuilder().push(0, 0, 0, 'exploded' as RebalanceEventKind), /unknown kind exploded/);
  });
});
