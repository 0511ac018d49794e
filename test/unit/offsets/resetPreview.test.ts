import { strict as assert } from 'assert';
import { describeScenario, describeScope, formatDifference, previewRows } from '../../../src/offsets/resetPreview';

describe('offsets/resetPreview', () => {
  it('signs each row\'s move, and leaves it empty where the group had no committed offset', () => {
    const rows = previewRows([
      { topic: 't', partition: 0, currentOffset: 10, newOffset: 15 },
      { topic: 't', partition: 1, currentOffset: 10, newOffset: 7 },
      { topic: 't', partition: 2, currentOffset: null, newOffset: 3 },
    ]);
    assert.deepEqual(rows.map((r) => r.difference), [5, -3, null]);
    assert.deepEqual([5, -3, 0, null].map(formatDifference), ['+5', '-3', '0', '']);
  });

  it('describes scenario and scope as the CLI spells them', () => {
    assert.equal(describeScenario({ kind: 'shift-by', shift: -5 }), '--shift-by -5');
    assert.equal(describeScenario({ kind: 'to-earliest' }), '--to-earliest');
    assert.equal(describeScenario({ kind: 'to-offset', offset: 2n ** 63n - 1n }), '--to-offset 9223372036854775807');
    assert.equal(describeScenario({ kind: 'from-file', csv: '' }, '/tmp/plan.csv'), '--from-file /tmp/plan.csv');
    assert.equal(describeScope({ kind: 'all-topics' }), '--all-topics');
    assert.equal(describeScope({ kind: 'topics', topics: [{ topic: 'a' }, { topic: 'b', partitions: [0, 1] }] }), '--topic a --topic b:0,1');
  });
});
