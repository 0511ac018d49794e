import { strict as assert } from 'node:assert';
import { toPreviewData, toResultRows } from '../../../src/reset/resetPreviewData';

describe('reset/resetPreviewData', () => {
  const rows = [
    { topic: 't', partition: 0, currentOffset: 10, newOffset: 15, difference: 5 },
    { topic: 't', partition: 1, currentOffset: null, newOffset: 7, difference: null, warning: 'New offset (9) is higher than latest offset for topic partition t-1. Value will be set to 7' },
  ];

  it('turns the preview into display strings with the CLI spelling of scenario and scope', () => {
    const data = toPreviewData(
      { ok: true, request: { groupId: 'g', scenario: { kind: 'to-offset', offset: 9 }, scope: { kind: 'topics', topics: [{ topic: 't' }] } }, groupState: 'Empty', rows, warnings: [rows[1].warning as string] },
      'Simulator',
    );
    assert.deepEqual(data, {
      groupId: 'g',
      cluster: 'Simulator',
      groupState: 'Empty',
      scenario: '--to-offset 9',
      scope: '--topic t',
      rows: [
        { topic: 't', partition: 0, current: '10', next: '15', difference: '+5', warning: '' },
        { topic: 't', partition: 1, current: '-', next: '7', difference: '', warning: rows[1].warning },
      ],
      warnings: [rows[1].warning],
    });
  });

  it('names the file of a from-file plan and says a missing group will be created', () => {
    const data = toPreviewData({ ok: true, request: { groupId: 'g', scenario: { kind: 'from-file', csv: 't,0,1\n' }, scope: { kind: 'all-topics' } }, groupState: 'missing', rows: [], warnings: [] }, 'c', '/p.csv');
    assert.deepEqual([data.scenario, data.scope, data.groupState], ['--from-file /p.csv', 'the rows of the file', 'does not exist (a reset creates it)']);
  });

  it('gives every planned partition a result, unanswered ones included', () => {
    assert.deepEqual(toResultRows(rows, [{ topic: 't', partition: 0 }]), [
      { topic: 't', partition: 0, ok: true, status: 'committed 15' },
      { topic: 't', partition: 1, ok: false, status: 'The broker did not answer for this partition' },
    ]);
    assert.deepEqual(toResultRows(rows.slice(0, 1), [{ topic: 't', partition: 0, error: 'UNKNOWN_MEMBER_ID' }]), [{ topic: 't', partition: 0, ok: false, status: 'UNKNOWN_MEMBER_ID' }]);
  });
});
