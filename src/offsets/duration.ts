/**
 * --by-duration parsing with java.time.Duration.parse semantics (JDK 17+), and the CLI's timestamp arithmetic.
 * Accepted: [-+]P[nD][T[nH][nM][n[.fffffffff]S]], case-insensitive, each number signed, a ',' or '.' before up to
 * nine fraction digits of seconds. "P", "PT", weeks, months and years are rejected.
 * The CLI then takes Instant.now().minus(duration).toEpochMilli(), i.e. the floor in milliseconds; a negative
 * duration therefore points into the future, where no record exists, and every partition falls back to the LEO.
 */

export type DurationParse = { ok: true; nanos: bigint } | { ok: false; error: string };

const DURATION = /^([-+]?)P(?:([-+]?[0-9]+)D)?(T(?:([-+]?[0-9]+)H)?(?:([-+]?[0-9]+)M)?(?:([-+]?[0-9]+)(?:[.,]([0-9]{0,9}))?S)?)?$/i;

const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;
const NANOS_PER_SECOND = 1_000_000_000n;
const NANOS_PER_MILLI = 1_000_000n;

function fitsLong(value: bigint): boolean {
  return value >= LONG_MIN && value <= LONG_MAX;
}

function invalid(text: string, reason?: string): DurationParse {
  const javaMessage = reason ? `Text cannot be parsed to a Duration: ${reason}` : 'Text cannot be parsed to a Duration';
  return { ok: false, error: `${javaMessage} ('${text}'; expected ISO-8601 PnDTnHnMn.nS such as PT30M, P1DT2H, PT0.5S or -PT10M)` };
}

/** Seconds of one section (Math.multiplyExact(Long.parseLong(n), unit)), or a reason it overflows. */
function sectionSeconds(number: string | undefined, unitSeconds: bigint, name: string): bigint | string {
  if (number === undefined) {
    return 0n;
  }
  const value = BigInt(number);
  if (!fitsLong(value) || !fitsLong(value * unitSeconds)) {
    return name;
  }
  return value * unitSeconds;
}

export function parseJavaDuration(text: string): DurationParse {
  const match = DURATION.exec(text);
  // A bare "T" with no time section is rejected by Duration.parse.
  if (!match || match[3]?.toUpperCase() === 'T') {
    return invalid(text);
  }
  const [, sign, days, , hours, minutes, seconds, fraction] = match;
  if (days === undefined && hours === undefined && minutes === undefined && seconds === undefined) {
    return invalid(text);
  }
  const sections: Array<[string | undefined, bigint, string]> = [
    [days, 86_400n, 'days'],
    [hours, 3_600n, 'hours'],
    [minutes, 60n, 'minutes'],
    [seconds, 1n, 'seconds'],
  ];
  const sectionValues: bigint[] = [];
  for (const [number, unit, name] of sections) {
    const value = sectionSeconds(number, unit, name);
    if (typeof value === 'string') {
      return invalid(text, value);
    }
    sectionValues.push(value);
  }
  // Java adds with Math.addExact from the seconds outwards: days + (hours + (minutes + seconds)).
  let totalSeconds = 0n;
  for (const value of sectionValues.reverse()) {
    totalSeconds += value;
    if (!fitsLong(totalSeconds)) {
      return invalid(text, 'overflow');
    }
  }
  // The fraction takes the sign of the seconds text, so "PT-0.5S" is minus half a second.
  const fractionSign = seconds?.startsWith('-') ? -1n : 1n;
  const fractionNanos = fraction ? BigInt(fraction.padEnd(9, '0')) * fractionSign : 0n;
  let nanos = totalSeconds * NANOS_PER_SECOND + fractionNanos;
  if (sign === '-') {
    nanos = -nanos;
  }
  return { ok: true, nanos };
}

function floorDiv(a: bigint, b: bigint): bigint {
  const quotient = a / b;
  return (a % b !== 0n && a < 0n !== b < 0n) ? quotient - 1n : quotient;
}

/** The CLI's now.minus(duration).toEpochMilli(), with now in epoch milliseconds. */
export function timestampBefore(nowMs: number, durationNanos: bigint): number {
  return Number(floorDiv(BigInt(nowMs) * NANOS_PER_MILLI - durationNanos, NANOS_PER_MILLI));
}
