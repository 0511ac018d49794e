import { strict as assert } from 'assert';
import { exportResetCsv, parseResetCsv, resetCsvRowsForGroup } from '../../../src/offsets/csv';
import { expectError as errorOf, expectOk } from './expectResult';

const plan = [
  { topic: 'orders', partition: 0, newOffset: 10 },
  { topic: 'orders', partition: 1, newOffset: 0 },
];

describe('exportResetCsv', () => {
  it('writes topic,partition,offset for one group, no header, a newline after every record', () => {
    assert.equal(exportResetCsv([{ groupId: 'g1', rows: plan }]), 'orders,0,10\norders,1,0\n');
  });

  it('writes group,topic,partition,offset for several groups, or when asked', () => {
    const two = exportResetCsv([
      { groupId: 'g1', rows: plan },
      { groupId: 'g2', rows: [{ topic: 'payments', partition: 3, newOffset: 42 }] },
    ]);
    assert.equal(two, 'g1,orders,0,10\ng1,orders,1,0\ng2,payments,3,42\n');
    assert.equal(exportResetCsv([{ groupId: 'g1', rows: plan.slice(0, 1) }], { withGroupColumn: true }), 'g1,orders,0,10\n');
    assert.equal(exportResetCsv([]), '');
  });

  it("quotes like Kafka 4.0's Jackson writer (outputs checked against CsvUtils)", () => {
    const line = (groupId: string, topic = 't') => exportResetCsv([{ groupId, rows: [{ topic, partition: 3, newOffset: 42 }] }], { withGroupColumn: true });
    assert.equal(line('my group'), '"my group",t,3,42\n');
    assert.equal(line('a,b'), '"a,b",t,3,42\n');
    assert.equal(line('q"uote'), '"q""uote",t,3,42\n');
    assert.equal(line('back\\slash'), '"back\\slash",t,3,42\n');
    assert.equal(line('hash#'), '"hash#",t,3,42\n');
    assert.equal(line("it's"), '"it\'s",t,3,42\n');
    assert.equal(line('ünï'), 'ünï,t,3,42\n');
    assert.equal(line(''), ',t,3,42\n');
    assert.equal(line('dash-dot.', 'dash-dot.'), 'dash-dot.,dash-dot.,3,42\n');
    // Values longer than 24 characters are always quoted, topics included.
    assert.equal(line('abcdefghijklmnopqrstuvwx', 'abcdefghijklmnopqrstuvwx'), 'abcdefghijklmnopqrstuvwx,abcdefghijklmnopqrstuvwx,3,42\n');
    assert.equal(line('abcdefghijklmnopqrstuvwxy', 'abcdefghijklmnopqrstuvwxy'), '"abcdefghijklmnopqrstuvwxy","abcdefghijklmnopqrstuvwxy",3,42\n');
  });
});

