/**
 * Regex subscriptions as Kafka 4.4 reads them: RE2/J syntax (com.google.re2j.Pattern), matched against
 * the whole topic name (Pattern.matcher(topic).matches()). RE2 refuses what needs backtracking
 * (lookaround, backreferences, possessive quantifiers, atomic groups) and a few Perl escapes; those are
 * refused here with RE2/J's own error descriptions, and the rest is translated to a JavaScript RegExp.
 */
import { errorMessage } from '../../protocol/errors';
import { KafkaApiError } from './errors';

/** What RE2/J's parser says about a construct it refuses (PatternSyntaxException.getDescription()). */
function re2Refusal(regex: string): string | undefined {
  const perl = /\(\?(?:=|!|<=|<!|>|#)/.exec(regex);
  if (perl !== null) {
    return `invalid or unsupported Perl syntax: \`${perl[0]}\``;
  }
  const escape = /\\(?:[1-9]|[ZGXRKHVhkgLlNUu])/.exec(regex);
  if (escape !== null) {
    return `invalid escape sequence: \`${escape[0]}\``;
  }
  const nested = /(?:[*+?]|\{\d+(?:,\d*)?\})(?:[*+]|\{\d+(?:,\d*)?\})/.exec(regex);
  if (nested !== null && !/\\$/.test(regex.slice(0, nested.index))) {
    return `invalid nested repetition operator: \`${nested[0]}\``;
  }
  for (const count of regex.matchAll(/\{(\d+)(?:,(\d*))?\}/g)) {
    if (Number(count[1]) > 1000 || (count[2] !== undefined && count[2] !== '' && Number(count[2]) > 1000)) {
      return `invalid repeat count: \`${count[0]}\``;
    }
  }
  return undefined;
}

/**
 * A quantified group that itself holds a quantifier ("(a+)+", "(x.*)*"): RE2 matches it in linear time,
 * JavaScript's backtracking engine can take exponential time on a topic name. Since the regex comes from a
 * client, the simulator refuses these (a deviation from Kafka, which accepts them); the position of the group.
 */
function nestedQuantifier(regex: string): number | undefined {
  const open: Array<{ at: number; quantified: boolean }> = [];
  let inClass = false;
  for (let i = 0; i < regex.length; i++) {
    const char = regex[i];
    if (char === '\\') {
      i++;
    } else if (inClass) {
      inClass = char !== ']';
    } else if (char === '[') {
      inClass = true;
    } else if (char === '(') {
      open.push({ at: i, quantified: false });
    } else if (char === ')') {
      const group = open.pop();
      const next = regex[i + 1];
      if (group?.quantified === true && (next === '*' || next === '+' || next === '{')) {
        return group.at;
      }
      if (group?.quantified === true && open.length > 0) {
        open[open.length - 1].quantified = true;
      }
    } else if ((char === '*' || char === '+' || char === '{') && open.length > 0) {
      open[open.length - 1].quantified = true;
    }
  }
  return undefined;
}

/** RE2 syntax that JavaScript spells differently: (?P<name>…), \A, \z, \Q…\E, leading (?flags). */
function toJavaScript(regex: string): { source: string; flags: string } {
  let source = regex;
  let flags = '';
  const leading = /^\(\?([imsU]+)\)/.exec(source);
  if (leading !== null) {
    source = source.slice(leading[0].length);
    flags = [...new Set(leading[1].replace('U', ''))].join('');
  }
  source = source
    .replace(/\\Q([\s\S]*?)(?:\\E|$)/g, (_match, literal: string) => literal.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
    .replace(/\(\?P</g, '(?<')
    .replace(/\\A/g, '^')
    .replace(/\\z/g, '$');
  return { source, flags };
}

/** Compiles a subscription regex as Kafka does, or throws INVALID_REGULAR_EXPRESSION with Kafka's message. */
export function compileTopicRegex(regex: string): RegExp {
  const fail = (description: string): never => {
    throw new KafkaApiError('INVALID_REGULAR_EXPRESSION', `SubscribedTopicRegex \`${regex}\` is not a valid regular expression: ${description}.`);
  };
  const refusal = re2Refusal(regex);
  if (refusal !== undefined) {
    fail(refusal);
  }
  const nested = nestedQuantifier(regex);
  if (nested !== undefined) {
    fail(`the simulator refuses a repeated group that repeats inside (at ${nested}): JavaScript could take exponential time to match it`);
  }
  const { source, flags } = toJavaScript(regex);
  try {
    return new RegExp(`^(?:${source})$`, flags);
  } catch (error) {
    return fail(errorMessage(error).replace(/^Invalid regular expression: /, ''));
  }
}

/** Kafka's internal topics (Topic.isInternal), which a regex never matches. */
const INTERNAL_TOPICS = new Set(['__consumer_offsets', '__transaction_state', '__share_group_state']);

/** The topic names a regex matches (internal topics excluded, as Kafka's resolver skips them). */
export function resolveTopicRegex(pattern: RegExp, topicNames: Iterable<string>): Set<string> {
  const matched = new Set<string>();
  for (const name of topicNames) {
    if (!INTERNAL_TOPICS.has(name) && pattern.test(name)) {
      matched.add(name);
    }
  }
  return matched;
}
