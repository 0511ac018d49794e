/**
 * Finding and ordering groups in the view: the filter a user types, parsed, applied and described, and the sort.
 * Pure functions over `GroupSummary` (no `vscode` here), so the tree, the status bar and the "Find Group…" pick share
 * them and the tests cover every filter and sort.
 *
 * Filter syntax (words separated by spaces; every word must match, AND):
 *  - `payments-*`, `order?`: a glob over the whole group id (`*` any run, `?` one character), case-insensitive;
 *  - `orders`: a substring of the group id, case-insensitive; `"a b"` or `"app:orders"` quotes one with spaces or `:`;
 *  - `state:stable,empty`: one of these states (`rebalancing` = PreparingRebalance, CompletingRebalance, Assigning,
 *    Reconciling); `type:classic|consumer|share|streams|simple|unknown`; `health:ok|warning|stalled|stopped|rewind|error`;
 *    several values of one key, or the key written twice, mean any of them (OR);
 *  - `has:lag` (total lag > 0), `no:lag` (total lag 0), `has:members`, `no:members` (aliases `has:no-lag`,
 *    `has:no-members`). A group whose lag is unknown matches neither `has:lag` nor `no:lag`.
 */
import { GROUP_STATES, type GroupState, type GroupSummary, type LagHealthStatus } from '../model/types';

export type GroupType = GroupSummary['groupType'];

export interface GroupFilter {
  /** Globs (with `*` or `?`) or substrings over the group id, all of which must match. */
  idPatterns: string[];
  /** Any of these states; empty means any state. */
  states: GroupState[];
  types: GroupType[];
  health: LagHealthStatus[];
  /** `true`: total lag > 0; `false`: total lag 0; null: either. */
  hasLag: boolean | null;
  /** `true`: at least one member; `false`: none; null: either. */
  hasMembers: boolean | null;
}

export const EMPTY_GROUP_FILTER: Readonly<GroupFilter> = {
  idPatterns: [], states: [], types: [], health: [], hasLag: null, hasMembers: null,
};

export type GroupFilterParse = { ok: true; filter: GroupFilter } | { ok: false; error: string };

const STATES = GROUP_STATES;
const REBALANCING: readonly GroupState[] = ['PreparingRebalance', 'CompletingRebalance', 'Assigning', 'Reconciling'];
const TYPES: readonly GroupType[] = ['classic', 'consumer', 'share', 'streams', 'simple', 'unknown'];
const HEALTH: readonly LagHealthStatus[] = ['OK', 'WARNING', 'STALLED', 'STOPPED', 'REWIND', 'ERROR'];

/** Splits on spaces, keeping `"quoted runs"` (with `\"` and `\\` escapes) as one word; null on an unclosed quote. */
function words(text: string): Array<{ word: string; quoted: boolean }> | null {
  const result: Array<{ word: string; quoted: boolean }> = [];
  let i = 0;
  while (i < text.length) {
    if (/\s/.test(text[i])) {
      i++;
      continue;
    }
    let word = '';
    let quoted = false;
    while (i < text.length && !/\s/.test(text[i])) {
      if (text[i] === '"') {
        quoted = true;
        i++;
        while (i < text.length && text[i] !== '"') {
          word += text[i] === '\\' && i + 1 < text.length ? text[++i] : text[i];
          i++;
        }
        if (i >= text.length) {
          return null;
        }
        i++;
      } else {
        word += text[i++];
      }
    }
    result.push({ word, quoted });
  }
  return result;
}

function pick<T extends string>(key: string, value: string, known: readonly T[], aliases: Record<string, readonly T[]> = {}): T[] | string {
  const chosen: T[] = [];
  for (const part of value.split(',')) {
    const lower = part.toLowerCase();
    const found = aliases[lower] ?? known.filter((k) => k.toLowerCase() === lower);
    if (found.length === 0) {
      return `Unknown ${key} "${part}": use ${[...known, ...Object.keys(aliases)].map((k) => k.toLowerCase()).join(', ')}`;
    }
    chosen.push(...found.filter((f) => !chosen.includes(f)));
  }
  return chosen;
}

const PRESENCE: Record<string, { what: 'lag' | 'members'; present: boolean }> = {
  'has:lag': { what: 'lag', present: true }, 'no:lag': { what: 'lag', present: false }, 'has:no-lag': { what: 'lag', present: false },
  'has:members': { what: 'members', present: true }, 'no:members': { what: 'members', present: false }, 'has:no-members': { what: 'members', present: false },
};

