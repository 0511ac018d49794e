/**
 * The isolation level of a real cluster's groups comes from the user: a broker never learns a
 * consumer's isolation.level (it is a Fetch field, not a group one). Groups are named by id or by a
 * glob where `*` stands for any run of characters and `?` for one character.
 */
export type IsolationLevel = 'read_uncommitted' | 'read_committed';

export type IsolationLevelLookup = (groupId: string) => IsolationLevel;

function globToRegExp(pattern: string): RegExp {
  const body = [...pattern].map((ch) => (ch === '*' ? '.*' : ch === '?' ? '.' : ch.replace(/[.+^${}()|[\]\\]/g, '\\$&'))).join('');
  return new RegExp(`^${body}$`, 's');
}

/** True when the group id matches the pattern (a plain id matches only itself). */
export function groupMatches(pattern: string, groupId: string): boolean {
  return globToRegExp(pattern).test(groupId);
}

/**
 * Checks the setting's value (an array of non-empty strings) and builds the lookup: groups any
 * pattern matches are read_committed, the rest read_uncommitted (the consumer default).
 */
export function readCommittedLookup(patterns: unknown): IsolationLevelLookup {
  if (!Array.isArray(patterns)) {
    throw new Error(`expected an array of group ids or patterns, got ${patterns === null ? 'null' : typeof patterns}`);
  }
  const bad = patterns.findIndex((p) => typeof p !== 'string' || p === '');
  if (bad >= 0) {
    throw new Error(`entry ${bad + 1} must be a non-empty group id or pattern, got ${JSON.stringify(patterns[bad]) ?? String(patterns[bad])}`);
  }
  const matchers = (patterns as string[]).map(globToRegExp);
  return (groupId) => (matchers.some((m) => m.test(groupId)) ? 'read_committed' : 'read_uncommitted');
}
