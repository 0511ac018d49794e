import { strict as assert } from 'assert';
import { SimGroupAdmin } from '../../../../src/simulator/admin/simGroupAdmin';
import { createDemoSimSource, type SimSource } from '../../../../src/simulator/editor/simSource';

describe('simulator/SimGroupAdmin', () => {
  let source: SimSource;
  let admin: SimGroupAdmin;
  beforeEach(() => {
    source = createDemoSimSource({ paced: false });
    source.advance(15000);
    admin = new SimGroupAdmin(source.simulation);
  });
  afterEach(async () => {
    await source.dispose();
  });

  it('reads the planner facts from the simulated cluster, leaving out what does not exist', async () => {
    assert.equal(admin.now(), 15000);
    assert.deepEqual(await admin.partitionCounts(['orders', 'nope', 'legacy-events']), new Map([['orders', 6], ['legacy-events', 3]]));
    assert.deepEqual(await admin.logOffsets([{ topic: 'legacy-events', partition: 2 }, { topic: 'legacy-events', partition: 3 }]), [
      { topic: 'legacy-events', partition: 2, earliest: 0, latest: 1000 },
    ]);
    assert.equal(await admin.offsetForTimestamp('legacy-events', 0, 10 ** 12), null, 'no record that new');
    await assert.rejects(admin.offsetForTimestamp('nope', 0, 0), /UNKNOWN_TOPIC_OR_PARTITION: nope-0/);
    assert.equal(await admin.groupState('never-seen'), 'missing');
  });

  it('commits with generation -1: creates a missing group, answers per partition, refuses an active group', async () => {
    const results = await admin.commitOffsets('fresh', [
      { topic: 'orders', partition: 0, offset: 5, metadata: 'by test' },
      { topic: 'orders', partition: 99, offset: 5 },
    ]);
    assert.deepEqual(results, [
      { topic: 'orders', partition: 0 },
      { topic: 'orders', partition: 99, error: 'UNKNOWN_TOPIC_OR_PARTITION' },
    ]);
    assert.equal(await admin.groupState('fresh'), 'Empty');
    assert.deepEqual(await admin.committedOffsets('fresh'), [{ topic: 'orders', partition: 0, offset: 5, metadata: 'by test' }]);
    assert.deepEqual(await admin.commitOffsets('orders-processor', [{ topic: 'orders', partition: 0, offset: 0 }]), [
      { topic: 'orders', partition: 0, error: 'UNKNOWN_MEMBER_ID' },
    ]);
    assert.deepEqual(await admin.commitOffsets('fresh', []), []);
  });

  it('gives every partition the group-level reason when OffsetDelete is refused', async () => {
    assert.deepEqual(await admin.deleteOffsets('never-seen', 'orders', [0, 1]), {
      error: 'GROUP_ID_NOT_FOUND',
      partitions: [
        { topic: 'orders', partition: 0, error: 'GROUP_ID_NOT_FOUND' },
        { topic: 'orders', partition: 1, error: 'GROUP_ID_NOT_FOUND' },
      ],
    });
    await assert.rejects(admin.deleteOffsets('billing-archive', 'legacy-events', []), /at least one partition/);
    await assert.rejects(admin.removeStaticMembers('payments-audit', []), /at least one group.instance.id/);
  });
});
