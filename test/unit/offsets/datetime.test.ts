import { strict as assert } from 'assert';
import { parseResetDatetime } from '../../../src/offsets/datetime';
import { expectError, expectOk } from './expectResult';

/** Expected values come from Kafka 4.0's Utils.getDateTime run on JDK 17. */
const timestampOf = (text: string): number => expectOk(parseResetDatetime(text), text).timestampMs;
const errorOf = (text: string): string => expectError(parseResetDatetime(text), text);

describe('parseResetDatetime', () => {
  it('reads a datetime without zone as UTC', () => {
    assert.equal(timestampOf('2024-05-01T08:30:00.000'), 1714552200000);
  });

  it('reads Z, ±HH:mm and ±HH zones', () => {
    assert.equal(timestampOf('2024-05-01T08:30:00.000Z'), 1714552200000);
    assert.equal(timestampOf('2024-05-01T08:30:00.000+02:00'), 1714545000000);
    assert.equal(timestampOf('2024-05-01T08:30:00.000-05:30'), 1714572000000);
    assert.equal(timestampOf('2024-05-01T08:30:00.000+02'), 1714545000000);
    assert.equal(timestampOf('2024-05-01T08:30:00.000-02'), 1714559400000);
    assert.equal(timestampOf('2024-05-01T08:30:00.000+14:00'), 1714501800000);
  });

  it('requires milliseconds, with or without a zone', () => {
    assert.match(errorOf('2024-05-01T08:30:00Z'), /^Unparseable date: "2024-05-01T08:30:00Z"/);
    assert.match(errorOf('2024-05-01T08:30:00'), /^Unparseable date: "2024-05-01T08:30:00Z".*milliseconds are required/);
    assert.match(errorOf('2024-05-01T08:30:00+02:00'), /Unparseable date/);
  });

  it('reads SSS as a count of milliseconds, as SimpleDateFormat does', () => {
    assert.equal(timestampOf('2024-05-01T08:30:00.5Z'), 1714552200005);
    assert.equal(timestampOf('2024-05-01T08:30:00.0001'), 1714552200001);
    assert.match(errorOf('2024-05-01T08:30:00.1234Z'), /out of range/);
  });

  it('accepts short numeric fields and blanks before fields', () => {
    assert.equal(timestampOf('2024-1-5T3:04:05.007'), 1704423845007);
    assert.equal(timestampOf(' 2024- 05-01T 08:30:00.000'), 1714552200000);
    assert.equal(timestampOf('2024-05-01T08:30:00.000 +02:00'), 1714545000000);
    assert.equal(timestampOf('2024-05-01T08:30:00.000 '), 1714552200000);
  });

  it('reads what the CLI reads when text follows the zone, and says what it ignored', () => {
    const colonless = expectOk(parseResetDatetime('2024-05-01T08:30:00.000+0230'));
    assert.equal(colonless.timestampMs, 1714545000000);
    assert.match(colonless.warnings[0], /ignores "30" after the zone/);
    assert.equal(timestampOf('2024-05-01T08:30:00.000Zjunk'), 1714552200000);
    // -13:01 is out of the calendar's zone range for ±HH:mm, so the ±HH pattern reads -13.
    assert.equal(timestampOf('2024-05-01T08:30:00.000-13:01'), 1714599000000);
    assert.deepEqual(parseResetDatetime('2024-05-01T08:30:00.000Z'), { ok: true, timestampMs: 1714552200000, warnings: [] });
  });

  it('rejects out-of-range fields and zones', () => {
    for (const text of [
      '2024-02-30T00:00:00.000',
      '2024-13-01T00:00:00.000',
      '2024-05-01T24:00:00.000',
      '2024-05-01T08:60:00.000',
      '2024-05-01T08:30:60.000',
      '2024-05-01T08:30:00.000+15',
      '2024-05-01T08:30:00.000+23:59',
      '2024-05-01T08:30:00.000+2:00',
    ]) {
      assert.match(errorOf(text), /Unparseable date/, text);
    }
    assert.equal(timestampOf('2024-02-29T00:00:00.000'), Date.UTC(2024, 1, 29));
    assert.match(errorOf('2023-02-29T00:00:00.000'), /out of range/);
  });

  it('rejects text without a T, and malformed text', () => {
    assert.equal(errorOf('2024-05-01'), "Error parsing timestamp. It does not contain a 'T' according to ISO8601 format");
    assert.equal(errorOf('2024-05-01t08:30:00.000'), "Error parsing timestamp. It does not contain a 'T' according to ISO8601 format");
    assert.match(errorOf('2024-05-01TT08:30:00.000'), /Unparseable date: "2024-05-01TT08:30:00.000Z"/);
    assert.match(errorOf('2024-05-01T08:30:00.000z'), /Unparseable date: "2024-05-01T08:30:00.000zZ"/);
    assert.match(errorOf('2024-05-01 T08:30:00.000'), /Unparseable date/);
    assert.match(errorOf('+2024-05-01T08:30:00.000'), /Unparseable date/);
    assert.match(errorOf(''), /does not contain a 'T'/);
  });

  it('rejects datetimes before the epoch, which ListOffsets would read as special timestamps', () => {
    assert.match(errorOf('1969-12-31T23:59:59.999'), /before 1970/);
    assert.equal(timestampOf('1970-01-01T00:00:00.000'), 0);
  });
});