/** Parses what the user typed; an error names the word at fault and what would be accepted. */
export function parseGroupFilter(text: string): GroupFilterParse {
  const list = words(text);
  if (list === null) {
    return { ok: false, error: 'A quote is not closed: end the quoted group id with "' };
  }
  const filter: GroupFilter = { ...EMPTY_GROUP_FILTER, idPatterns: [], states: [], types: [], health: [] };
  for (const { word, quoted } of list) {
    const colon = word.indexOf(':');
    if (quoted || colon < 0) {
      if (word !== '') {
        filter.idPatterns.push(word);
      }
      continue;
    }
    const key = word.slice(0, colon).toLowerCase();
    const value = word.slice(colon + 1);
    if (value === '') {
      return { ok: false, error: `"${word}" needs a value after the colon` };
    }
    const presence = PRESENCE[`${key}:${value.toLowerCase()}`];
    let chosen: string[] | string;
    if (presence !== undefined) {
      const field = presence.what === 'lag' ? 'hasLag' : 'hasMembers';
      if (filter[field] === !presence.present) {
        return { ok: false, error: `has:${presence.what} and no:${presence.what} together match nothing` };
      }
      filter[field] = presence.present;
      continue;
    } else if (key === 'state') {
      chosen = pick('state', value, STATES, { rebalancing: REBALANCING });
      if (typeof chosen !== 'string') {
        filter.states.push(...(chosen as GroupState[]).filter((s) => !filter.states.includes(s)));
      }
    } else if (key === 'type') {
      chosen = pick('type', value, TYPES);
      if (typeof chosen !== 'string') {
        filter.types.push(...(chosen as GroupType[]).filter((t) => !filter.types.includes(t)));
      }
    } else if (key === 'health') {
      chosen = pick('health', value, HEALTH);
      if (typeof chosen !== 'string') {
        filter.health.push(...(chosen as LagHealthStatus[]).filter((h) => !filter.health.includes(h)));
      }
    } else if (key === 'has' || key === 'no') {
      return { ok: false, error: `Unknown filter "${word}": use has:lag, no:lag, has:members or no:members` };
    } else {
      return { ok: false, error: `Unknown filter "${word}": use state:, type:, health:, has: or no:, or quote a group id that contains ":"` };
    }
    if (typeof chosen === 'string') {
      return { ok: false, error: chosen };
    }
  }
  return { ok: true, filter };
}

export function isFilterActive(filter: Readonly<GroupFilter>): boolean {
  return filter.idPatterns.length > 0 || filter.states.length > 0 || filter.types.length > 0 || filter.health.length > 0
    || filter.hasLag !== null || filter.hasMembers !== null;
}

function isGlob(pattern: string): boolean {
  return pattern.includes('*') || pattern.includes('?');
}

/**
 * Whether `text` matches the glob `pattern` as a whole (`*` any run, `?` one character), both as code points. The
 * classic two-pointer walk that backtracks only to the last `*`: O(pattern × text), where a regular expression of
 * many `*` backtracks exponentially on an id that almost matches.
 */
export function globMatches(pattern: readonly string[], text: readonly string[]): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < text.length) {
    if (p < pattern.length && (pattern[p] === '?' || (pattern[p] !== '*' && pattern[p] === text[t]))) {
      p++;
      t++;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      resume = t;
    } else if (star >= 0) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === '*') {
    p++;
  }
  return p === pattern.length;
}

/** A matcher for one id pattern: a whole-id glob or a substring, case-insensitive. */
function idMatcher(pattern: string): (groupId: string) => boolean {
  const lower = pattern.toLowerCase();
  if (isGlob(pattern)) {
    const glob = Array.from(lower);
    return (groupId) => globMatches(glob, Array.from(groupId.toLowerCase()));
  }
  return (groupId) => groupId.toLowerCase().includes(lower);
}

/** A predicate for the filter, compiled once for a whole list. */
export function groupMatcher(filter: Readonly<GroupFilter>): (group: GroupSummary) => boolean {
  const ids = filter.idPatterns.map(idMatcher);
  return (group) => ids.every((matches) => matches(group.groupId))
    && (filter.states.length === 0 || filter.states.includes(group.state))
    && (filter.types.length === 0 || filter.types.includes(group.groupType))
    && (filter.health.length === 0 || (group.health !== undefined && filter.health.includes(group.health.status)))
    && (filter.hasLag === null || (group.totalLag !== null && (group.totalLag > 0) === filter.hasLag))
    && (filter.hasMembers === null || (group.memberCount > 0) === filter.hasMembers);
}

export function filterGroups<T extends GroupSummary>(groups: readonly T[], filter: Readonly<GroupFilter>): T[] {
  return isFilterActive(filter) ? groups.filter(groupMatcher(filter)) : [...groups];
}

