import { strict as assert } from 'node:assert';
import { exportFileName, timelineTargetOf } from '../../../src/webview/timelineTarget';

describe('webview/timelineTarget', () => {
  it('reads the tree group node and the plain form', () => {
    assert.deepEqual(timelineTargetOf({ kind: 'group', sourceId: 'sim', summary: { groupId: 'orders' } }), { clusterId: 'sim', groupId: 'orders' });
    assert.deepEqual(timelineTargetOf({ clusterId: 'prod', groupId: 'g' }), { clusterId: 'prod', groupId: 'g' });
  });

  it('rejects anything else', () => {
    for (const arg of [undefined, null, 'orders', 3, {}, { sourceId: 'x' }, { sourceId: 'x', summary: null }, { clusterId: 1, groupId: 'g' }]) {
      assert.equal(timelineTargetOf(arg), undefined, JSON.stringify(arg));
    }
  });

  it('makes a safe export file name from any group id', () => {
    assert.equal(exportFileName('orders'), 'orders-rebalances.json');
    assert.equal(exportFileName('a/b\\c:d*e?f"g<h>i|j\u0001'), 'a_b_c_d_e_f_g_h_i_j_-rebalances.json');
    assert.equal(exportFileName(''), 'group-rebalances.json');
    assert.equal(exportFileName('x'.repeat(300)).length, 100 + '-rebalances.json'.length);
  });
});
