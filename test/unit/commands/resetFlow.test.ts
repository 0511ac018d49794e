import { strict as assert } from 'assert';
import { executeReset, formatDifference, parseStoredSnapshot, planUndo, previewReset, undoReset, describeUndoStep } from '../../../src/commands/resetFlow';
import type { ResetRequest } from '../../../src/offsets/resetRequest';
import { demoAdmin, type SimAdminFixture } from './simAdminFixture';

const ARCHIVE = 'billing-archive';

function request(groupId: string, scenario: ResetRequest['scenario'], scope: ResetRequest['scope'] = { kind: 'all-topics' }): ResetRequest {
  return { groupId, scenario, scope };
}

describe('commands/resetFlow over the simulator', () => {
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

  it('executes the plan: reading the offsets back gives the plan, and the snapshot holds the old ones', async () => {
    const preview = await previewReset(fx.admin, request(ARCHIVE, { kind: 'to-latest' }));
    assert.ok(preview.ok);
    const executed = await executeReset(fx.admin, ARCHIVE, preview.rows, 1234);
    assert.deepEqual(executed.results, preview.rows.map(({ topic, partition }) => ({ topic, partition })));
    const after = await fx.admin.committedOffsets(ARCHIVE);
    assert.deepEqual(
      after.map((c) => [c.topic, c.partition, c.offset]).sort(),
      preview.rows.map((r) => [r.topic, r.partition, r.newOffset]).sort(),
    );
    assert.deepEqual(executed.snapshot, {
      groupId: ARCHIVE,
      takenAt: 1234,
      offsets: [
        { topic: 'legacy-events', partition: 0, offset: 700, metadata: '' },
        { topic: 'legacy-events', partition: 1, offset: 1000, metadata: '' },
        { topic: 'legacy-events', partition: 2, offset: 250, metadata: 'archived by batch job' },
      ],
    });
    assert.ok(fx.source.rebalanceEvents(ARCHIVE).some((e) => e.kind === 'offsets-committed' && /generation -1/.test(e.cause ?? '')));
  });

  it('re-checks the group at execute time', async () => {
    await assert.rejects(
      executeReset(fx.admin, 'orders-processor', [{ topic: 'orders', partition: 0, currentOffset: 1, newOffset: 0 }], 0),
      /Assignments can only be reset if the group 'orders-processor' is inactive, but the current state is Stable\./,
    );
  });

  it('undo restores the previous offsets and deletes those that did not exist', async () => {
    fx.source.control.createTopic('archive-extra', 2);
    fx.source.simulation.cluster.partition('archive-extra', 0)?.append(50, fx.admin.now());
    const reset = request(ARCHIVE, { kind: 'to-latest' }, { kind: 'topics', topics: [{ topic: 'legacy-events' }, { topic: 'archive-extra', partitions: [0] }] });
    const preview = await previewReset(fx.admin, reset);
    assert.ok(preview.ok);
    const executed = await executeReset(fx.admin, ARCHIVE, preview.rows, 1);
    assert.equal((await fx.admin.committedOffsets(ARCHIVE)).find((c) => c.topic === 'archive-extra')?.offset, 50);

    const steps = await planUndo(fx.admin, executed.snapshot);
    assert.deepEqual(steps.map(describeUndoStep), [
      'archive-extra-0: 50 → (no offset)',
      'legacy-events-0: 1000 → 700',
      'legacy-events-1: 1000 → 1000',
      'legacy-events-2: 1000 → 250',
    ]);
    const results = await undoReset(fx.admin, executed.snapshot);
    assert.deepEqual(results.filter((r) => r.error !== undefined), []);
    assert.deepEqual(await fx.admin.committedOffsets(ARCHIVE), [
      { topic: 'legacy-events', partition: 0, offset: 700, metadata: '' },
      { topic: 'legacy-events', partition: 1, offset: 1000, metadata: '' },
      { topic: 'legacy-events', partition: 2, offset: 250, metadata: 'archived by batch job' },
    ]);
  });

  it('formats differences with a sign and reads stored snapshots back only when well formed', () => {
    assert.deepEqual([5, -3, 0, null].map(formatDifference), ['+5', '-3', '0', '']);
    const snapshot = { groupId: 'g', takenAt: 1, offsets: [{ topic: 't', partition: 0, offset: null }] };
    assert.deepEqual(parseStoredSnapshot(JSON.parse(JSON.stringify(snapshot))), snapshot);
    assert.equal(parseStoredSnapshot({ groupId: 'g', takenAt: 1, offsets: [{ topic: 't', partition: 'x', offset: 1 }] }), undefined);
    assert.equal(parseStoredSnapshot(undefined), undefined);
  });
});
