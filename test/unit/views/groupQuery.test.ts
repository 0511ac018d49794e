import * as assert from 'assert';
import {
  DEFAULT_GROUP_SORT, describeGroupFilter, EMPTY_GROUP_FILTER, filterGroups, filterMessage, formatGroupFilter, globMatches, isFilterActive,
  parseGroupFilter, parseGroupSort, queryGroups, sortGroups, type GroupFilter, type GroupSortKey,
} from '../../../src/views/groupQuery';
import type { GroupSummary, LagHealthStatus } from '../../../src/model/types';

function group(groupId: string, fields: Partial<GroupSummary> = {}, health?: LagHealthStatus): GroupSummary {
  return {
    groupId, state: 'Stable', protocolType: 'consumer', groupType: 'classic', assignor: 'range', coordinator: null,
    memberCount: 1, totalLag: 0, ...fields, ...(health === undefined ? {} : { health: { status: health, reason: '' } }),
  };
}

const GROUPS: GroupSummary[] = [
  group('payments-eu', { totalLag: 120, memberCount: 3, maxLagInTimeMs: 5000 }, 'WARNING'),
  group('payments-us', { state: 'Empty', memberCount: 0, totalLag: 0, maxLagInTimeMs: 0 }, 'OK'),
  group('orders', { state: 'PreparingRebalance', groupType: 'consumer', memberCount: 2, totalLag: null }),
  group('Payments-Audit', { state: 'Empty', memberCount: 0, totalLag: 40, maxLagInTimeMs: null }, 'STOPPED'),
  group('group-10', { state: 'Unknown', groupType: 'simple', memberCount: 0, totalLag: 7, maxLagInTimeMs: 90_000 }),
  group('group-2', { state: 'Dead', groupType: 'unknown', memberCount: 0, totalLag: null }),
  group('app:orders', { state: 'Assigning', groupType: 'consumer', memberCount: 5, totalLag: 3 }),
];

function ids(text: string): string[] {
  const parsed = parseGroupFilter(text);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
  return filterGroups(GROUPS, parsed.filter).map((g) => g.groupId);
}

function error(text: string): string {
  const parsed = parseGroupFilter(text);
  assert.ok(!parsed.ok, `"${text}" should not parse`);
  return parsed.error;
}

