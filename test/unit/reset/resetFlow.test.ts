import { strict as assert } from 'assert';
import {
  describeGroupChanges,
  describeUndoStep,
  executeReset,
  parseStoredSnapshot,
  planUndo,
  previewReset,
  undoConfirmation,
  undoReset,
  type ExecuteOptions,
  type PlannedReset,
} from '../../../src/reset/resetFlow';
import type { ResetPreview } from '../../../src/offsets/resetPreview';
import type { GroupAdmin } from '../../../src/model/groupAdmin';
import type { ResetRequest } from '../../../src/offsets/resetRequest';
import type { OffsetSnapshot } from '../../../src/offsets/undo';
import { FaultyAdmin, GONE } from '../commands/faultyAdmin';
import { demoAdmin, type SimAdminFixture } from '../commands/simAdminFixture';

const ARCHIVE = 'billing-archive';

/** The undo records an execute saved, in order, with "saveUndo" marked in the admin's call log when there is one. */
function undoStore(calls?: string[]): { saved: Array<OffsetSnapshot | undefined>; options: ExecuteOptions } {
  const saved: Array<OffsetSnapshot | undefined> = [];
  return {
    saved,
    options: {
      takenAt: 1234,
      saveUndo: async (snapshot) => {
        calls?.push('saveUndo');
        saved.push(snapshot);
      },
    },
  };
}

function planned(preview: ResetPreview): PlannedReset {
  assert.ok(preview.ok, preview.ok ? '' : preview.error);
  return preview;
}

async function offsetsOf(admin: GroupAdmin, groupId: string): Promise<number[]> {
  return (await admin.committedOffsets(groupId)).map((c) => c.offset);
}

function request(groupId: string, scenario: ResetRequest['scenario'], scope: ResetRequest['scope'] = { kind: 'all-topics' }): ResetRequest {
  return { groupId, scenario, scope };
}

