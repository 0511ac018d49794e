// Kafka's version ranges ("none", "3", "3+", "3-5"), as in org.apache.kafka.message.Versions.
const MAX_VERSION = 32767;

/** Parses a version range; null is the empty range ("none"). */
function parseVersions(text, what) {
  if (text === undefined || text === 'none') {
    return null;
  }
  const match = /^(\d+)(\+|-(\d+))?$/.exec(String(text).trim());
  if (!match) {
    throw new Error(`${what}: bad version range ${JSON.stringify(text)}`);
  }
  const lo = Number(match[1]);
  const hi = match[2] === '+' ? MAX_VERSION : match[3] !== undefined ? Number(match[3]) : lo;
  return { lo, hi };
}

function intersect(a, b) {
  if (a === null || b === null) {
    return null;
  }
  const lo = Math.max(a.lo, b.lo);
  const hi = Math.min(a.hi, b.hi);
  return lo <= hi ? { lo, hi } : null;
}

/** A TypeScript condition on `v` that holds for the versions of `range` among those of `context`. */
function versionCondition(range, context) {
  const within = intersect(range, context);
  if (within === null) {
    return 'false';
  }
  const parts = [];
  if (within.lo > context.lo) {
    parts.push(`v >= ${within.lo}`);
  }
  if (within.hi < context.hi) {
    parts.push(`v <= ${within.hi}`);
  }
  return parts.length === 0 ? 'true' : parts.join(' && ');
}

module.exports = { MAX_VERSION, parseVersions, intersect, versionCondition };
