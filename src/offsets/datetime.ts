/**
 * --to-datetime parsing, as org.apache.kafka.common.utils.Utils.getDateTime (Kafka 4.0) does it:
 *  1. The text must contain a 'T'. If the part after the first 'T' holds none of '+', '-', 'Z', "Z" is appended,
 *     so a time without a zone is UTC.
 *  2. A non-lenient SimpleDateFormat tries "yyyy-MM-dd'T'HH:mm:ss.SSSXXX" (zone Z or ±HH:mm), then
 *     "yyyy-MM-dd'T'HH:mm:ss.SSSX" (zone Z or ±HH).
 * Consequences that surprise people, all kept here:
 *  - Milliseconds are required: "2024-01-01T00:00:00Z" is rejected ("Unparseable date").
 *  - SSS is a count of milliseconds, not a fraction: ".5" means 5 ms, ".1234" is out of range.
 *  - Numeric fields take any number of digits ("2024-1-5T3:04:05.007" parses).
 *  - DateFormat.parse ignores text after the zone, so "+0230" parses as "+02" and drops the "30"
 *    (reported here as a warning rather than silently); likewise "-13:30", out of the calendar's
 *    -13:00..+14:00 zone range for XXX, falls to X and reads as "-13".
 *  - Blanks before each numeric field and before the zone are skipped.
 */
import { javaSplit } from './topicPartitions';

export type DatetimeParse = { ok: true; timestampMs: number; warnings: string[] } | { ok: false; error: string };

// SimpleDateFormat skips blanks (space, tab) before every field, but not before literals.
const DATE_TIME = /^[ \t]*(\d+)-[ \t]*(\d+)-[ \t]*(\d+)T[ \t]*(\d+):[ \t]*(\d+):[ \t]*(\d+)\.[ \t]*(\d+)[ \t]*/;
// A non-lenient Calendar accepts ZONE_OFFSET from -13:00 to +14:00.
const MIN_ZONE_MINUTES = -13 * 60;
const MAX_ZONE_MINUTES = 14 * 60;
const PATTERN_HINT =
  "expected yyyy-MM-dd'T'HH:mm:ss.SSS with an optional zone Z, ±HH:mm or ±HH, e.g. 2024-05-01T08:30:00.000 (UTC) or 2024-05-01T08:30:00.000+02:00; the milliseconds are required";

interface ZoneMatch {
  offsetMinutes: number;
  length: number;
}

/** SimpleDateFormat's ISO zone ('X' letters): Z, or ±HH:mm for XXX, or ±HH for X. */
function matchZone(rest: string, withMinutes: boolean): ZoneMatch | null {
  if (rest.startsWith('Z')) {
    return { offsetMinutes: 0, length: 1 };
  }
  const match = withMinutes ? /^([+-])(\d\d):(\d\d)/.exec(rest) : /^([+-])(\d\d)/.exec(rest);
  if (!match) {
    return null;
  }
  const hours = Number(match[2]);
  const minutes = withMinutes ? Number(match[3]) : 0;
  const offsetMinutes = (match[1] === '-' ? -1 : 1) * (hours * 60 + minutes);
  if (hours > 23 || minutes > 59 || offsetMinutes < MIN_ZONE_MINUTES || offsetMinutes > MAX_ZONE_MINUTES) {
    return null;
  }
  return { offsetMinutes, length: match[0].length };
}

function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
}

/** Epoch milliseconds of the local fields, or null when a non-lenient calendar would reject a field. */
function utcMillis(fields: number[]): number | null {
  const [year, month, day, hour, minute, second, millis] = fields;
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    return null;
  }
  if (hour > 23 || minute > 59 || second > 59 || millis > 999) {
    return null;
  }
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, millis);
  const time = date.getTime();
  return Number.isFinite(time) ? time : null;
}

export function parseResetDatetime(text: string): DatetimeParse {
  const parts = javaSplit(text, 'T');
  if (parts.length < 2) {
    return { ok: false, error: "Error parsing timestamp. It does not contain a 'T' according to ISO8601 format" };
  }
  const timePart = parts[1];
  const withZone = /[+\-Z]/.test(timePart) ? text : `${text}Z`;
  const unparseable = `Unparseable date: "${withZone}" (${PATTERN_HINT})`;

  const dateTime = DATE_TIME.exec(withZone);
  if (!dateTime) {
    return { ok: false, error: unparseable };
  }
  const rest = withZone.slice(dateTime[0].length);
  const zone = matchZone(rest, true) ?? matchZone(rest, false);
  if (!zone) {
    return { ok: false, error: unparseable };
  }
  const local = utcMillis(dateTime.slice(1, 8).map(Number));
  if (local === null) {
    return { ok: false, error: `${unparseable}: a field is out of range` };
  }
  const timestampMs = local - zone.offsetMinutes * 60_000;
  if (timestampMs < 0) {
    // ListOffsets reads negative timestamps as special requests (-1 latest, -2 earliest), so a date before the
    // epoch would not mean what it says.
    return { ok: false, error: `The datetime "${text}" is before 1970-01-01T00:00:00.000Z; Kafka record timestamps start at the epoch` };
  }
  const ignored = rest.slice(zone.length);
  const warnings = ignored
    ? [`kafka-consumer-groups.sh ignores "${ignored}" after the zone of "${text}"; the datetime is read as ${new Date(timestampMs).toISOString()}`]
    : [];
  return { ok: true, timestampMs, warnings };
}
