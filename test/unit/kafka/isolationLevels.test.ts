import { strict as assert } from 'node:assert';
import { groupMatches, readCommittedLookup } from '../../../src/kafka/isolationLevels';

describe('kafka/isolationLevels', () => {
  describe('groupMatches', () => {
    it('matches a plain id only to itself', () => {
      assert.equal(groupMatches('payments', 'payments'), true);
      assert.equal(groupMatches('payments', 'payments-eu'), false);
      assert.equal(groupMatches('payments', 'my-payments'), false);
    });

    it('reads * as any run of characters and ? as one character', () => {
      assert.equal(groupMatches('payments-*', 'payments-eu'), true);
      assert.equal(groupMatches('payments-*', 'payments-'), true);
      assert.equal(groupMatches('payments-*', 'payments'), false);
      assert.equal(groupMatches('*-audit', 'orders-audit'), true);
      assert.equal(groupMatches('app-?', 'app-1'), true);
      assert.equal(groupMatches('app-?', 'app-12'), false);
      assert.equal(groupMatches('*', 'anything at all'), true);
    });

    it('takes every other character literally', () => {
      assert.equal(groupMatches('a.b', 'a.b'), true);
      assert.equal(groupMatches('a.b', 'axb'), false);
      assert.equal(groupMatches('g(1)+[x]', 'g(1)+[x]'), true);
      assert.equal(groupMatches('^g$', 'g'), false);
    });
  });

  describe('readCommittedLookup', () => {
    it('makes matching groups read_committed and the rest read_uncommitted', () => {
      const lookup = readCommittedLookup(['payments-*', 'ledger']);
      assert.equal(lookup('payments-eu'), 'read_committed');
      assert.equal(lookup('ledger'), 'read_committed');
      assert.equal(lookup('ledger-2'), 'read_uncommitted');
      assert.equal(lookup('orders'), 'read_uncommitted');
    });

    it('treats every group as read_uncommitted with no patterns', () => {
      assert.equal(readCommittedLookup([])('payments'), 'read_uncommitted');
    });

    it('rejects a value that is not a list of non-empty strings, naming the entry', () => {
      assert.throws(() => readCommittedLookup('payments-*'), /expected an array of group ids or patterns, got string/);
      assert.throws(() => readCommittedLookup(null), /got null/);
      assert.throws(() => readCommittedLookup(['ok', 3]), /entry 2 must be a non-empty group id or pattern, got 3/);
      assert.throws(() => readCommittedLookup(['']), /entry 1 must be a non-empty group id or pattern, got ""/);
    });
  });
});
