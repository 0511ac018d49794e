import { strict as assert } from 'assert';
import type { ResetRequest } from '../../../src/offsets/resetRequest';
import { shareGroupOffsetsAdmin } from '../../../src/offsets/shareAdmin';
import type { OffsetSnapshot } from '../../../src/offsets/undo';
import { executeReset, planUndo, undoReset, type PlannedReset } from '../../../src/reset/resetFlow';
import { resetRoute } from '../../../src/reset/resetRoute';
import { previewShareReset } from '../../../src/reset/shareResetFlow';
import { FakeShareCluster } from './fakeShareCluster';

function request(scenario: ResetRequest['scenario'], scope: ResetRequest['scope'] = { kind: 'all-topics' }): ResetRequest {
  return { groupId: 'sg', scenario, scope };
}

async function previewed(cluster: FakeShareCluster, req: ResetRequest): Promise<PlannedReset> {
  const preview = await previewShareReset(cluster.admin(), req);
  assert.ok(preview.ok, preview.ok ? '' : preview.error);
  return preview;
}

describe('reset of share groups: preview, execute, undo', () => {
  let cluster: FakeShareCluster;
  let saved: Array<OffsetSnapshot | undefined>;
  const options = () => ({ takenAt: 1, saveUndo: async (s: OffsetSnapshot | undefined) => void saved.push(s) });
  beforeEach(() => {
    cluster = new FakeShareCluster();
    cluster.states.set('sg', 'Empty');
    cluster.starts.set('sg', [{ topic: 'orders', partition: 0, startOffset: 40 }]);
    saved = [];
  });

  it('executes with AlterShareGroupOffsets and undo puts the start offsets back', async () => {
    const preview = await previewed(cluster, request({ kind: 'to-latest' }, { kind: 'topics', topics: [{ topic: 'orders', partitions: [0] }] }));
    assert.deepEqual(preview.rows.map((r) => [r.partition, r.currentOffset, r.newOffset]), [[0, 40, 100]]);
    const admin = shareGroupOffsetsAdmin(cluster.admin(), 'sg');
    const outcome = await executeReset(admin, preview, options());
    assert.ok(outcome.ok && outcome.confirmed);
    assert.deepEqual(await cluster.shareStartOffsets('sg'), [{ topic: 'orders', partition: 0, startOffset: 100 }]);
    const snapshot = saved[saved.length - 1] as OffsetSnapshot;
    const undone = await undoReset(admin, snapshot, await planUndo(admin, snapshot));
    assert.ok(undone.ok);
    assert.deepEqual(await cluster.shareStartOffsets('sg'), [{ topic: 'orders', partition: 0, startOffset: 40 }]);
  });

  it('writes nothing when a start offset changed since the preview', async () => {
    const preview = await previewed(cluster, request({ kind: 'to-earliest' }));
    cluster.starts.set('sg', [{ topic: 'orders', partition: 0, startOffset: 41 }]);
    const outcome = await executeReset(shareGroupOffsetsAdmin(cluster.admin(), 'sg'), preview, options());
    assert.equal(outcome.ok, false);
    assert.deepEqual(cluster.calls, []);
  });

  it('creates an unknown group, and undo deletes a topic only when the change made all its state', async () => {
    const preview = await previewed(cluster, request({ kind: 'to-earliest' }, { kind: 'topics', topics: [{ topic: 'orders' }] }));
    // orders-1 and -2 had no state before; orders-0 had 40.
    const admin = shareGroupOffsetsAdmin(cluster.admin(), 'sg');
    assert.ok((await executeReset(admin, preview, options())).ok);
    const snapshot = saved[saved.length - 1] as OffsetSnapshot;
    const undone = await undoReset(admin, snapshot, await planUndo(admin, snapshot));
    assert.ok(undone.ok);
    // orders-0 is put back; the topic cannot be deleted without losing orders-0's state, so 1 and 2 say why.
    assert.deepEqual(undone.results.map((r) => [r.partition, r.error === undefined]), [[0, true], [1, false], [2, false]]);
    assert.match(undone.results[1].error ?? '', /deleted per topic/);

    cluster.states.delete('new');
    const created = await previewShareReset(cluster.admin(), { groupId: 'new', scenario: { kind: 'to-offset', offset: 50 }, scope: { kind: 'topics', topics: [{ topic: 'orders' }] } });
    assert.ok(created.ok);
    const newAdmin = shareGroupOffsetsAdmin(cluster.admin(), 'new');
    assert.ok((await executeReset(newAdmin, created, options())).ok);
    assert.equal(cluster.states.get('new'), 'Empty');
    const newSnapshot = saved[saved.length - 1] as OffsetSnapshot;
    assert.ok((await undoReset(newAdmin, newSnapshot, await planUndo(newAdmin, newSnapshot))).ok);
    assert.deepEqual(await cluster.shareStartOffsets('new'), []);
    assert.equal(cluster.calls[cluster.calls.length - 1], 'delete orders');
  });

  it('refuses a group with members, a scenario the share tool lacks, and clusters without share groups; routes streams groups to their tool', async () => {
    cluster.states.set('sg', 'Stable');
    assert.deepEqual(await previewShareReset(cluster.admin(), request({ kind: 'to-earliest' })), { ok: false, request: request({ kind: 'to-earliest' }), error: "Share group 'sg' is not empty." });
    const shift = await previewShareReset(cluster.admin(), request({ kind: 'shift-by', shift: 1 }));
    assert.match(shift.ok ? '' : shift.error, /cannot reset a share group with --shift-by/);
    assert.equal(resetRoute({ groupType: 'streams' }, cluster.admin(), 'app').kind, 'streams');
    const { share: _share, ...noShare } = cluster.admin();
    assert.throws(() => resetRoute({ groupType: 'share' }, noShare, 'sg'), /no share-group operations/);
    assert.equal(resetRoute({ groupType: 'share' }, cluster.admin(), 'sg').kind, 'share');
    assert.equal(resetRoute({ groupType: 'consumer' }, cluster.admin(), 'g').kind, 'consumer');
  });
});
