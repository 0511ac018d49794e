/** A range of versions, inclusive at both ends, as Kafka's specs write "3-5" or "3+" (hi 32767). */
export interface VersionRange {
  readonly lo: number;
  readonly hi: number;
}

export function inRange(range: VersionRange | null, version: number): boolean {
  return range !== null && version >= range.lo && version <= range.hi;
}
