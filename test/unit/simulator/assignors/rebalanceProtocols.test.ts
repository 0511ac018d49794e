import assert from 'node:assert/strict';
import { supportedRebalanceProtocols } from '../../../../src/simulator/assignors/index';
import type { AssignorName } from '../../../../src/simulator/assignors/types';

describe('supportedRebalanceProtocols', () => {
  it('lists EAGER only for range, roundrobin and sticky', () => {
    for (const name of ['range', 'roundrobin', 'sticky'] as const) {
      assert.deepEqual(supportedRebalanceProtocols(name), ['EAGER']);
    }
  });

  it('lists COOPERATIVE first, then EAGER, for cooperative-sticky', () => {
    assert.deepEqual(supportedRebalanceProtocols('cooperative-sticky'), ['COOPERATIVE', 'EAGER']);
  });

  it('rejects an unknown assignor', () => {
    assert.throws(() => supportedRebalanceProtocols('uniform' as AssignorName), /Unknown assignor "uniform"/);
  });
});
