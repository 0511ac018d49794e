import { strict as assert } from 'assert';
import { restoreActions, takeOffsetSnapshot } from '../../../src/offsets/undo';
import { committed } from './resetFixtures';

describe('offset snapshot for undo', () => {
  const touched = [
    { topic: 'payments', partition: 0 },
    { topic: 'orders', partition: 2 },
    { topic: 'orders', partition: 0 },
  ];

  it('records the committed offset (and metadata) of every touched partition, null where there was none', () => {
    assert.deepEqual(takeOffsetSnapshot('g1', committed, touched, 1_700_000_000_000), {
      groupId: 'g1',
      takenAt: 1_700_000_000_000,
      offsets: [
        { topic: 'orders', partition: 0, offset: 40 },
        { topic: 'orders', partition: 2, offset: null },
        { topic: 'payments', partition: 0, offset: 12, metadata: 'm-p0' },
      ],
    });
  });

  it('ignores committed partitions the change does not touch', () => {
    const snapshot = takeOffsetSnapshot('g1', committed, [{ topic: 'orders', partition: 0 }], 0);
    assert.deepEqual(snapshot.offsets, [{ topic: 'orders', partition: 0, offset: 40 }]);
  });

  it('restores by committing the old offsets and deleting the ones that did not exist', () => {
    const actions = restoreActions(takeOffsetSnapshot('g1', committed, touched, 0));
    assert.deepEqual(actions, {
      commit: [
        { topic: 'orders', partition: 0, offset: 40 },
        { topic: 'payments', partition: 0, offset: 12, metadata: 'm-p0' },
      ],
      deleteOffsets: [{ topic: 'orders', partition: 2 }],
    });
  });

  it('restores nothing from an empty snapshot', () => {
    assert.deepEqual(restoreActions({ groupId: 'g', takenAt: 0, offsets: [] }), { commit: [], deleteOffsets: [] });
  });
});