describe('reset/resetFlow over the simulator', () => {
  let fx: SimAdminFixture;
  beforeEach(() => {
    fx = demoAdmin();
  });
  afterEach(async () => {
    await fx.source.dispose();
  });

  it('previews a reset of an Empty group with current, new and the signed difference', async () => {
    const preview = await previewReset(fx.admin, request(ARCHIVE, { kind: 'shift-by', shift: -100 }));
    assert.ok(preview.ok, preview.ok ? '' : preview.error);
    assert.equal(preview.groupState, 'Empty');
    assert.deepEqual(
      preview.rows.map((r) => [r.topic, r.partition, r.currentOffset, r.newOffset, r.difference]),
      [
        ['legacy-events', 0, 700, 600, -100],
        ['legacy-events', 1, 1000, 900, -100],
        ['legacy-events', 2, 250, 150, -100],
      ],
    );
    assert.deepEqual(preview.warnings, []);
  });

  it('carries the CLI clamp warnings into the preview rows', async () => {
    const preview = await previewReset(fx.admin, request(ARCHIVE, { kind: 'to-offset', offset: 5000 }, { kind: 'topics', topics: [{ topic: 'legacy-events', partitions: [1] }] }));
    assert.ok(preview.ok);
    assert.deepEqual(preview.rows.map((r) => [r.newOffset, r.difference, r.warning]), [
      [1000, 0, 'New offset (5000) is higher than latest offset for topic partition legacy-events-1. Value will be set to 1000'],
    ]);
  });

  it('refuses an active group with the CLI sentence', async () => {
    const preview = await previewReset(fx.admin, request('orders-processor', { kind: 'to-earliest' }));
    assert.deepEqual(preview, {
      ok: false,
      request: request('orders-processor', { kind: 'to-earliest' }),
      error: "Assignments can only be reset if the group 'orders-processor' is inactive, but the current state is Stable.",
    });
  });

  it('looks timestamps up at the simulator clock minus the duration', async () => {
    const preview = await previewReset(fx.admin, request(ARCHIVE, { kind: 'by-duration', duration: 'PT10S' }, { kind: 'topics', topics: [{ topic: 'orders', partitions: [0] }] }));
    assert.ok(preview.ok);
    const expected = await fx.admin.offsetForTimestamp('orders', 0, fx.admin.now() - 10000);
    assert.ok(expected !== null && expected > 0);
    assert.deepEqual(preview.rows.map((r) => [r.currentOffset, r.newOffset, r.difference]), [[null, expected, null]]);
  });

  it('executes the plan: reading the offsets back gives the plan, and the snapshot holds the old ones and what the reset left', async () => {
    const preview = planned(await previewReset(fx.admin, request(ARCHIVE, { kind: 'to-latest' })));
    const store = undoStore();
    const executed = await executeReset(fx.admin, preview, store.options);
    assert.ok(executed.ok);
    assert.deepEqual(executed.results, preview.rows.map(({ topic, partition }) => ({ topic, partition })));
    const after = await fx.admin.committedOffsets(ARCHIVE);
    assert.deepEqual(
      after.map((c) => [c.topic, c.partition, c.offset]).sort(),
      preview.rows.map((r) => [r.topic, r.partition, r.newOffset]).sort(),
    );
    const snapshot = {
      groupId: ARCHIVE,
      takenAt: 1234,
      offsets: [
        { topic: 'legacy-events', partition: 0, offset: 700, metadata: '', after: 1000 },
        { topic: 'legacy-events', partition: 1, offset: 1000, metadata: '', after: 1000 },
        { topic: 'legacy-events', partition: 2, offset: 250, metadata: 'archived by batch job', after: 1000 },
      ],
    };
    assert.deepEqual(executed.snapshot, snapshot);
    assert.deepEqual(store.saved, [snapshot], 'saved once, before the commit, and kept since every partition was committed');
    assert.ok(fx.source.rebalanceEvents(ARCHIVE).some((e) => e.kind === 'offsets-committed' && /generation -1/.test(e.cause ?? '')));
  });

  it('re-checks the group at execute time', async () => {
    const preview = planned(await previewReset(fx.admin, request(ARCHIVE, { kind: 'to-earliest' })));
    await assert.rejects(
      executeReset(fx.admin, { ...preview, request: { ...preview.request, groupId: 'orders-processor' } }, undoStore().options),
      /Assignments can only be reset if the group 'orders-processor' is inactive, but the current state is Stable\./,
    );
  });

  it('refuses a stale preview: after preview B reset the group, preview A writes nothing and names what changed', async () => {
    const a = planned(await previewReset(fx.admin, request(ARCHIVE, { kind: 'shift-by', shift: -100 })));
    const b = planned(await previewReset(fx.admin, request(ARCHIVE, { kind: 'to-earliest' })));
    assert.ok((await executeReset(fx.admin, b, undoStore().options)).ok);
    const store = undoStore();
    const stale = await executeReset(fx.admin, a, store.options);
    assert.ok(!stale.ok);
    assert.deepEqual(describeGroupChanges(stale.changes, 'previewed'), [
      'legacy-events-0: previewed 700, now 0',
      'legacy-events-1: previewed 1000, now 0',
      'legacy-events-2: previewed 250, now 0',
    ]);
    assert.deepEqual(await offsetsOf(fx.admin, ARCHIVE), [0, 0, 0], "B's offsets stay: A committed nothing");
    assert.deepEqual(store.saved, [], 'and kept no undo record');
  });

  it('refuses a preview whose group changed state (another reset created it), naming the states', async () => {
    const scope: ResetRequest['scope'] = { kind: 'topics', topics: [{ topic: 'legacy-events', partitions: [0] }] };
    const a = planned(await previewReset(fx.admin, request('fresh-group', { kind: 'to-latest' }, scope)));
    assert.equal(a.groupState, 'missing');
    const b = planned(await previewReset(fx.admin, request('fresh-group', { kind: 'to-earliest' }, scope)));
    assert.ok((await executeReset(fx.admin, b, undoStore().options)).ok);
    const stale = await executeReset(fx.admin, a, undoStore().options);
    assert.ok(!stale.ok);
    assert.deepEqual(describeGroupChanges(stale.changes, 'previewed'), ['state: previewed missing, now Empty', 'legacy-events-0: previewed (no offset), now 0']);
  });

  it('saves the undo record before the first commit is sent', async () => {
    const admin = new FaultyAdmin(fx.admin);
    const preview = planned(await previewReset(admin, request(ARCHIVE, { kind: 'to-earliest' })));
    admin.calls.length = 0;
    const executed = await executeReset(admin, preview, undoStore(admin.calls).options);
    assert.ok(executed.ok);
    assert.deepEqual(admin.calls, ['groupState', 'committedOffsets', 'saveUndo', 'commitOffsets']);
  });

  it('a commit that lands for 2 of 3 partitions before the broker goes: the kept undo restores exactly those 2', async () => {
    const admin = new FaultyAdmin(fx.admin);
    const preview = planned(await previewReset(admin, request(ARCHIVE, { kind: 'to-earliest' })));
    admin.dropAfter = 2;
    const store = undoStore();
    const executed = await executeReset(admin, preview, store.options);
    assert.ok(executed.ok);
    // The broker is gone: nothing can tell which partitions landed, so every result says so and the record stays whole.
    assert.ok(executed.results.every((r) => r.error?.startsWith(`Unknown: the commit failed (${GONE})`)), JSON.stringify(executed.results));
    assert.equal(store.saved.length, 1);
    assert.deepEqual(await offsetsOf(fx.admin, ARCHIVE), [0, 0, 250]);

    admin.gone = false;
    const record = store.saved[0];
    assert.ok(record);
    const steps = await planUndo(admin, record);
    assert.deepEqual(steps.map((s) => s.status), ['restore', 'restore', 'not-changed']);
    assert.equal(undoConfirmation(record, steps).detail, 'legacy-events-0: 0 → 700\nlegacy-events-1: 0 → 1000\nLeft alone (the change never reached them): legacy-events-2 (250)');
    admin.commits.length = 0;
    const undone = await undoReset(admin, record, steps);
    assert.ok(undone.ok);
    assert.deepEqual(undone.results, [{ topic: 'legacy-events', partition: 0 }, { topic: 'legacy-events', partition: 1 }]);
    assert.deepEqual(admin.commits, [['legacy-events-0=700', 'legacy-events-1=1000']], 'the partition that failed is not written');
    assert.deepEqual(await offsetsOf(fx.admin, ARCHIVE), [700, 1000, 250]);
  });

  it('a commit whose connection drops while the group can still be read: the record is narrowed to what landed', async () => {
    const admin = new FaultyAdmin(fx.admin);
    const preview = planned(await previewReset(admin, request(ARCHIVE, { kind: 'to-earliest' })));
    admin.dropAfter = 1;
    const store = undoStore();
    const reconnect = admin.commitOffsets.bind(admin);
    admin.commitOffsets = async (groupId, offsets) => {
      try {
        return await reconnect(groupId, offsets);
      } finally {
        admin.gone = false; // only the commit's connection dropped
      }
    };
    const executed = await executeReset(admin, preview, store.options);
    assert.ok(executed.ok);
    assert.deepEqual(executed.results.map((r) => r.error ?? 'committed'), ['committed', `Not committed: ${GONE}`, `Not committed: ${GONE}`]);
    assert.deepEqual(store.saved.map((s) => s?.offsets.map((o) => o.partition)), [[0, 1, 2], [0]]);
    assert.deepEqual(executed.snapshot?.offsets.map((o) => [o.partition, o.offset, o.after]), [[0, 700, 0]]);
  });

  it('partitions the broker refuses leave the undo record; none committed keeps no record', async () => {
    const admin = new FaultyAdmin(fx.admin);
    const preview = planned(await previewReset(admin, request(ARCHIVE, { kind: 'to-earliest' })));
    admin.refuseAfter = { count: 2, error: 'COORDINATOR_NOT_AVAILABLE' };
    const store = undoStore();
    const partial = await executeReset(admin, preview, store.options);
    assert.ok(partial.ok);
    assert.deepEqual(partial.results.map((r) => r.error ?? 'committed'), ['committed', 'committed', 'COORDINATOR_NOT_AVAILABLE']);
    assert.deepEqual(store.saved.map((s) => s?.offsets.map((o) => o.partition)), [[0, 1, 2], [0, 1]]);

    const again = planned(await previewReset(admin, request(ARCHIVE, { kind: 'to-latest' })));
    admin.refuseAfter = { count: 0, error: 'COORDINATOR_NOT_AVAILABLE' };
    const none = undoStore();
    const refused = await executeReset(admin, again, none.options);
    assert.ok(refused.ok);
    assert.equal(refused.snapshot, undefined);
    assert.equal(none.saved.length, 2);
    assert.equal(none.saved[1], undefined, 'the caller puts the previous record back');
  });

  it('undo restores the previous offsets and deletes those that did not exist', async () => {
    fx.source.control.createTopic('archive-extra', 2);
    fx.source.simulation.cluster.partition('archive-extra', 0)?.append(50, fx.admin.now());
    const reset = request(ARCHIVE, { kind: 'to-latest' }, { kind: 'topics', topics: [{ topic: 'legacy-events' }, { topic: 'archive-extra', partitions: [0] }] });
    const preview = planned(await previewReset(fx.admin, reset));
    const executed = await executeReset(fx.admin, preview, undoStore().options);
    assert.ok(executed.ok && executed.snapshot);
    assert.equal((await fx.admin.committedOffsets(ARCHIVE)).find((c) => c.topic === 'archive-extra')?.offset, 50);

    const steps = await planUndo(fx.admin, executed.snapshot);
    assert.deepEqual(steps.map(describeUndoStep), [
      'archive-extra-0: 50 → (no offset)',
      'legacy-events-0: 1000 → 700',
      'legacy-events-1: 1000 → 1000',
      'legacy-events-2: 1000 → 250',
    ]);
    const undone = await undoReset(fx.admin, executed.snapshot, steps);
    assert.ok(undone.ok);
    assert.deepEqual(undone.results.filter((r) => r.error !== undefined), []);
    assert.deepEqual(await fx.admin.committedOffsets(ARCHIVE), [
      { topic: 'legacy-events', partition: 0, offset: 700, metadata: '' },
      { topic: 'legacy-events', partition: 1, offset: 1000, metadata: '' },
      { topic: 'legacy-events', partition: 2, offset: 250, metadata: 'archived by batch job' },
    ]);
  });

  it('undo says when someone committed since the reset, and asks to overwrite it', async () => {
    const preview = planned(await previewReset(fx.admin, request(ARCHIVE, { kind: 'shift-by', shift: -100 })));
    const executed = await executeReset(fx.admin, preview, undoStore().options);
    assert.ok(executed.ok && executed.snapshot);
    await fx.admin.commitOffsets(ARCHIVE, [{ topic: 'legacy-events', partition: 1, offset: 950 }]);
    const steps = await planUndo(fx.admin, executed.snapshot);
    assert.deepEqual(steps.map((s) => s.status), ['restore', 'changed-since', 'restore']);
    const confirmation = undoConfirmation(executed.snapshot, steps);
    assert.match(confirmation.message, /^1 partition\(s\) of billing-archive were committed since the change of .*; undo overwrites those commits\. Put back the offsets from before anyway\?$/);
    assert.equal(confirmation.action, 'Undo Anyway');
    assert.equal(confirmation.detail, 'legacy-events-0: 600 → 700\nlegacy-events-1: 950 (the change left 900) → 1000\nlegacy-events-2: 150 → 250');
  });

  it('undo writes nothing when an offset moved after the confirmation was shown', async () => {
    const preview = planned(await previewReset(fx.admin, request(ARCHIVE, { kind: 'to-earliest' })));
    const executed = await executeReset(fx.admin, preview, undoStore().options);
    assert.ok(executed.ok && executed.snapshot);
    const steps = await planUndo(fx.admin, executed.snapshot);
    await fx.admin.commitOffsets(ARCHIVE, [{ topic: 'legacy-events', partition: 2, offset: 42 }]);
    const undone = await undoReset(fx.admin, executed.snapshot, steps);
    assert.ok(!undone.ok);
    assert.deepEqual(describeGroupChanges(undone.changes, 'shown'), ['legacy-events-2: shown 0, now 42']);
    assert.deepEqual(await offsetsOf(fx.admin, ARCHIVE), [0, 0, 42]);
  });

  it('reads stored snapshots back only when well formed', () => {
    const snapshot = { groupId: 'g', takenAt: 1, offsets: [{ topic: 't', partition: 0, offset: null, after: 5 }, { topic: 't', partition: 1, offset: 3, after: null }] };
    assert.deepEqual(parseStoredSnapshot(JSON.parse(JSON.stringify(snapshot))), snapshot);
    assert.equal(parseStoredSnapshot({ groupId: 'g', takenAt: 1, offsets: [{ topic: 't', partition: 0, offset: 1, after: 'x' }] }), undefined);
    assert.equal(parseStoredSnapshot({ groupId: 'g', takenAt: 1, offsets: [{ topic: 't', partition: 'x', offset: 1 }] }), undefined);
    assert.equal(parseStoredSnapshot(undefined), undefined);
  });
});
