import * as assert from 'assert';
import { isDashboardHostMessage, isDashboardWebviewMessage, type DashboardSnapshot } from '../../../src/dashboard/dashboardProtocol';

const SNAPSHOT: DashboardSnapshot = {
  groupId: 'payments',
  cluster: 'Local',
  times: [1000, 2000],
  topics: [{ topic: 'orders', partitions: 2, lag: [5, null], maxLagInTimeMs: [null, 10], consumedPerSec: [null, 1.5], producedPerSec: [null, 2] }],
  rebalances: [{ time: 1500, label: 'member-joined' }],
};

/** The snapshot with one field of its first topic replaced. */
function withTopic(field: string, value: unknown): unknown {
  return { type: 'snapshot', snapshot: { ...SNAPSHOT, topics: [{ ...SNAPSHOT.topics[0], [field]: value }] } };
}

describe('dashboard messages', () => {
  it('accepts the page messages it knows and nothing else', () => {
    assert.ok(isDashboardWebviewMessage({ type: 'ready' }));
    assert.ok(isDashboardWebviewMessage({ type: 'reportError', message: 'boom' }));
    for (const bad of [null, 'ready', [], { type: 'ready', extra: 1 }, { type: 'reportError' }, { type: 'reportError', message: 5 }, { type: 'export' }]) {
      assert.strictEqual(isDashboardWebviewMessage(bad), false, JSON.stringify(bad));
    }
  });

  it('accepts the panel message (the group the page keeps for a reload) only when well-formed', () => {
    assert.ok(isDashboardHostMessage({ type: 'panel', state: { sourceId: 's', groupId: 'g' } }));
    for (const bad of [
      { type: 'panel' },
      { type: 'panel', state: { sourceId: 's' } },
      { type: 'panel', state: { sourceId: 1, groupId: 'g' } },
      { type: 'panel', state: { sourceId: 's', groupId: 'g', extra: 1 } },
      { type: 'panel', state: { sourceId: 's', groupId: 'g' }, extra: 1 },
    ]) {
      assert.equal(isDashboardHostMessage(bad), false, JSON.stringify(bad));
    }
  });

  it('accepts a well-formed snapshot', () => {
    assert.ok(isDashboardHostMessage({ type: 'snapshot', snapshot: SNAPSHOT }));
  });

  it('refuses a snapshot a renderer would draw half of or wrongly', () => {
    const bad: unknown[] = [
      undefined,
      { type: 'snapshot' },
      { type: 'other', snapshot: SNAPSHOT },
      { type: 'snapshot', snapshot: SNAPSHOT, extra: true },
      { type: 'snapshot', snapshot: { ...SNAPSHOT, groupId: 7 } },
      { type: 'snapshot', snapshot: { ...SNAPSHOT, times: [1000, null] } },
      { type: 'snapshot', snapshot: { ...SNAPSHOT, topics: 'many' } },
      { type: 'snapshot', snapshot: { ...SNAPSHOT, rebalances: [{ time: 'later', label: 'x' }] } },
      withTopic('lag', [5]),
      withTopic('consumedPerSec', [null, 'fast']),
      withTopic('producedPerSec', [null, Infinity]),
      withTopic('maxLagInTimeMs', undefined),
      withTopic('partitions', -1),
      withTopic('topic', null),
    ];
    for (const message of bad) {
      assert.strictEqual(isDashboardHostMessage(message), false, JSON.stringify(message));
    }
  });
});
