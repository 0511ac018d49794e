import { strict as assert } from 'node:assert';
import { formatPartitions, KIND_LABELS } from '../../../../src/webview/app/describe';
import { EVENT_KINDS } from '../../../../src/model/eventKinds';

describe('webview/app/describe', () => {
  it('groups partitions by topic, sorted, collapsing runs of three or more', () => {
    const tp = (topic: string, partition: number): { topic: string; partition: number } => ({ topic, partition });
    assert.equal(formatPartitions([tp('orders', 3), tp('orders', 0), tp('orders', 1), tp('orders', 2), tp('orders', 7), tp('orders', 9), tp('orders', 10)]), 'orders 0-3, 7, 9, 10');
    assert.equal(formatPartitions([tp('z', 1), tp('a', 0), tp('z', 1)]), 'a 0 · z 1');
    assert.equal(formatPartitions([]), 'none');
  });

  it('labels every event kind', () => {
    assert.deepEqual(Object.keys(KIND_LABELS).sort(), [...EVENT_KINDS].sort());
    assert.ok(Object.values(KIND_LABELS).every((label) => label.length > 0));
  });
});