describe('groupQuery: filter', () => {
  it('an empty filter is inactive and keeps every group', () => {
    assert.strictEqual(isFilterActive(EMPTY_GROUP_FILTER), false);
    assert.deepStrictEqual(ids('   '), GROUPS.map((g) => g.groupId));
  });

  it('substring over the group id, case-insensitive', () => {
    assert.deepStrictEqual(ids('PAYMENTS'), ['payments-eu', 'payments-us', 'Payments-Audit']);
  });

  it('glob * over the whole id, case-insensitive', () => {
    assert.deepStrictEqual(ids('payments-*'), ['payments-eu', 'payments-us', 'Payments-Audit']);
    assert.deepStrictEqual(ids('*-us'), ['payments-us']);
    assert.deepStrictEqual(ids('ayments-*'), [], 'a glob is anchored at both ends');
    assert.deepStrictEqual(ids('payments-e*'), ['payments-eu']);
  });

  it('glob ? is exactly one character, and regex characters are literal', () => {
    assert.deepStrictEqual(ids('group-?'), ['group-2']);
    assert.deepStrictEqual(ids('group-??'), ['group-10']);
    assert.deepStrictEqual(ids('group.?'), []);
  });

  it('glob matching: several stars, stars at the ends, ? as one code point', () => {
    const glob = (pattern: string, text: string): boolean => globMatches(Array.from(pattern), Array.from(text));
    const cases: Array<[string, string, boolean]> = [
      ['*', '', true], ['', '', true], ['?', '', false], ['a*b*c', 'abc', true], ['a*b*c', 'aXbYYc', true], ['a*b*c', 'aXbYYcd', false],
      ['*-eu*', 'payments-eu-1', true], ['*x*', 'abc', false], ['a**b', 'ab', true], ['??', 'é😀', true], ['?', '😀', true],
      ['*a*a*a*a*a*a*a*a*a*a*a*b', 'a'.repeat(60), false], ['*a*a*a*a*a*a*a*a*a*a*a*b', `${'a'.repeat(60)}b`, true],
    ];
    for (const [pattern, text, expected] of cases) {
      assert.strictEqual(glob(pattern, text), expected, `${pattern} vs ${text.slice(0, 12)}`);
    }
  });

  it('a glob of many stars against a long id that almost matches is answered (no regex backtracking)', () => {
    const parsed = parseGroupFilter('*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b');
    assert.ok(parsed.ok);
    assert.deepStrictEqual(filterGroups([group('a'.repeat(200)), group(`${'a'.repeat(200)}b`)], parsed.filter).map((g) => g.groupId.length), [201]);
  });

  it('a quoted word is an id, even with a colon', () => {
    assert.deepStrictEqual(ids('"app:orders"'), ['app:orders']);
    assert.deepStrictEqual(ids('orders'), ['orders', 'app:orders']);
  });

  it('by state, with several values meaning any of them, and the rebalancing alias', () => {
    assert.deepStrictEqual(ids('state:empty'), ['payments-us', 'Payments-Audit']);
    assert.deepStrictEqual(ids('state:Stable,dead'), ['payments-eu', 'group-2']);
    assert.deepStrictEqual(ids('state:stable state:dead'), ['payments-eu', 'group-2']);
    assert.deepStrictEqual(ids('state:rebalancing'), ['orders', 'app:orders']);
    assert.deepStrictEqual(ids('state:unknown'), ['group-10']);
  });

  it('by type', () => {
    assert.deepStrictEqual(ids('type:consumer'), ['orders', 'app:orders']);
    assert.deepStrictEqual(ids('type:simple,unknown'), ['group-10', 'group-2']);
  });

  it('by health; a group not evaluated matches no health', () => {
    assert.deepStrictEqual(ids('health:stopped,warning'), ['payments-eu', 'Payments-Audit']);
    assert.deepStrictEqual(ids('health:error'), []);
  });

  it('has lag / no lag; unknown lag matches neither', () => {
    assert.deepStrictEqual(ids('has:lag'), ['payments-eu', 'Payments-Audit', 'group-10', 'app:orders']);
    assert.deepStrictEqual(ids('no:lag'), ['payments-us']);
    assert.deepStrictEqual(ids('has:no-lag'), ['payments-us']);
  });

  it('has members / no members', () => {
    assert.deepStrictEqual(ids('has:members'), ['payments-eu', 'orders', 'app:orders']);
    assert.deepStrictEqual(ids('no:members'), ['payments-us', 'Payments-Audit', 'group-10', 'group-2']);
    assert.deepStrictEqual(ids('has:no-members'), ids('no:members'));
  });

  it('combines every word with AND', () => {
    assert.deepStrictEqual(ids('payments-* state:empty has:lag'), ['Payments-Audit']);
    assert.deepStrictEqual(ids('payments audit'), ['Payments-Audit']);
    assert.deepStrictEqual(ids('type:consumer no:members'), []);
  });

  it('says clearly what is wrong with bad input', () => {
    assert.match(error('stat:stable'), /Unknown filter "stat:stable": use state:, type:, health:, has: or no:/);
    assert.match(error('state:stabel'), /Unknown state "stabel": use empty, .*stable, .*rebalancing/);
    assert.match(error('type:kip848'), /Unknown type "kip848"/);
    assert.match(error('health:red'), /Unknown health "red"/);
    assert.match(error('has:offsets'), /use has:lag, no:lag, has:members or no:members/);
    assert.match(error('state:'), /needs a value/);
    assert.match(error('has:lag no:lag'), /match nothing/);
    assert.match(error('"payments'), /quote is not closed/);
  });

  it('formats back to text that parses to the same filter', () => {
    for (const text of ['payments-* state:stable,empty type:consumer health:stalled has:lag no:members', '"app:orders" "a b" no:lag has:members', '"say \\"hi\\""']) {
      const parsed = parseGroupFilter(text);
      assert.ok(parsed.ok);
      const again = parseGroupFilter(formatGroupFilter(parsed.filter));
      assert.ok(again.ok);
      assert.deepStrictEqual(again.filter, parsed.filter, formatGroupFilter(parsed.filter));
    }
  });

  it('describes the active filter for the view message', () => {
    const parsed = parseGroupFilter('payments-* audit state:stable,empty has:lag no:members');
    assert.ok(parsed.ok);
    const filter: GroupFilter = parsed.filter;
    assert.strictEqual(describeGroupFilter(filter), 'id matches "payments-*", id contains "audit", state Stable or Empty, has lag, no members');
    assert.strictEqual(filterMessage(filter, 1, 7), `Filter: ${describeGroupFilter(filter)} (1 of 7 groups)`);
    assert.strictEqual(filterMessage(EMPTY_GROUP_FILTER, 7, 7), undefined);
  });
});

