import { strict as assert } from 'assert';
import { boundLines, capChars, clampLimit, formatGroupList, formatPartitions } from '../../../src/agent/toolText';
import { formatHistory } from '../../../src/agent/historyText';
import { formatResetPreview, resetRequestOf } from '../../../src/agent/planText';
import type { GroupSummary, RebalanceEvent } from '../../../src/model/types';

function summary(groupId: string, totalLag: number): GroupSummary {
  return { groupId, state: 'Stable', protocolType: 'consumer', groupType: 'classic', assignor: 'range', coordinator: null, memberCount: 1, totalLag };
}

describe('agent tool text', () => {
  it('caps lists and says how many were left out', () => {
    assert.deepEqual(boundLines(['a', 'b', 'c'], 2, 'groups'), ['a', 'b', '… 1 more groups left out']);
    assert.deepEqual(boundLines(['a'], 2, 'groups'), ['a']);
    assert.equal(clampLimit(undefined, 50, 200), 50);
    assert.equal(clampLimit(10_000, 50, 200), 200);
    assert.equal(clampLimit(0, 50, 200), 1);
    assert.match(capChars('x\n'.repeat(100), 50), /answer cut: \d+ more characters/);
  });

  it('lists 20,000 groups in a bounded answer', () => {
    const groups = Array.from({ length: 20_000 }, (_, i) => summary(`g-${i}`, i));
    const text = formatGroupList([{ sourceId: 's', label: 'Sim', kind: 'simulator', groups, matching: groups }], '', 50);
    assert.equal(text.split('\n').filter((l) => l.startsWith('- ')).length, 50);
    assert.match(text, /19950 more groups left out/);
    assert.match(text, /- g-7 \[classic\] Stable, members 1, lag 7/);
  });

  it('groups partitions by topic', () => {
    assert.equal(formatPartitions([{ topic: 'b', partition: 1 }, { topic: 'a', partition: 2 }, { topic: 'b', partition: 0 }]), 'b:0,1 a:2');
    assert.equal(formatPartitions([]), '(none)');
  });

  it('keeps the newest events of a window', () => {
    const events: RebalanceEvent[] = [1000, 2000, 3000].map((time, i) => ({ groupId: 'g', time, kind: 'member-joined', generation: i, cause: `why ${i}` }));
    const text = formatHistory('g', events, { fromMs: 1500 }, 1, 'virtual');
    assert.match(text, /2 events/);
    assert.match(text, /1 older events left out/);
    assert.match(text, /why 2/);
    assert.doesNotMatch(text, /why 1/);
  });

  it('turns bad reset input into errors that name the fix', () => {
    assert.throws(() => resetRequestOf({ group: 'g', scenario: 'shift-by', value: 'x' }), /needs "value"/);
    assert.throws(() => resetRequestOf({ group: 'g', scenario: 'to-datetime', value: 'yesterday 9:00' }), /Bad "value" for to-datetime/);
    assert.throws(() => resetRequestOf({ group: 'g', scenario: 'to-earliest', topics: ['a:b'] }), /orders:0,1/);
    assert.deepEqual(resetRequestOf({ group: 'g', scenario: 'to-earliest', topics: ['t:0,1'] }).scope, { kind: 'topics', topics: [{ topic: 't', partitions: [0, 1] }] });
  });

  it('formats a preview as the panel shows it', () => {
    const request = resetRequestOf({ group: 'g', scenario: 'to-earliest' });
    const text = formatResetPreview({ ok: true, request, groupState: 'Empty', rows: [{ topic: 't', partition: 0, currentOffset: 5, newOffset: 0, difference: -5 }], warnings: ['w'] }, 'Sim');
    assert.match(text, /\| t \| 0 \| 5 \| 0 \| -5 \|/);
    assert.match(text, /Warnings:\n- w/);
    assert.match(formatResetPreview({ ok: false, request, error: 'active' }, 'Sim'), /Cannot plan: active/);
  });
});
