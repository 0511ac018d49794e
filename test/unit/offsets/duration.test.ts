import { strict as assert } from 'assert';
import { parseJavaDuration, timestampBefore } from '../../../src/offsets/duration';
import { expectError, expectOk } from './expectResult';

const NOW = 1_700_000_000_000;

/** now.minus(Duration.parse(text)).toEpochMilli(); expected values come from JDK 17. */
const timestampFor = (text: string): number => timestampBefore(NOW, expectOk(parseJavaDuration(text), text).nanos);
const errorOf = (text: string): string => expectError(parseJavaDuration(text), text);

describe('parseJavaDuration', () => {
  it('reads days, hours, minutes and seconds', () => {
    assert.equal(timestampFor('P1DT2H'), 1699906400000);
    assert.equal(timestampFor('PT1H30M'), 1699994600000);
    assert.equal(timestampFor('P1D'), 1699913600000);
    assert.equal(timestampFor('+PT1M'), 1699999940000);
    assert.equal(timestampFor('pt1h'), 1699996400000);
  });

  it('reads fractions of a second with . or ,', () => {
    assert.equal(timestampFor('PT0.5S'), 1699999999500);
    assert.equal(timestampFor('PT0,25S'), 1699999999750);
    assert.equal(timestampFor('PT1.S'), 1699999999000);
    assert.equal(parseJavaDuration('PT0.000000001S').ok, true);
  });

  it('takes the floor in milliseconds like Instant.toEpochMilli', () => {
    assert.equal(timestampFor('PT0.0005S'), 1699999999999);
    assert.equal(timestampFor('PT-0.0005S'), 1700000000000);
  });

  it('reads negative durations and negative parts', () => {
    assert.equal(timestampFor('PT-0.5S'), 1700000000500);
    assert.equal(timestampFor('-PT0.5S'), 1700000000500);
    assert.equal(timestampFor('-P1DT-2H'), 1700079200000);
    assert.equal(timestampFor('P-1D'), 1700086400000);
    assert.equal(timestampFor('PT1H-1M'), 1699996460000);
  });

  it('rejects what Duration.parse rejects', () => {
    for (const text of ['', 'P', '-P', 'PT', 'PTH', 'P1W', 'P1Y', 'PT1M1H', 'PT1.1234567891S', 'PT1H ', '1H']) {
      assert.match(errorOf(text), /^Text cannot be parsed to a Duration \(/, text);
    }
  });

  it('names the overflowing section like Java', () => {
    assert.match(errorOf('PT9223372036854775808S'), /^Text cannot be parsed to a Duration: seconds/);
    assert.match(errorOf('P106751991167301D'), /^Text cannot be parsed to a Duration: days/);
    assert.match(errorOf('P106751991167300DT9223372036854775807S'), /^Text cannot be parsed to a Duration: overflow/);
  });
});
