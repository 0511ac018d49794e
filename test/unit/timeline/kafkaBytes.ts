/** Byte builders for tests: each writes one Kafka wire primitive exactly as the protocol spells it. */

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}

export function i16(value: number): Uint8Array {
  const out = new Uint8Array(2);
  new DataView(out.buffer).setInt16(0, value);
  return out;
}

export function i32(value: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setInt32(0, value);
  return out;
}

export function i64(value: number): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigInt64(0, BigInt(value));
  return out;
}

export function uvarint(value: number): Uint8Array {
  const out: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    out.push((rest & 0x7f) | 0x80);
    rest = Math.floor(rest / 128);
  }
  out.push(rest);
  return Uint8Array.from(out);
}

const utf8 = new TextEncoder();

/** STRING, or a null STRING (length -1). */
export function str(value: string | null): Uint8Array {
  if (value === null) {
    return i16(-1);
  }
  const body = utf8.encode(value);
  return concat(i16(body.byteLength), body);
}

/** COMPACT_STRING, or a null one (length+1 = 0). */
export function cstr(value: string | null): Uint8Array {
  if (value === null) {
    return uvarint(0);
  }
  const body = utf8.encode(value);
  return concat(uvarint(body.byteLength + 1), body);
}

export function bytes(value: Uint8Array | null): Uint8Array {
  return value === null ? i32(-1) : concat(i32(value.byteLength), value);
}

export function cbytes(value: Uint8Array): Uint8Array {
  return concat(uvarint(value.byteLength + 1), value);
}

/** A ConsumerProtocolAssignment (v0 layout: version, [topic, [partition]], userData). */
export function consumerAssignment(partitions: Record<string, number[]>, version = 0): Uint8Array {
  const topics = Object.entries(partitions);
  return concat(
    i16(version),
    i32(topics.length),
    ...topics.map(([topic, ps]) => concat(str(topic), i32(ps.length), ...ps.map(i32))),
    bytes(null),
  );
}

/** A ConsumerProtocolSubscription v0 (version, [topic], userData). */
export function consumerSubscriptionV0(topics: string[]): Uint8Array {
  return concat(i16(0), i32(topics.length), ...topics.map(str), bytes(null));
}

/** A `__consumer_offsets` GroupMetadataKey (key version 2). */
export function groupMetadataKey(group: string): Uint8Array {
  return concat(i16(2), str(group));
}

/** A GroupMetadataValue v3 of a consumer group with one member per [memberId, partitions of `topic`] pair. */
export function groupMetadataValueV3(generation: number, members: Array<[string, number[]]>, topic = 'orders'): Uint8Array {
  return concat(
    i16(3),
    str('consumer'),
    i32(generation),
    str(members.length > 0 ? 'range' : null),
    str(members[0]?.[0] ?? null),
    i64(1_700_000_000_000 + generation),
    i32(members.length),
    ...members.map(([memberId, partitions]) =>
      concat(str(memberId), str(null), str('client'), str('/10.0.0.1'), i32(300000), i32(45000), bytes(consumerSubscriptionV0([topic])), bytes(consumerAssignment({ [topic]: partitions }))),
    ),
  );
}