describe('parseResetCsv', () => {
  it('reads the 3-column format, trimming numbers and tolerating CRLF and trailing blank lines', () => {
    const parsed = parseResetCsv('orders,0,10\r\norders, 1 ,-3\n"payments","2","7"\n\n  \n');
    assert.deepEqual(parsed, {
      ok: true,
      format: 'topic,partition,offset',
      rows: [
        { group: null, topic: 'orders', partition: 0, offset: 10n, line: 1 },
        { group: null, topic: 'orders', partition: 1, offset: -3n, line: 2 },
        { group: null, topic: 'payments', partition: 2, offset: 7n, line: 3 },
      ],
    });
  });

  it('reads the 4-column format with quoted group ids, and picks one group', () => {
    const parsed = expectOk(parseResetCsv('"g,1",orders,0,10\ng2,orders,0,11\n"g,1",payments,1,+5\n'));
    assert.equal(parsed.format, 'group,topic,partition,offset');
    assert.deepEqual(resetCsvRowsForGroup(parsed, 'g,1').map((row) => [row.topic, row.partition, row.offset, row.line]), [
      ['orders', 0, 10n, 1],
      ['payments', 1, 5n, 3],
    ]);
    assert.deepEqual(resetCsvRowsForGroup(parsed, 'g3'), []);
  });

  it('gives every 3-column row to the group being reset', () => {
    assert.equal(resetCsvRowsForGroup(expectOk(parseResetCsv('orders,0,10\n')), 'any').length, 1);
  });

  it('round-trips an export', () => {
    const groups = [
      { groupId: 'a group, with "quotes"', rows: [{ topic: 'a-very-long-topic-name-xyz', partition: 4, newOffset: 9_007_199_254_740_991 }] },
      { groupId: 'g2', rows: plan },
    ];
    const parsed = expectOk(parseResetCsv(exportResetCsv(groups)));
    const back = groups.map(({ groupId }) => ({
      groupId,
      rows: resetCsvRowsForGroup(parsed, groupId).map(({ topic, partition, offset }) => ({ topic, partition, newOffset: Number(offset) })),
    }));
    assert.deepEqual(back, groups);
    const single = expectOk(parseResetCsv(exportResetCsv([{ groupId: 'g1', rows: plan }])));
    assert.deepEqual(single.rows.map(({ topic, partition, offset }) => ({ topic, partition, newOffset: Number(offset) })), plan);
  });

  it('skips a leading byte-order mark, so the first row keeps its group and topic', () => {
    const withGroup = expectOk(parseResetCsv('\uFEFFg1,orders,0,10\ng1,orders,1,11\n'));
    assert.deepEqual(resetCsvRowsForGroup(withGroup, 'g1').map((row) => [row.group, row.topic, row.partition, row.line]), [
      ['g1', 'orders', 0, 1],
      ['g1', 'orders', 1, 2],
    ]);
    const withoutGroup = expectOk(parseResetCsv('\uFEFForders,0,10\r\n'));
    assert.deepEqual(withoutGroup.rows.map((row) => [row.topic, row.offset]), [['orders', 10n]]);
    // Only at the very start: a mark inside a line is still a character of that value.
    assert.deepEqual(resetCsvRowsForGroup(expectOk(parseResetCsv('g1,orders,0,1\n\uFEFFg1,orders,1,2\n')), 'g1').map((row) => row.line), [1]);
  });

  it('reads offsets exactly over the whole Java long range, and names the line of one beyond it', () => {
    const parsed = expectOk(parseResetCsv('orders,0,9007199254740993\norders,1,9223372036854775807\norders,2,-9223372036854775808\n'));
    assert.deepEqual(parsed.rows.map((row) => row.offset), [2n ** 53n + 1n, 2n ** 63n - 1n, -(2n ** 63n)]);
    assert.equal(errorOf(parseResetCsv('orders,0,1\norders,1,9223372036854775808\n')), "Line 2: offset '9223372036854775808' is outside the range of a Java long (-2^63 to 2^63-1)");
  });

  it('names the line of each bad row', () => {
    const cases: Array<[string, RegExp]> = [
      ['orders,0\n', /^Line 1: expected 3 columns .* or 4 .*found 2$/],
      ['orders,0,1\norders,1,2,3\n', /^Line 2: expected 3 columns \(topic,partition,offset\) like line 1, found 4$/],
      ['g,orders,0,1\norders,1,2\n', /^Line 2: expected 4 columns \(group,topic,partition,offset\) like line 1, found 3$/],
      ['orders,0,1\norders,x,2\n', /^Line 2: partition 'x' is not a partition number/],
      ['orders,0,1\norders,,2\n', /^Line 2: partition '' is not a partition number/],
      ['orders,-1,2\n', /^Line 1: partition '-1' is not a partition number/],
      ['orders,0,1\norders,1,ten\n', /^Line 2: offset 'ten' is not a whole number$/],
      ['orders,0,1.5\n', /^Line 1: offset '1.5' is not a whole number$/],
      [',0,1\n', /^Line 1: the topic name is empty$/],
      ['topic,partition,offset\n', /^Line 1: partition 'partition' is not a partition number/],
      ['my topic,0,1\n', /^Line 1: topic name 'my topic' contains characters/],
      ['orders,0,1\norders,1,2\norders,0,3\n', /^Line 3: partition orders-0 is already on line 1$/],
      ['g,orders,0,1\ng,orders,0,3\n', /^Line 2: partition orders-0 for group 'g' is already on line 1$/],
      ['orders,0,1\n\norders,1,2\n', /^Line 2: blank line/],
      ['"orders,0,1\n', /^Line 1: a quoted value is not closed$/],
      ['"orders"x,0,1\n', /^Line 1: unexpected text after a closing quote$/],
      ['ord"ers,0,1\n', /^Line 1: a quote inside an unquoted value$/],
    ];
    for (const [csv, expected] of cases) {
      assert.match(errorOf(parseResetCsv(csv), JSON.stringify(csv)), expected, JSON.stringify(csv));
    }
    const parsed = parseResetCsv('orders,0,1\norders,1,ten\n');
    assert.ok(!parsed.ok);
    assert.equal(parsed.line, 2);
  });

  it('allows the same partition for different groups', () => {
    assert.equal(parseResetCsv('g1,orders,0,1\ng2,orders,0,3\n').ok, true);
  });

  it('rejects an empty file', () => {
    assert.equal(errorOf(parseResetCsv('')), 'The reset plan file has no rows');
    assert.equal(errorOf(parseResetCsv('\n \n')), 'The reset plan file has no rows');
  });
});