function quoteIfNeeded(pattern: string): string {
  return /[\s":]/.test(pattern) || pattern === '' ? `"${pattern.replace(/[\\"]/g, '\\$&')}"` : pattern;
}

/** The filter as text that parses back to it (for the input box and for keeping it per workspace). */
export function formatGroupFilter(filter: Readonly<GroupFilter>): string {
  const parts = filter.idPatterns.map(quoteIfNeeded);
  const list = (key: string, values: readonly string[]): void => {
    if (values.length > 0) {
      parts.push(`${key}:${values.map((v) => v.toLowerCase()).join(',')}`);
    }
  };
  list('state', filter.states);
  list('type', filter.types);
  list('health', filter.health);
  if (filter.hasLag !== null) {
    parts.push(filter.hasLag ? 'has:lag' : 'no:lag');
  }
  if (filter.hasMembers !== null) {
    parts.push(filter.hasMembers ? 'has:members' : 'no:members');
  }
  return parts.join(' ');
}

/** Human words for the view's message: `id matches "payments-*", state Stable or Empty, has lag`. */
export function describeGroupFilter(filter: Readonly<GroupFilter>): string {
  const parts = filter.idPatterns.map((p) => (isGlob(p) ? `id matches "${p}"` : `id contains "${p}"`));
  const any = (label: string, values: readonly string[]): void => {
    if (values.length > 0) {
      parts.push(`${label} ${values.join(' or ')}`);
    }
  };
  any('state', filter.states);
  any('type', filter.types);
  any('health', filter.health);
  if (filter.hasLag !== null) {
    parts.push(filter.hasLag ? 'has lag' : 'no lag');
  }
  if (filter.hasMembers !== null) {
    parts.push(filter.hasMembers ? 'has members' : 'no members');
  }
  return parts.join(', ');
}

/** The view's message while a filter is active (undefined when none is): `Filter: has lag (12 of 340 groups)`. */
export function filterMessage(filter: Readonly<GroupFilter>, shown: number, total: number): string | undefined {
  if (!isFilterActive(filter)) {
    return undefined;
  }
  return `Filter: ${describeGroupFilter(filter)} (${shown} of ${total} ${total === 1 ? 'group' : 'groups'})`;
}

export type GroupSortKey = 'name' | 'totalLag' | 'lagInTime' | 'state' | 'memberCount';

export interface GroupSort {
  key: GroupSortKey;
  descending: boolean;
}

export const GROUP_SORT_KEYS: readonly GroupSortKey[] = ['name', 'totalLag', 'lagInTime', 'state', 'memberCount'];

export const GROUP_SORT_LABELS: Readonly<Record<GroupSortKey, string>> = {
  name: 'Name', totalLag: 'Total lag', lagInTime: 'Lag in time', state: 'State', memberCount: 'Member count',
};

/** The direction a key is first sorted in: the largest lag or member count first, names and states A to Z. */
export function defaultSortFor(key: GroupSortKey): GroupSort {
  return { key, descending: key === 'totalLag' || key === 'lagInTime' || key === 'memberCount' };
}

export const DEFAULT_GROUP_SORT: Readonly<GroupSort> = defaultSortFor('name');

/** A sort read back from workspace state: anything that is not one is the default, never an error. */
export function parseGroupSort(value: unknown): GroupSort {
  if (typeof value === 'object' && value !== null) {
    const { key, descending } = value as { key?: unknown; descending?: unknown };
    if (typeof key === 'string' && (GROUP_SORT_KEYS as readonly string[]).includes(key) && typeof descending === 'boolean') {
      return { key: key as GroupSortKey, descending };
    }
  }
  return { ...DEFAULT_GROUP_SORT };
}

/** State order: the consuming state first, then the rebalancing ones, then idle; Unknown counts as missing. */
const STATE_RANK: Readonly<Record<GroupState, number | null>> = {
  Stable: 0, Reconciling: 1, Assigning: 2, CompletingRebalance: 3, PreparingRebalance: 4, NotReady: 5, Empty: 6, Dead: 7, Unknown: null,
};

const NAME_COLLATOR = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** The value a group sorts by; null (missing) sorts last in either direction. */
function sortValue(group: GroupSummary, key: Exclude<GroupSortKey, 'name'>): number | null {
  switch (key) {
    case 'totalLag':
      return group.totalLag;
    case 'lagInTime':
      return group.maxLagInTimeMs ?? null;
    case 'state':
      return STATE_RANK[group.state] ?? null;
    case 'memberCount':
      return group.memberCount;
  }
}

/**
 * A sorted copy. Stable: groups that compare equal keep their order. Names compare with numbers as numbers
 * (`group-2` before `group-10`) and without case; missing values (unknown lag, no lag in time, Unknown state) go last.
 */
export function sortGroups<T extends GroupSummary>(groups: readonly T[], sort: Readonly<GroupSort>): T[] {
  const sign = sort.descending ? -1 : 1;
  if (sort.key === 'name') {
    return [...groups].sort((a, b) => sign * NAME_COLLATOR.compare(a.groupId, b.groupId));
  }
  const key = sort.key;
  const keyed = groups.map((group) => ({ group, value: sortValue(group, key) }));
  keyed.sort((a, b) => {
    if (a.value === null || b.value === null) {
      return a.value === b.value ? 0 : a.value === null ? 1 : -1;
    }
    return sign * (a.value - b.value);
  });
  return keyed.map(({ group }) => group);
}

/** Filter, then sort: what the view shows. */
export function queryGroups<T extends GroupSummary>(groups: readonly T[], filter: Readonly<GroupFilter>, sort: Readonly<GroupSort>): T[] {
  return sortGroups(filterGroups(groups, filter), sort);
}
