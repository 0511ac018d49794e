import { strict as assert } from 'assert';
import { formatResetTable, parseResetTable } from '../../../src/offsets/cliOutput';

describe('reset table', () => {
  const plans = [
    {
      groupId: 'g1',
      rows: [
        { topic: 'orders', partition: 0, newOffset: 10 },
        { topic: 'payments', partition: 12, newOffset: 1234567 },
      ],
    },
  ];

  it("prints like printOffsetsToReset's %-30s %-30s %-10s %-15s", () => {
    const expected = [
      '',
      `${'GROUP'.padEnd(30)} ${'TOPIC'.padEnd(30)} ${'PARTITION'.padEnd(10)} ${'NEW-OFFSET'.padEnd(15)}`,
      `${'g1'.padEnd(30)} ${'orders'.padEnd(30)} ${'0'.padEnd(10)} ${'10'.padEnd(15)}`,
      `${'g1'.padEnd(30)} ${'payments'.padEnd(30)} ${'12'.padEnd(10)} ${'1234567'.padEnd(15)}`,
      '',
    ].join('\n');
    assert.equal(formatResetTable(plans), expected);
  });

  it('prints only the header for a group with nothing to reset, and a bare newline for no group', () => {
    assert.equal(formatResetTable([{ groupId: 'g', rows: [] }]).split('\n').length, 3);
    assert.equal(formatResetTable([]), '\n');
  });

  it('does not cut long values', () => {
    const long = 'a-topic-name-much-longer-than-thirty-characters';
    assert.ok(formatResetTable([{ groupId: 'g', rows: [{ topic: long, partition: 1, newOffset: 2 }] }]).includes(`${long} 1 `));
  });

  it('reads the table back, including group ids with blanks, skipping other output', () => {
    const printed = formatResetTable([{ groupId: 'my group', rows: [{ topic: 'orders', partition: 3, newOffset: 7 }] }, ...plans]);
    const stdout = `WARN: No action will be performed as the --execute option is missing.\n${printed}`;
    assert.deepEqual(parseResetTable(stdout), [
      { groupId: 'my group', topic: 'orders', partition: 3, newOffset: 7 },
      { groupId: 'g1', topic: 'orders', partition: 0, newOffset: 10 },
      { groupId: 'g1', topic: 'payments', partition: 12, newOffset: 1234567 },
    ]);
    assert.deepEqual(parseResetTable('\nError: Assignments can only be reset if the group \'g\' is inactive, but the current state is Stable.\n'), []);
  });
});