describe('groupQuery: sort', () => {
  const sorted = (key: GroupSortKey, descending: boolean): string[] => sortGroups(GROUPS, { key, descending }).map((g) => g.groupId);

  it('by name: numbers as numbers, case-insensitive, both directions', () => {
    assert.deepStrictEqual(sorted('name', false), ['app:orders', 'group-2', 'group-10', 'orders', 'Payments-Audit', 'payments-eu', 'payments-us']);
    assert.deepStrictEqual(sorted('name', true), ['payments-us', 'payments-eu', 'Payments-Audit', 'orders', 'group-10', 'group-2', 'app:orders']);
  });

  it('by total lag, unknown lag last in either direction', () => {
    assert.deepStrictEqual(sorted('totalLag', true), ['payments-eu', 'Payments-Audit', 'group-10', 'app:orders', 'payments-us', 'orders', 'group-2']);
    assert.deepStrictEqual(sorted('totalLag', false), ['payments-us', 'app:orders', 'group-10', 'Payments-Audit', 'payments-eu', 'orders', 'group-2']);
  });

  it('by lag in time, missing last', () => {
    assert.deepStrictEqual(sorted('lagInTime', true), ['group-10', 'payments-eu', 'payments-us', 'orders', 'Payments-Audit', 'group-2', 'app:orders']);
    assert.deepStrictEqual(sorted('lagInTime', false).slice(0, 3), ['payments-us', 'payments-eu', 'group-10']);
  });

  it('by state: consuming, rebalancing, idle; Unknown last', () => {
    assert.deepStrictEqual(sorted('state', false), ['payments-eu', 'app:orders', 'orders', 'payments-us', 'Payments-Audit', 'group-2', 'group-10']);
    assert.deepStrictEqual(sorted('state', true), ['group-2', 'payments-us', 'Payments-Audit', 'orders', 'app:orders', 'payments-eu', 'group-10']);
  });

  it('by member count; stable among equals', () => {
    assert.deepStrictEqual(sorted('memberCount', true), ['app:orders', 'payments-eu', 'orders', 'payments-us', 'Payments-Audit', 'group-10', 'group-2']);
    assert.deepStrictEqual(sorted('memberCount', false), ['payments-us', 'Payments-Audit', 'group-10', 'group-2', 'orders', 'payments-eu', 'app:orders']);
  });

  it('does not change its input', () => {
    const before = GROUPS.map((g) => g.groupId);
    sortGroups(GROUPS, { key: 'totalLag', descending: true });
    assert.deepStrictEqual(GROUPS.map((g) => g.groupId), before);
  });

  it('reads a kept sort back, and anything else as the default', () => {
    assert.deepStrictEqual(parseGroupSort({ key: 'lagInTime', descending: true }), { key: 'lagInTime', descending: true });
    for (const bad of [undefined, null, 'name', { key: 'lag', descending: true }, { key: 'name' }, { key: 'name', descending: 'yes' }]) {
      assert.deepStrictEqual(parseGroupSort(bad), DEFAULT_GROUP_SORT);
    }
  });

  it('queries: filter then sort', () => {
    const parsed = parseGroupFilter('has:lag');
    assert.ok(parsed.ok);
    assert.deepStrictEqual(queryGroups(GROUPS, parsed.filter, { key: 'totalLag', descending: false }).map((g) => g.groupId),
      ['app:orders', 'group-10', 'Payments-Audit', 'payments-eu']);
  });
});
